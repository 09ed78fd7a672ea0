// The package's module (legacy exception handling) answers the conformance corpus byte for byte as
// the JVM's module (exnref) does: engine-jni's ConformanceTest holds that module to the same golden
// (engine-jni/src/test/resources/conformance). No runtime runs both modules, since wasmtime refuses
// legacy exceptions and Node.js 20 and 22 refuse exnref, so the golden is the answer both give.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { wasiImports } from "../dist/wasi.js";
import { ENGINE_WASM } from "./support.js";

const CORPUS = new URL("../../engine-jni/src/test/resources/conformance/", import.meta.url);
// What engine-jni's raw instance answers every host call with.
const HOST_ANSWER = new TextEncoder().encode(JSON.stringify({ error: "no host here" }));

interface Exports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  engine_alloc(len: number): number;
  engine_free(ptr: number, len: number): void;
  engine_call(ptr: number, len: number): bigint;
}

/** One instance of the package's module, driven through its bare exports as a host does. */
async function rawInstance(): Promise<(request: string) => string> {
  const module = await WebAssembly.compile(readFileSync(ENGINE_WASM));
  const wasi = WebAssembly.Module.imports(module)
    .filter((i) => i.module === "wasi_snapshot_preview1")
    .map((i) => i.name);
  let exports!: Exports;
  const bytes = (ptr: number, len: number) => new Uint8Array(exports.memory.buffer, ptr >>> 0, len >>> 0);
  const write = (data: Uint8Array): bigint => {
    const ptr = exports.engine_alloc(data.length) >>> 0;
    bytes(ptr, data.length).set(data);
    return (BigInt(ptr) << 32n) | BigInt(data.length);
  };
  const instance = await WebAssembly.instantiate(module, {
    wasi_snapshot_preview1: wasiImports({ memory: () => exports.memory, write: () => {} }, wasi),
    engine: { host_call: () => write(HOST_ANSWER) },
  });
  exports = instance.exports as unknown as Exports;
  exports._initialize();
  return (request) => {
    const data = new TextEncoder().encode(request);
    const packed = write(data);
    const response = BigInt.asUintN(64, exports.engine_call(Number(packed >> 32n), data.length));
    exports.engine_free(Number(packed >> 32n), data.length);
    const [ptr, len] = [Number(response >> 32n), Number(BigInt.asUintN(32, response))];
    const text = new TextDecoder().decode(bytes(ptr, len));
    exports.engine_free(ptr, len);
    return text;
  };
}

test("the module answers the conformance corpus as the JVM's module does", async () => {
  const requests = readFileSync(new URL("requests.jsonl", CORPUS), "utf8").split("\n").filter((line) => line !== "");
  const golden = readFileSync(new URL("responses.golden", CORPUS), "utf8");
  const call = await rawInstance();
  const header = golden.slice(0, golden.indexOf("\n") + 1);
  const responses = header + requests.map((request) => `${call(request)}\n`).join("");
  assert.equal(responses, golden);
});
