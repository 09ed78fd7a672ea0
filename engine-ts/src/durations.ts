// The engine's durations on the host side (bindings §15): whole numbers with the units d, h, m, s
// and ms, largest first, each at most once; "" is zero. Not Go's syntax, not ISO 8601.
import { EngineError } from "./errors.js";

/** A duration in the engine's syntax, such as `1h30m`. */
export type Duration = string;

/** An RFC 3339 timestamp as the engine writes it. */
export type Timestamp = string;

/** The longest duration the engine holds: Go's int64 nanoseconds, in whole milliseconds. */
const MAX_MS = 9_223_372_036_854;

const UNITS = [
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1_000],
  ["ms", 1],
] as const;

const HELP_SYNTAX = 'units are d, h, m, s and ms, largest first, each at most once: "1h30m"';
const HELP_REPEATED = "each unit may appear once in a duration; add the components together";
const HELP_ORDER = 'write the largest unit first, like "1h30m"';
const HELP_RANGE = "a duration is at most about 292 years";

/** Validates a duration and returns its canonical form: `90m` becomes `1h30m`. */
export function duration(text: string): Duration {
  return ms(toMs(text));
}

/** The duration of a whole, non-negative number of milliseconds: 720000 becomes `12m`. */
export function ms(milliseconds: number): Duration {
  if (!Number.isInteger(milliseconds) || milliseconds < 0) {
    throw new EngineError(`${milliseconds} ms isn't a duration Sigil can write`, "pass a whole number of milliseconds from 0");
  }
  if (milliseconds > MAX_MS) throw new EngineError(`${milliseconds} ms isn't a duration Sigil can write`, HELP_RANGE);
  if (milliseconds === 0) return "0s";
  let rest = milliseconds;
  let text = "";
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) text += `${count}${unit}`;
    rest -= count * size;
  }
  return text;
}

/** The milliseconds of a duration: `12m` becomes 720000. */
export function toMs(d: Duration): number {
  let total = 0;
  let last = -1;
  let at = 0;
  while (at < d.length) {
    const digits = /^[0-9]+/.exec(d.slice(at))?.[0] ?? "";
    const after = at + digits.length;
    // ms before m: the longer unit symbol wins where both match.
    const unit = digits === "" ? -1 : d.startsWith("ms", after) ? 4 : UNITS.findIndex(([symbol]) => d.startsWith(symbol, after));
    if (unit < 0) throw invalid(d, HELP_SYNTAX);
    if (unit === last) throw invalid(d, HELP_REPEATED);
    if (unit < last) throw invalid(d, HELP_ORDER);
    const [symbol, size] = UNITS[unit]!;
    total += Number(digits) * size;
    if (!Number.isSafeInteger(total) || total > MAX_MS) throw invalid(d, HELP_RANGE);
    last = unit;
    at = after + symbol.length;
  }
  return total;
}

function invalid(text: string, help: string): EngineError {
  return new EngineError(`invalid duration ${JSON.stringify(text)}`, help);
}
