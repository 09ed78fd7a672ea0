// What the public API can't reach on purpose: a panic inside the module, a policy collected without
// release(), and responses the module never sends. These tests drive the package's Runtime directly.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, test } from "node:test";
import { EngineError } from "@svc/engine";
import { Policy } from "../dist/engine.js";
import { Runtime } from "../dist/runtime.js";
import { ENGINE_WASM, fixture, LABELS } from "./support.js";

const PANIC_PROBE = new URL("../../native/engine/target/engine-legacy-eh-panic-probe.wasm", import.meta.url);

describe("a panic in the module", () => {
  test("answers ok:false saying it is a bug, and the instance works on", async () => {
    assert.ok(existsSync(PANIC_PROBE), `no ${PANIC_PROBE.pathname}; scripts/test builds it with engine-ts/build-wasm-legacy-eh --features panic-probe`);
    const lines: string[] = [];
    const runtime = await Runtime.start(await WebAssembly.compile(readFileSync(PANIC_PROBE)), (_stream, line) => lines.push(line));
    for (let i = 0; i < 2; i++) {
      assert.throws(
        () => runtime.call({ op: "panic-probe", id: 9 }),
        (e: unknown) =>
          e instanceof EngineError &&
          e.message === "the engine failed while handling the request: the panic-probe op panics on purpose" &&
          e.help === "this is a bug in the engine; please report it with the request",
      );
    }
    assert.equal(runtime.stopped, undefined);
    assert.equal(runtime.call({ op: "version" }).platform, "wasip1/wasm");
    assert.ok(lines.some((line) => line.includes("the panic-probe op panics on purpose")), lines.join("\n"));
  });

  test("is an unknown op in the module the package ships", async () => {
    const runtime = await Runtime.start(await WebAssembly.compile(readFileSync(ENGINE_WASM)), () => {});
    assert.throws(() => runtime.call({ op: "panic-probe" }), (e: unknown) => e instanceof EngineError && e.message === 'unknown op "panic-probe"');
  });
});

describe("a policy collected without release()", () => {
  test("is released by its instance", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const runtime = await Runtime.start(await WebAssembly.compile(readFileSync(ENGINE_WASM)), () => {});
    const { handle, policy } = runtime.call({ op: "compile", files: LABELS }) as { handle: number; policy: string };
    (() => new Policy(runtime, handle, policy, [], {}))();
    const held = () => {
      try {
        runtime.call({ op: "explain", handle });
        return true;
      } catch (e) {
        assert.ok(e instanceof EngineError && e.message === `no compiled policy has handle ${handle}`, `${e}`);
        return false;
      }
    };
    assert.equal(held(), true);
    // Finalizers run in tasks of their own after a collection; give them a bounded number of turns.
    for (let turn = 0; turn < 100 && held(); turn++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(held(), false);
  });
});

describe("a response", () => {
  // The echo fixture answers each request with itself, so the request is the response under test.
  const echo = async () => Runtime.start(await WebAssembly.compile(readFileSync(fixture("echo"))), () => {});

  test("with ok:true answers its other fields, in order, without ok and id", async () => {
    const runtime = await echo();
    const body = runtime.call({ ok: true, decision: "open", id: 4, payload: { limit: 100 }, n: -1.5 });
    assert.deepEqual(Object.entries(body), [["decision", "open"], ["payload", { limit: 100 }], ["n", -1.5]]);
    assert.deepEqual(runtime.call({ ok: true }), {});
    assert.deepEqual(runtime.callJson('{"ok":true , "x":1}'), { x: 1 });
  });

  test("answers as its last ok says when it has two", async () => {
    const runtime = await echo();
    assert.throws(
      () => runtime.callJson('{"ok":true,"x":1,"ok":false,"error":{"message":"refused","help":"ask"}}'),
      (e: unknown) => e instanceof EngineError && e.message === "refused" && e.help === "ask" && e.diagnostics.length === 0,
    );
    assert.deepEqual(runtime.callJson('{"ok":false,"ok":true,"x":1}'), { x: 1 });
  });

  test("that isn't JSON fails as JSON.parse fails for the whole text", async () => {
    const runtime = await echo();
    for (const text of ['{"ok":true,"x":}', '{"ok":true,"x":1', '{"ok":true,"x":1}}']) {
      const expected = (() => {
        try {
          JSON.parse(text);
        } catch (e) {
          return e as SyntaxError;
        }
        throw new Error(`${text} parsed`);
      })();
      assert.throws(() => runtime.callJson(text), (e: unknown) => e instanceof SyntaxError && e.message === expected.message, text);
    }
    assert.equal(runtime.stopped, undefined);
  });
});
