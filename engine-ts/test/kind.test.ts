// defineKind writes the kind file byte for byte as the JVM library's Kind builder does: the same
// coverage kinds, held to the JVM library's own golden files (engine-jni/src/test/resources/kinds).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { decision, defineKind, EngineError, enumType, Outcome, struct, t } from "@svc/engine";
import { declaredKind, snakeCase } from "../dist/kind/kind.js";
import { COVERAGE_KINDS, alertRouting, notify } from "./coverage-kinds.js";
import { loadEngine } from "./support.js";

const GOLDENS = new URL("../../engine-jni/src/test/resources/kinds/", import.meta.url);
const engine = await loadEngine();

// A golden file: a generated-file comment line, then the kind file.
function golden(name: string): string {
  const text = readFileSync(new URL(`${name}.golden`, GOLDENS), "utf8");
  return text.startsWith("# ") ? text.slice(text.indexOf("\n") + 1) : text;
}

describe("the coverage kinds", () => {
  for (const { golden: name, kind, policy } of COVERAGE_KINDS) {
    test(`${name}: prints as the JVM library's golden`, () => {
      assert.equal(kind.schema(), golden(name));
    });

    test(`${name}: checks cleanly with a policy, and the formatter leaves it as it is`, () => {
      assert.deepEqual(kind.check(engine), []);
      assert.deepEqual(engine.check([kind.file(), { path: "policy.sigil", source: policy }]), []);
      assert.equal(engine.format(kind.schema()), kind.schema());
    });
  }
});

describe("defineKind", () => {
  test("prints the spec's own examples as the spec shows them", () => {
    const routing = defineKind("Routing", { version: 1, inputs: { team: t.string }, decisions: [notify], default: notify.reason("unrouted") });
    assert.equal(
      routing.schema(),
      'kind Routing version 1\n\ninput team: string\n\ndecision notify {\n  reason: routine | unrouted\n  channel: string = "#alerts"\n}\n\ncollect one\nprecedence notify\n\ndefault notify(reason: unrouted)\n',
    );
  });

  test("lists every problem of a kind at once", () => {
    const d = decision("d", ["r", "r", "bad-reason"], { f: t.timestamp.default("2026-01-01T00:00:00Z"), g: t.string });
    const shade = enumType("Shade", []);
    assert.throws(
      () =>
        defineKind("bad name", {
          version: 0,
          decisions: [d, decision("e", [])],
          precedence: [d],
          reasonPrecedence: [[], [d.reason("r"), new Outcome("e", "x")]],
          exclusive: [[d]],
          conflict: d.reason("r"),
          inputs: { s: shade, other: struct("Shade", {}) },
        }),
      (e: unknown) => {
        assert.ok(e instanceof EngineError);
        assert.equal(e.help, "fix every problem listed; the kind can't be exported until then");
        assert.deepEqual(e.message.split("\n"), [
          "defineKind(bad name): invalid kind:",
          '  kind name "bad name" isn\'t an identifier (use letters, digits and underscores, like AlertRouting)',
          "  version 0 isn't a whole number from 1",
          "  accepts 1 isn't from 1 to the version, 0",
          "  decision d declares reason r twice",
          '  decision d: reason "bad-reason" isn\'t an identifier',
          "  decision e declares no reasons",
          "  precedence is for a collecting kind (decisions already ranks them in order)",
          "  a `collect one` kind needs a default (set default to the outcome when no rule fires)",
          "  conflict d.r: payload field g has no default (give it one with .default(value))",
          "  a reasonPrecedence entry names no reasons",
          "  reasonPrecedence d: reason x belongs to decision e (rank each decision's reasons in an entry of its own)",
          "  the reasonPrecedence of d must name every reason of d once (d declares: r, r, bad-reason)",
          "  an exclusive set names at least two outcomes",
          "  two different types are both named Shade (rename one; each enum and struct needs a name of its own)",
          "  enum Shade declares no values",
          "  decision d: field f: a timestamp field can't have a default: timestamps come from input; there's no literal for one",
        ]);
        return true;
      },
    );
  });

  test("refuses a default that isn't a constant of its field's type", () => {
    const d = decision("d", ["r"], {
      n: t.int.default("seven"),
      l: t.list(t.int).default({}),
      o: t.optional(t.int).default(null),
      s: struct("S", {}).default({}),
      w: t.duration.default("1h1h"),
    });
    assert.throws(
      () => defineKind("K", { version: 1, decisions: [d], default: d.reason("r") }),
      (e: unknown) => {
        assert.ok(e instanceof EngineError);
        assert.deepEqual(e.message.split("\n").slice(1), [
          '  decision d: field n: "seven" isn\'t a constant of type int',
          "  decision d: field l: {} isn't a constant of type list<int>",
          "  decision d: field o: `none` isn't a constant: leave the default out; a field without one is required",
          "  decision d: field s: a default of struct type S can't be written in a kind file: give struct-typed payload fields no default",
          '  decision d: field w: invalid duration "1h1h"',
        ]);
        return true;
      },
    );
  });

  test("names the kind file after the kind, in snake case", () => {
    const cases = [["AlertRouting", "alert_routing"], ["DeployApproval", "deploy_approval"], ["Minimal", "minimal"], ["HTTPServer", "http_server"], ["Kind2Go", "kind2_go"], ["already_snake", "already_snake"], ["A", "a"], ["ABC", "abc"]];
    assert.deepEqual(cases.map(([name]) => [name, snakeCase(name!)]), cases);
    assert.equal(alertRouting.kind.file().path, "alert_routing.sigil");
    assert.equal(alertRouting.kind.file("kinds/alerts.sigil").path, "kinds/alerts.sigil");
  });

  test("tells a kind file's kind from its header", () => {
    assert.equal(declaredKind("kind A version 1"), "A");
    assert.equal(declaredKind("// one\n// two\nkind Alert_Routing version 3, accepts: 2"), "Alert_Routing");
    assert.equal(declaredKind("\n\n  kind   K   version 1"), "K");
    for (const source of ["policy a.b: K@1", "kindred K version 1", "kind K versions 1", "kind K", "kind 1K version 1", "kindK version 1", "kind Kversion 1", "// lone", ""]) {
      assert.equal(declaredKind(source), undefined, source);
    }
  });
});

describe("Kind.compile", () => {
  test("adds the kind file, passes the kind's host functions, and stamps the results", () => {
    const policy = alertRouting.kind.compile(engine, [{ path: "alerts/route.sigil", source: alertRouting.policy }]);
    const result = policy.eval({
      alert: { name: "disk", severity: "critical", labels: {}, firing_for: "1m" },
      teams: [],
    });
    policy.release();
    assert.deepEqual(alertRouting.kind.functions() !== undefined && Object.keys(alertRouting.kind.functions()), ["oncall_for"]);
    assert.deepEqual(result.outcome.map((e) => [e.decision, e.reason, e.payload]), [["page", "critical_alert", { oncall: "oncall for disk" }]]);
  });

  test("refuses a stale kind file of the kind", () => {
    const stale = { path: "alert_routing.sigil", source: alertRouting.kind.schema().replace("version 1", "version 1\n") };
    assert.throws(
      () => alertRouting.kind.compile(engine, [stale, { path: "alerts/route.sigil", source: alertRouting.policy }]),
      (e: unknown) =>
        e instanceof EngineError &&
        e.message === "alert_routing.sigil declares kind AlertRouting, but not as this program defines it" &&
        e.help === "the file is stale: export the kind again, or drop the file and let compile add the current one",
    );
  });
});
