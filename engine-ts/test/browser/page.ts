// The browser test's page: the package loaded from the page's server, a policy compiled and
// evaluated on the page's thread and in a Web Worker. The test reads `window.result`.
import { Engine, type SourceFile } from "../../dist/index.js";
import { EngineWorker } from "../../dist/worker.js";

const DOOR: SourceFile[] = [
  {
    path: "door_kind.sigil",
    source: "kind Door version 1\n\ninput badge: string\n\ndecision open {\n  reason: staff\n}\n\ndecision shut {\n  reason: stranger\n}\n\ncollect one\nprecedence shut > open\n\ndefault shut(reason: stranger)\n",
  },
  { path: "doors/main.sigil", source: 'policy doors.main: Door@1\n\nwhen badge == "staff" {\n  open(reason: staff)\n}\n' },
];

async function run(): Promise<Record<string, unknown>> {
  const wasm = new URL("/engine.wasm", location.href).href;
  const engine = await Engine.load(wasm);
  using policy = engine.compile(DOOR);
  const onPage = policy.eval({ badge: "staff" });
  const worker = new EngineWorker({ wasm });
  try {
    const inWorker = await (await worker.compile(DOOR)).eval({ badge: "guest" });
    return { platform: engine.version().platform, page: [onPage.decision, onPage.reason], worker: [inWorker.decision, inWorker.reason] };
  } finally {
    worker.terminate();
  }
}

(window as unknown as { result: Promise<unknown> }).result = run().catch((e: unknown) => ({ error: String(e) }));
