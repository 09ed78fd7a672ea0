// Decisions, their outcomes, and reading them back from eval results (bindings §14).
import { EngineError } from "../errors.js";
import type { EvalResult } from "../records.js";
import { goQuote } from "./constants.js";
import { Defaulted, type EngineType, type Out } from "./types.js";

/** A decision's payload fields by name, in declaration order, each a type or a defaulted type. */
export type PayloadSpec = Record<string, EngineType | Defaulted>;

/** How a kind's results read: whether it collects every decision, and whether it ranks them. */
export interface ResultShape {
  readonly collect: boolean;
  readonly ranked: boolean;
}

/** Where a result of `Kind.compile`'s policy keeps its kind's shape; JSON.stringify skips it. */
export const RESULT_SHAPE: unique symbol = Symbol("resultShape");

/** An eval result as a kind's policy answers it, stamped with the kind's result shape. */
export type ShapedResult = EvalResult & { [RESULT_SHAPE]?: ResultShape };

/** A decision's payload as it comes back. */
export type PayloadOf<D> = D extends Decision<string, infer P> ? { [K in keyof P]: Out<P[K] extends Defaulted<infer T> ? T : P[K]> } : never;

/** One entry of a decision in an outcome, with its payload. */
export interface Matched<P> {
  payload: P;
  reason: string;
  policy?: string;
  position?: string;
}

/** A decision of a kind: its name, its reasons in order, and its payload fields. */
export class Decision<R extends string = string, P extends PayloadSpec = PayloadSpec> {
  /** @internal Built by `decision`. */
  constructor(
    readonly name: string,
    readonly reasons: readonly R[],
    readonly payload: P,
  ) {}

  /** The outcome of this decision with `name`; an undeclared reason throws, with a did-you-mean. */
  reason(name: R): Outcome<R> {
    if (!this.reasons.includes(name)) {
      const near = nearest(name, this.reasons);
      throw new EngineError(
        `decision ${this.name} has no reason ${goQuote(name)}`,
        `${near === undefined ? "" : `did you mean ${goQuote(near)}? `}${this.name} declares: ${this.reasons.join(", ")}`,
      );
    }
    return new Outcome(this.name, name);
  }

  /** The payload when the outcome is exactly one entry of this decision; undefined otherwise. */
  match(res: EvalResult): PayloadOf<this> | undefined {
    requireSingleOutcome(res, "match");
    const [only, ...more] = res.outcome;
    const matched = only !== undefined && more.length === 0 && only.decision === this.name;
    return matched ? ((only.payload ?? {}) as PayloadOf<this>) : undefined;
  }

  /** Every entry of this decision, in outcome order. */
  matchAll(res: EvalResult): Matched<PayloadOf<this>>[] {
    return res.outcome
      .filter((entry) => entry.decision === this.name)
      .map((entry) => ({
        payload: (entry.payload ?? {}) as PayloadOf<this>,
        reason: entry.reason,
        ...(entry.policy === undefined ? {} : { policy: entry.policy }),
        ...(entry.position === undefined ? {} : { position: entry.position }),
      }));
  }

  toString(): string {
    return this.name;
  }
}

/** One reason of one decision. */
export class Outcome<R extends string = string> {
  /** @internal Built by `decision.reason`. */
  constructor(
    readonly decision: string,
    readonly reason: R,
  ) {}

  /** Whether the outcome is exactly one entry of this decision with this reason. */
  is(res: EvalResult): boolean {
    requireSingleOutcome(res, "is");
    const [only, ...more] = res.outcome;
    return only !== undefined && more.length === 0 && only.decision === this.decision && only.reason === this.reason;
  }

  toString(): string {
    return `${this.decision}.${this.reason}`;
  }
}

/** A decision. */
export function decision<const R extends string, P extends PayloadSpec = {}>(name: string, reasons: readonly R[], payload?: P): Decision<R, P> {
  return new Decision(name, [...reasons], { ...(payload ?? ({} as P)) });
}

// A collecting kind without precedence has no single outcome to match.
function requireSingleOutcome(res: EvalResult, what: string): void {
  const shape = (res as ShapedResult)[RESULT_SHAPE];
  const unranked = shape === undefined ? res.collect === true : shape.collect && !shape.ranked;
  if (unranked) {
    throw new EngineError(
      `${what} on a collecting kind's result, which has no single outcome; read it with matchAll`,
      "a collecting kind applies every decision that fired; with precedence, the top rank reads with match",
    );
  }
}

/**
 * The candidate closest to `name` by Levenshtein distance over UTF-16 units, if any is close
 * enough: below max(2, length/3) + 1, each better candidate lowering the bar (bindings §14).
 */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  let bar = Math.max(2, Math.floor(name.length / 3)) + 1;
  let best: string | undefined;
  for (const candidate of candidates) {
    const d = levenshtein(name, candidate);
    if (d < bar) {
      bar = d;
      best = candidate;
    }
  }
  return best;
}

/** The Levenshtein distance between two texts, over UTF-16 units. */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
