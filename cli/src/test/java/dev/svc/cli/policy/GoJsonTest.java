package dev.svc.cli.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GoJsonTest {

  @Test
  void compact_json_is_indented_as_go_indents_it_leaving_strings_and_numbers_alone() {
    String compact = "{\"a\":[],\"b\":{},\"c\":[1,2.50,1e+21],\"d\":{\"e\":\"x, {y}: [z] \\\" \\u003c\"}}";

    assertThat(GoJson.indent(compact)).isEqualTo("""
        {
          "a": [],
          "b": {},
          "c": [
            1,
            2.50,
            1e+21
          ],
          "d": {
            "e": "x, {y}: [z] \\" \\u003c"
          }
        }
        """);
  }

  @Test
  void strings_are_escaped_the_go_way() {
    assertThat(GoJson.quote("<a> & \"b\"\\\n\t\b\f\u0001\u2028"))
        .isEqualTo("\"\\u003ca\\u003e \\u0026 \\\"b\\\"\\\\\\n\\t\\b\\f\\u0001\\u2028\"");
  }
}
