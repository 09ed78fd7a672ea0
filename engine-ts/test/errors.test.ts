// EngineError's fields and text form (bindings §11).
import assert from "node:assert/strict";
import { test } from "node:test";
import { EngineError, EngineStoppedError, EngineTimeoutError } from "@svc/engine";
import { renderDiagnostic } from "../dist/errors.js";

test("an EngineError holds its message, help and diagnostics; an empty help is none", () => {
  const diagnostic = { severity: "error" as const, file: "a.sigil", line: 2, column: 12, message: "unknown field", help: "did you mean x?" };
  const e = new EngineError("the policy doesn't compile", "fix it", [diagnostic]);
  assert.deepEqual([e.name, e.message, e.help, e.diagnostics], ["EngineError", "the policy doesn't compile", "fix it", [diagnostic]]);
  assert.equal(String(e), "EngineError: the policy doesn't compile\n  help: fix it\n  a.sigil:2:12: error: unknown field (help: did you mean x?)");
  assert.equal(new EngineError("m", "").help, undefined);
  assert.equal(String(new EngineError("m")), "EngineError: m");
});

test("the stopped and timeout errors are EngineErrors without diagnostics", () => {
  for (const e of [new EngineStoppedError("stopped", "load a new one"), new EngineTimeoutError("late", "the worker was terminated")]) {
    assert.ok(e instanceof EngineError);
    assert.deepEqual(e.diagnostics, []);
  }
});

test("a diagnostic renders on one line with the position parts it has", () => {
  assert.equal(renderDiagnostic({ severity: "error", file: "a.sigil", line: 2, message: "unknown field" }), "a.sigil:2: error: unknown field");
  assert.equal(renderDiagnostic({ severity: "warning", message: "unknown field" }), "warning: unknown field");
});
