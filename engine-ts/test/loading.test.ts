// Loading refuses what isn't this package's engine module, and a module that stops is stopped for
// good (bindings §1, §4).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Engine, EngineError, EngineStoppedError } from "@svc/engine";
import { fixture } from "./support.js";

function refusal(message: string, help?: string) {
  return (e: unknown) => {
    assert.ok(e instanceof EngineError, `${e}`);
    assert.equal(e.message, message);
    if (help !== undefined) assert.equal(e.help, help);
    return true;
  };
}

describe("Engine.load refuses", () => {
  test("bytes that aren't a WebAssembly module", async () => {
    await assert.rejects(Engine.load(new Uint8Array([0, 97, 115, 109, 9, 9])), (e: unknown) => {
      assert.ok(e instanceof EngineError);
      assert.match(e.message, /^the bytes aren't a WebAssembly module this runtime can compile: /);
      return true;
    });
  });

  test("a string that isn't a URL", async () => {
    await assert.rejects(Engine.load("::engine.wasm"), (e: unknown) => {
      assert.ok(e instanceof EngineError);
      assert.equal(e.message, "::engine.wasm isn't a URL");
      return true;
    });
  });

  test("a file that isn't there", async () => {
    await assert.rejects(Engine.load(new URL("./wat/missing.wasm", import.meta.url)), (e: unknown) => {
      assert.ok(e instanceof EngineError);
      assert.match(e.message, /^reading file:.*\/wat\/missing\.wasm: ENOENT/);
      return true;
    });
  });

  test("a response that isn't OK", async () => {
    const response = new Response("gone", { status: 404, statusText: "Not Found" });
    await assert.rejects(Engine.load(response), refusal("fetching engine.wasm: 404 Not Found", "serve the module at that address, or pass its bytes"));
  });

  test("a module that speaks another ABI version", async () => {
    await assert.rejects(
      Engine.load(fixture("abi_version_2")),
      refusal(
        "the module speaks ABI version 2, and this package version 1",
        "use the engine.wasm that ships with this package, or one built from the same svc revision",
      ),
    );
  });

  test("a module that imports what the package doesn't provide", async () => {
    const help = "build the module from the same svc revision as this package (native/engine/build-wasm)";
    await assert.rejects(Engine.load(fixture("foreign_import")), refusal("the module imports env.clock, which this package doesn't provide", help));
    await assert.rejects(
      Engine.load(fixture("foreign_wasi")),
      refusal("the module imports wasi_snapshot_preview1.sock_accept, which this package doesn't provide", help),
    );
  });

  test("a module without the ABI's exports", async () => {
    await assert.rejects(Engine.load(fixture("no_call")), refusal("the module doesn't export engine_call; it isn't an engine.wasm reactor"));
  });

  test("a module that exits while starting, quoting its standard error", async () => {
    const lines: string[] = [];
    await assert.rejects(
      Engine.load(fixture("start_exits"), { output: (stream, line) => lines.push(`${stream}: ${line}`) }),
      (e: unknown) => {
        assert.ok(e instanceof EngineStoppedError);
        assert.equal(e.message, "starting the Sigil module failed: it exited with code 3\ncannot start: no memory?!");
        return true;
      },
    );
    assert.deepEqual(lines, ["stderr: cannot start: no memory?!"]);
  });
});

describe("the output callback", () => {
  test("gets standard output a line at a time, and the default drops it", async () => {
    const lines: string[] = [];
    const engine = await Engine.load(fixture("writes_stdout"), { output: (stream, line) => lines.push(`${stream}: ${line}`) });
    assert.deepEqual(lines, ["stdout: ready", "stdout: steady"]);
    assert.equal(engine.stopped, undefined);
    const seen: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void seen.push(args);
    try {
      await Engine.load(fixture("writes_stdout"));
    } finally {
      console.error = original;
    }
    assert.deepEqual(seen, []);
  });
});

describe("a module that traps", () => {
  test("stops the instance: the call and every later one throw the same stopped error", async () => {
    const lines: string[] = [];
    const engine = await Engine.load(fixture("traps"), { output: (stream, line) => lines.push(`${stream}: ${line}`) });
    assert.equal(engine.stopped, undefined);

    let first: unknown;
    assert.throws(() => engine.version(), (e: unknown) => ((first = e), e instanceof EngineStoppedError));
    const stopped = first as EngineStoppedError;
    assert.match(stopped.message, /^the Sigil module stopped: it trapped: .*unreachable.*\nfatal: the engine broke\nété\nat engine_call$/);
    assert.match(stopped.help ?? "", /^this instance can't be used again: load a new one with Engine\.load\./);
    assert.equal(engine.stopped, stopped);
    assert.throws(() => engine.check([]), (e: unknown) => e === stopped);
    assert.deepEqual(lines, ["stderr: fatal: the engine broke", "stderr: été", "stderr: at engine_call"]);
  });

  test("by default writes its standard error to console.error", async () => {
    const seen: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void seen.push(args);
    try {
      const engine = await Engine.load(fixture("traps"));
      assert.throws(() => engine.version(), EngineStoppedError);
    } finally {
      console.error = original;
    }
    assert.deepEqual(seen, [["engine.wasm: fatal: the engine broke"], ["engine.wasm: été"], ["engine.wasm: at engine_call"]]);
  });
});
