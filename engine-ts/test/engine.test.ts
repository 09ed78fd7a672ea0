// Engine and Policy on the calling thread: every op, every WasmSource form, the policy lifecycle.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { ABI_VERSION, Engine, EngineError, Policy, type EvalResult, type SourceFile } from "@svc/engine";
import { ENGINE_WASM, LABELS, LABELS_INPUT, loadEngine } from "./support.js";

const DOOR: SourceFile[] = [
  {
    path: "door_kind.sigil",
    source: `kind Door version 1

input badge: string

decision open {
  reason: staff
}

decision shut {
  reason: stranger
}

collect one
precedence shut > open

default shut(reason: stranger)
`,
  },
  {
    path: "doors/main.sigil",
    source: `policy doors.main: Door@1

when badge == "staff" {
  open(reason: staff)
}
`,
  },
];

const engine = await loadEngine();

describe("Engine.load", () => {
  const bytes = readFileSync(ENGINE_WASM);

  test("takes a URL, a URL string, bytes, a view, a compiled module, a Response and a promise of one", async () => {
    const sources = [
      ENGINE_WASM,
      ENGINE_WASM.href,
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      new Uint8Array(bytes),
      await WebAssembly.compile(bytes),
      new Response(bytes, { headers: { "content-type": "application/wasm" } }),
      Promise.resolve(new Response(bytes)),
    ];
    for (const source of sources) {
      const loaded = await Engine.load(source);
      assert.equal(loaded.version().platform, "wasip1/wasm");
    }
  });

  test("speaks the ABI version the package exports", () => {
    assert.equal(ABI_VERSION, 1);
  });
});

describe("Engine", () => {
  test("version answers the version record", () => {
    assert.deepEqual(Object.keys(engine.version()), ["version", "commit", "commitTime", "dirty", "goVersion", "platform"]);
  });

  test("check answers the diagnostics, and finding errors is no failure", () => {
    assert.deepEqual(engine.check(DOOR), []);
    const broken = [DOOR[0]!, { path: "doors/main.sigil", source: DOOR[1]!.source.replace("badge ==", "badges ==") }];
    const [found, ...rest] = engine.check(broken);
    assert.deepEqual(rest, []);
    assert.equal(found?.severity, "error");
    assert.equal(found?.file, "doors/main.sigil");
    assert.equal(found?.line, 3);
  });

  test("check passes its options as the op's fields", () => {
    assert.throws(
      () => engine.check(DOOR, { lints: { no_such_lint: "off" } }),
      (e: EngineError) => e instanceof EngineError && e.message.includes("no_such_lint"),
    );
    assert.deepEqual(engine.check(DOOR, { policies: ["doors.*"], trustedFiles: [], require: [] }), []);
  });

  test("compile answers a policy with its name, handle and diagnostics", () => {
    const policy = engine.compile(DOOR);
    assert.ok(policy instanceof Policy);
    assert.equal(policy.name, "doors.main");
    assert.equal(typeof policy.handle, "number");
    assert.deepEqual(policy.diagnostics, []);
    policy.release();
  });

  test("compile throws an EngineError with the diagnostics for a policy that doesn't compile", () => {
    const broken = [DOOR[0]!, { path: "doors/main.sigil", source: DOOR[1]!.source.replace("badge ==", "badges ==") }];
    assert.throws(
      () => engine.compile(broken),
      (e: unknown) => e instanceof EngineError && e.diagnostics.length === 1 && e.diagnostics[0]?.file === "doors/main.sigil",
    );
  });

  test("explain answers the explanations of the files' policies", () => {
    const [explained, ...rest] = engine.explain(DOOR, { policy: "doors.main" });
    assert.deepEqual(rest, []);
    assert.equal(explained?.policy, "doors.main");
  });

  test("format answers the canonical source, and throws with the syntax errors", () => {
    assert.equal(engine.format("policy   doors.main: Door@1\n"), "policy doors.main: Door@1\n");
    assert.throws(
      () => engine.format("policy {", { path: "broken.sigil" }),
      (e: unknown) => e instanceof EngineError && e.diagnostics.length > 0 && e.diagnostics[0]?.file === "broken.sigil",
    );
  });

  test("test runs test files against the policies", () => {
    const tests: SourceFile[] = [
      {
        path: "doors/main_test.yaml",
        source: `policy: doors.main
cases:
  - name: staff opens
    input: {badge: staff}
    expect: {decision: open, reason: staff}
  - name: strangers stay out
    input: {badge: guest}
    expect: {decision: open, reason: staff}
`,
      },
    ];
    assert.deepEqual(
      engine.test(DOOR, tests).map((r) => ({ file: r.file, policy: r.policy, cases: r.cases.map((c) => [c.name, c.line, c.passed]) })),
      [{ file: "doors/main_test.yaml", policy: "doors.main", cases: [["staff opens", 3, true], ["strangers stay out", 6, false]] }],
    );
    assert.deepEqual(
      engine.test(DOOR, tests, { run: "staff" }).flatMap((r) => r.cases.map((c) => c.name)),
      ["staff opens"],
    );
  });

  test("an op the module refuses throws its message and help", () => {
    assert.throws(
      () => engine.test(DOOR, [{ path: "doors/main.yaml", source: "" }]),
      (e: unknown) => e instanceof EngineError && e.help !== undefined && e.diagnostics.length === 0,
    );
  });

  test("a request JSON can't hold fails before the module sees it, and the engine works on", () => {
    const policy = engine.compile(DOOR);
    for (const input of [{ badge: NaN }, { badge: 1n }, { badge: Infinity }]) {
      assert.throws(
        () => policy.eval(input as never),
        (e: unknown) => e instanceof EngineError && e.message.startsWith("the request can't be encoded as JSON: "),
      );
    }
    assert.throws(
      () => policy.eval({ badge: NaN, since: 1n } as never),
      (e: unknown) => e instanceof EngineError && e.message === "the request can't be encoded as JSON: NaN has no JSON number",
      "the first value JSON can't hold is the one the error names",
    );
    assert.equal(policy.eval({ badge: "staff" }).decision, "open");
    policy.release();
  });
});

describe("Policy", () => {
  test("eval answers the eval record", () => {
    const policy = engine.compile(DOOR);
    const result: EvalResult = policy.eval({ badge: "staff" });
    assert.deepEqual(result.outcome, [{ decision: "open", reason: "staff", policy: "doors.main", position: "doors/main.sigil:4:3" }]);
    assert.equal(result.decision, "open");
    assert.equal(result.error, undefined);
    policy.release();
  });

  test("eval sends the input as JSON.stringify writes it in the request: null in it, a toJSON of its own", () => {
    const policy = engine.compile(DOOR);
    assert.equal(policy.eval({ badge: "null" }).decision, "shut");
    assert.equal(policy.eval({ toJSON: (key: string) => ({ badge: key === "input" ? "staff" : key }) } as never).decision, "open");
    policy.release();
  });

  test("eval sends inputs whole however long, in any script", () => {
    const seen: string[] = [];
    const policy = engine.compile(LABELS, { functions: { split: (text: string, sep: string) => (seen.push(text), text.split(sep)), describe: () => "" } });
    // Short, then more UTF-8 bytes than the request buffer holds in fewer characters, then more
    // characters than it holds, then short again.
    const labels = ["team,é😀", `team,${"€".repeat(10_000)}`, `team,${"x".repeat(40_000)}`, "team,ok"];
    for (const label of labels) assert.equal(policy.eval({ ...LABELS_INPUT, label }).reason, "tagged");
    assert.deepEqual(seen, labels);
    policy.release();
  });

  test("eval throws an EngineError for an input that doesn't fit the kind", () => {
    const policy = engine.compile(DOOR);
    assert.throws(() => policy.eval({ badge: 7 } as never), (e: unknown) => e instanceof EngineError && e.message.startsWith("the input"));
    policy.release();
  });

  test("eval passes timeoutMs as timeout_ms", () => {
    const policy = engine.compile(DOOR);
    assert.throws(() => policy.eval({ badge: "staff" }, { timeoutMs: 1.5 }), (e: unknown) => e instanceof EngineError && e.message.includes("timeout_ms"));
    assert.equal(policy.eval({ badge: "staff" }, { timeoutMs: 60_000 }).decision, "open");
    policy.release();
  });

  test("explain answers the policy's explanation, as explain on its files does", () => {
    const policy = engine.compile(DOOR);
    assert.deepEqual(policy.explain(), engine.explain(DOOR)[0]);
    policy.release();
  });

  test("release lets the handle go; a second release does nothing; a released policy refuses calls", () => {
    const policy = engine.compile(DOOR);
    const handle = policy.handle;
    policy.release();
    policy.release();
    assert.equal(policy.handle, undefined);
    const released = (e: unknown) =>
      e instanceof EngineError && e.message === "policy doors.main was released" && e.help === "compile it again to evaluate it";
    assert.throws(() => policy.eval({ badge: "staff" }), released);
    assert.throws(() => policy.explain(), released);
    assert.notEqual(engine.compile(DOOR).handle, handle, "a released handle is not handed out again");
  });

  test("Symbol.dispose releases it, for using", () => {
    const policy = engine.compile(DOOR);
    policy[Symbol.dispose]();
    assert.equal(policy.handle, undefined);
  });

  test("outlives nothing it needs: a policy evaluates with its host functions after compile returned", () => {
    const policy = engine.compile(LABELS, { functions: { split: (text: string, sep: string) => text.split(sep), describe: () => "" } });
    assert.equal(policy.eval(LABELS_INPUT).reason, "tagged");
    policy.release();
  });
});
