// The spec's policy examples through the package: every input evaluates to the record
// `sigil eval -o json` prints, and the explanations likewise, as the JVM library's
// ExamplesParityTest checks them from the same expected files. Key order counts; the expected
// files' indentation and escapes don't, so both sides are compared as compact JSON.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { loadEngine, sigilFiles, specExamples } from "./support.js";

/** Each scenario with its root policy (examples/policies/README.md). */
const SCENARIOS = [
  ["01-refund-gate", "refunds.desk"],
  ["02-door-access", "doors.main"],
  ["03-tool-grants", "tools.grants"],
  ["04-change-asserts", "changes.gate"],
  ["05-deploy-composition", "payments.deploy"],
] as const;

const examples = specExamples();
const engine = await loadEngine();

function compact(json: string): string {
  return JSON.stringify(JSON.parse(json));
}

describe("the spec's policy examples", { skip: examples === undefined && "spec examples not found; set SIGIL_SPEC_EXAMPLES" }, () => {
  for (const [scenario, root] of SCENARIOS) {
    const dir = join(examples ?? "", "policies", scenario);
    const expected = (name: string) => join(dir, "expected", `${name}.json`);

    test(`${scenario}: the bundle checks cleanly`, () => {
      assert.deepEqual(engine.check(sigilFiles(dir)), []);
    });

    for (const input of readdirSync(join(dir, "inputs")).sort()) {
      const name = input.replace(/\.json$/, "");
      test(`${scenario} ${name}: evaluates to the record the CLI prints`, () => {
        const policy = engine.compile(sigilFiles(dir), { policy: root });
        try {
          const result = policy.eval(JSON.parse(readFileSync(join(dir, "inputs", input), "utf8")));
          assert.equal(JSON.stringify(result), compact(readFileSync(expected(name), "utf8")));
        } finally {
          policy.release();
        }
      });
    }

    if (existsSync(expected("explain"))) {
      test(`${scenario}: explains as the CLI does, by files and by handle`, () => {
        const explained = engine.explain(sigilFiles(dir), { policy: root });
        assert.equal(JSON.stringify(explained), compact(readFileSync(expected("explain"), "utf8")));
        const policy = engine.compile(sigilFiles(dir), { policy: root });
        assert.deepEqual([policy.explain()], explained);
        policy.release();
      });
    }
  }
});
