// Reading results through a kind's decisions (bindings §14).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EngineError, type Decision, type EvalResult } from "@svc/engine";
import { levenshtein, nearest } from "../dist/kind/decision.js";
import { alertRouting, collecting, notify, page } from "./coverage-kinds.js";
import { loadEngine } from "./support.js";

const engine = await loadEngine();

function route(alert: object): EvalResult {
  const policy = alertRouting.kind.compile(engine, [{ path: "alerts/route.sigil", source: alertRouting.policy }]);
  try {
    return policy.eval({ alert, teams: [] });
  } finally {
    policy.release();
  }
}

const critical = route({ name: "disk", severity: "critical", labels: {}, firing_for: "1m" });
const quiet = route({ name: "disk", severity: "warning", labels: {}, firing_for: "1m" });

describe("decision.reason", () => {
  test("is the outcome of that reason", () => {
    assert.equal(String(notify.reason("unrouted")), "notify.unrouted");
    assert.equal(String(notify), "notify");
  });

  test("refuses an undeclared reason, with a did-you-mean when one is close", () => {
    assert.throws(
      () => notify.reason("unroutd" as never),
      (e: unknown) => e instanceof EngineError && e.message === 'decision notify has no reason "unroutd"' && e.help === 'did you mean "unrouted"? notify declares: routine, unrouted',
    );
    assert.throws(() => notify.reason("zzzzzz" as never), (e: unknown) => e instanceof EngineError && e.help === "notify declares: routine, unrouted");
  });

  test("suggests by Levenshtein distance, the first closest winning", () => {
    assert.equal(levenshtein("kitten", "sitting"), 3);
    assert.equal(levenshtein("ä", "a"), 1);
    assert.equal(nearest("a", ["b"]), "b");
    assert.equal(nearest("", []), undefined);
  });
});

describe("decision.match and outcome.is", () => {
  test("read the one entry of the outcome", () => {
    assert.deepEqual(page.match(critical), { oncall: "oncall for disk" });
    assert.equal(notify.match(critical), undefined);
    assert.deepEqual(notify.match(quiet), { channel: "#alerts" });
    assert.equal(page.reason("critical_alert").is(critical), true);
    assert.equal(page.reason("sustained").is(critical), false);
  });

  test("refuse a collecting kind's result without precedence", () => {
    const unranked: EvalResult = { ...JSON.parse(JSON.stringify(quiet)), collect: true };
    assert.throws(
      () => page.match(unranked),
      (e: unknown) =>
        e instanceof EngineError &&
        e.message === "match on a collecting kind's result, which has no single outcome; read it with matchAll" &&
        e.help === "a collecting kind applies every decision that fired; with precedence, the top rank reads with match",
    );
    assert.throws(() => page.reason("sustained").is(unranked), (e: unknown) => e instanceof EngineError && e.message.startsWith("is on a collecting kind's result"));
  });

  test("read a collecting kind's result when the kind ranks its decisions", () => {
    const policy = collecting.kind.compile(engine, [{ path: "grants.sigil", source: collecting.policy }]);
    const result = policy.eval({ user: { name: "kim", groups: ["eng"], oncall: false } });
    policy.release();
    assert.equal(result.collect, true);
    const [read, , admin] = collecting.kind.spec.collect! as [Decision, Decision, Decision];
    assert.deepEqual(read.match(result), { scope: "all" });
    assert.equal(read.reason("member").is(result), true);
    assert.equal(admin.match(result), undefined);
  });
});

describe("decision.matchAll", () => {
  test("lists every entry of the decision in outcome order", () => {
    assert.deepEqual(page.matchAll(critical), [
      { payload: { oncall: "oncall for disk" }, reason: "critical_alert", policy: "alerts.route", position: "alerts/route.sigil:4:3" },
    ]);
    assert.deepEqual(notify.matchAll(critical), []);
  });
});
