package dev.svc.engine.kind;

import dev.svc.engine.HostFunction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kinds bindings.md §13.8 asks a binding to cover, each with a small policy written against
 * it. Their kind files are goldens under {@code src/test/resources/kinds}.
 */
final class CoverageKinds {

  /** A kind, the golden that holds its kind file, and a policy that uses it. */
  record Case(String golden, Kind kind, String policy) {

    @Override
    public String toString() {
      return golden;
    }
  }

  /** AlertRouting's decision for an alert that pages someone. */
  static final Decision PAGE =
      Decision.of("page", "critical_alert", "sustained").field("oncall", Type.STRING);

  /** AlertRouting's decision for an alert that goes to a channel, and its default. */
  static final Decision NOTIFY =
      Decision.of("notify", "routine", "unrouted").field("channel", Type.STRING, "#alerts");

  private CoverageKinds() {}

  static List<Case> all() {
    return List.of(alertRouting(), everything(), collecting(), minimal());
  }

  /**
   * Structs with an enum, a map and a duration; rankings; a defaulted payload field; a host
   * function implemented in Java, which answers {@code oncall for «alert»}.
   */
  static Case alertRouting() {
    Type.Enumeration severity = Type.enumeration("Severity", "critical", "warning", "info");
    Type.Structure alert =
        Type.structure("Alert")
            .field("name", Type.STRING)
            .field("severity", severity)
            .field("labels", Type.map(Type.STRING, Type.STRING))
            .field("firing_for", Type.DURATION);
    Type.Structure team =
        Type.structure("Team").field("name", Type.STRING).field("channel", Type.STRING);
    Decision drop = Decision.of("drop", "silenced", "duplicate");
    HostFunction oncallFor = HostFunction.of(String.class, name -> "oncall for " + name);
    Kind kind =
        Kind.builder("AlertRouting")
            .version(1)
            .input("alert", alert)
            .input("teams", Type.list(team))
            .function(
                "oncall_for", new FnDecl(List.of(Type.STRING), Type.STRING).implement(oncallFor))
            .decisions(PAGE, drop, NOTIFY)
            .rankReasons(PAGE)
            .rankOutcomes(drop.reason("duplicate"), drop.reason("silenced"))
            .defaultOutcome(NOTIFY.reason("unrouted"))
            .build();
    String policy =
        """
        policy alerts.route: AlertRouting@1

        when alert.severity == critical {
          page(reason: critical_alert, oncall: oncall_for(alert.name))
        }

        when alert.firing_for > 30m {
          page(reason: sustained, oncall: oncall_for(alert.name))
        }

        when alert.labels has "silenced" {
          drop(reason: silenced)
        }

        when alert.severity == info {
          notify(reason: routine)
        }
        """;
    return new Case("alert_routing", kind, policy);
  }

  /**
   * Every declaration and every kind of constant: an enum declared on its own, nested structs, an
   * optional struct, an empty struct, functions over maps, structs and enums, defaults that need
   * escaping or sorting, a reason ranking, exclusive sets, a default and a conflict outcome.
   */
  static Case everything() {
    Type.Enumeration unused = Type.enumeration("Unused", "nothing", "at_all");
    Type.Enumeration mood = Type.enumeration("Mood", "calm", "tense");
    Type.Enumeration region = Type.enumeration("Region", "eu", "us", "ap");
    Type.Enumeration level = Type.enumeration("Level", "low", "mid", "high");
    Type.Structure geo = Type.structure("Geo").field("lat", Type.FLOAT).field("lon", Type.FLOAT);
    Type.Structure address =
        Type.structure("Address").field("city", Type.STRING).field("geo", geo);
    Type.Structure person =
        Type.structure("Person")
            .field("name", Type.STRING)
            .field("mood", mood)
            .field("address", Type.optional(address))
            .field("visits", Type.list(Type.TIMESTAMP));
    Type.Structure marker = Type.structure("Marker");
    Map<String, Integer> weights = new LinkedHashMap<>();
    weights.put("b", 2);
    weights.put("a", 1);
    weights.put("ä", 3);
    weights.put("Z", 4);
    Decision deny =
        Decision.of("deny", "blocked", "expired", "fallback", "conflicting")
            .field(
                "note", Type.STRING, "tab\there \"quoted\" back\\slash \u0001 ✓ é 😀 \u2028")
            .field("ratio", Type.FLOAT, 0.5)
            .field("huge", Type.FLOAT, 1e21)
            .field("tiny", Type.FLOAT, 1e-7)
            .field("whole", Type.FLOAT, 2)
            .field("offset", Type.INT, -3)
            .field("floor", Type.INT, Long.MIN_VALUE);
    Decision allow =
        Decision.of("allow", "owner", "admin")
            .field("bake", Type.DURATION, "90m")
            .field("soak", Type.DURATION, "2d3h")
            .field("tags", Type.list(Type.STRING), List.of("a", "b"))
            .field("level", level, "mid")
            .field("weights", Type.map(Type.STRING, Type.INT), weights)
            .field("retries", Type.optional(Type.INT), 4)
            .field("regions", Type.list(region), List.of());
    Decision hold =
        Decision.of("hold", "review")
            .field("until", Type.TIMESTAMP)
            .field("flags", Type.map(Type.INT, Type.BOOL), Map.of("10", true, "2", false))
            .field("level", level);
    Kind kind =
        Kind.builder("Everything")
            .version(3)
            .accepts(2)
            .enumeration(unused)
            .input("person", person)
            .input("seen", Type.TIMESTAMP)
            .input("scores", Type.map(Type.STRING, Type.FLOAT))
            .input("marker", marker)
            .function("quota", new FnDecl(List.of(Type.map(region, Type.INT)), Type.INT))
            .function("level_of", new FnDecl(List.of(person), level))
            .function("now", new FnDecl(List.of(), Type.TIMESTAMP))
            .decisions(deny, allow, hold)
            .rankOutcomes(allow.reason("admin"), allow.reason("owner"))
            .exclusive(hold, allow.reason("admin"))
            .exclusive(deny.reason("blocked"), allow)
            .defaultOutcome(deny.reason("fallback"))
            .conflict(deny.reason("conflicting"))
            .build();
    String policy =
        """
        policy everything.main: Everything@3

        when level_of(person) == high and person.mood == tense {
          deny(reason: blocked)
        }

        when quota({eu: 1}) > 0 and scores has "x" {
          allow(reason: owner, regions: [eu, ap])
        }

        when person.address?.geo.lat ?? 0.0 > 1.0 {
          hold(reason: review, until: now(), level: low)
        }
        """;
    return new Case("everything", kind, policy);
  }

  /** A collecting kind with a precedence, a reason ranking and exclusive sets. */
  static Case collecting() {
    Type.Structure user =
        Type.structure("User")
            .field("name", Type.STRING)
            .field("groups", Type.list(Type.STRING))
            .field("oncall", Type.BOOL);
    Decision read = Decision.of("read", "member", "oncall").field("scope", Type.STRING, "all");
    Decision write = Decision.of("write", "owner", "oncall");
    Decision admin = Decision.of("admin", "oncall").field("ttl", Type.DURATION, "480m");
    Kind kind =
        Kind.builder("Collecting")
            .version(1)
            .input("user", user)
            .collectAll(read, write, admin)
            .precedence(admin, write, read)
            .rankOutcomes(read.reason("oncall"), read.reason("member"))
            .exclusive(write, admin.reason("oncall"))
            .exclusive(read.reason("member"), admin)
            .build();
    String policy =
        """
        policy grants.main: Collecting@1

        when "eng" in user.groups {
          read(reason: member)
        }

        when user.oncall {
          admin(reason: oncall, ttl: 1h)
        }
        """;
    return new Case("collecting", kind, policy);
  }

  /** The smallest kind: one input, one decision. */
  static Case minimal() {
    Decision ok = Decision.of("ok", "yes");
    Kind kind =
        Kind.builder("Minimal")
            .version(1)
            .input("who", Type.STRING)
            .decisions(ok)
            .defaultOutcome(ok.reason("yes"))
            .build();
    String policy =
        """
        policy minimal.main: Minimal@1

        when who == "me" {
          ok(reason: yes)
        }
        """;
    return new Case("minimal", kind, policy);
  }
}
