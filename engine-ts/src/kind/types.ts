// The types a kind declares, printed as the kind file writes them (bindings §13.1).
import type { HostFunction, JsonValue } from "../records.js";

/** Any type of the engine. */
export abstract class EngineType {
  /** The type as the kind file writes it: `string`, `list<T>`, `map<K, V>`, `?T`, or a name. */
  abstract toString(): string;

  /** This type as a payload field with a default. */
  default(value: JsonValue | bigint): Defaulted<this> {
    return new Defaulted(this, value);
  }

  /** Whether `other` is the same type: the same structure, by name for enums and structs too. */
  equals(other: EngineType): boolean {
    return this.shape() === other.shape();
  }

  /** @internal The whole structure as text, for equals. */
  abstract shape(): string;
}

/** A scalar type: `string`, `bool`, `int`, `float`, `duration` or `timestamp`. */
export class BasicType<N extends BasicName = BasicName> extends EngineType {
  /** Which form of type this is; keeps the forms apart for the type helpers. */
  readonly form = "basic" as const;
  /** @internal Built by `t`. */
  constructor(readonly name: N) {
    super();
  }
  toString(): string {
    return this.name;
  }
  shape(): string {
    return this.name;
  }
}

/** The names of the scalar types. */
export type BasicName = "string" | "bool" | "int" | "float" | "duration" | "timestamp";

/** `list<T>`. */
export class ListType<E extends EngineType = EngineType> extends EngineType {
  /** Which form of type this is; keeps the forms apart for the type helpers. */
  readonly form = "list" as const;
  /** @internal Built by `t.list`. */
  constructor(readonly element: E) {
    super();
  }
  toString(): string {
    return `list<${this.element}>`;
  }
  shape(): string {
    return `list<${this.element.shape()}>`;
  }
}

/** `map<K, V>`. */
export class MapType<K extends EngineType = EngineType, V extends EngineType = EngineType> extends EngineType {
  /** Which form of type this is; keeps the forms apart for the type helpers. */
  readonly form = "map" as const;
  /** @internal Built by `t.map`. */
  constructor(
    readonly key: K,
    readonly value: V,
  ) {
    super();
  }
  toString(): string {
    return `map<${this.key}, ${this.value}>`;
  }
  shape(): string {
    return `map<${this.key.shape()}, ${this.value.shape()}>`;
  }
}

/** `?T`: a value or none. */
export class OptionalType<E extends EngineType = EngineType> extends EngineType {
  /** Which form of type this is; keeps the forms apart for the type helpers. */
  readonly form = "optional" as const;
  /** @internal Built by `t.optional`. */
  constructor(readonly element: E) {
    super();
  }
  toString(): string {
    return `?${this.element}`;
  }
  shape(): string {
    return `?${this.element.shape()}`;
  }
}

/** An enum: a name and its values, in order. */
export class EnumType<V extends string = string> extends EngineType {
  /** Which form of type this is; keeps the forms apart for the type helpers. */
  readonly form = "enum" as const;
  /** @internal Built by `enumType`. */
  constructor(
    readonly name: string,
    readonly values: readonly V[],
  ) {
    super();
  }
  toString(): string {
    return this.name;
  }
  shape(): string {
    return `enum ${this.name}: ${JSON.stringify(this.values)}`;
  }
}

/** A struct's fields by name, in declaration order. */
export type Fields = Record<string, EngineType>;

/** A struct: a name and its fields, in declaration order. */
export class StructType<F extends Fields = Fields> extends EngineType {
  /** Which form of type this is; keeps the forms apart for the type helpers. */
  readonly form = "struct" as const;
  /** @internal Built by `struct`. */
  constructor(
    readonly name: string,
    readonly fields: F,
  ) {
    super();
  }
  toString(): string {
    return this.name;
  }
  shape(): string {
    return `type ${this.name} {${Object.entries(this.fields).map(([name, type]) => `${name}: ${type.shape()}`).join(", ")}}`;
  }
}

/** A payload field's type with its default value. */
export class Defaulted<T extends EngineType = EngineType> {
  /** @internal Built by `type.default(value)`. */
  constructor(
    readonly type: T,
    readonly value: JsonValue | bigint,
  ) {}
}

/** A host function's signature, and optionally its implementation. */
export class Fn<P extends readonly EngineType[] = readonly EngineType[], R extends EngineType = EngineType> {
  /** @internal Built by `fn`. */
  constructor(
    readonly params: P,
    readonly result: R,
    readonly impl: HostFunction | undefined,
  ) {}
}

/** Any type a kind declares. */
export type AnyType = EngineType;

/** The scalar types and the type constructors. */
export const t = {
  string: new BasicType("string"),
  bool: new BasicType("bool"),
  int: new BasicType("int"),
  float: new BasicType("float"),
  duration: new BasicType("duration"),
  timestamp: new BasicType("timestamp"),
  /** `list<T>`. */
  list: <E extends EngineType>(element: E) => new ListType(element),
  /** `map<K, V>`. */
  map: <K extends EngineType, V extends EngineType>(key: K, value: V) => new MapType(key, value),
  /** `?T`. */
  optional: <E extends EngineType>(element: E) => new OptionalType(element),
} as const;

/** An enum. */
export function enumType<const V extends string>(name: string, values: readonly V[]): EnumType<V> {
  return new EnumType(name, [...values]);
}

/** A struct type; field order is declaration order. */
export function struct<F extends Fields>(name: string, fields: F): StructType<F> {
  return new StructType(name, { ...fields });
}

/** A host function signature, optionally with its implementation. */
export function fn<const P extends readonly EngineType[], R extends EngineType>(
  params: P,
  result: R,
  impl?: (...args: { -readonly [I in keyof P]: Out<P[I]> }) => In<R>,
): Fn<P, R> {
  return new Fn(params, result, impl as HostFunction | undefined);
}

/** What comes back for a value of type `T`: timestamps and durations as text, optionals as null. */
export type Out<T> =
  T extends BasicType<infer N> ? BasicOut[N]
  : T extends ListType<infer E> ? Out<E>[]
  : T extends MapType<EngineType, infer V> ? Record<string, Out<V>>
  : T extends OptionalType<infer E> ? Out<E> | null
  : T extends EnumType<infer V> ? V
  : T extends StructType<infer F> ? FieldsOut<F>
  : unknown;

/** What a host passes for a value of type `T`: a timestamp may be a Date, an optional left out. */
export type In<T> =
  T extends BasicType<"timestamp"> ? Date | string
  : T extends BasicType<infer N> ? BasicOut[N]
  : T extends ListType<infer E> ? In<E>[]
  : T extends MapType<EngineType, infer V> ? Record<string, In<V>>
  : T extends OptionalType<infer E> ? In<E> | null | undefined
  : T extends EnumType<infer V> ? V
  : T extends StructType<infer F> ? FieldsIn<F>
  : unknown;

interface BasicOut {
  string: string;
  bool: boolean;
  int: number;
  float: number;
  duration: string;
  timestamp: string;
}

type OptionalKeys<F> = { [K in keyof F]: F[K] extends OptionalType ? K : never }[keyof F];

/** A struct's fields as they come back. */
export type FieldsOut<F> = { [K in keyof F]: Out<F[K]> };

/** A struct's fields as a host passes them: an optional field's key may be left out. */
export type FieldsIn<F> = { [K in Exclude<keyof F, OptionalKeys<F>>]: In<F[K]> } & { [K in OptionalKeys<F>]?: In<F[K]> };

/** A host function's arguments, as the engine sends them. */
export type ArgsOf<P> = P extends Fn<infer Params> ? { -readonly [I in keyof Params]: Out<Params[I]> } : never;
