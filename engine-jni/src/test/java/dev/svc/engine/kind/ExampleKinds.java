package dev.svc.engine.kind;

import java.util.List;

/**
 * The kinds of the spec's policy examples ({@code shared/spec/examples/policies/*}), defined with
 * the builder. Each scenario's kind file is written in canonical form, so it is the expected
 * schema.
 */
final class ExampleKinds {

  /** A kind and the example scenario directory that holds its kind file. */
  record Case(String scenario, Kind kind) {

    @Override
    public String toString() {
      return scenario;
    }
  }

  private ExampleKinds() {}

  static List<Case> all() {
    return List.of(refundGate(), doorAccess(), toolGrants(), changeGate(), deployGate());
  }

  private static Case refundGate() {
    Type.Enumeration channel = Type.enumeration("Channel", "web", "phone", "store");
    Type.Structure order =
        Type.structure("Order")
            .field("id", Type.STRING)
            .field("amount", Type.INT)
            .field("age", Type.DURATION)
            .field("channel", channel);
    Type.Structure agent =
        Type.structure("Agent").field("name", Type.STRING).field("teams", Type.list(Type.STRING));
    Decision deny = Decision.of("deny", "fraud_flag", "too_old", "no_rule_matched");
    Decision review =
        Decision.of("review", "large_amount", "phone_order").field("queue", Type.STRING, "refunds");
    Decision approve =
        Decision.of("approve", "small_amount", "goodwill").field("limit", Type.INT, 100);
    Kind kind =
        Kind.builder("RefundGate")
            .version(2)
            .accepts(2)
            .input("order", order)
            .input("agent", agent)
            .input("flags", Type.list(Type.STRING))
            .decisions(deny, review, approve)
            .rankReasons(deny)
            .rankOutcomes(approve.reason("goodwill"), approve.reason("small_amount"))
            .defaultOutcome(deny.reason("no_rule_matched"))
            .build();
    return new Case("01-refund-gate", kind);
  }

  private static Case doorAccess() {
    Type.Structure badge =
        Type.structure("Badge")
            .field("holder", Type.STRING)
            .field("groups", Type.list(Type.STRING))
            .field("escorted", Type.BOOL);
    Decision deny =
        Decision.of("deny", "unknown_door", "after_hours", "no_rule_matched", "conflicting_rules");
    Decision hold = Decision.of("hold", "lockdown");
    Decision open =
        Decision.of("open", "staff", "escorted_visitor", "maintenance")
            .field("minutes", Type.INT, 5);
    Kind kind =
        Kind.builder("DoorAccess")
            .version(1)
            .input("badge", badge)
            .input("door", Type.STRING)
            .input("after_hours", Type.BOOL)
            .decisions(deny, hold, open)
            .exclusive(hold, open.reason("maintenance"))
            .defaultOutcome(deny.reason("no_rule_matched"))
            .conflict(deny.reason("conflicting_rules"))
            .build();
    return new Case("02-door-access", kind);
  }

  private static Case toolGrants() {
    Type.Structure user =
        Type.structure("User")
            .field("name", Type.STRING)
            .field("groups", Type.list(Type.STRING))
            .field("oncall", Type.BOOL);
    Kind kind =
        Kind.builder("ToolGrants")
            .version(1)
            .input("user", user)
            .collectAll(
                Decision.of("read", "member", "oncall").field("scope", Type.STRING, "all"),
                Decision.of("write", "owner", "oncall"),
                Decision.of("admin", "oncall").field("ttl", Type.DURATION, "8h"))
            .build();
    return new Case("03-tool-grants", kind);
  }

  private static Case changeGate() {
    Type.Structure change =
        Type.structure("Change")
            .field("author", Type.STRING)
            .field("reviewers", Type.list(Type.STRING))
            .field("risk", Type.INT);
    Decision reject = Decision.of("reject", "too_risky", "no_rule_matched");
    Decision merge = Decision.of("merge", "reviewed", "trivial");
    Kind kind =
        Kind.builder("ChangeGate")
            .version(1)
            .input("change", change)
            .decisions(reject, merge)
            .rankReasons(merge)
            .defaultOutcome(reject.reason("no_rule_matched"))
            .build();
    return new Case("04-change-asserts", kind);
  }

  private static Case deployGate() {
    Type.Enumeration tier = Type.enumeration("Tier", "critical", "standard");
    Type.Structure service =
        Type.structure("Service")
            .field("name", Type.STRING)
            .field("tier", tier)
            .field("owners", Type.list(Type.STRING));
    Type.Structure release =
        Type.structure("Release").field("soak", Type.DURATION).field("hotfix", Type.BOOL);
    Decision deny = Decision.of("deny", "not_owner", "soak_too_short", "no_rule_matched");
    Decision review =
        Decision.of("review", "region_signoff").field("approvers", Type.list(Type.STRING));
    Decision approve = Decision.of("approve", "owner_hotfix", "soaked");
    Kind kind =
        Kind.builder("DeployGate")
            .version(1)
            .input("service", service)
            .input("release", release)
            .input("actor", Type.STRING)
            .input("region", Type.STRING)
            .decisions(deny, review, approve)
            .rankOutcomes(
                deny.reason("soak_too_short"),
                deny.reason("not_owner"),
                deny.reason("no_rule_matched"))
            .rankReasons(approve)
            .defaultOutcome(deny.reason("no_rule_matched"))
            .build();
    return new Case("05-deploy-composition", kind);
  }
}
