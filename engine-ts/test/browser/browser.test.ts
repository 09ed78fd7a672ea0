// The package in a real browser: Debian's Chromium, driven headless by playwright-core, loads it from
// a page served on localhost, and evaluates a policy on the page's thread and in a Web Worker.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TYPES: Record<string, string> = { ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
const PAGE = '<!doctype html><meta charset="utf-8"><title>engine</title><script type="module" src="/test-dist/browser/page.js"></script>';

const present = existsSync(CHROMIUM);
if (!present && process.env.CI !== undefined) throw new Error(`${CHROMIUM} is missing; scripts/setup installs Debian's chromium`);

let server: Server;
let origin: string;

before(async () => {
  // The package's files, and the page; nothing outside the package.
  server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path === "/") {
      response.writeHead(200, { "content-type": "text/html" }).end(PAGE);
      return;
    }
    const file = resolve(join(ROOT, path));
    if (!file.startsWith(ROOT.endsWith(sep) ? ROOT : ROOT + sep) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => server.close());

test("Chromium compiles and evaluates a policy on the page and in a Web Worker", { skip: !present && `${CHROMIUM} is missing` }, async () => {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => "result" in window);
    const result = await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result);
    assert.deepEqual(errors, []);
    assert.deepEqual(result, { platform: "wasip1/wasm", page: ["open", "staff"], worker: ["shut", "stranger"] });
  } finally {
    await browser.close();
  }
});
