// The kinds bindings.md §13.8 asks a binding to cover, declared as the JVM library's tests declare
// them (engine-jni CoverageKinds), so both libraries are held to the same golden kind files.
import { decision, defineKind, enumType, fn, struct, t, type Kind } from "@svc/engine";

/** A kind, the golden that holds its kind file, and a policy that uses it. */
export interface CoverageKind {
  golden: string;
  kind: Kind;
  policy: string;
}

/** AlertRouting's decision for an alert that pages someone. */
export const page = decision("page", ["critical_alert", "sustained"], { oncall: t.string });
/** AlertRouting's decision for an alert that goes to a channel, and its default. */
export const notify = decision("notify", ["routine", "unrouted"], { channel: t.string.default("#alerts") });

const severity = enumType("Severity", ["critical", "warning", "info"]);
const alert = struct("Alert", {
  name: t.string,
  severity,
  labels: t.map(t.string, t.string),
  firing_for: t.duration,
});
const team = struct("Team", { name: t.string, channel: t.string });
const drop = decision("drop", ["silenced", "duplicate"]);

/** Structs with an enum, a map and a duration; rankings; a defaulted payload field; a host function. */
export const alertRouting: CoverageKind = {
  golden: "alert_routing",
  kind: defineKind("AlertRouting", {
    version: 1,
    inputs: { alert, teams: t.list(team) },
    functions: { oncall_for: fn([t.string], t.string, (name: string) => `oncall for ${name}`) },
    decisions: [page, drop, notify],
    reasonPrecedence: [page, [drop.reason("duplicate"), drop.reason("silenced")]],
    default: notify.reason("unrouted"),
  }),
  policy: `policy alerts.route: AlertRouting@1

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
`,
};

const unused = enumType("Unused", ["nothing", "at_all"]);
const mood = enumType("Mood", ["calm", "tense"]);
const region = enumType("Region", ["eu", "us", "ap"]);
const level = enumType("Level", ["low", "mid", "high"]);
const geo = struct("Geo", { lat: t.float, lon: t.float });
const address = struct("Address", { city: t.string, geo });
const person = struct("Person", { name: t.string, mood, address: t.optional(address), visits: t.list(t.timestamp) });
const deny = decision("deny", ["blocked", "expired", "fallback", "conflicting"], {
  note: t.string.default('tab\there "quoted" back\\slash \u0001 ✓ é 😀 \u2028'),
  ratio: t.float.default(0.5),
  huge: t.float.default(1e21),
  tiny: t.float.default(1e-7),
  whole: t.float.default(2),
  offset: t.int.default(-3),
  floor: t.int.default(-(2n ** 63n)),
});
const allow = decision("allow", ["owner", "admin"], {
  bake: t.duration.default("90m"),
  soak: t.duration.default("2d3h"),
  tags: t.list(t.string).default(["a", "b"]),
  level: level.default("mid"),
  weights: t.map(t.string, t.int).default({ b: 2, a: 1, ä: 3, Z: 4 }),
  retries: t.optional(t.int).default(4),
  regions: t.list(region).default([]),
});
const hold = decision("hold", ["review"], {
  until: t.timestamp,
  flags: t.map(t.int, t.bool).default({ 10: true, 2: false }),
  level,
});

/** Every declaration and every kind of constant. */
export const everything: CoverageKind = {
  golden: "everything",
  kind: defineKind("Everything", {
    version: 3,
    accepts: 2,
    enums: [unused],
    inputs: { person, seen: t.timestamp, scores: t.map(t.string, t.float), marker: struct("Marker", {}) },
    functions: {
      quota: fn([t.map(region, t.int)], t.int),
      level_of: fn([person], level),
      now: fn([], t.timestamp),
    },
    decisions: [deny, allow, hold],
    reasonPrecedence: [[allow.reason("admin"), allow.reason("owner")]],
    exclusive: [
      [hold, allow.reason("admin")],
      [deny.reason("blocked"), allow],
    ],
    default: deny.reason("fallback"),
    conflict: deny.reason("conflicting"),
  }),
  policy: `policy everything.main: Everything@3

when level_of(person) == high and person.mood == tense {
  deny(reason: blocked)
}

when quota({eu: 1}) > 0 and scores has "x" {
  allow(reason: owner, regions: [eu, ap])
}

when person.address?.geo.lat ?? 0.0 > 1.0 {
  hold(reason: review, until: now(), level: low)
}
`,
};

const read = decision("read", ["member", "oncall"], { scope: t.string.default("all") });
const write = decision("write", ["owner", "oncall"]);
const admin = decision("admin", ["oncall"], { ttl: t.duration.default("480m") });

/** A collecting kind with a precedence, a reason ranking and exclusive sets. */
export const collecting: CoverageKind = {
  golden: "collecting",
  kind: defineKind("Collecting", {
    version: 1,
    inputs: { user: struct("User", { name: t.string, groups: t.list(t.string), oncall: t.bool }) },
    collect: [read, write, admin],
    precedence: [admin, write, read],
    reasonPrecedence: [[read.reason("oncall"), read.reason("member")]],
    exclusive: [
      [write, admin.reason("oncall")],
      [read.reason("member"), admin],
    ],
  }),
  policy: `policy grants.main: Collecting@1

when "eng" in user.groups {
  read(reason: member)
}

when user.oncall {
  admin(reason: oncall, ttl: 1h)
}
`,
};

const ok = decision("ok", ["yes"]);

/** The smallest kind: one input, one decision. */
export const minimal: CoverageKind = {
  golden: "minimal",
  kind: defineKind("Minimal", { version: 1, inputs: { who: t.string }, decisions: [ok], default: ok.reason("yes") }),
  policy: `policy minimal.main: Minimal@1

when who == "me" {
  ok(reason: yes)
}
`,
};

export const COVERAGE_KINDS: CoverageKind[] = [alertRouting, everything, collecting, minimal];
