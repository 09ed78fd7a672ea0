// The messages between EngineWorker and the worker it runs (worker-entry.ts).
import type { Diagnostic } from "./records.js";

/** Where the worker loads the module from: an absolute URL, the bytes, or a compiled module. */
export type WorkerWasm = string | ArrayBuffer | WebAssembly.Module;

/** The first message: load the module, and import the functions module if there is one. */
export interface InitMessage {
  id: number;
  method: "init";
  wasm: WorkerWasm;
  functions: string | undefined;
}

/** One call in the worker. */
export interface CallMessage {
  id: number;
  method: "version" | "check" | "compile" | "explain" | "format" | "test" | "eval" | "policyExplain" | "release";
  args: unknown[];
}

/** An error as it crosses back: rebuilt as the class `name` says. */
export interface ErrorRecord {
  name: string;
  message: string;
  help: string | undefined;
  diagnostics: readonly Diagnostic[];
}

/** The worker's answer to one message. */
export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorRecord };

/** What compile answers in the worker: the policy's handle there, its name and diagnostics. */
export interface CompiledRecord {
  handle: number;
  name: string;
  diagnostics: Diagnostic[];
}
