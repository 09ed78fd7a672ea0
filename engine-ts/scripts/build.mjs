// Builds the package: the TypeScript sources into dist/, the engine module beside them, and the
// tests into test-dist/ with their WebAssembly fixtures (test/wat/*.wat, by scripts/wat2wasm-dir).
//
//   node scripts/build.mjs
//
// The module comes from native/engine/target/engine-legacy-eh.wasm (scripts/build and scripts/test
// build it with engine-ts/build-wasm-legacy-eh), or from the file $ENGINE_WASM names.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const module = process.env.ENGINE_WASM ?? join(root, "../native/engine/target/engine-legacy-eh.wasm");

function fail(message, help) {
  console.error(`engine-ts build: ${message}\n  help: ${help}`);
  process.exit(1);
}

if (!existsSync(module)) fail(`${module} doesn't exist`, "build it with engine-ts/build-wasm-legacy-eh (scripts/build does)");
const tsc = join(root, "node_modules/.bin/tsc");
if (!existsSync(tsc)) fail("TypeScript isn't installed", "run npm ci in engine-ts (scripts/setup does)");

// A step that fails has said why on standard error already.
function run(command, ...args) {
  try {
    execFileSync(command, args, { stdio: "inherit" });
  } catch {
    fail(`${command} ${args.join(" ")} failed`, "fix what it reported above");
  }
}

rmSync(join(root, "dist"), { recursive: true, force: true });
rmSync(join(root, "test-dist"), { recursive: true, force: true });
run(tsc, "-p", join(root, "tsconfig.json"));
run(tsc, "-p", join(root, "test/tsconfig.json"));
copyFileSync(module, join(root, "engine.wasm"));
run(join(root, "../scripts/wat2wasm-dir"), join(root, "test/wat"), join(root, "test-dist/wat"));
