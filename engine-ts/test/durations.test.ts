// The engine's duration syntax on the host side (bindings §15).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { duration, EngineError, ms, toMs } from "@svc/engine";

function refusal(message: string, help: string) {
  return (e: unknown) => e instanceof EngineError && e.message === message && e.help === help;
}

describe("toMs", () => {
  test("reads every unit, largest first", () => {
    const cases: [string, number][] = [["", 0], ["0s", 0], ["1h30m", 5_400_000], ["2d3h", 183_600_000], ["5ms", 5], ["1m30s250ms", 90_250], ["90s", 90_000]];
    assert.deepEqual(cases.map(([text]) => [text, toMs(text)]), cases);
  });

  test("refuses what isn't a duration, saying the units", () => {
    const help = 'units are d, h, m, s and ms, largest first, each at most once: "1h30m"';
    for (const text of ["90 minutes", "h", "5", "1.5h", "-1h", "1us"]) {
      assert.throws(() => toMs(text), refusal(`invalid duration ${JSON.stringify(text)}`, help));
    }
  });

  test("refuses a repeated unit, a smaller unit first, and more than about 292 years", () => {
    assert.throws(() => toMs("1h1h"), refusal('invalid duration "1h1h"', "each unit may appear once in a duration; add the components together"));
    assert.throws(() => toMs("30m1h"), refusal('invalid duration "30m1h"', 'write the largest unit first, like "1h30m"'));
    assert.throws(() => toMs("106752d"), refusal('invalid duration "106752d"', "a duration is at most about 292 years"));
    assert.equal(toMs("106751d23h47m16s854ms"), 9_223_372_036_854);
  });
});

describe("ms", () => {
  test("writes the canonical form", () => {
    const cases: [number, string][] = [[0, "0s"], [1, "1ms"], [720_000, "12m"], [5_400_000, "1h30m"], [183_600_000, "2d3h"], [86_400_001, "1d1ms"]];
    assert.deepEqual(cases.map(([n]) => [n, ms(n)]), cases);
  });

  test("refuses a fraction, a negative number and more than about 292 years", () => {
    assert.throws(() => ms(1.5), refusal("1.5 ms isn't a duration Sigil can write", "pass a whole number of milliseconds from 0"));
    assert.throws(() => ms(-1), refusal("-1 ms isn't a duration Sigil can write", "pass a whole number of milliseconds from 0"));
    assert.throws(() => ms(9_223_372_036_855), refusal("9223372036855 ms isn't a duration Sigil can write", "a duration is at most about 292 years"));
  });
});

describe("duration", () => {
  test("validates and returns the canonical form", () => {
    assert.equal(duration("90m"), "1h30m");
    assert.equal(duration(""), "0s");
    assert.throws(() => duration("1h1h"), EngineError);
  });
});
