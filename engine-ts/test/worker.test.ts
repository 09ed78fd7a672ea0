// EngineWorker: the engine's ops in a worker_threads worker, with deadlines that terminate it.
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import { after, describe, test } from "node:test";
import { EngineError, EngineTimeoutError } from "@svc/engine";
import { EngineWorker, WorkerPolicy } from "@svc/engine/worker";
import { alertRouting, page } from "./coverage-kinds.js";
import { ENGINE_WASM, LABELS, LABELS_INPUT } from "./support.js";

const FUNCTIONS = new URL("./functions.js", import.meta.url);
const workers: EngineWorker[] = [];
after(() => workers.forEach((w) => w.terminate()));

function engineWorker(options: Partial<ConstructorParameters<typeof EngineWorker>[0]> = {}): EngineWorker {
  const worker = new EngineWorker({ wasm: ENGINE_WASM, functions: FUNCTIONS, ...options });
  workers.push(worker);
  return worker;
}

describe("EngineWorker", () => {
  test("runs the ops in the worker", async () => {
    const worker = engineWorker();
    assert.equal((await worker.version()).platform, "wasip1/wasm");
    assert.deepEqual(await worker.check(LABELS), []);
    assert.equal((await worker.explain(LABELS))[0]?.policy, "labels.check");
    assert.equal(await worker.format("policy   a.b: K@1\n"), "policy a.b: K@1\n");
    await assert.rejects(worker.test(LABELS, []), (e: unknown) => e instanceof EngineError && e.message === "the request holds no test files");
  });

  test("rejects with the engine's EngineError, message, help and diagnostics", async () => {
    const worker = engineWorker();
    await assert.rejects(worker.format("policy {", { path: "broken.sigil" }), (e: unknown) => e instanceof EngineError && e.diagnostics[0]?.file === "broken.sigil" && e.help !== undefined);
  });

  test("compiles a policy whose host functions are exports of the functions module", async () => {
    const worker = engineWorker();
    const policy = await worker.compile(LABELS, { functions: ["split", "describe"] });
    assert.ok(policy instanceof WorkerPolicy);
    assert.equal(policy.name, "labels.check");
    assert.deepEqual(policy.diagnostics, []);
    assert.equal((await policy.eval(LABELS_INPUT)).reason, "tagged");
    assert.equal((await policy.explain()).policy, "labels.check");
    await policy.release();
    await policy.release();
    await assert.rejects(policy.eval(LABELS_INPUT), (e: unknown) => e instanceof EngineError && e.message === "policy labels.check was released");
  });

  test("refuses a function the functions module doesn't export", async () => {
    const worker = engineWorker();
    await assert.rejects(worker.compile(LABELS, { functions: ["splitt"] }), (e: unknown) => e instanceof EngineError && e.message === "the functions module has no function splitt");
  });

  test("terminates a worker past an eval's deadline plus 500 ms, and the policy compiles itself in the next", async () => {
    const worker = engineWorker();
    const policy = await worker.compile(LABELS, { functions: ["split", "describe"] });
    await assert.rejects(
      policy.eval({ ...LABELS_INPUT, label: "spin" }, { timeoutMs: 100 }),
      (e: unknown) => e instanceof EngineTimeoutError && e.message === "the engine worker didn't answer eval within 600 ms" && e.help === "the worker was terminated; the next call starts a new one",
    );
    assert.equal((await policy.eval(LABELS_INPUT)).reason, "tagged");
  });

  test("terminates a worker past the worker's deadline for a call that sets none", async () => {
    const worker = engineWorker({ timeoutMs: 300 });
    const policy = await worker.compile(LABELS, { functions: ["split", "describe"] });
    await assert.rejects(policy.eval({ ...LABELS_INPUT, label: "spin" }), (e: unknown) => e instanceof EngineTimeoutError && e.message === "the engine worker didn't answer eval within 300 ms");
  });

  test("terminates a worker past a call's own deadline, failing the calls waiting on it", async () => {
    const worker = engineWorker();
    const policy = await worker.compile(LABELS, { functions: ["split", "describe"] });
    const spinning = policy.eval({ ...LABELS_INPUT, label: "spin" }, { timeoutMs: 60_000 });
    // The worker runs one call at a time: version waits behind the spinning evaluation.
    await assert.rejects(worker.version({ timeoutMs: 200 }), (e: unknown) => e instanceof EngineTimeoutError && e.message === "the engine worker didn't answer version within 200 ms");
    await assert.rejects(spinning, (e: unknown) => e instanceof EngineTimeoutError && e.message === "the engine worker didn't answer version within 200 ms");
    assert.equal((await policy.eval(LABELS_INPUT)).reason, "tagged");
  });

  test("fails a worker that doesn't start in time, and tries again on the next call", async () => {
    let starts = 0;
    const worker = engineWorker({
      startTimeoutMs: 3000,
      worker: () => (++starts === 1 ? new Worker("setInterval(() => {}, 1000)", { eval: true }) : new Worker(new URL("../dist/worker-entry.js", import.meta.url))),
    });
    await assert.rejects(worker.version(), (e: unknown) => e instanceof EngineTimeoutError && e.message === "the engine worker didn't start within 3000 ms");
    assert.equal((await worker.version()).platform, "wasip1/wasm");
    assert.equal(starts, 2);
  });

  test("terminate fails the waiting calls with its reason", async () => {
    const worker = engineWorker();
    await worker.version();
    const waiting = worker.version();
    worker.terminate(new Error("shutting down"));
    await assert.rejects(waiting, /shutting down/);
    assert.equal((await worker.version()).platform, "wasip1/wasm");
  });

  test("compiles a kind's policy with the kind file added and host functions from the functions module", async () => {
    const worker = engineWorker();
    const policy = await alertRouting.kind.compile(worker, [{ path: "alerts/route.sigil", source: alertRouting.policy }]);
    const result = await policy.eval({ alert: { name: "disk", severity: "critical", labels: {}, firing_for: "1m" }, teams: [] });
    assert.deepEqual(page.match(result), { oncall: "the module's oncall for disk" });
  });
});
