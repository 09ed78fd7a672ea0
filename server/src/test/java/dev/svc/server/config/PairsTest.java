package dev.svc.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PairsTest {

  private static final Pairs.Form LABELS = new Pairs.Form("label", false);
  private static final Pairs.Form POLICIES = new Pairs.Form("policy", true);

  private static Map<String, String> read(String text, Pairs.Form form) {
    return Pairs.read(Pairs.entries(text), form);
  }

  @Test
  void pairs_keep_their_order_and_lose_the_spaces_around_them() {
    assertThat(read(" env = prod ,team=payments", LABELS)).containsExactly(
        Map.entry("env", "prod"), Map.entry("team", "payments"));
  }

  @Test
  void a_value_may_hold_spaces_and_equals_signs() {
    assertThat(read("note=a b=c", LABELS)).containsExactly(Map.entry("note", "a b=c"));
  }

  @Test
  void text_of_nothing_but_spaces_has_no_pairs() {
    assertThat(Pairs.entries("")).isEmpty();
    assertThat(Pairs.entries("  ")).isEmpty();
    assertThat(read(" ", LABELS)).isEmpty();
  }

  @Test
  void a_bare_name_stands_for_itself_where_the_form_takes_bare_names() {
    assertThat(read("access.main, web=access.web", POLICIES)).containsExactly(
        Map.entry("access.main", "access.main"), Map.entry("web", "access.web"));
  }

  @Test
  void entries_of_a_list_read_like_entries_of_text() {
    assertThat(Pairs.read(List.of("access.main", " web = access.web"), POLICIES))
        .isEqualTo(read("access.main,web=access.web", POLICIES));
  }

  static Stream<Arguments> a_malformed_entry_is_refused_quoting_it() {
    return Stream.of(
        arguments("a=1,b", LABELS, "`b` isn't a label written name=value"),
        arguments("a=1,,b=2", LABELS, "entry 2 of 3 is empty"),
        arguments("a=1,", LABELS, "entry 2 of 2 is empty"),
        arguments("access.main,", POLICIES, "entry 2 of 2 is empty"),
        arguments("=1", LABELS, "`=1` gives no name"),
        arguments(" = access.web", POLICIES, "`= access.web` gives no name"),
        arguments("env=", LABELS, "`env=` gives no value"),
        arguments("web= ", POLICIES, "`web=` gives no value"),
        arguments("env=prod,env=dev", LABELS, "the label `env` is given twice"),
        arguments("web=access.web, web = access.main", POLICIES, "the policy `web` is given twice"),
        arguments("access.main,access.main=access.main", POLICIES, "the policy `access.main` is given twice"));
  }

  @ParameterizedTest
  @MethodSource
  void a_malformed_entry_is_refused_quoting_it(String text, Pairs.Form form, String message) {
    assertThatThrownBy(() -> read(text, form)).isInstanceOf(Pairs.Malformed.class).hasMessage(message);
  }
}
