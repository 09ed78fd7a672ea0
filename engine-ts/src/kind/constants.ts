// Payload defaults written as the kind file's constants (bindings §13.5), and Go's %q quoting.
import { duration } from "../durations.js";
import { EngineError } from "../errors.js";
import type { JsonValue } from "../records.js";
import { BasicType, EngineType, EnumType, ListType, MapType, OptionalType, StructType } from "./types.js";

/** A default that isn't a constant of its field's type; the message says why. */
export class NotAConstant extends Error {}

const MIN_INT = -(2n ** 63n);
const MAX_INT = 2n ** 63n - 1n;
// The minimum int64's magnitude isn't a valid literal, so the kind file writes it as arithmetic
// over two that are, as the JVM library does.
const MIN_INT_TEXT = "(-9223372036854775807 - 1)";
const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
};

/** The constant `value` is for a field of `type`; throws NotAConstant. */
export function constantText(type: EngineType, value: JsonValue | bigint): string {
  if (type instanceof BasicType) return basicText(type, value);
  if (type instanceof ListType && Array.isArray(value)) return `[${value.map((e) => constantText(type.element, e)).join(", ")}]`;
  if (type instanceof MapType && isObject(value)) return mapText(type, value);
  if (type instanceof OptionalType) return value === null ? "none" : constantText(type.element, value);
  if (type instanceof EnumType && typeof value === "string" && type.values.includes(value)) return value;
  if (type instanceof StructType) {
    throw new NotAConstant(`a default of struct type ${type} can't be written in a kind file: give struct-typed payload fields no default`);
  }
  throw mismatch(type, value);
}

function basicText(type: BasicType, value: JsonValue | bigint): string {
  switch (type.name) {
    case "string":
      if (typeof value === "string") return goQuote(value);
      break;
    case "bool":
      if (typeof value === "boolean") return String(value);
      break;
    case "int": {
      const whole = typeof value === "bigint" ? value : typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : undefined;
      if (whole !== undefined && whole >= MIN_INT && whole <= MAX_INT) return whole === MIN_INT ? MIN_INT_TEXT : String(whole);
      break;
    }
    case "float":
      if (typeof value === "number" && Number.isFinite(value)) return floatText(value);
      break;
    case "duration":
      if (typeof value === "string") {
        try {
          return duration(value);
        } catch (e) {
          throw new NotAConstant((e as EngineError).message);
        }
      }
      break;
    case "timestamp":
      throw new NotAConstant("a timestamp field can't have a default: timestamps come from input; there's no literal for one");
  }
  throw mismatch(type, value);
}

function mapText(type: MapType, value: { [key: string]: JsonValue }): string {
  const numericKeys = type.key instanceof BasicType && (type.key.name === "int" || type.key.name === "float");
  const entries = Object.entries(value).map(([key, v]) => {
    const k: JsonValue | bigint = numericKeys && JSON_NUMBER.test(key) ? (/^-?[0-9]+$/.test(key) ? BigInt(key) : Number(key)) : key;
    return `${constantText(type.key, k)}: ${constantText(type.value, v)}`;
  });
  // By UTF-8 bytes, as the engine sorts them; UTF-16 order differs above U+FFFF.
  const encoder = new TextEncoder();
  return `{${entries.sort((a, b) => compareBytes(encoder.encode(a), encoder.encode(b))).join(", ")}}`;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}

/** A float as the kind file writes it: the shortest digits that read back, without an exponent, with a `.`. */
export function floatText(value: number): string {
  const plain = Object.is(value, -0) ? "-0" : plainDecimal(value);
  return plain.includes(".") ? plain : `${plain}.0`;
}

// JavaScript's shortest round-trip digits, moved out of exponent notation.
function plainDecimal(value: number): string {
  const [mantissa, exponentText] = String(value).split("e");
  if (exponentText === undefined) return mantissa!;
  const negative = mantissa!.startsWith("-");
  const [whole, fraction = ""] = mantissa!.replace("-", "").split(".");
  const digits = whole! + fraction;
  const point = whole!.length + Number(exponentText);
  const text =
    point <= 0 ? `0.${"0".repeat(-point)}${digits}` : point >= digits.length ? digits + "0".repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${text}` : text;
}

/** Go's %q: quoted, with escapes for what Go's unicode.IsPrint doesn't print. */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const codePoint = ch.codePointAt(0)!;
    // A lone surrogate is no character; Go would have read it as the replacement character.
    const c = codePoint >= 0xd800 && codePoint <= 0xdfff ? "\ufffd" : ch;
    out += ESCAPES[c] ?? (PRINTABLE.test(c) ? c : escape(c.codePointAt(0)!));
  }
  return `${out}"`;
}

function escape(codePoint: number): string {
  const hex = codePoint.toString(16);
  if (codePoint < 0x80) return `\\x${hex.padStart(2, "0")}`;
  if (codePoint <= 0xffff) return `\\u${hex.padStart(4, "0")}`;
  return `\\U${hex.padStart(8, "0")}`;
}

function isObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function mismatch(type: EngineType, value: JsonValue | bigint): NotAConstant {
  const json = typeof value === "bigint" ? String(value) : JSON.stringify(value);
  return new NotAConstant(`${json} isn't a constant of type ${type}`);
}
