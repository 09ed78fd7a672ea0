package dev.svc.cli.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class YamlTest {

  @Test
  void records_nest_in_block_style_with_sequences_indented_under_their_key() {
    String json = "[{\"a\":1,\"b\":[\"x\",{\"c\":true,\"d\":null}],\"e\":{},\"f\":[],\"g\":[[1,2]]}]";

    assertThat(Yaml.fromJson(json)).isEqualTo("""
        - a: 1
          b:
            - x
            - c: true
              d: null
          e: {}
          f: []
          g:
            - - 1
              - 2
        """);
  }

  @Test
  void text_of_several_lines_is_a_literal_block() {
    assertThat(Yaml.fromJson("{\"s\":\"one\\n\\ntwo\",\"t\":\"end\\n\"}")).isEqualTo("s: |-\n  one\n\n  two\nt: |\n  end\n");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "plain text                 | plain text",
      "unknown field \"x\"        | unknown field \"x\"",
      "did you mean \"x\"? a: b   | 'did you mean \"x\"? a: b'",
      "it's: here                 | 'it''s: here'",
      "true                       | \"true\"",
      "yes                        | \"yes\"",
      "42                         | \"42\"",
      "1.5                        | \"1.5\"",
      "null                       | \"null\"",
      "<stdin>                    | <stdin>",
      "- item                     | '- item'",
      "#tag                       | '#tag'",
      "a #b                       | 'a #b'",
      "`tab\there`                | \"tab\\there\"",
      "order.amount <= 100        | order.amount <= 100",
  })
  void strings_are_plain_only_where_yaml_reads_them_back_as_the_same_string(String text, String yaml) {
    assertThat(Yaml.scalar(text, 0)).isEqualTo(yaml);
  }

  @Test
  void the_empty_string_is_quoted() {
    assertThat(Yaml.scalar("", 0)).isEqualTo("\"\"");
  }
}
