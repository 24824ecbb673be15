// The npm package's web build (target/npm/web) in headless Chromium, through
// the example page (examples/npm-web): a file picked on the page is decoded on
// the page (read whole by `open`) and in a Web Worker (read lazily through
// FileReaderSync by `decode`), and the printed tree must equal the Node.js
// build's for the same file. Run by scripts/test-npm.sh (playwright-core from
// tests/browser, Chromium at /usr/bin/chromium or $CHROMIUM).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync, existsSync, readFile } from "node:fs";
import http from "node:http";
import { dirname, join, resolve, extname, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { treeText } from "../../examples/npm-web/tree-text.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SHARED = process.env.HEXLENS_SHARED ?? join(ROOT, "../shared");
const NODE_PKG = process.env.HEXLENS_NPM_NODE ?? join(ROOT, "target/npm/node");
for (const f of [join(ROOT, "target/npm/web/hexlens.js"), join(NODE_PKG, "hexlens.js")]) {
  if (!existsSync(f)) throw new Error(`${f} is missing: run scripts/build-npm.sh`);
}
const require = createRequire(import.meta.url);
const hexlens = require(join(NODE_PKG, "hexlens.js"));
const { chromium } = require(join(ROOT, "tests/browser/node_modules/playwright-core"));

/** Only these directories are served. */
const SERVED = ["examples/npm-web/", "target/npm/web/"];
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

let server, base, browser;
const requests = [];

before(async () => {
  server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, "http://x").pathname).slice(1);
    const file = resolve(ROOT, rel.endsWith("/") ? rel + "index.html" : rel);
    if (!SERVED.some((d) => file.startsWith(join(ROOT, d).replace(/\/$/, "") + sep))) {
      res.writeHead(404).end();
      return;
    }
    readFile(file, (err, data) => {
      if (err) return res.writeHead(404).end();
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(data);
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Opens the example, picks `file` with the mode and levels given; returns
 * the status line and the printed tree. */
async function pick(file, { worker, levels }) {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(base + "examples/npm-web/");
  await page.setChecked("#worker", worker);
  await page.fill("#depth", String(levels));
  await page.setInputFiles("#file", file);
  await page.waitForFunction(() => /^(done|failed)/.test(document.getElementById("status").textContent), null, {
    timeout: 60_000,
  });
  const got = await page.evaluate(() => ({
    status: document.getElementById("status").textContent,
    tree: document.getElementById("tree").textContent,
    elements: document.getElementById("tree").childElementCount,
    title: document.title,
  }));
  await page.close();
  assert.deepEqual(problems, []);
  return got;
}

const FILES = [
  join(SHARED, "samples/dxcontainer/curated/basic_code_dxil.dxil.dxbc"),
  join(ROOT, "tests/fixtures/msf/dxc_dxil_shader.pdb"),
  join(ROOT, "tests/fixtures/chapel-dyno/truncated.dyno"),
];

for (const worker of [true, false]) {
  const where = worker ? "in a worker" : "on the page";
  test(`the example page prints the tree the Node.js build makes (${where})`, async () => {
    for (const file of FILES) {
      const levels = 4;
      const want = treeText(hexlens.decode(readFileSync(file)), levels);
      const got = await pick(file, { worker, levels });
      assert.match(got.status, new RegExp(`^done: .* is ${hexlens.detect(readFileSync(file))} \\(${where}`));
      assert.equal(got.tree, want, file);
      assert.ok(want.split("\n").length > 10, file);
    }
  });
}

test("file content is shown as text, never as markup", async () => {
  const payload = `<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script>`;
  const file = { name: "<b>x</b>.bin", mimeType: "application/octet-stream", buffer: Buffer.from(payload) };
  for (const worker of [true, false]) {
    const got = await pick(file, { worker, levels: 3 });
    assert.equal(got.elements, 0);
    assert.notEqual(got.title, "pwned");
    assert.match(got.tree, /^raw, \d+ bytes/);
    assert.match(got.status, /done: <b>x<\/b>\.bin is raw/);
  }
});

test("the page asked for nothing but its own files", () => {
  assert.ok(requests.length > 0);
  for (const u of requests) assert.ok(u.startsWith(base), u);
  assert.ok(requests.some((u) => u.endsWith("/target/npm/web/hexlens_bg.wasm")));
});
