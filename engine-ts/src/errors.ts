import type { Diagnostic } from "./records.js";

/**
 * What the engine refused, with how to fix it: an op that answered `ok: false`, a kind that breaks
 * a rule, a released policy, or a module that stopped. `message` is what failed; `help` says how to
 * fix it, when known; `diagnostics` are the records that stopped the op, when there are any.
 */
export class EngineError extends Error {
  /** How to fix it, when known. */
  readonly help: string | undefined;
  /** The diagnostics that stopped the op; empty when none did. */
  readonly diagnostics: readonly Diagnostic[];

  constructor(message: string, help?: string, diagnostics: readonly Diagnostic[] = [], options?: ErrorOptions) {
    super(message, options);
    this.name = "EngineError";
    // An empty help is no help (bindings §11).
    this.help = help === "" ? undefined : help;
    this.diagnostics = diagnostics;
  }

  /** The message, then the help and one line per diagnostic, as the other bindings print them. */
  override toString(): string {
    let text = `${this.name}: ${this.message}`;
    if (this.help !== undefined) text += `\n  help: ${this.help}`;
    for (const d of this.diagnostics) text += `\n  ${renderDiagnostic(d)}`;
    return text;
  }
}

/**
 * The module stopped (it trapped, exited, or ran out of stack) while handling a call. The instance
 * can't be used again: every later call on it throws this same error without entering the module.
 */
export class EngineStoppedError extends EngineError {
  constructor(message: string, help: string, options?: ErrorOptions) {
    super(message, help, [], options);
    this.name = "EngineStoppedError";
  }
}

/** A worker call past its deadline; the worker was terminated and the next call starts another. */
export class EngineTimeoutError extends EngineError {
  constructor(message: string, help: string) {
    super(message, help);
    this.name = "EngineTimeoutError";
  }
}

/**
 * One diagnostic on one line: `file:line:column: severity: message (help: …)`, with the position
 * parts only where the diagnostic has them.
 */
export function renderDiagnostic(d: Diagnostic): string {
  let where = "";
  if (d.file !== undefined) {
    where = d.file;
    if (d.line !== undefined) {
      where += `:${d.line}`;
      if (d.column !== undefined) where += `:${d.column}`;
    }
    where += ": ";
  }
  const help = d.help !== undefined && d.help !== "" ? ` (help: ${d.help})` : "";
  return `${where}${d.severity}: ${d.message}${help}`;
}
