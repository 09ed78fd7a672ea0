// Engine and Policy: one method per op, on the calling thread (bindings §6, §7).
import { EngineError, type EngineStoppedError } from "./errors.js";
import type {
  CompileRequirement,
  Diagnostic,
  EvalResult,
  Explanation,
  HostFunction,
  LintLevel,
  Requirement,
  SourceFile,
  Stub,
  TestResult,
  VersionInfo,
} from "./records.js";
import { RESULT_SHAPE, type ResultShape, type ShapedResult } from "./kind/decision.js";
import { defaultOutput, plainJson, Runtime, type OutputCallback } from "./runtime.js";
import { compileModule, type WasmSource } from "./source.js";

/** How `Engine.load` starts the module. */
export interface LoadOptions {
  /** Receives the module's output a line at a time. Default: standard error to `console.error`. */
  output?: OutputCallback;
}

/** The `check` op's fields. */
export interface CheckOptions {
  /** Name patterns of the policies to check; every policy when left out. */
  policies?: string[];
  /** A configuration file's requirements. */
  require?: Requirement[];
  /** A configuration file's lints. */
  lints?: Record<string, LintLevel>;
  /** The host's own documents (`trusted_files`). */
  trustedFiles?: SourceFile[];
}

/** The `compile` op's fields. */
export interface CompileOptions {
  /** The policy to compile; may be left out when the files hold exactly one. */
  policy?: string;
  /** Policies the compiled one must invoke. */
  require?: CompileRequirement[];
  /** The host's own documents (`trusted_files`), such as its guardrails. */
  trustedFiles?: SourceFile[];
  /** Stand-ins for host functions, by name. */
  stubs?: Record<string, Stub>;
  /** Host functions by name; their names become the op's `functions`. */
  functions?: Record<string, HostFunction>;
}

/** The `eval` op's fields. */
export interface EvalOptions {
  /** The evaluation's deadline (`timeout_ms`); none when left out, zero or negative. */
  timeoutMs?: number;
}

/** The `explain` op's fields, for files. */
export interface ExplainOptions {
  /** Name pattern of the policies to explain; every policy when left out. */
  policy?: string;
  /** The host's own documents (`trusted_files`). */
  trustedFiles?: SourceFile[];
}

/** The `format` op's fields. */
export interface FormatOptions {
  /** The file's path for diagnostics; `<stdin>` when left out. */
  path?: string;
}

/** The `test` op's fields. */
export interface TestOptions {
  /** Files that a case's `input_file` names (`data_files`). */
  data?: SourceFile[];
  /** Regular expression matched against case names; every case runs when left out. */
  run?: string;
  /** The host's own documents (`trusted_files`). */
  trustedFiles?: SourceFile[];
}

// Policies collected without release() are released by their instance (seed: Policy, item 3).
const unreleased = new FinalizationRegistry<{ runtime: Runtime; handle: number }>(({ runtime, handle }) => {
  try {
    runtime.release(handle);
  } catch {
    // nobody is left to tell: the handle stays in the instance until it goes
  }
});

/**
 * One instance of the engine module, on the calling thread. Every method is synchronous and runs
 * one op; one instance runs one call at a time, so parallel work needs several engines (or
 * `EngineWorker`s).
 */
export class Engine {
  readonly #runtime: Runtime;

  private constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /** Compiles (unless given compiled), instantiates and starts the module. */
  static async load(source: WasmSource, options: LoadOptions = {}): Promise<Engine> {
    const module = await compileModule(source);
    return new Engine(await Runtime.start(module, options.output ?? defaultOutput));
  }

  /** Why the instance stopped, undefined while it works; a stopped engine fails every call. */
  get stopped(): EngineStoppedError | undefined {
    return this.#runtime.stopped;
  }

  /** The module's build: the `version` op. */
  version(): VersionInfo {
    return this.#runtime.call({ op: "version" }) as unknown as VersionInfo;
  }

  /** Every diagnostic of the files, errors and warnings alike; finding errors is not a failure. */
  check(files: SourceFile[], options: CheckOptions = {}): Diagnostic[] {
    const body = this.#runtime.call({
      op: "check",
      files,
      ...present("trusted_files", options.trustedFiles),
      ...present("policies", options.policies),
      ...present("require", options.require),
      ...present("lints", options.lints),
    });
    return (body.diagnostics ?? []) as unknown as Diagnostic[];
  }

  /** Compiles one policy; throws an EngineError with the diagnostics when it doesn't compile. */
  compile(files: SourceFile[], options: CompileOptions = {}): Policy {
    const functions = options.functions ?? {};
    const body = this.#runtime.call({
      op: "compile",
      files,
      ...present("trusted_files", options.trustedFiles),
      ...present("policy", options.policy),
      ...present("require", options.require),
      ...present("stubs", options.stubs),
      ...present("functions", Object.keys(functions)),
    });
    return new Policy(
      this.#runtime,
      body.handle as number,
      body.policy as string,
      (body.diagnostics ?? []) as unknown as Diagnostic[],
      { ...functions },
    );
  }

  /** Explains the policies of the files: what each decides and when. */
  explain(files: SourceFile[], options: ExplainOptions = {}): Explanation[] {
    const body = this.#runtime.call({
      op: "explain",
      files,
      ...present("trusted_files", options.trustedFiles),
      ...present("policy", options.policy),
    });
    return (body.explanations ?? []) as unknown as Explanation[];
  }

  /** The source in the canonical style; throws an EngineError with the syntax errors. */
  format(source: string, options: FormatOptions = {}): string {
    return this.#runtime.call({ op: "format", source, ...present("path", options.path) }).source as string;
  }

  /** Runs test files (`tests` are the op's `test_files`) against the files' policies. */
  test(files: SourceFile[], tests: SourceFile[], options: TestOptions = {}): TestResult[] {
    const body = this.#runtime.call({
      op: "test",
      ...present("files", files),
      ...present("trusted_files", options.trustedFiles),
      test_files: tests,
      ...present("data_files", options.data),
      ...present("run", options.run),
    });
    return (body.results ?? []) as unknown as TestResult[];
  }
}

/**
 * A policy compiled inside its engine's instance, held there as a handle until `release()` (or
 * `using`, or garbage collection) lets it go. `I` is the input its kind takes.
 */
export class Policy<I = Record<string, unknown>> {
  readonly #runtime: Runtime;
  readonly #functions: Readonly<Record<string, HostFunction>>;
  // How every eval request without a deadline begins, up to its input.
  readonly #evalStart: string;
  #handle: number | undefined;
  #shape: ResultShape | undefined;

  /** The compiled policy's name. */
  readonly name: string;
  /** Problems in documents the policy does not use. */
  readonly diagnostics: Diagnostic[];

  /** @internal Policies come from `Engine.compile`. */
  constructor(runtime: Runtime, handle: number, name: string, diagnostics: Diagnostic[], functions: Record<string, HostFunction>) {
    this.#runtime = runtime;
    this.#handle = handle;
    this.#functions = functions;
    this.#evalStart = `{"op":"eval","handle":${JSON.stringify(handle)},"input":`;
    this.name = name;
    this.diagnostics = diagnostics;
    unreleased.register(this, { runtime, handle }, this);
  }

  /** The module's handle; undefined once released. */
  get handle(): number | undefined {
    return this.#handle;
  }

  /**
   * Evaluates one input. A failed evaluation is a result whose `error` says why; an input that
   * doesn't fit the kind throws an EngineError. Host functions run synchronously inside.
   */
  eval(input: I, options: EvalOptions = {}): EvalResult {
    const handle = this.#open();
    // Most evaluations have no deadline, and an input JSON.stringify writes alone: their request is
    // the input's text after #evalStart. A toJSON of the input's own would see another key there.
    const json = options.timeoutMs === undefined && !hasToJson(input) ? plainJson(input) : undefined;
    const body =
      json !== undefined
        ? this.#runtime.callJson(`${this.#evalStart}${json}}`, this.#functions)
        : this.#runtime.call({ op: "eval", handle, input, ...present("timeout_ms", options.timeoutMs) }, this.#functions);
    const result = body as unknown as ShapedResult;
    // Not enumerable: a copy of the record ({...result}) is a plain record again.
    if (this.#shape !== undefined) Object.defineProperty(result, RESULT_SHAPE, { value: this.#shape });
    return result;
  }

  /**
   * Marks every later result with how its kind's results read, for the decision helpers;
   * `Kind.compile` does it.
   * @internal
   */
  stampResults(shape: ResultShape): void {
    this.#shape = shape;
  }

  /** What the policy decides and when: the `explain` op on the handle. */
  explain(): Explanation {
    const body = this.#runtime.call({ op: "explain", handle: this.#open() });
    const first = (body.explanations as unknown as Explanation[] | undefined)?.[0];
    if (first === undefined) {
      throw new EngineError(`the module returned no explanation for policy ${this.name}`, "this is a bug in the engine; please report it");
    }
    return first;
  }

  /** Releases the policy inside the module; calling it again does nothing. */
  release(): void {
    const handle = this.#handle;
    if (handle === undefined) return;
    this.#handle = undefined;
    unreleased.unregister(this);
    this.#runtime.release(handle);
  }

  /** Same as `release()`, for `using`. */
  [Symbol.dispose](): void {
    this.release();
  }

  #open(): number {
    if (this.#handle === undefined) throw new EngineError(`policy ${this.name} was released`, "compile it again to evaluate it");
    return this.#handle;
  }
}

function hasToJson(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function";
}

// An option the caller set becomes a request field; unset and empty ones are left out (bindings §6).
function present(field: string, value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (Array.isArray(value) && value.length === 0) return {};
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) return {};
  return { [field]: value };
}
