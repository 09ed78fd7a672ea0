// The ABI glue (bindings §1.2–§4): one instance of the module, one JSON call at a time, host calls
// dispatched to the evaluation's functions, and the stopped-instance latch.
import { EngineError, EngineStoppedError } from "./errors.js";
import type { Diagnostic, HostFunction, JsonObject } from "./records.js";
import { WASI_FUNCTIONS, WasiExit, wasiImports } from "./wasi.js";

/** The ABI version this package speaks; `Engine.load` refuses a module that speaks another. */
export const ABI_VERSION = 1;

/** Where the module's output goes, a line at a time, without its newline. */
export type OutputCallback = (stream: "stdout" | "stderr", line: string) => void;

const WASI = "wasi_snapshot_preview1";
const REQUIRED_EXPORTS = ["memory", "engine_abi_version", "engine_alloc", "engine_free", "engine_call"] as const;
const STDERR_KEPT = 4096;
const BUILD_HELP = "build the module from the same svc revision as this package (native/engine/build-wasm)";
const START_HELP =
  "build engine.wasm from the same svc revision as this package; the module needs a few MiB of memory to start";
const REBUILD_HELP = "this instance can't be used again: load a new one with Engine.load";
const BUSY_MESSAGE = "the module is busy: a host function can't call back into the instance that runs it";
const BUSY_HELP = "use another instance for the nested call, or compute the value before the evaluation";
// Shared: neither keeps state between calls without { stream: true }.
const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();
// Requests whose UTF-8 fits are written into one buffer the instance keeps for its life, instead of
// a buffer allocated, copied into and freed per call; larger ones (files to compile) get their own.
const REQUEST_BUFFER = 16 * 1024;
// How a successful response begins (the module writes ok first when the request has no id, and the
// package sends none); the body is what follows.
const OK_PREFIX = '{"ok":true,';
const OK_BYTES = ENCODER.encode(OK_PREFIX);
const OPEN_BRACE = 0x7b;
// Reads the halves of engine_call's packed i64 without intermediate BigInts.
const PACKED = new DataView(new ArrayBuffer(8));

interface Exports {
  memory: WebAssembly.Memory;
  engine_abi_version(): number;
  engine_alloc(size: number): number;
  engine_free(ptr: number, size: number): void;
  engine_call(ptr: number, len: number): bigint;
  _initialize?(): void;
}

/** The body of a successful response: the op's fields, without `ok` and `id`. */
export type Body = JsonObject;

/** One instance of the module. Everything on it is synchronous. */
export class Runtime {
  #exports!: Exports;
  #stopped: EngineStoppedError | undefined;
  #busy = false;
  #functions: Readonly<Record<string, HostFunction>> | undefined;
  // Handles let go of while a call ran (from a host function): released before the next call.
  #pendingReleases: number[] = [];
  // The kept request buffer (REQUEST_BUFFER bytes at #requestPtr, 0 until the first call), and a
  // view of it, made again when the memory grows (which detaches the old view: length 0).
  #requestPtr = 0;
  #requestView: Uint8Array = new Uint8Array(0);
  readonly #output: Output;

  private constructor(output: OutputCallback) {
    this.#output = new Output(output);
  }

  /** Checks the module's imports, instantiates it, starts its runtime and checks its ABI version. */
  static async start(module: WebAssembly.Module, output: OutputCallback): Promise<Runtime> {
    const wasiNames: string[] = [];
    for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
      const known =
        kind === "function" && ((from === WASI && WASI_FUNCTIONS.has(name)) || (from === "engine" && name === "host_call"));
      if (!known) throw new EngineError(`the module imports ${from}.${name}, which this package doesn't provide`, BUILD_HELP);
      if (from === WASI) wasiNames.push(name);
    }
    const runtime = new Runtime(output);
    const imports = {
      [WASI]: wasiImports({ memory: () => runtime.#exports.memory, write: (fd, bytes) => runtime.#output.write(fd, bytes) }, wasiNames),
      engine: { host_call: (ptr: number, len: number) => runtime.#hostCall(ptr >>> 0, len >>> 0) },
    };
    const instance = await WebAssembly.instantiate(module, imports);
    const exports = instance.exports as unknown as Exports;
    for (const name of REQUIRED_EXPORTS) {
      if (!(name in exports)) {
        throw new EngineError(
          `the module doesn't export ${name}; it isn't an engine.wasm reactor`,
          "build the module as a WASI reactor with native/engine/build-wasm",
        );
      }
    }
    runtime.#exports = exports;
    try {
      exports._initialize?.();
    } catch (e) {
      throw new EngineStoppedError(`starting the Sigil module failed: ${why(e)}${runtime.#output.stderr()}`, START_HELP, { cause: e });
    }
    let version: number;
    try {
      version = exports.engine_abi_version();
    } catch (e) {
      throw new EngineStoppedError(
        `the Sigil module trapped while reporting its ABI version: ${why(e)}${runtime.#output.stderr()}`,
        REBUILD_HELP,
        { cause: e },
      );
    }
    if (version !== ABI_VERSION) {
      throw new EngineError(
        `the module speaks ABI version ${version}, and this package version ${ABI_VERSION}`,
        "use the engine.wasm that ships with this package, or one built from the same svc revision",
      );
    }
    return runtime;
  }

  /** Why the instance stopped; undefined while it works. */
  get stopped(): EngineStoppedError | undefined {
    return this.#stopped;
  }

  /** Whether a call is running on this instance: a host function of it is on the stack. */
  get busy(): boolean {
    return this.#busy;
  }

  /**
   * Sends one request and returns the response's body; an `ok: false` answer throws an EngineError
   * with its message, help and diagnostics. `functions` serve the host calls of this request.
   */
  call(request: object, functions?: Readonly<Record<string, HostFunction>>): Body {
    return this.callJson(encodeRequest(request), functions);
  }

  /** `call` with the request written already: the JSON text `call` would send for it. */
  callJson(request: string, functions?: Readonly<Record<string, HostFunction>>): Body {
    if (this.#stopped !== undefined) throw this.#stopped;
    if (this.#busy) throw new EngineError(BUSY_MESSAGE, BUSY_HELP);
    this.#releasePending();
    return this.#send(request, functions);
  }

  /**
   * Releases a compiled policy's handle. Nothing to do on a stopped instance, which holds nothing
   * any more; inside a call (from a host function) the release waits for the next call.
   */
  release(handle: number): void {
    if (this.#stopped !== undefined) return;
    if (this.#busy) {
      this.#pendingReleases.push(handle);
      return;
    }
    this.call({ op: "release", handle });
  }

  // The handles of policies released during a call; a failure to release one is nobody's to hear.
  #releasePending(): void {
    while (this.#pendingReleases.length > 0 && this.#stopped === undefined) {
      const handle = this.#pendingReleases.pop()!;
      try {
        this.#send(encodeRequest({ op: "release", handle }));
      } catch {
        // a stopped instance holds no handles; an unknown handle is gone already
      }
    }
  }

  #send(request: string, functions?: Readonly<Record<string, HostFunction>>): Body {
    this.#busy = true;
    this.#functions = functions;
    let answer: Answer;
    try {
      try {
        answer = this.#roundTrip(request);
      } catch (e) {
        throw this.#stop(e);
      }
    } finally {
      this.#busy = false;
      this.#functions = undefined;
    }
    return answer.body ? bodyOf(answer.text) : unwrap(answer.text);
  }

  // One engine_call: the request written into the module's memory, the response read out of it.
  #roundTrip(request: string): Answer {
    const { engine_call, engine_free } = this.#exports;
    let packed: bigint;
    const kept = this.#keptRequest(request);
    if (kept >= 0) {
      packed = engine_call(this.#requestPtr, kept);
    } else {
      const encoded = ENCODER.encode(request);
      const ptr = this.#alloc(encoded.length);
      this.#memory(ptr, encoded.length).set(encoded);
      packed = engine_call(ptr, encoded.length);
      engine_free(ptr, encoded.length);
    }
    PACKED.setBigInt64(0, packed);
    const respPtr = PACKED.getUint32(0);
    const respLen = PACKED.getUint32(4);
    const bytes = this.#memory(respPtr, respLen);
    const answer = okBody(bytes) ? { text: decodeBody(bytes), body: true } : { text: DECODER.decode(bytes), body: false };
    engine_free(respPtr, respLen);
    return answer;
  }

  // Writes the request into the kept buffer and answers its length there; -1 when it doesn't fit.
  #keptRequest(request: string): number {
    if (request.length > REQUEST_BUFFER) return -1;
    // A module too short of memory for the buffer may still have room for this request alone.
    if (this.#requestPtr === 0) this.#requestPtr = this.#exports.engine_alloc(REQUEST_BUFFER) >>> 0;
    if (this.#requestPtr === 0) return -1;
    if (this.#requestView.length === 0) this.#requestView = this.#memory(this.#requestPtr, REQUEST_BUFFER);
    const { read, written } = ENCODER.encodeInto(request, this.#requestView);
    return read === request.length ? written : -1;
  }

  #alloc(size: number): number {
    // Addresses are unsigned; JavaScript sees an i32 above 2 GiB as negative.
    const ptr = this.#exports.engine_alloc(size) >>> 0;
    if (ptr === 0 && size > 0) {
      throw new EngineError("the module couldn't allocate memory for a request", "the instance is out of memory; load a new one");
    }
    return ptr;
  }

  // A range of memory; one the module doesn't have broke the ABI, which stops the instance.
  #memory(ptr: number, len: number): Uint8Array {
    const buffer = this.#exports.memory.buffer;
    if (ptr + len > buffer.byteLength) throw new BrokenModule("the module returned a response outside its memory");
    return new Uint8Array(buffer, ptr, len);
  }

  // What unwound out of an entry into the module: an EngineError as it is; anything else latches
  // the stopped state.
  #stop(e: unknown): EngineError {
    if (e instanceof EngineError) return e;
    this.#stopped ??= new EngineStoppedError(
      `the Sigil module stopped: ${why(e)}${this.#output.stderr()}`,
      `${REBUILD_HELP}. Unless the input or policy was extreme, such as nesting thousands deep, this is a bug in the engine: please report it with the output above`,
      { cause: e },
    );
    return this.#stopped;
  }

  // engine.host_call: the module asks for one host function's result. Nothing the function does
  // may unwind into the module, so every failure becomes an {"error": …} answer.
  #hostCall(ptr: number, len: number): bigint {
    const answer = ENCODER.encode(this.#answer(ptr, len));
    const out = this.#exports.engine_alloc(answer.length) >>> 0;
    if (out === 0 && answer.length > 0) {
      throw new BrokenModule("the module couldn't allocate memory for a host function's response");
    }
    this.#memory(out, answer.length).set(answer);
    return (BigInt(out) << 32n) | BigInt(answer.length);
  }

  #answer(ptr: number, len: number): string {
    let call: { function?: unknown; args?: unknown };
    try {
      call = JSON.parse(DECODER.decode(this.#memory(ptr, len)));
    } catch (e) {
      return JSON.stringify({ error: `the module's host call isn't readable: ${messageOf(e)}` });
    }
    const name = String(call.function ?? "");
    const fn = this.#functions !== undefined && Object.hasOwn(this.#functions, name) ? this.#functions[name] : undefined;
    if (fn === undefined) return JSON.stringify({ error: `no host function ${name} is registered` });
    let result: unknown;
    try {
      result = fn(...(Array.isArray(call.args) ? call.args : []));
    } catch (e) {
      return JSON.stringify({ error: messageOf(e) });
    }
    if (isThenable(result)) {
      // The promise settles later, unobserved: keep its rejection from being reported as unhandled.
      Promise.resolve(result).catch(() => {});
      return JSON.stringify({ error: `host function ${name} returned a promise; host functions must be synchronous` });
    }
    try {
      return encodeJson({ result: result === undefined ? null : result });
    } catch (e) {
      return JSON.stringify({ error: `the result can't be encoded as JSON: ${messageOf(e)}` });
    }
  }
}

/** What engine_call answered: the whole response, or (`body`) a successful one's body alone. */
interface Answer {
  text: string;
  body: boolean;
}

/** A module that broke the ABI; stops the instance like a trap. */
class BrokenModule extends Error {}

/** Module output split into lines per stream, with the end of standard error kept for messages. */
class Output {
  readonly #decoders = { 1: new TextDecoder(), 2: new TextDecoder() };
  readonly #partial = { 1: "", 2: "" };
  #stderr = "";

  constructor(readonly callback: OutputCallback) {}

  write(fd: 1 | 2, bytes: Uint8Array): void {
    const text = this.#decoders[fd].decode(bytes, { stream: true });
    if (fd === 2) this.#stderr = (this.#stderr + text).slice(-STDERR_KEPT);
    const lines = (this.#partial[fd] + text).split("\n");
    this.#partial[fd] = lines.pop()!;
    for (const line of lines) this.callback(fd === 1 ? "stdout" : "stderr", line);
  }

  /** The kept standard error, trimmed, after a newline; empty when there is none. */
  stderr(): string {
    const text = this.#stderr.trim();
    return text === "" ? "" : `\n${text}`;
  }
}

/** The default output: standard error to console.error, standard output dropped. */
export const defaultOutput: OutputCallback = (stream, line) => {
  if (stream === "stderr") console.error(`engine.wasm: ${line}`);
};

// Whether the response begins as a successful one with more fields than ok.
function okBody(response: Uint8Array): boolean {
  if (response.length <= OK_BYTES.length) return false;
  for (let i = 0; i < OK_BYTES.length; i++) {
    if (response[i] !== OK_BYTES[i]) return false;
  }
  return true;
}

// A successful response's body as text: the comma after ok, overwritten with a brace in the
// response buffer (which is freed right after), opens it. Neither the text nor the parsed
// response is copied to leave ok out.
function decodeBody(response: Uint8Array): string {
  response[OK_PREFIX.length - 1] = OPEN_BRACE;
  return DECODER.decode(response.subarray(OK_PREFIX.length - 1));
}

// The body decodeBody read. Whatever the whole response would answer otherwise (a body with a second
// ok or an id, which the module never sends, or one that isn't JSON) goes through unwrap, with the
// whole response's text, so it answers exactly that.
function bodyOf(body: string): Body {
  let parsed: Body;
  try {
    parsed = JSON.parse(body) as Body;
  } catch {
    return unwrap(OK_PREFIX + body.slice(1));
  }
  if (Object.hasOwn(parsed, "ok") || Object.hasOwn(parsed, "id")) return unwrap(OK_PREFIX + body.slice(1));
  return parsed;
}

// An ok:false answer becomes an EngineError; an ok:true one its body.
function unwrap(text: string): Body {
  const response = JSON.parse(text) as { ok?: unknown; id?: unknown; error?: { message?: string; help?: string }; diagnostics?: Diagnostic[] };
  if (response.ok !== true) {
    throw new EngineError(
      response.error?.message ?? "the module returned an error without a message",
      response.error?.help,
      response.diagnostics ?? [],
    );
  }
  const { ok: _ok, id: _id, ...body } = response;
  return body as Body;
}

/**
 * The JSON text of a value when JSON.stringify alone writes it as a request holds it: it throws
 * nothing and writes no null, which NaN and infinity would have become; undefined otherwise. Without
 * a replacer, JSON.stringify is more than twice as fast.
 */
export function plainJson(value: unknown): string | undefined {
  try {
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined || text.includes("null") ? undefined : text;
  } catch {
    // encodeJson throws it again, or first something it refuses before it
    return undefined;
  }
}

/** JSON text for a request; NaN, infinity, BigInt and cycles fail before the module sees anything. */
function encodeRequest(request: object): string {
  const plain = plainJson(request);
  if (plain !== undefined) return plain;
  try {
    return encodeJson(request);
  } catch (e) {
    throw new EngineError(
      `the request can't be encoded as JSON: ${messageOf(e)}`,
      "keep NaN, infinity, BigInt, cycles and non-string map keys out of inputs and options",
      [],
      { cause: e },
    );
  }
}

// JSON.stringify writes NaN and infinity as null; refuse them instead, as no JSON number holds them.
function encodeJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "number" && !Number.isFinite(v)) throw new TypeError(`${v} has no JSON number`);
    return v;
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// Why an entry into the module ended abnormally, as the stopped message says it.
function why(e: unknown): string {
  if (e instanceof WasiExit) return e.message;
  if (e instanceof BrokenModule) return e.message;
  if (e instanceof WebAssembly.RuntimeError) return `it trapped: ${e.message}`;
  if (e instanceof RangeError) return `it ran out of stack: ${e.message}`;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
