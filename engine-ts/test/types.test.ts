// The type helpers, checked by tsc when the tests build: a wrong type fails the build, and each line
// marked as an expected error must be one. At run time this file only evaluates a typed policy.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  decision,
  defineKind,
  enumType,
  fn,
  struct,
  t,
  type ArgsOf,
  type FieldsIn,
  type FieldsOut,
  type In,
  type InputOf,
  type Out,
  type PayloadOf,
} from "@svc/engine";
import { loadEngine } from "./support.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<_ extends true>(): void {}

const tier = enumType("Tier", ["gold", "silver"]);
const owner = struct("Owner", { name: t.string, tier, since: t.timestamp, nickname: t.optional(t.string) });
const grant = decision("grant", ["member", "owner"], { ttl: t.duration.default("1h"), scopes: t.list(t.string) });
const refuse = decision("refuse", ["fallback"]);
const describe = fn([owner, t.duration], t.string, (who, age) => `${who.name} for ${age}`);
const Access = defineKind("Access", {
  version: 1,
  inputs: { owner, seen: t.timestamp, note: t.optional(t.string), counts: t.map(t.string, t.int) },
  functions: { describe },
  decisions: [refuse, grant],
  default: refuse.reason("fallback"),
});

expectType<Equal<Out<typeof t.timestamp>, string>>();
expectType<Equal<In<typeof t.timestamp>, Date | string>>();
expectType<Equal<Out<typeof tier>, "gold" | "silver">>();
expectType<Equal<Out<ReturnType<typeof t.optional<typeof t.int>>>, number | null>>();
expectType<Equal<FieldsOut<typeof owner.fields>, { name: string; tier: "gold" | "silver"; since: string; nickname: string | null }>>();
expectType<Equal<ArgsOf<typeof describe>, [{ name: string; tier: "gold" | "silver"; since: string; nickname: string | null }, string]>>();
expectType<Equal<PayloadOf<typeof grant>, { ttl: string; scopes: string[] }>>();

// An optional field's key may be left out going in; a required one may not.
const goingIn: FieldsIn<typeof owner.fields> = { name: "ana", tier: "gold", since: new Date(0) };
// @ts-expect-error: tier is required
const missing: FieldsIn<typeof owner.fields> = { name: "ana", since: "2026-01-01T00:00:00Z" };
// @ts-expect-error: an enum takes only its values
const wrongTier: In<typeof tier> = "bronze";
// @ts-expect-error: an undeclared reason is a type error
const undeclared = () => grant.reason("admin");

const input: InputOf<typeof Access> = { owner: goingIn, seen: new Date("2026-03-01T08:00:00Z"), counts: { a: 1 } };

test("a typed policy takes its kind's input and its results read as the decisions' payloads", async () => {
  void [missing, wrongTier, undeclared];
  const engine = await loadEngine();
  const policy = Access.compile(engine, [
    { path: "access/main.sigil", source: 'policy access.main: Access@1\n\nwhen describe(owner, 1h) == "ana for 1h" {\n  grant(reason: owner, scopes: ["all"])\n}\n' },
  ]);
  const result = policy.eval(input);
  policy.release();
  const payload: { ttl: string; scopes: string[] } | undefined = grant.match(result);
  assert.deepEqual(payload, { ttl: "1h", scopes: ["all"] });
});
