// The module's records, field for field the JSON it writes (module-abi §11, bindings §16). A field
// the module leaves out when empty is optional here; records pass through as the module wrote them,
// so JSON.stringify writes them back with the same members in the same order.

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** A virtual file: a path as diagnostics name it, and its text. */
export interface SourceFile {
  path: string;
  source: string;
}

/** A problem the engine found in a document. */
export interface Diagnostic {
  severity: "error" | "warning";
  lint?: string;
  file?: string;
  document?: string;
  message: string;
  help?: string;
  line?: number;
  column?: number;
}

/** The build of the module: the `version` op. */
export interface VersionInfo {
  version: string;
  commit: string;
  commitTime: string;
  dirty: boolean;
  goVersion: string;
  platform: string;
}

/** One candidate of an evaluation, in an eval record's `outcome` or `trace`. */
export interface EvalEntry {
  payload?: JsonObject;
  decision: string;
  reason: string;
  policy?: string;
  position?: string;
  chain?: string[];
  conditions?: string[];
  outcome?: boolean;
}

/** An assert that failed, in an eval failure. */
export interface FailedAssert {
  reason: string;
  policy: string;
  position: string;
  cause?: string;
  help?: string;
  outcome?: EvalEntry[];
}

/** Why an evaluation failed. A failed evaluation is a result, not an exception. */
export interface EvalFailure {
  kind: "runtime" | "conflict" | "assertion" | "canceled";
  phase?: "input" | "outcome";
  message: string;
  help: string;
  asserts?: FailedAssert[];
  candidates?: EvalEntry[];
}

/** The eval record of one evaluation. */
export interface EvalResult {
  payload?: JsonObject;
  error?: EvalFailure;
  policy: string;
  decision?: string;
  reason?: string;
  outcome: EvalEntry[];
  trace: EvalEntry[];
  collect?: boolean;
}

/** One rule or assert of an explanation. */
export interface ExplainEntry {
  kind: "decision" | "assert";
  decision?: string;
  reason: string;
  phase?: "input" | "outcome";
  chain: string[];
  conditions: string[];
  check?: string;
  payload?: string[];
}

/** What a policy decides and when: the `explain` op's record. */
export interface Explanation {
  policy: string;
  policies: number;
  modules: number;
  rules: ExplainEntry[] | null;
}

/** One case of a test file. */
export interface TestCaseResult {
  name: string;
  error?: string;
  failures?: string[];
  line: number;
  passed: boolean;
}

/** One test file's results. */
export interface TestResult {
  file: string;
  policy: string;
  error?: string;
  cases: TestCaseResult[];
}

/** A requirement of `check`: a policy every matching root must invoke. */
export interface Requirement {
  policy: string;
  trusted?: string[];
  roots?: string[];
}

/** A requirement of `compile`: a policy the compiled one must invoke. */
export interface CompileRequirement {
  policy: string;
}

/** One stubbed call: the args it matches and what it answers. */
export interface StubCall {
  args: JsonValue[];
  returns?: JsonValue;
  error?: string;
}

/** A stand-in for a host function, as a test file's `stubs:` writes one. */
export interface Stub {
  returns?: JsonValue;
  error?: string;
  calls?: StubCall[];
}

/** How a lint reports: not at all, as a warning, or as an error. */
export type LintLevel = "off" | "warn" | "error";

/**
 * A host function: takes the call's args as plain JSON values and returns the result synchronously.
 * Throwing fails the call with a runtime error that quotes the message; a promise fails it too.
 */
export type HostFunction = (...args: any[]) => unknown;
