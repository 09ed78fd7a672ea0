// Eval round trip of the one-rule ranked decision, the JVM benchmark's EvalRoundTrip (rules=1):
// p50 and p99 on the calling thread and through an EngineWorker. A benchmark, not a test: the
// machine's load shows in the numbers; compare runs taken back to back.
//
//   node engine-ts/scripts/bench.mjs [SAMPLES]          (after node engine-ts/scripts/build.mjs)
//   build/deps/node-24.21.0/bin/node engine-ts/scripts/bench.mjs
import { readFileSync } from "node:fs";
import { Engine } from "../dist/index.js";
import { EngineWorker } from "../dist/worker.js";

const SAMPLES = Number(process.argv[2] ?? 20_000);
const WARMUP = Math.min(5_000, SAMPLES);
const WASM = new URL("../engine.wasm", import.meta.url);
// The Refund kind of the JVM benchmarks (bench/src/main/resources), so both hosts time the same request.
const KIND = readFileSync(new URL("../../bench/src/main/resources/dev/svc/bench/refund-kind.sigil", import.meta.url), "utf8");
const POLICY = `policy refund.desk: Refund@1

when amount > 10000 {
  deny(reason: fraud)
}

when amount < 100 + 0 and channel == "web" {
  approve(reason: small, limit: 100)
}
`;
const FILES = [
  { path: "kind.sigil", source: KIND },
  { path: "refund/desk.sigil", source: POLICY },
];
const INPUT = { amount: 40, channel: "web" };

// Times `samples` calls one after another; answers the percentiles in microseconds. A call that
// answers a promise is timed until it settles; a synchronous one isn't awaited, as an await of a
// value costs a turn of the microtask queue that isn't the evaluation's (nor in JMH's figure).
async function measure(call, samples) {
  const times = new Float64Array(samples);
  for (let i = 0; i < samples; i++) {
    const start = process.hrtime.bigint();
    let result = call();
    if (result instanceof Promise) result = await result;
    times[i] = Number(process.hrtime.bigint() - start) / 1000;
    if (result.decision !== "approve") throw new Error(`the benchmark policy doesn't approve: ${JSON.stringify(result)}`);
  }
  times.sort();
  const at = (q) => times[Math.min(samples - 1, Math.floor(q * samples))];
  return { p50: at(0.5), p99: at(0.99) };
}

function report(where, { p50, p99 }, samples) {
  console.log(`${where.padEnd(16)} p50 ${p50.toFixed(1).padStart(8)} µs   p99 ${p99.toFixed(1).padStart(8)} µs   (${samples} samples)`);
}

console.log(`eval round trip, one-rule ranked decision, Node.js ${process.version}`);
const engine = await Engine.load(WASM);
const policy = engine.compile(FILES);
await measure(() => policy.eval(INPUT), WARMUP);
report("calling thread", await measure(() => policy.eval(INPUT), SAMPLES), SAMPLES);
policy.release();

const worker = new EngineWorker({ wasm: WASM });
const remote = await worker.compile(FILES);
const workerSamples = Math.max(1, Math.floor(SAMPLES / 4));
await measure(() => remote.eval(INPUT), Math.min(WARMUP, workerSamples));
report("worker", await measure(() => remote.eval(INPUT), workerSamples), workerSamples);
worker.terminate();
