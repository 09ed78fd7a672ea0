// defineKind: a kind declared in host code, written as its kind file byte for byte as the JVM
// library's Kind builder writes it (bindings §13).
import { Engine, type CompileOptions, type Policy } from "../engine.js";
import type { EngineWorker, WorkerCompileOptions, WorkerPolicy } from "../worker.js";
import { EngineError } from "../errors.js";
import type { Diagnostic, HostFunction, SourceFile } from "../records.js";
import { constantText, goQuote, NotAConstant } from "./constants.js";
import { Decision, Outcome, type ResultShape } from "./decision.js";
import { Defaulted, EngineType, EnumType, Fn, type FieldsIn, ListType, MapType, OptionalType, StructType } from "./types.js";

/** The input a kind's policies take. */
export type InputOf<K> = K extends Kind<infer S> ? (S["inputs"] extends Record<string, EngineType> ? FieldsIn<S["inputs"]> : {}) : never;

/** What a kind declares. */
export interface KindSpec {
  /** `kind <Name> version <n>`; from 1. */
  version: number;
  /** The oldest version its policies may name, from 1 to `version`; every version when left out. */
  accepts?: number;
  /** `input <name>: <Type>`, in declaration order. */
  inputs?: Record<string, EngineType>;
  /** Enums that nothing else reaches; printed after the ones something uses. */
  enums?: EnumType[];
  /** `fn <name>(<types>) -> <type>`; a result can't be optional. */
  functions?: Record<string, Fn>;
  /** `collect one`, highest precedence first; needs `default`. */
  decisions?: Decision[];
  /** `collect all`, instead of `decisions`. */
  collect?: Decision[];
  /** `precedence ...` of a `collect all` kind: every decision of `collect`. */
  precedence?: Decision[];
  /** `precedence <decision>: <r1> > <r2>`: a decision, ranking its reasons in declared order, or a list of one decision's reasons. */
  reasonPrecedence?: (Decision | Outcome[])[];
  /** `exclusive <a>, <b>`: sets of at least two decisions or reasons. */
  exclusive?: (Decision | Outcome)[][];
  /** `default <decision>(reason: <reason>)`; required with `decisions`. */
  default?: Outcome;
  /** `conflict <decision>(reason: <reason>)`; only with `decisions`. */
  conflict?: Outcome;
}

/** Kind.compile's options: the engine's, and the path of the kind file it adds. */
export interface KindCompileOptions extends CompileOptions {
  /** The path of the kind file compile adds; the kind's own file name when left out. */
  kindFile?: string;
}

/** Kind.compile's options in a worker: `functions` names exports of the worker's functions module. */
export interface KindWorkerCompileOptions extends WorkerCompileOptions {
  /** The path of the kind file compile adds; the kind's own file name when left out. */
  kindFile?: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Whole comment lines and white space, then `kind Name version` with `version` a whole word.
const HEADER = /^(?:\s*\/\/[^\n]*\n)*\s*kind\s+([A-Za-z_][A-Za-z0-9_]*)\s+version(?![A-Za-z0-9_])/;

/** A kind: its document, and the host functions its `fn`s were given. */
export class Kind<S extends KindSpec = KindSpec> {
  readonly #schema: string;
  readonly #shape: ResultShape;

  /** @internal Built by `defineKind`. */
  constructor(
    readonly name: string,
    readonly spec: S,
    schema: string,
  ) {
    this.#schema = schema;
    this.#shape = { collect: spec.collect !== undefined, ranked: (spec.precedence ?? []).length > 0 };
  }

  get version(): number {
    return this.spec.version;
  }

  /** The kind document, byte for byte what the JVM library writes for the same kind. */
  schema(): string {
    return this.#schema;
  }

  /** The kind document as a virtual file; by default `<name in snake case>.sigil`. */
  file(path: string = `${snakeCase(this.name)}.sigil`): SourceFile {
    return { path, source: this.#schema };
  }

  /** The implementations given to `fn`, by function name. */
  functions(): Record<string, HostFunction> {
    const implementations: Record<string, HostFunction> = {};
    for (const [name, f] of Object.entries(this.spec.functions ?? {})) {
      if (f.impl !== undefined) implementations[name] = f.impl;
    }
    return implementations;
  }

  /** Checks the kind document with the engine. */
  check(engine: Engine): Diagnostic[] {
    return engine.check([this.file()]);
  }

  /**
   * Compiles with the kind document added when neither `files` nor `trustedFiles` holds it, and
   * with the kind's implementations under `options.functions`; throws for a kind document of this
   * kind that isn't `schema()`. In an EngineWorker the host functions are the exports of its
   * functions module named like the kind's implemented functions, unless `options.functions` names
   * others.
   */
  compile(engine: Engine, files: SourceFile[], options?: KindCompileOptions): Policy<InputOf<this>>;
  compile(worker: EngineWorker, files: SourceFile[], options?: KindWorkerCompileOptions): Promise<WorkerPolicy<InputOf<this>>>;
  compile(
    target: Engine | EngineWorker,
    files: SourceFile[],
    options: KindCompileOptions | KindWorkerCompileOptions = {},
  ): Policy<InputOf<this>> | Promise<WorkerPolicy<InputOf<this>>> {
    const { kindFile, ...compile } = options;
    const all = this.#withKind(files, compile.trustedFiles ?? [], kindFile);
    if (target instanceof Engine) {
      const functions = { ...this.functions(), ...(compile as CompileOptions).functions };
      const policy = target.compile(all, { ...(compile as CompileOptions), functions }) as Policy<InputOf<this>>;
      policy.stampResults(this.#shape);
      return policy;
    }
    const functions = (compile as WorkerCompileOptions).functions ?? Object.keys(this.functions());
    return target.compile<InputOf<this>>(all, { ...(compile as WorkerCompileOptions), functions }).then((policy) => {
      policy.stampResults(this.#shape);
      return policy;
    });
  }

  #withKind(files: SourceFile[], trusted: SourceFile[], path: string | undefined): SourceFile[] {
    let found = false;
    for (const file of [...files, ...trusted]) {
      if (declaredKind(file.source) !== this.name) continue;
      if (file.source !== this.#schema) {
        throw new EngineError(
          `${file.path} declares kind ${this.name}, but not as this program defines it`,
          "the file is stale: export the kind again, or drop the file and let compile add the current one",
        );
      }
      found = true;
    }
    return found ? files : [this.file(path), ...files];
  }

  toString(): string {
    return `Kind[${this.name} version ${this.version}]`;
  }
}

/** Builds a kind; throws an EngineError listing every problem. */
export function defineKind<const S extends KindSpec>(name: string, spec: S): Kind<S> {
  const { text, problems } = new KindWriter(name, spec).write();
  if (problems.length > 0) {
    throw new EngineError(
      `defineKind(${name}): invalid kind:${problems.map((p) => `\n  ${p}`).join("")}`,
      "fix every problem listed; the kind can't be exported until then",
    );
  }
  return new Kind(name, spec, text);
}

/** The kind a kind document declares, from its header; undefined for any other document. */
export function declaredKind(source: string): string | undefined {
  return HEADER.exec(source)?.[1];
}

/** `AlertRouting` → `alert_routing`, `HTTPServer` → `http_server`, `Kind2Go` → `kind2_go`. */
export function snakeCase(name: string): string {
  let out = "";
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (i > 0 && isUpper(c)) {
      const before = name[i - 1]!;
      const lowerAfter = i + 1 < name.length && isLower(name[i + 1]!);
      if (isLower(before) || (before >= "0" && before <= "9") || (isUpper(before) && lowerAfter)) out += "_";
    }
    out += c.toLowerCase();
  }
  return out;
}

function isUpper(c: string): boolean {
  return c !== c.toLowerCase() && c === c.toUpperCase();
}

function isLower(c: string): boolean {
  return c !== c.toUpperCase() && c === c.toLowerCase();
}

/** Checks a kind's spec, collecting every problem in the order bindings §13.2 gives, and writes it. */
class KindWriter {
  readonly #problems: string[] = [];
  readonly #byName = new Map<string, Decision>();
  readonly #rankings = new Map<string, string[]>();
  readonly #exclusive: string[] = [];
  readonly #decisions: Decision[];
  #precedence: string[] = [];

  constructor(
    readonly name: string,
    readonly spec: KindSpec,
  ) {
    this.#decisions = spec.decisions ?? spec.collect ?? [];
  }

  write(): { text: string; problems: string[] } {
    if (this.spec.decisions !== undefined && this.spec.collect !== undefined) {
      this.#problem("the kind sets both decisions and collect", "decisions ranks them for `collect one`, collect applies them all; use one");
    }
    this.#checkHeader();
    this.#checkDecisions();
    this.#resolvePrecedence();
    this.#checkFallbacks();
    this.#resolveRankings();
    this.#resolveExclusiveSets();
    const walk = this.#walkTypes();
    const text = this.#text(walk);
    return { text, problems: this.#problems };
  }

  #problem(text: string, advice?: string): void {
    this.#problems.push(advice === undefined ? text : `${text} (${advice})`);
  }

  get #collect(): boolean {
    return this.spec.decisions === undefined && this.spec.collect !== undefined;
  }

  #checkHeader(): void {
    const { version, accepts = 1 } = this.spec;
    if (!IDENTIFIER.test(this.name)) {
      this.#problem(`kind name ${goQuote(this.name)} isn't an identifier`, "use letters, digits and underscores, like AlertRouting");
    }
    if (!Number.isInteger(version) || version < 1) this.#problem(`version ${version} isn't a whole number from 1`);
    if (!Number.isInteger(accepts) || accepts < 1 || accepts > version) this.#problem(`accepts ${accepts} isn't from 1 to the version, ${version}`);
  }

  #checkDecisions(): void {
    if (this.#decisions.length === 0) this.#problem("the kind declares no decisions", "set decisions, or collect for a collecting kind");
    for (const d of this.#decisions) {
      if (this.#byName.has(d.name)) this.#problem(`decision ${d.name} is declared twice`);
      this.#byName.set(d.name, d);
      if (!IDENTIFIER.test(d.name)) this.#problem(`decision name ${goQuote(d.name)} isn't an identifier`);
      if (d.reasons.length === 0) this.#problem(`decision ${d.name} declares no reasons`);
      const reasons = new Set<string>();
      for (const r of d.reasons) {
        if (reasons.has(r)) this.#problem(`decision ${d.name} declares reason ${r} twice`);
        reasons.add(r);
        if (!IDENTIFIER.test(r)) this.#problem(`decision ${d.name}: reason ${goQuote(r)} isn't an identifier`);
      }
    }
  }

  // A `collect one` kind ranks its decisions in declaration order; a collecting kind only when it
  // was given a precedence, which must then list every decision once.
  #resolvePrecedence(): void {
    const names = this.#decisions.map((d) => d.name);
    const given = this.spec.precedence?.map((d) => d.name);
    if (!this.#collect) {
      if (given !== undefined) this.#problem("precedence is for a collecting kind", "decisions already ranks them in order");
      this.#precedence = names;
      return;
    }
    if (given === undefined || given.length === 0) return;
    this.#precedence = given;
    const unique = new Set(given).size === given.length;
    if (!unique || !names.every((n) => given.includes(n)) || !given.every((n) => this.#byName.has(n))) {
      this.#problem("precedence must list every decision of the kind once", `the decisions are ${names.join(", ")}`);
    }
  }

  #checkFallbacks(): void {
    if (!this.#collect && this.spec.default === undefined && this.#decisions.length > 0) {
      this.#problem("a `collect one` kind needs a default", "set default to the outcome when no rule fires");
    }
    if (this.#collect && this.spec.conflict !== undefined) {
      this.#problem("conflict is for a `collect one` kind", "a collecting kind applies every decision, so nothing conflicts over the one outcome");
    }
    if (this.spec.default !== undefined) this.#checkFallback(this.spec.default, "default");
    if (this.spec.conflict !== undefined) this.#checkFallback(this.spec.conflict, "conflict");
  }

  // A fallback outcome is built with no rule to give payload values: each field needs a default.
  #checkFallback(outcome: Outcome, what: string): void {
    const d = this.#declared(outcome, what);
    for (const [field, type] of Object.entries(d?.payload ?? {})) {
      if (!(type instanceof Defaulted)) {
        this.#problem(`${what} ${outcome}: payload field ${field} has no default`, "give it one with .default(value)");
      }
    }
  }

  #declared(outcome: Outcome, what: string): Decision | undefined {
    const d = this.#byName.get(outcome.decision);
    if (d === undefined) {
      this.#problem(`${what} ${outcome}: decision ${outcome.decision} isn't one of the kind's`);
      return undefined;
    }
    if (!d.reasons.includes(outcome.reason)) this.#problem(`${what} ${outcome}: decision ${d.name} has no reason ${outcome.reason}`);
    return d;
  }

  #resolveRankings(): void {
    for (const entry of this.spec.reasonPrecedence ?? []) {
      const ranking = entry instanceof Decision ? entry.reasons.map((r) => new Outcome(entry.name, r)) : entry;
      const first = ranking[0];
      if (first === undefined) {
        this.#problem("a reasonPrecedence entry names no reasons");
        continue;
      }
      const decision = first.decision;
      const d = this.#byName.get(decision);
      if (d === undefined) {
        this.#problem(`reasonPrecedence: decision ${decision} isn't one of the kind's`);
        continue;
      }
      const reasons: string[] = [];
      for (const o of ranking) {
        if (o.decision === decision) reasons.push(o.reason);
        else this.#problem(`reasonPrecedence ${decision}: reason ${o.reason} belongs to decision ${o.decision}`, "rank each decision's reasons in an entry of its own");
      }
      if (this.#rankings.has(decision)) this.#problem(`reasons of ${decision} are ranked twice`);
      const unique = new Set(reasons).size === reasons.length;
      if (!unique || !d.reasons.every((r) => reasons.includes(r)) || !reasons.every((r) => d.reasons.includes(r))) {
        this.#problem(`the reasonPrecedence of ${decision} must name every reason of ${decision} once`, `${decision} declares: ${d.reasons.join(", ")}`);
      }
      this.#rankings.set(decision, reasons);
    }
  }

  #resolveExclusiveSets(): void {
    for (const set of this.spec.exclusive ?? []) {
      if (set.length < 2) this.#problem("an exclusive set names at least two outcomes");
      for (const member of set) {
        if (member instanceof Outcome) this.#declared(member, "exclusive");
        else if (!this.#byName.has(member.name)) this.#problem(`exclusive: decision ${member.name} isn't one of the kind's`);
      }
      this.#exclusive.push(set.map(String).join(", "));
    }
  }

  // Inputs, then each function's parameters and result, then the payload fields, then the enums
  // declared on their own: the order the kind file prints enums and structs in.
  #walkTypes(): TypeWalk {
    const walk = new TypeWalk(this.#problems);
    Object.values(this.spec.inputs ?? {}).forEach((type) => walk.visit(type));
    for (const [name, f] of Object.entries(this.spec.functions ?? {})) {
      if (!IDENTIFIER.test(name)) this.#problem(`function name ${goQuote(name)} isn't an identifier`);
      f.params.forEach((type) => walk.visit(type));
      walk.visit(f.result);
      if (f.result instanceof OptionalType) {
        this.#problem(`function ${name}: the result can't be optional`, "return the zero value and let the policy compare, or return a list");
      }
    }
    for (const d of this.#decisions) {
      Object.values(d.payload).forEach((field) => walk.visit(field instanceof Defaulted ? field.type : field));
    }
    (this.spec.enums ?? []).forEach((type) => walk.visit(type));
    for (const e of walk.enums) {
      if (e.values.length === 0) this.#problem(`enum ${e.name} declares no values`);
      if (new Set(e.values).size !== e.values.length) this.#problem(`enum ${e.name} declares a value twice`);
    }
    return walk;
  }

  #text(types: TypeWalk): string {
    let out = `kind ${this.name} version ${this.spec.version}`;
    if ((this.spec.accepts ?? 1) > 1) out += `, accepts: ${this.spec.accepts}`;
    out += "\n";
    out += group(types.enums.map((e) => `enum ${e.name}: ${e.values.join(" | ")}`));
    for (const s of types.structs) {
      const fields = Object.entries(s.fields);
      out += `\ntype ${s.name} {${fields.length > 0 ? "\n" : ""}`;
      for (const [name, type] of fields) out += `  ${name}: ${type}\n`;
      out += "}\n";
    }
    out += group(Object.entries(this.spec.inputs ?? {}).map(([name, type]) => `input ${name}: ${type}`));
    out += group(Object.entries(this.spec.functions ?? {}).map(([name, f]) => `fn ${name}(${f.params.join(", ")}) -> ${f.result}`));
    for (const d of this.#decisions) {
      out += `\ndecision ${d.name} {\n  reason: ${d.reasons.join(" | ")}\n`;
      for (const [name, field] of Object.entries(d.payload)) {
        out += field instanceof Defaulted ? `  ${name}: ${field.type} = ${this.#defaultText(d, name, field)}\n` : `  ${name}: ${field}\n`;
      }
      out += "}\n";
    }
    const resolution = this.#resolutionLines();
    if (resolution.length > 0) out += `\n${resolution.join("\n")}\n`;
    const call = (o: Outcome) => `${o.decision}(reason: ${o.reason})`;
    if (this.spec.default !== undefined) out += `\ndefault ${call(this.spec.default)}\n`;
    if (this.spec.conflict !== undefined) {
      // Without a default (only a kind with problems) the pair's blank line comes first.
      out += `${this.spec.default === undefined ? "\n" : ""}conflict ${call(this.spec.conflict)}\n`;
    }
    return out;
  }

  #defaultText(d: Decision, field: string, defaulted: Defaulted): string {
    const where = `decision ${d.name}: field ${field}: `;
    if (defaulted.type instanceof OptionalType && defaulted.value === null) {
      this.#problem(`${where}\`none\` isn't a constant: leave the default out; a field without one is required`);
      return "none";
    }
    try {
      return constantText(defaulted.type, defaulted.value);
    } catch (e) {
      if (!(e instanceof NotAConstant)) throw e;
      this.#problem(where + e.message);
      return "?";
    }
  }

  #resolutionLines(): string[] {
    const lines: string[] = [];
    if (this.#decisions.length > 0) lines.push(this.#collect ? "collect all" : "collect one");
    if (this.#precedence.length > 0) lines.push(`precedence ${this.#precedence.join(" > ")}`);
    for (const d of this.#decisions) {
      const ranked = this.#rankings.get(d.name);
      if (ranked !== undefined) lines.push(`precedence ${d.name}: ${ranked.join(" > ")}`);
    }
    for (const set of this.#exclusive) lines.push(`exclusive ${set}`);
    return lines;
  }
}

/** Which enums and structs the kind file prints, in the order it prints them (bindings §13.3). */
class TypeWalk {
  readonly enums: EnumType[] = [];
  readonly structs: StructType[] = [];
  readonly #byName = new Map<string, EngineType>();

  constructor(readonly problems: string[]) {}

  visit(type: EngineType): void {
    if (type instanceof EnumType) {
      if (this.#claim(type)) this.enums.push(type);
    } else if (type instanceof StructType) {
      if (this.#claim(type)) {
        // Registered before its fields, so a nested struct prints after its container.
        this.structs.push(type);
        Object.values<EngineType>(type.fields).forEach((field) => this.visit(field));
      }
    } else if (type instanceof ListType || type instanceof OptionalType) {
      this.visit(type.element);
    } else if (type instanceof MapType) {
      this.visit(type.key);
      this.visit(type.value);
    }
  }

  // Whether the name is new. The same type again is no news; another type under a taken name is
  // a clash, and the first one keeps the name.
  #claim(type: EnumType | StructType): boolean {
    const known = this.#byName.get(type.name);
    if (known === undefined) {
      this.#byName.set(type.name, type);
      return true;
    }
    if (!known.equals(type)) {
      this.problems.push(`two different types are both named ${type.name} (rename one; each enum and struct needs a name of its own)`);
    }
    return false;
  }
}

function group(lines: string[]): string {
  return lines.length === 0 ? "" : `\n${lines.map((line) => `${line}\n`).join("")}`;
}
