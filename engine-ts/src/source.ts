// Where the module's bytes come from (bindings §1.1): a URL (file URLs read from disk on
// server-side runtimes), a Response, bytes, or a module compiled already.
import { EngineError } from "./errors.js";

/**
 * The engine module: a URL or URL string (resolved against the page's address in a browser), a
 * Response or a promise of one, the module's bytes, or a compiled `WebAssembly.Module`.
 */
export type WasmSource = URL | string | Response | PromiseLike<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

const SOURCE_HELP = "pass the engine.wasm this package ships, such as import.meta.resolve(\"@svc/engine/engine.wasm\")";

/** Compiles the module `source` holds or points at. */
export async function compileModule(source: WasmSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return compileBytes(source);
  if (typeof source === "string" || source instanceof URL) return compileUrl(toUrl(source));
  return compileResponse(await source);
}

function toUrl(source: string | URL): URL {
  if (source instanceof URL) return source;
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  try {
    return new URL(source, base);
  } catch (e) {
    throw new EngineError(`${source} isn't a URL`, `pass an absolute URL; ${SOURCE_HELP}`, [], { cause: e });
  }
}

async function compileUrl(url: URL): Promise<WebAssembly.Module> {
  if (url.protocol === "file:") {
    // Imported only here, so a browser never loads node:fs.
    const { readFile } = await import("node:fs/promises");
    let bytes: Uint8Array;
    try {
      bytes = await readFile(url);
    } catch (e) {
      throw new EngineError(`reading ${url.href}: ${(e as Error).message}`, SOURCE_HELP, [], { cause: e });
    }
    return compileBytes(bytes);
  }
  return compileResponse(await fetch(url));
}

async function compileResponse(response: Response): Promise<WebAssembly.Module> {
  if (!response.ok) {
    throw new EngineError(
      `fetching engine.wasm${response.url === "" ? "" : ` from ${response.url}`}: ${response.status} ${response.statusText}`,
      "serve the module at that address, or pass its bytes",
    );
  }
  if ((response.headers.get("content-type") ?? "").startsWith("application/wasm")) {
    return compiled(WebAssembly.compileStreaming(response));
  }
  return compileBytes(await response.arrayBuffer());
}

function compileBytes(bytes: ArrayBuffer | ArrayBufferView): Promise<WebAssembly.Module> {
  return compiled(WebAssembly.compile(bytes as BufferSource));
}

async function compiled(module: Promise<WebAssembly.Module>): Promise<WebAssembly.Module> {
  try {
    return await module;
  } catch (e) {
    throw new EngineError(
      `the bytes aren't a WebAssembly module this runtime can compile: ${(e as Error).message}`,
      `${SOURCE_HELP}; the module the JVM library bundles uses exception handling (exnref) that Node 20 and 22 lack`,
      [],
      { cause: e },
    );
  }
}
