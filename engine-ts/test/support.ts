// What the tests share: the package's module, the WebAssembly fixtures, the spec's examples, and a
// small kind with host functions.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Engine, type SourceFile } from "@svc/engine";

/** The engine.wasm the package ships. */
export const ENGINE_WASM = new URL("../engine.wasm", import.meta.url);

/** A test fixture compiled from test/wat/<name>.wat. */
export function fixture(name: string): URL {
  return new URL(`./wat/${name}.wasm`, import.meta.url);
}

/** The engine loaded from the package's module, its output kept in `lines`. */
export async function loadEngine(lines: string[] = []): Promise<Engine> {
  return Engine.load(ENGINE_WASM, { output: (stream, line) => lines.push(`${stream}: ${line}`) });
}

/**
 * The spec's examples: $SIGIL_SPEC_EXAMPLES, else shared/spec/examples beside the repository, as
 * the JVM library's tests find them. Missing, the caller skips, except under CI, where examples
 * must never go unchecked.
 */
export function specExamples(): string | undefined {
  const dir = process.env.SIGIL_SPEC_EXAMPLES ?? fileURLToPath(new URL("../../../shared/spec/examples", import.meta.url));
  if (existsSync(dir)) return dir;
  if (process.env.CI !== undefined) throw new Error(`the spec examples are missing at ${dir}; set SIGIL_SPEC_EXAMPLES`);
  return undefined;
}

/** Every .sigil file below `dir`, named by its path relative to it, sorted as the JVM tests sort them. */
export function sigilFiles(dir: string): SourceFile[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".sigil")) found.push(path);
    }
  };
  walk(dir);
  return found.sort().map((path) => ({ path: relative(dir, path), source: readFileSync(path, "utf8") }));
}

/**
 * A kind with two host functions, and a policy that calls them: the JVM library's test sources
 * (engine-jni/src/test/resources/labels), so both hosts are held to the same files.
 */
const LABELS_DIR = new URL("../../engine-jni/src/test/resources/labels/", import.meta.url);
export const LABELS: SourceFile[] = ["labels_kind.sigil", "labels.sigil"].map((path) => ({
  path,
  source: readFileSync(new URL(path, LABELS_DIR), "utf8"),
}));

/** An input of the Labels kind; `since` is a Date, which JSON writes as RFC 3339. */
export const LABELS_INPUT = {
  label: "team,ops",
  owner: { name: "ana", tier: "gold" },
  since: new Date("2026-03-01T08:00:00Z"),
  age: "1h30m",
};
