// Host functions run synchronously inside eval; whatever goes wrong in one fails the evaluation
// with a runtime error, and the engine works on (bindings §3).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { EvalResult, HostFunction } from "@svc/engine";
import { LABELS, LABELS_INPUT, loadEngine } from "./support.js";

const engine = await loadEngine();
const nothingDescribed: HostFunction = () => "";

function evaluate(split: HostFunction, describe: HostFunction = nothingDescribed): EvalResult {
  const policy = engine.compile(LABELS, { functions: { split, describe } });
  try {
    return policy.eval(LABELS_INPUT);
  } finally {
    policy.release();
  }
}

// The runtime error's message of a failed evaluation, which falls back to the default.
function failure(result: EvalResult): string {
  assert.equal(result.decision, "deny");
  assert.equal(result.reason, "fallback");
  assert.equal(result.error?.kind, "runtime");
  return result.error.message;
}

describe("a host function", () => {
  test("gets the args as plain JSON values and its result decides the rule", () => {
    const calls: unknown[][] = [];
    const result = evaluate((...args: unknown[]) => (calls.push(args), ["team", "ops"]));
    assert.equal(result.error, undefined);
    assert.equal(result.reason, "tagged");
    assert.deepEqual(calls, [["team,ops", ","]]);
  });

  test("gets structs as objects, durations and timestamps as text", () => {
    const seen: unknown[] = [];
    const result = evaluate(() => [], (...args: unknown[]) => (seen.push(...args), "ok"));
    assert.equal(result.reason, "described");
    assert.deepEqual(seen, [{ name: "ana", tier: "gold" }, "1h30m", "2026-03-01T08:00:00Z"]);
  });

  test("that throws fails the call with its message", () => {
    const result = evaluate(() => {
      throw new Error("label too long");
    });
    assert.equal(failure(result), "labels.sigil:3:16 (labels.check): host function split failed: label too long");
  });

  test("that throws something other than an Error fails the call with its text", () => {
    const result = evaluate(() => {
      throw "no labels today";
    });
    assert.equal(failure(result), "labels.sigil:3:16 (labels.check): host function split failed: no labels today");
  });

  test("that returns a promise fails the call, and the promise's rejection goes unreported", async () => {
    const result = evaluate(() => Promise.reject(new Error("too late")));
    assert.equal(
      failure(result),
      "labels.sigil:3:16 (labels.check): host function split failed: host function split returned a promise; host functions must be synchronous",
    );
  });

  test("that calls back into its engine fails the call with the busy error", () => {
    const result = evaluate(() => {
      engine.version();
      return [];
    });
    assert.equal(
      failure(result),
      "labels.sigil:3:16 (labels.check): host function split failed: the module is busy: a host function can't call back into the instance that runs it",
    );
    assert.equal(engine.version().platform, "wasip1/wasm");
  });

  test("that returns undefined answers null, which a string result refuses", () => {
    assert.equal(
      failure(evaluate(() => [], () => undefined)),
      "labels.sigil:7:6 (labels.check): host function describe failed: the host returned result: null for a string",
    );
  });

  test("whose result JSON can't hold fails the call", () => {
    assert.equal(
      failure(evaluate(() => [NaN])),
      "labels.sigil:3:16 (labels.check): host function split failed: the result can't be encoded as JSON: NaN has no JSON number",
    );
  });

  test("that the policy wasn't compiled with is not registered", () => {
    const policy = engine.compile(LABELS, { functions: { split: () => [] } });
    const result = policy.eval(LABELS_INPUT);
    policy.release();
    assert.match(failure(result), /host function describe failed: /);
  });

  test("that releases its own policy releases it after the evaluation", () => {
    const policy = engine.compile(LABELS, {
      functions: {
        split: () => (policy.release(), ["team"]),
        describe: nothingDescribed,
      },
    });
    assert.equal(policy.eval(LABELS_INPUT).reason, "tagged");
    assert.equal(policy.handle, undefined);
    const next = engine.compile(LABELS, { functions: { split: () => [], describe: nothingDescribed } });
    assert.equal(next.eval(LABELS_INPUT).reason, "fallback");
    next.release();
  });
});
