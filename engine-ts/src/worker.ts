// EngineWorker: the engine in a worker, so a call past its deadline can be stopped by terminating
// the worker (bindings §9). The next call starts a new worker, and a WorkerPolicy compiles itself
// again there.
import type { CheckOptions, CompileOptions, EvalOptions, ExplainOptions, FormatOptions, TestOptions } from "./engine.js";
import { EngineError, EngineStoppedError, EngineTimeoutError } from "./errors.js";
import { RESULT_SHAPE, type ResultShape } from "./kind/decision.js";
import type { CallMessage, CompiledRecord, ErrorRecord, InitMessage, Reply, WorkerWasm } from "./protocol.js";
import type { Diagnostic, EvalResult, Explanation, SourceFile, TestResult, VersionInfo } from "./records.js";

/** What a worker needs to be for EngineWorker: a Web Worker, or a Node.js worker_threads Worker. */
export type WorkerLike =
  | { postMessage(message: unknown): void; terminate(): unknown; addEventListener(type: string, listener: (event: any) => void): void }
  | { postMessage(message: unknown): void; terminate(): unknown; on(type: string, listener: (value: any) => void): unknown };

/** How an EngineWorker starts its workers. */
export interface EngineWorkerOptions {
  /** Where the worker loads the module from; a compiled module is shared by every worker. */
  wasm: URL | string | ArrayBuffer | WebAssembly.Module;
  /** An ES module whose named exports are host functions, imported by the worker. */
  functions?: URL | string;
  /** Each call's deadline, in milliseconds. Default 10,000. */
  timeoutMs?: number;
  /** Deadline for starting the worker and loading the module. Default 30,000. */
  startTimeoutMs?: number;
  /** Starts a worker. Default: worker-entry.js next to this file, as a module worker. */
  worker?: () => WorkerLike | Promise<WorkerLike>;
}

/** One call's deadline, overriding the EngineWorker's. */
export interface CallOptions {
  timeoutMs?: number;
}

/** compile's options in a worker: `functions` names exports of the functions module. */
export interface WorkerCompileOptions extends Omit<CompileOptions, "functions"> {
  functions?: string[];
}

const GRACE_MS = 500;
const ENTRY = new URL("./worker-entry.js", import.meta.url);

/** The engine in a worker: the ops of Engine, as promises. */
export class EngineWorker {
  readonly #options: EngineWorkerOptions;
  #connection: Promise<Connection> | undefined;
  #generation = 0;

  /** Starts the worker on the first call. */
  constructor(options: EngineWorkerOptions) {
    this.#options = options;
  }

  version(call?: CallOptions): Promise<VersionInfo> {
    return this.#call("version", [], call);
  }

  check(files: SourceFile[], options?: CheckOptions, call?: CallOptions): Promise<Diagnostic[]> {
    return this.#call("check", [files, options], call);
  }

  explain(files: SourceFile[], options?: ExplainOptions, call?: CallOptions): Promise<Explanation[]> {
    return this.#call("explain", [files, options], call);
  }

  format(source: string, options?: FormatOptions, call?: CallOptions): Promise<string> {
    return this.#call("format", [source, options], call);
  }

  test(files: SourceFile[], tests: SourceFile[], options?: TestOptions, call?: CallOptions): Promise<TestResult[]> {
    return this.#call("test", [files, tests, options], call);
  }

  /** Compiles a policy in the worker; it compiles itself again in any later worker. */
  async compile<I = Record<string, unknown>>(files: SourceFile[], options: WorkerCompileOptions = {}, call?: CallOptions): Promise<WorkerPolicy<I>> {
    const { compiled, generation } = await this.#compileIn(files, options, call);
    return new WorkerPolicy<I>(this, files, options, compiled, generation);
  }

  /** Stops the worker and fails the waiting calls with `reason`; the next call starts another. */
  terminate(reason: Error = new EngineError("the engine worker was terminated", "the next call starts a new one")): void {
    const connection = this.#connection;
    this.#connection = undefined;
    void connection?.then((c) => c.close(reason), () => {});
  }

  /** @internal compile in the current worker, with the generation it ran in. */
  async #compileIn(files: SourceFile[], options: WorkerCompileOptions, call?: CallOptions): Promise<{ compiled: CompiledRecord; generation: number }> {
    const connection = await this.#connect();
    const compiled = await this.#send<CompiledRecord>(connection, "compile", [files, options], call?.timeoutMs);
    return { compiled, generation: connection.generation };
  }

  /** @internal */
  recompile(files: SourceFile[], options: WorkerCompileOptions): Promise<{ compiled: CompiledRecord; generation: number }> {
    return this.#compileIn(files, options);
  }

  /** @internal A call for a policy of this worker. */
  policyCall<T>(method: CallMessage["method"], args: unknown[], timeoutMs: number | undefined, graceMs = 0): Promise<T> {
    return this.#call(method, args, { timeoutMs }, graceMs);
  }

  /** @internal Whether `generation` is the worker running now. */
  isCurrent(generation: number): boolean {
    return this.#connection !== undefined && this.#generation === generation;
  }

  async #call<T>(method: CallMessage["method"], args: unknown[], call: CallOptions | undefined, graceMs = 0): Promise<T> {
    const connection = await this.#connect();
    const timeoutMs = call?.timeoutMs ?? this.#options.timeoutMs ?? 10_000;
    return this.#send<T>(connection, method, args, timeoutMs, graceMs);
  }

  async #send<T>(connection: Connection, method: CallMessage["method"], args: unknown[], timeoutMs = this.#options.timeoutMs ?? 10_000, graceMs = 0): Promise<T> {
    try {
      return (await connection.request({ method, args }, timeoutMs + graceMs, `answer ${method}`)) as T;
    } catch (e) {
      // A worker that overran or whose engine stopped is of no more use: the next call starts another.
      if ((e instanceof EngineTimeoutError || e instanceof EngineStoppedError) && this.#generation === connection.generation) this.terminate(e);
      throw e;
    }
  }

  // The worker running now, started (under the start deadline) when there is none.
  #connect(): Promise<Connection> {
    if (this.#connection === undefined) {
      const generation = ++this.#generation;
      const started = this.#start(generation);
      this.#connection = started;
      // A worker that fails to start is closed and forgotten, so the next call tries again.
      started.catch(() => {
        if (this.#connection === started) this.#connection = undefined;
      });
    }
    return this.#connection;
  }

  async #start(generation: number): Promise<Connection> {
    const worker = await (this.#options.worker ?? defaultWorker)();
    const connection = new Connection(worker, generation);
    const { wasm, functions } = this.#options;
    const init: Omit<InitMessage, "id"> = { method: "init", wasm: absolute(wasm), functions: functions === undefined ? undefined : String(absolute(functions)) };
    try {
      await connection.request(init, this.#options.startTimeoutMs ?? 30_000, "start");
    } catch (e) {
      connection.close(e as Error);
      throw e;
    }
    return connection;
  }
}

/** A policy compiled in an EngineWorker; it compiles itself again in a new worker. */
export class WorkerPolicy<I = Record<string, unknown>> {
  readonly #worker: EngineWorker;
  readonly #files: SourceFile[];
  readonly #options: WorkerCompileOptions;
  #compiled: CompiledRecord;
  #generation: number;
  #released = false;
  #shape: ResultShape | undefined;

  /** @internal Built by EngineWorker.compile. */
  constructor(worker: EngineWorker, files: SourceFile[], options: WorkerCompileOptions, compiled: CompiledRecord, generation: number) {
    this.#worker = worker;
    this.#files = files;
    this.#options = options;
    this.#compiled = compiled;
    this.#generation = generation;
  }

  /** The compiled policy's name. */
  get name(): string {
    return this.#compiled.name;
  }

  /** Problems in documents the policy does not use. */
  get diagnostics(): Diagnostic[] {
    return this.#compiled.diagnostics;
  }

  /** The `eval` op; waits `timeoutMs` plus 500 ms before it terminates the worker. */
  eval(input: I, options: EvalOptions = {}): Promise<EvalResult> {
    const grace = options.timeoutMs === undefined ? 0 : GRACE_MS;
    const evaluated = this.#withHandle((handle) => this.#worker.policyCall<EvalResult>("eval", [handle, input, options], options.timeoutMs, grace));
    const shape = this.#shape;
    // Not enumerable: a copy of the record ({...result}) is a plain record again.
    return shape === undefined ? evaluated : evaluated.then((result) => Object.defineProperty(result, RESULT_SHAPE, { value: shape }));
  }

  /**
   * Marks every later result with how its kind's results read, for the decision helpers;
   * `Kind.compile` does it.
   * @internal
   */
  stampResults(shape: ResultShape): void {
    this.#shape = shape;
  }

  /** The `explain` op on the handle. */
  explain(call?: CallOptions): Promise<Explanation> {
    return this.#withHandle((handle) => this.#worker.policyCall("policyExplain", [handle], call?.timeoutMs));
  }

  /** The `release` op; a policy whose worker is gone has nothing left to release. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    if (this.#worker.isCurrent(this.#generation)) await this.#worker.policyCall("release", [this.#compiled.handle], undefined);
  }

  // Sends with the handle in the worker running now, compiling again there when the policy's
  // worker is gone. While its worker runs, the call goes out without waiting, so calls reach the
  // worker in the order they were made.
  #withHandle<T>(send: (handle: number) => Promise<T>): Promise<T> {
    if (this.#released) return Promise.reject(new EngineError(`policy ${this.name} was released`, "compile it again to evaluate it"));
    return this.#worker.isCurrent(this.#generation) ? send(this.#compiled.handle) : this.#recompile().then(send);
  }

  async #recompile(): Promise<number> {
    const { compiled, generation } = await this.#worker.recompile(this.#files, this.#options);
    this.#compiled = compiled;
    this.#generation = generation;
    return compiled.handle;
  }
}

/** One started worker: its pending calls by id, each with its deadline. */
class Connection {
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout> }>();
  #next = 0;
  #closed: Error | undefined;

  constructor(
    readonly worker: WorkerLike,
    readonly generation: number,
  ) {
    const on = (type: string, listener: (value: any) => void) =>
      "on" in worker ? worker.on(type, listener) : worker.addEventListener(type, listener);
    on("message", (value: Reply | { data: Reply }) => this.#settle("data" in value && !("ok" in value) ? value.data : (value as Reply)));
    on("error", (error: { message?: string }) => this.close(new EngineError(`the engine worker failed: ${error.message ?? String(error)}`, "the next call starts a new worker")));
    on("exit", (code: number) => this.close(new EngineError(`the engine worker exited with code ${code}`, "the next call starts a new worker")));
  }

  /** Sends one message and waits `timeoutMs` for its answer; past it, rejects with EngineTimeoutError. */
  request(message: Omit<CallMessage, "id"> | Omit<InitMessage, "id">, timeoutMs: number, what: string): Promise<unknown> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new EngineTimeoutError(`the engine worker didn't ${what} within ${timeoutMs} ms`, "the worker was terminated; the next call starts a new one"));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#hold();
      this.worker.postMessage({ ...message, id });
    });
  }

  /** Terminates the worker and fails every waiting call with `reason`. */
  close(reason: Error): void {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    for (const { reject, timer } of this.#pending.values()) {
      clearTimeout(timer);
      reject(reason);
    }
    this.#pending.clear();
    void this.worker.terminate();
  }

  #settle(reply: Reply): void {
    const pending = this.#pending.get(reply.id);
    if (pending === undefined) return;
    this.#pending.delete(reply.id);
    clearTimeout(pending.timer);
    this.#hold();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(rebuild(reply.error));
  }

  // A Node.js worker keeps the process alive only while a call waits on it, so an idle
  // EngineWorker never holds a program open.
  #hold(): void {
    const node = this.worker as { ref?(): void; unref?(): void };
    if (this.#pending.size > 0) node.ref?.();
    else node.unref?.();
  }
}

function rebuild(error: ErrorRecord): EngineError {
  switch (error.name) {
    case "EngineStoppedError":
      return new EngineStoppedError(error.message, error.help ?? "");
    case "EngineTimeoutError":
      return new EngineTimeoutError(error.message, error.help ?? "");
    default:
      return new EngineError(error.message, error.help, error.diagnostics);
  }
}

// URLs and URL strings cross to the worker as absolute URLs; bytes and modules as they are.
function absolute(source: URL | string | ArrayBuffer | WebAssembly.Module): WorkerWasm {
  if (source instanceof URL) return source.href;
  if (typeof source !== "string") return source;
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  return new URL(source, base).href;
}

async function defaultWorker(): Promise<WorkerLike> {
  const scope = globalThis as { process?: { versions?: { node?: string } }; Worker?: new (url: URL, options: { type: "module" }) => WorkerLike };
  if (scope.process?.versions?.node !== undefined) {
    const { Worker } = await import("node:worker_threads");
    return new Worker(ENTRY);
  }
  return new scope.Worker!(ENTRY, { type: "module" });
}
