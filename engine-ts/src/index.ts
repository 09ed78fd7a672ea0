// @svc/engine: the policy engine's WebAssembly module, loaded and spoken to on the calling thread.
export { Engine, Policy } from "./engine.js";
export type { CheckOptions, CompileOptions, EvalOptions, ExplainOptions, FormatOptions, LoadOptions, TestOptions } from "./engine.js";
export { defineKind, Kind } from "./kind/kind.js";
export type { InputOf, KindCompileOptions, KindSpec, KindWorkerCompileOptions } from "./kind/kind.js";
export { decision, Decision, Outcome } from "./kind/decision.js";
export type { Matched, PayloadOf, PayloadSpec } from "./kind/decision.js";
export { BasicType, Defaulted, EngineType, EnumType, enumType, Fn, fn, ListType, MapType, OptionalType, struct, StructType, t } from "./kind/types.js";
export type { AnyType, ArgsOf, Fields, FieldsIn, FieldsOut, In, Out } from "./kind/types.js";
export { duration, ms, toMs } from "./durations.js";
export type { Duration, Timestamp } from "./durations.js";
export { EngineError, EngineStoppedError, EngineTimeoutError } from "./errors.js";
export { ABI_VERSION } from "./runtime.js";
export type { OutputCallback } from "./runtime.js";
export type { WasmSource } from "./source.js";
export type {
  CompileRequirement,
  Diagnostic,
  EvalEntry,
  EvalFailure,
  EvalResult,
  ExplainEntry,
  Explanation,
  FailedAssert,
  HostFunction,
  JsonObject,
  JsonValue,
  LintLevel,
  Requirement,
  SourceFile,
  Stub,
  StubCall,
  TestCaseResult,
  TestResult,
  VersionInfo,
} from "./records.js";
