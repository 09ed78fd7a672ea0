package dev.svc.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.server.http.CallerAuthHandler.AuthorizedCaller;
import dev.svc.server.http.CallerAuthHandler.Rejection;
import dev.svc.server.mesh.Caller;
import dev.svc.server.mesh.GrantRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The auth layer's rules of access-server spec §3.3 and §3.4, rows 3 to 7. */
class CallerAuthHandlerTest {

  private static final String CAP = "svc.dev/cap/svc";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Caller caller(String login, List<String> tags, String... rules) {
    List<JsonNode> values = new ArrayList<>();
    for (String rule : rules) {
      try {
        values.add(JSON.readTree(rule));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
    return new Caller(login, tags, Map.of(CAP, values, "other.dev/cap", List.of(JSON.nullNode())));
  }

  private static AuthorizedCaller admit(String... rules) {
    return CallerAuthHandler.authorize(caller("dana@corp.example", List.of(), rules), CAP);
  }

  private static Rejection refuse(Caller caller) {
    Rejection r = catchThrowableOfType(Rejection.class, () -> CallerAuthHandler.authorize(caller, CAP));
    assertThat(r).as("refused").isNotNull();
    return r;
  }

  private static Rejection refuse(String... rules) {
    return refuse(caller("dana@corp.example", List.of(), rules));
  }

  @Test
  void the_rule_of_the_highest_priority_wins_whatever_the_order() {
    String admin = "{\"role\": \"admin\", \"period\": \"45m\", \"priority\": 20}";
    String view = "{\"role\": \"view\", \"period\": \"6h\", \"priority\": 10}";

    assertThat(admit(view, admin)).isEqualTo(new AuthorizedCaller("dana", new GrantRule("admin", "45m", 20), "dana@corp.example"));
    assertThat(admit(admin, view).rule().role()).isEqualTo("admin");
  }

  @Test
  void member_names_match_whatever_their_case_and_unknown_members_are_ignored() {
    assertThat(admit("{\"Role\": \"view\", \"PERIOD\": \"1h\", \"note\": [1], \"priority\": null}").rule())
        .isEqualTo(new GrantRule("view", "1h", 0));
  }

  @Test
  void identical_rules_count_once() {
    String view = "{\"role\": \"view\", \"period\": \"1h\"}";

    assertThat(admit(view, view).rule()).isEqualTo(new GrantRule("view", "1h", 0));
  }

  @Test
  void the_username_is_the_login_up_to_its_at() {
    String view = "{\"role\": \"view\", \"period\": \"1h\"}";

    assertThat(CallerAuthHandler.authorize(caller("dana", List.of(), view), CAP).username()).isEqualTo("dana");
    assertThat(admit(view).username()).isEqualTo("dana");
  }

  @Test
  void a_tagged_device_is_400() {
    Rejection r = refuse(caller("tagged-devices", List.of("tag:ci"), "{\"role\": \"view\", \"period\": \"1h\"}"));

    assertThat(r.error.status()).isEqualTo(400);
    assertThat(r.error.getMessage()).isEqualTo("tagged nodes not (yet) supported");
    assertThat(r.reason).isEqualTo("tagged_node_not_allowed");
  }

  @Test
  void a_value_that_is_no_rule_is_400() {
    for (String bad : List.of("\"view\"", "{\"role\": \"view\", \"priority\": \"10\"}", "{\"role\": 1}",
        "{\"period\": 3600}", "{\"priority\": 1.5}")) {
      Rejection r = refuse("{\"role\": \"view\", \"period\": \"1h\"}", bad);
      assertThat(r.error.status()).as(bad).isEqualTo(400);
      assertThat(r.error.getMessage()).isEqualTo("Error unmarshaling api capability map");
      assertThat(r.error.help()).isEqualTo("check the grant syntax of `svc.dev/cap/svc` for user dana");
      assertThat(r.error.getCause()).as(bad).isInstanceOf(IllegalArgumentException.class);
      assertThat(r.reason).isEqualTo("capability_unmarshal_failed");
    }
  }

  @Test
  void no_rule_is_403() {
    Rejection r = refuse();

    assertThat(r.error.status()).isEqualTo(403);
    assertThat(r.error.getMessage()).isEqualTo("User not authorized");
    assertThat(r.error.help()).isEqualTo("ask a tailnet administrator to grant dana the capability `svc.dev/cap/svc`");
  }

  @Test
  void two_different_rules_of_one_priority_are_400_even_below_the_top() {
    for (List<String> rules : List.of(
        List.of("{\"role\": \"a\", \"period\": \"1h\", \"priority\": 10}", "{\"role\": \"b\", \"period\": \"1h\", \"priority\": 10}"),
        List.of("{\"role\": \"a\", \"period\": \"1h\"}", "{\"role\": \"b\", \"period\": \"1h\"}"),
        List.of("{\"role\": \"top\", \"period\": \"1h\", \"priority\": 30}",
            "{\"role\": \"a\", \"period\": \"1h\", \"priority\": 5}", "{\"role\": \"b\", \"period\": \"2h\", \"priority\": 5}"))) {
      Rejection r = refuse(rules.toArray(String[]::new));
      assertThat(r.error.status()).as(rules.toString()).isEqualTo(400);
      assertThat(r.error.getMessage()).isEqualTo("Multiple capability rules with the same priority found");
    }
  }

  @Test
  void a_winning_rule_without_a_role_is_400() {
    Rejection r = refuse("{\"period\": \"1h\", \"priority\": 3}");

    assertThat(r.error.status()).isEqualTo(400);
    assertThat(r.error.getMessage()).isEqualTo("Capability rule has no role");
    assertThat(r.error.help()).isEqualTo("give the rule of priority 3 of `svc.dev/cap/svc` a role: the ClusterRole to bind");
  }
}
