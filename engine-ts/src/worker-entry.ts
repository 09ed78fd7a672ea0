// The script EngineWorker runs: a module worker in browsers, a worker_threads worker on Node.js.
// It loads the module once, then runs one call at a time on an Engine of its own.
import { Engine, type Policy } from "./engine.js";
import { EngineError } from "./errors.js";
import type { CallMessage, CompiledRecord, ErrorRecord, InitMessage, Reply } from "./protocol.js";
import type { HostFunction } from "./records.js";

interface Port {
  post(reply: Reply): void;
  listen(handler: (message: InitMessage | CallMessage) => void): void;
}

let engine: Engine | undefined;
let functions: Record<string, unknown> = {};
const policies = new Map<number, Policy>();

const out = await port();
out.listen(handlerFor(out));

async function port(): Promise<Port> {
  const scope = globalThis as { process?: { versions?: { node?: string } }; postMessage?: (m: unknown) => void; addEventListener?: (t: string, l: (e: { data: unknown }) => void) => void };
  if (scope.process?.versions?.node !== undefined) {
    const { parentPort } = await import("node:worker_threads");
    if (parentPort === null) throw new Error("worker-entry runs only as a worker");
    return { post: (reply) => parentPort.postMessage(reply), listen: (handler) => parentPort.on("message", handler) };
  }
  return {
    post: (reply) => scope.postMessage!(reply),
    listen: (handler) => scope.addEventListener!("message", (event) => handler(event.data as InitMessage | CallMessage)),
  };
}

function handlerFor(out: Port): (message: InitMessage | CallMessage) => void {
  // Messages run in order: each waits for the one before it, as the engine runs one call at a time.
  let queue = Promise.resolve();
  return (message) => {
    queue = queue.then(async () => {
      try {
        out.post({ id: message.id, ok: true, value: await handle(message) });
      } catch (e) {
        out.post({ id: message.id, ok: false, error: record(e) });
      }
    });
  };
}

async function handle(message: InitMessage | CallMessage): Promise<unknown> {
  if (message.method === "init") {
    engine = await Engine.load(message.wasm);
    if (message.functions !== undefined) functions = { ...(await import(message.functions)) };
    return undefined;
  }
  if (engine === undefined) throw new EngineError("the engine worker got a call before init", "this is a bug in the package; please report it");
  const [first, second, third] = message.args as [never, never, never];
  switch (message.method) {
    case "version":
      return engine.version();
    case "check":
      return engine.check(first, second);
    case "explain":
      return engine.explain(first, second);
    case "format":
      return engine.format(first, second);
    case "test":
      return engine.test(first, second, third);
    case "compile":
      return compile(engine, first, second);
    case "eval":
      return policy(first).eval(second, third);
    case "policyExplain":
      return policy(first).explain();
    case "release":
      policy(first).release();
      policies.delete(first);
      return undefined;
  }
}

// compile's functions name exports of the functions module.
function compile(engine: Engine, files: never, options: { functions?: string[] } & Record<string, unknown> = {}): CompiledRecord {
  const implementations: Record<string, HostFunction> = {};
  for (const name of options.functions ?? []) {
    const fn = functions[name];
    if (typeof fn !== "function") {
      throw new EngineError(`the functions module has no function ${name}`, "export the host function by that name from the module the EngineWorker's functions option names");
    }
    implementations[name] = fn as HostFunction;
  }
  const compiled = engine.compile(files, { ...options, functions: implementations });
  policies.set(compiled.handle!, compiled);
  return { handle: compiled.handle!, name: compiled.name, diagnostics: compiled.diagnostics };
}

function policy(handle: number): Policy {
  const found = policies.get(handle);
  if (found === undefined) throw new EngineError(`no compiled policy has handle ${handle}`, "pass a handle that compile returned, before releasing it");
  return found;
}

function record(e: unknown): ErrorRecord {
  if (e instanceof EngineError) return { name: e.name, message: e.message, help: e.help, diagnostics: e.diagnostics };
  return { name: "Error", message: e instanceof Error ? e.message : String(e), help: undefined, diagnostics: [] };
}
