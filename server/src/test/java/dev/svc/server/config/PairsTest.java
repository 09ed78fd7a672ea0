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

  static Stream<Arguments> well_formed_text_reads_as_its_pairs_in_order() {
    return Stream.of(
        // spaces around entries, names and values don't count
        arguments(" env = prod ,team=payments", LABELS, List.of(Map.entry("env", "prod"), Map.entry("team", "payments"))),
        // a value may hold spaces and equals signs
        arguments("note=a b=c", LABELS, List.of(Map.entry("note", "a b=c"))),
        // a bare name stands for itself where the form takes bare names
        arguments("access.main, web=access.web", POLICIES,
            List.of(Map.entry("access.main", "access.main"), Map.entry("web", "access.web"))));
  }

  @ParameterizedTest
  @MethodSource
  void well_formed_text_reads_as_its_pairs_in_order(String text, Pairs.Form form, List<Map.Entry<String, String>> pairs) {
    assertThat(read(text, form).entrySet()).containsExactlyElementsOf(pairs);
  }

  @Test
  void text_of_nothing_but_spaces_has_no_pairs() {
    assertThat(Pairs.entries("")).isEmpty();
    assertThat(Pairs.entries("  ")).isEmpty();
    assertThat(read(" ", LABELS)).isEmpty();
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
