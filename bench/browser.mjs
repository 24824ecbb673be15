// Browser benchmark: the scale targets, measured in headless Chromium with the
// same driver as the browser tests (playwright-core on /usr/bin/chromium).
//
//   node bench/browser.mjs [--no-build] [--sizes 1MiB,64MiB,1GiB,4GiB] [--dense DIR] [--no-big] [--compare-only] [--write]
//
// --dense DIR (default target/dense): the dense real files bench/dense.sh makes,
// where present, are opened too (first paint, tree shown, wasm memory, twelve
// groups opened biggest closed one first with the two slowest openings that
// decoded something, End in the tree). --sizes '' skips the sparse files,
// --no-big the 1,000,000-node tree.
//
// Builds the release site (trunk, as scripts/test-browser.sh does) unless
// --no-build, generates the inputs in a temp dir (sparse files; see
// gen-inputs.mjs), and prints one table. --write also puts the table into
// bench/RESULTS.md between the "browser:begin" and "browser:end" markers.
//
// What is measured, per file size:
//   first paint   from the file input's change event (the app's "hexlens:open"
//                 mark) to the first animation frame in which hex rows with
//                 bytes and the tree root are in the DOM
//   decoded       from "hexlens:open" to "hexlens:decoded" (worker done, tree shown)
//   end           time to scroll the hex pane to the last row and see its bytes
//   expand        time to open the lazy FUNCTION_BLOCK node and see its children
//   memory        JS heap (performance.memory, precise) + the page's and the
//                 worker's wasm memory, and the renderer processes' resident size
// and with a tree of about 1,000,000 nodes: hover latency (event → DOM updated
// and laid out) and scrolling (per-step work, animation-frame intervals, and how
// many intervals exceed 25 ms: frames dropped rather than a late frame clock).
import { chromium } from '../tests/browser/node_modules/playwright-core/index.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { SIZES, writeDxil, writeParts } from './gen-inputs.mjs';
import { serve } from '../tests/browser/harness.mjs';
import { buildSite } from './build-site.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const flag = (f) => args.includes(f);
const opt = (f, d) => (args.includes(f) ? args[args.indexOf(f) + 1] : d);
const DIST = process.env.HEXLENS_DIST || path.join(ROOT, 'target/bench-dist');
const sizes = opt('--sizes', Object.keys(SIZES).join(',')).split(',').filter(Boolean);
// Dense real files (bench/dense.sh makes them): opened as a person would.
const DENSE_DIR = opt('--dense', path.join(ROOT, 'target/dense'));
const DENSE = ['sqlite-O2.bc', 'sqlite-O1g.bc', 'dxil-container.dxbc', 'cdac-100k-types.bin', 'dyno-1m-symbols.dyno']
  .map((f) => path.join(DENSE_DIR, f))
  .filter((f) => fs.existsSync(f));
const skipBig = flag('--no-big');
// Only the comparison of two 1 GiB files (with --sizes 1GiB --no-big).
const compareOnly = flag('--compare-only');

if (!flag('--no-build')) buildSite(DIST);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hexlens-bench-'));
const files = {};
for (const s of sizes) {
  files[s] = path.join(tmp, `dxil-${s}.dxbc`);
  writeDxil(files[s], SIZES[s]);
}
const partsFile = path.join(tmp, 'parts-1m.dxbc');
writeParts(partsFile, 166667);
// A 1 GiB file no decoder recognises: random bytes (so every byte is read),
// an effect-like file's three shaders at each end.
const scanFile = path.join(tmp, 'random-1g-with-shaders.bin');
if (sizes.includes('1GiB') && !compareOnly) {
  const fx = fs.readFileSync(path.join(ROOT, 'tests/fixtures/embedded/effect.fxo'));
  const fd = fs.openSync(scanFile, 'w');
  fs.writeSync(fd, fx);
  const chunk = Buffer.alloc(16 << 20);
  for (let n = 0; n < 64; n++) fs.writeSync(fd, crypto.randomFillSync(chunk));
  fs.writeSync(fd, fx);
  fs.closeSync(fd);
}

const site = await serve({ dist: path.resolve(DIST) });
const URL_ = site.base;

// A flag no other Chromium has, to find this browser's processes.
const tag = `--hexlens-bench=${process.pid}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--enable-precise-memory-info', tag],
});

/** Resident size (bytes) of this browser's renderer processes (page and workers). */
function rendererRss() {
  const out = spawnSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' }).stdout;
  const procs = new Map();
  for (const l of out.split('\n')) {
    const m = l.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/);
    if (m) procs.set(+m[1], { ppid: +m[2], rss: +m[3] * 1024, args: m[4] });
  }
  const ours = (pid) => {
    for (let i = 0; i < 6 && procs.has(pid); i++, pid = procs.get(pid).ppid) {
      if (procs.get(pid).args.includes(tag)) return true;
    }
    return false;
  };
  let sum = 0;
  for (const [pid, p] of procs) if (p.args.includes('--type=renderer') && ours(pid)) sum += p.rss;
  return sum;
}

async function freshPage() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(URL_);
  await page.waitForSelector('input[type=file]', { state: 'attached' });
  return { page, errors };
}



async function openAndTime(page, file) {
  await page.setInputFiles('input[type=file]', file);
  return page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    let t;
    for (;;) {
      t = await frame();
      if (document.querySelector('#hex .hrow:not(.pending) .c') && document.querySelector('[role=treeitem]')) break;
    }
    const open = performance.getEntriesByName('hexlens:open').at(-1).startTime;
    return t - open;
  });
}

async function waitDecoded(page, timeoutMs) {
  await page.waitForFunction(() => performance.getEntriesByName('hexlens:decoded').length > 0, null, { timeout: timeoutMs, polling: 50 });
  return page.evaluate(() => performance.getEntriesByName('hexlens:decoded').at(-1).startTime - performance.getEntriesByName('hexlens:open').at(-1).startTime);
}

async function memory(page) {
  const m = await page.evaluate(async () => {
    // Let garbage go before reading the heap.
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 50));
    const w = window.wasmBindings.debug_memory();
    return { heap: performance.memory.usedJSHeapSize, pageWasm: w.pageWasm, workerWasm: w.workerWasm };
  });
  return { ...m, rss: rendererRss() };
}

const MiB = (b) => (b / 1048576).toFixed(1);
const rows = [];
const fileRows = [];
const searchRows = [];

// Search throughput over the open file: the viewer's search (Ctrl+F, run by the
// worker a step at a time) from Enter to the bar's final count, and beside it a
// simple reference in the page's JS: the same file read in 4 MiB slices, each
// scanned with indexOf for the first byte and compared byte by byte.
/** Runs one search from the bar (Ctrl+F, mode, text, Enter) to its final
 *  count: the time and what the bar says. */
async function runSearch(page, mode, text) {
  await page.keyboard.press('Control+f');
  await page.locator('#search-input').waitFor();
  await page.selectOption('#search-mode', mode);
  await page.fill('#search-input', text);
  // The last search's count must not read as this one's.
  await page.evaluate(() => { document.querySelector('#search-status').textContent = 'searching'; });
  const t0 = Date.now();
  await page.press('#search-input', 'Enter');
  await page.waitForFunction(() => {
    const t = document.querySelector('#search-status')?.textContent || 'searching';
    return !/searching/.test(t);
  }, null, { timeout: 600000 });
  return { ms: Date.now() - t0, status: await page.locator('#search-status').textContent() };
}

async function searchBench(page, file) {
  const size = (await fs.promises.stat(file)).size;
  await page.evaluate(() => {
    const i = document.createElement('input');
    i.type = 'file';
    i.id = 'bench-ref-file';
    i.style.display = 'none';
    document.body.appendChild(i);
  });
  await page.setInputFiles('#bench-ref-file', file);
  const out = [];
  for (const [mode, text, bytes] of [['hex', 'DE AD BE EF', [0xde, 0xad, 0xbe, 0xef]], ['text', 'hexlens', [...Buffer.from('hexlens')]], ['hex', 'DE AD BE EF', [0xde, 0xad, 0xbe, 0xef]], ['text', 'hexlens', [...Buffer.from('hexlens')]]]) {
    const { ms, status } = await runSearch(page, mode, text);
    const ref = await page.evaluate(async (needle) => {
      const f = document.getElementById('bench-ref-file').files[0];
      const t0 = performance.now();
      const step = 4 << 20;
      let hits = 0;
      for (let at = 0; at < f.size; at += step) {
        const buf = new Uint8Array(await f.slice(at, Math.min(f.size, at + step + needle.length - 1)).arrayBuffer());
        const last = Math.min(step, buf.length - needle.length + 1);
        for (let i = buf.indexOf(needle[0]); i !== -1 && i < last; i = buf.indexOf(needle[0], i + 1)) {
          let k = 1;
          while (k < needle.length && buf[i + k] === needle[k]) k++;
          if (k === needle.length) hits++;
        }
      }
      return { ms: performance.now() - t0, hits };
    }, bytes);
    out.push({ what: `${mode} ${text}`, size, ms, status, ref });
    console.log(`search ${mode} "${text}" over ${size} bytes: ${ms} ms (${status}); reference ${ref.ms.toFixed(0)} ms, ${ref.hits} hits`);
  }
  return out;
}

// Find, mark and share over the open file: how long after the tree shows the
// worker's SHA-256 of the file is in the address bar (hashing runs in 16 MiB
// steps between the panes' questions), a structure search (Ctrl+F, Structure:
// the first one fetches and starts the tools module), and exporting the whole
// tree as the text dump (the worker writes it into a Blob; timed to the
// download).
const shareRows = [];
async function shareBench(page, file, query) {
  // The page marks the moment the hash arrives; counted from the tree shown.
  const hashed = await page.evaluate(async () => {
    while (!performance.getEntriesByName('hexlens:hashed').length) await new Promise((r) => setTimeout(r, 20));
    return performance.getEntriesByName('hexlens:hashed').at(-1).startTime - performance.getEntriesByName('hexlens:decoded').at(-1).startTime;
  });
  const structure = [];
  for (let round = 0; round < 2; round++) {
    // The same query again would go to the next match: the second is in capitals (matched ignoring ASCII case).
    structure.push(await runSearch(page, 'structure', round ? query.toUpperCase() : query));
    await page.keyboard.press('Escape');
  }
  const t0 = Date.now();
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 600000 }), page.selectOption('#copy-as', 'file:text')]);
  const saved = await dl.path();
  const exportMs = Date.now() - t0;
  const exportBytes = fs.statSync(saved).size;
  const mem = await memory(page);
  const row = { file: path.basename(file), bytes: fs.statSync(file).size, hashed, query, structure, exportMs, exportBytes, mem };
  console.log(`share ${row.file}: hashed ${hashed.toFixed(0)} ms after the tree showed; structure "${query}" ${structure.map((x) => `${x.ms} ms (${x.status})`).join(', ')}; text export ${exportBytes} bytes in ${exportMs} ms; worker wasm ${MiB(mem.workerWasm)} MiB`);
  shareRows.push(row);
}

// Containers inside other files: a file no decoder recognises is scanned (the
// cDAC module finds no blob in its first 64 MiB, then the tools module scans
// the whole file), and a file scanned on request (the Scan button).
const scanRows = [];
async function scanBench(page, what, click) {
  if (click) {
    const before = await page.evaluate(() => performance.getEntriesByName('hexlens:decoded').length);
    await page.click('#scan-btn');
    await page.waitForFunction((n) => performance.getEntriesByName('hexlens:decoded').length > n, before, { timeout: 600000, polling: 50 });
  }
  const decoded = await waitDecoded(page, 600000);
  const root = await page.locator('#tree .trow[data-path=""]').textContent();
  const found = (root.match(/([\d,]+) containers? found/) || [])[1] || 'none';
  const mem = await memory(page);
  console.log(`scan ${what}: tree shown in ${decoded.toFixed(0)} ms, ${found} containers; worker wasm ${MiB(mem.workerWasm)} MiB`);
  scanRows.push({ what, decoded, found, mem });
}

for (const s of compareOnly ? [] : sizes) {
  const { page, errors } = await freshPage();
  const firstPaint = await openAndTime(page, files[s]);
  const decoded = await waitDecoded(page, 600000);
  // Scroll the hex pane to the end and wait for the last row's bytes.
  const end = await page.evaluate(async (size) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const hex = document.getElementById('hex');
    const t0 = performance.now();
    hex.scrollTop = hex.scrollHeight;
    const lastRow = Math.floor((size - 1) / 16) * 16;
    for (let i = 0; i < 600; i++) {
      await frame();
      const c = document.querySelector(`#hex .hrow:not(.pending) .c[data-o="${size - 1}"]`);
      if (c) return { ms: performance.now() - t0, ok: true, lastRow };
    }
    return { ms: performance.now() - t0, ok: false, lastRow };
  }, (await fs.promises.stat(files[s])).size);
  // Open the function block: a click on one of its bytes opens the groups it
  // lands in while they are at most 16 MiB, down to the byte's field; a bigger
  // group is selected and waits. Click, open what waits (the Program part of a
  // big file, untimed), click again; time the last opening: the click itself
  // when it opened the function block, else opening the waiting block.
  await page.locator('#hex').evaluate((e) => (e.scrollTop = 0));
  await page.waitForSelector('#hex .hrow:not(.pending) .c[data-o="96"]');
  let expand = { ms: NaN };
  for (let round = 0; round < 3; round++) {
    expand = await page.evaluate(async () => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
      const t0 = performance.now();
      document.querySelector('#hex .hx .c[data-o="96"]').dispatchEvent(new MouseEvent('click', { bubbles: true }));
      for (let i = 0; i < 3000; i++) {
        await frame();
        const sel = document.querySelector('.trow.selected');
        if (sel && !document.querySelector('.trow.waiting')) {
          return { ms: performance.now() - t0, lazy: sel.classList.contains('lazy'), text: sel.textContent, id: sel.dataset.id };
        }
      }
      return { ms: NaN, lazy: false };
    });
    if (!expand.lazy) break;
    const wasProgram = /^\W*Program/.test(expand.text);
    expand = await page.evaluate(async (id) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
      const row = document.querySelector(`.trow[data-id="${id}"]`);
      const t0 = performance.now();
      row.querySelector('.twisty').dispatchEvent(new MouseEvent('click', { bubbles: true }));
      for (let i = 0; i < 3000; i++) {
        await frame();
        const r = document.querySelector(`.trow[data-id="${id}"]`);
        if (r && !r.classList.contains('lazy')) return { ms: performance.now() - t0 };
      }
      return { ms: NaN };
    }, expand.id);
    if (!wasProgram) break;
  }
  const mem = await memory(page);
  if (s === '1GiB' || s === '4GiB') {
    // Hashing first (it shares the worker with a search), then the searches.
    await shareBench(page, files[s], 'Parts/*/Name');
    if (s === '1GiB') searchRows.push(...(await searchBench(page, files[s])));
    if (s === '1GiB') await scanBench(page, 'the 1 GiB sparse DXIL container, on request', true);
  }
  fileRows.push({ size: s, firstPaint, decoded, end, expand, mem, errors });
  console.log(`${s}: first paint ${firstPaint.toFixed(0)} ms, decoded ${decoded.toFixed(0)} ms, end ${end.ok ? end.ms.toFixed(0) + ' ms' : 'NOT REACHED'}, expand ${expand.ms.toFixed(0)} ms, ` +
    `heap ${MiB(mem.heap)} MiB, page wasm ${MiB(mem.pageWasm)} MiB, worker wasm ${MiB(mem.workerWasm)} MiB, renderer RSS ${MiB(mem.rss)} MiB` +
    (errors.length ? `, errors: ${errors.join(' | ')}` : ''));
  await page.close();
}

if (fs.existsSync(scanFile) && !compareOnly) {
  const { page } = await freshPage();
  await openAndTime(page, scanFile);
  await scanBench(page, 'random-1g-with-shaders.bin: 1 GiB of random bytes, no format, an effect-like file at each end', false);
  await page.close();
}

// Comparing two 1 GiB files that differ in two bytes (one in the header, one
// deep in the bitcode's bytes): from picking B to the summary shown, then the
// byte-level next difference from the start and again (the second run, 0.5 GiB
// on).
const compareRows = [];
/** Opens `a`, compares it with `b` (Compare with…), times the summary, then
 * walks: the byte-level next difference twice, the structure-level next
 * difference twice (each to its node selected), and a scroll of the merged
 * tree's list to its end. */
async function compareBench(what, a, b) {
  const { page, errors } = await freshPage();
  await openAndTime(page, a);
  await waitDecoded(page, 600000);
  const t0 = Date.now();
  await page.setInputFiles('#cmp-file', b);
  await page.waitForFunction(() => /structures differ|equal structures|Could not/.test(document.querySelector('#cmp-summary')?.textContent || ''), null, { timeout: 600000, polling: 50 });
  const compared = Date.now() - t0;
  const summary = await page.locator('#cmp-summary').textContent();
  const rowsShown = await page.evaluate(() => document.querySelector('#cmp-list .sr-space')?.offsetHeight / 20);
  const steps = [];
  for (let i = 0; i < 2; i++) {
    const before = await page.locator('#cmp-where').textContent();
    const s0 = Date.now();
    await page.click('#cmp-bnext');
    await page.waitForFunction((b) => { const t = document.querySelector('#cmp-where')?.textContent || ''; return t !== b && t !== ''; }, before, { timeout: 600000, polling: 50 });
    steps.push({ ms: Date.now() - s0, where: await page.locator('#cmp-where').textContent() });
  }
  const picks = [];
  for (let i = 0; i < 2; i++) {
    const s0 = Date.now();
    await page.click('#cmp-next');
    await page.waitForFunction(() => {
      const cur = document.querySelector('#cmp-list .sr.cur');
      if (!cur) return false;
      if (cur.classList.contains('cmp-added')) return true;
      return document.querySelector('#tree .trow[aria-selected="true"]')?.dataset.path === cur.dataset.path;
    }, null, { timeout: 600000, polling: 20 });
    picks.push(Date.now() - s0);
  }
  const s0 = Date.now();
  await page.evaluate(async () => {
    const l = document.getElementById('cmp-list');
    l.scrollTop = l.scrollHeight;
    l.dispatchEvent(new Event('scroll'));
    await new Promise((r) => requestAnimationFrame(() => r()));
  });
  const scrolled = Date.now() - s0;
  const mem = await memory(page);
  console.log(`compare ${what}: ${compared} ms; ${summary}; ${rowsShown} merged-tree rows shown; byte steps ${steps.map((x) => `${x.ms} ms (${x.where})`).join(', ')}; next difference ${picks.join(', ')} ms; list to its end ${scrolled} ms; worker wasm ${MiB(mem.workerWasm)} MiB`);
  compareRows.push({ what, compared, summary, rowsShown, steps, picks, scrolled, mem, errors });
  await page.close();
}
if (files['1GiB']) {
  const a = files['1GiB'];
  const b = path.join(tmp, 'dxil-1GiB-b.dxbc');
  execFileSync('cp', ['--sparse=always', a, b]);
  const size = fs.statSync(a).size;
  const fd = fs.openSync(b, 'r+');
  const patched = [];
  for (const at of [40, Math.floor(size / 2)]) {
    const x = Buffer.alloc(1);
    fs.readSync(fd, x, 0, 1, at);
    x[0] ^= 0x5a;
    fs.writeSync(fd, x, 0, 1, at);
    patched.push(at);
  }
  fs.closeSync(fd);
  await compareBench(`two 1 GiB sparse DXIL containers, bytes ${patched.join(' and ')} changed`, a, b);
  fs.rmSync(b);
}
// A dense real pair: sqlite3.c compiled two ways (thousands of differences).
{
  const [a, b] = ['sqlite-O2.bc', 'sqlite-O1g.bc'].map((f) => path.join(DENSE_DIR, f));
  if (fs.existsSync(a) && fs.existsSync(b)) await compareBench('sqlite-O2.bc vs sqlite-O1g.bc (dense bitcode, two sets of flags)', a, b);
}

// Dense files: open, open the biggest group not decoded yet, jump to the tree's
// last row; memory after each.
const denseRows = [];
for (const f of compareOnly ? [] : DENSE) {
  const { page, errors } = await freshPage();
  const firstPaint = await openAndTime(page, f);
  const decoded = await waitDecoded(page, 600000);
  const rows = await page.evaluate(() => document.querySelectorAll('.trow').length);
  const memOpen = await memory(page);
  // Groups not decoded yet: open the biggest closed group, twelve times (down
  // the biggest branch), timing each opening that decodes; the two slowest are reported.
  const group = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const size = (r) => Number(r.dataset.end) - Number(r.dataset.start);
    const opened = [];
    const lost = [];
    for (let step = 0; step < 12; step++) {
      const closed = [...document.querySelectorAll('.trow[aria-expanded=false]')];
      if (!closed.length) break;
      const row = closed.reduce((a, b) => (size(b) > size(a) ? b : a));
      const id = row.dataset.id;
      const lazy = row.classList.contains('lazy');
      const name = `${row.dataset.path} (${size(row)} bytes)`;
      const t0 = performance.now();
      row.querySelector('.twisty').dispatchEvent(new MouseEvent('click', { bubbles: true }));
      // A row that leaves the tree pane's window (its rows are virtual) for a
      // second cannot be timed: counted apart instead of waited for.
      let gone = 0;
      for (let i = 0; i < 6000 && gone < 60; i++) {
        await frame();
        const r = document.querySelector(`.trow[data-id="${id}"]`);
        gone = r ? 0 : gone + 1;
        if (r && !r.classList.contains('lazy') && r.getAttribute('aria-expanded') === 'true') break;
      }
      const ms = performance.now() - t0;
      if (gone >= 60) lost.push(name);
      else if (lazy) opened.push({ ms, name });
    }
    opened.sort((a, b) => b.ms - a.ms);
    return { ms: opened[0]?.ms ?? NaN, name: opened[0]?.name ?? '', next: opened[1] ?? null, lost };
  });
  await page.locator('#tree').focus();
  await page.keyboard.press('End');
  await page.waitForTimeout(300);
  const memEnd = await memory(page);
  // After the groups (a structure match opens the tree down to it).
  if (path.basename(f) === 'sqlite-O1g.bc') await shareBench(page, f, 'sqlite3_open');
  denseRows.push({ file: path.basename(f), bytes: fs.statSync(f).size, firstPaint, decoded, rows, memOpen, group, memEnd, errors });
  console.log(`${path.basename(f)}: first paint ${firstPaint.toFixed(0)} ms, tree shown ${decoded.toFixed(0)} ms, ` +
    `page+worker wasm ${MiB(memOpen.pageWasm + memOpen.workerWasm)} MiB; slowest lazy groups opened: ${group.name} in ${group.ms.toFixed(0)} ms` + (group.next ? `, ${group.next.name} in ${group.next.ms.toFixed(0)} ms` : '') + (group.lost.length ? ` (left the view, not timed: ${group.lost.join(', ')})` : '') + '; ' +
    `after it and End: page+worker wasm ${MiB(memEnd.pageWasm + memEnd.workerWasm)} MiB` + (errors.length ? `, errors: ${errors.join(' | ')}` : ''));
  await page.close();
}

// A tree of about 1,000,000 nodes.
const big = skipBig ? null : await (async () => {
  const { page, errors } = await freshPage();
  await openAndTime(page, partsFile);
  const decoded = await waitDecoded(page, 600000);
  // Main-thread share: taking in the worker's first answer (the first rows).
  const build = await page.evaluate(() => performance.getEntriesByName('hexlens:decoded').at(-1).startTime - performance.getEntriesByName('hexlens:received').at(-1).startTime);
  const nodes = await page.evaluate(() => document.querySelector('#tree')?.getAttribute('data-nodes'));
  const stats = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const settle = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = r; ch.port2.postMessage(0); });
    const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
    const layout = () => document.getElementById('hex').getBoundingClientRect().height + document.body.offsetHeight;
    // Hover: alternate between hex bytes and tree rows, 400 times.
    const hover = [];
    for (let i = 0; i < 400; i++) {
      const cells = [...document.querySelectorAll(i % 2 ? '#hex .hx .c' : '.trow')];
      const c = cells[(i * 37) % cells.length];
      const t = performance.now();
      c.dispatchEvent(new MouseEvent(i % 2 ? 'mousemove' : 'mouseover', { bubbles: true }));
      await settle();
      layout();
      hover.push(performance.now() - t);
    }
    // Scrolling: 150 steps of 3 rows per frame in each pane; per-step work
    // (scroll event → DOM updated and laid out) and frame-to-frame intervals.
    async function scroll(el, step) {
      const work = [];
      const frames = [];
      let last = await frame();
      for (let i = 0; i < 150; i++) {
        const t = performance.now();
        el.scrollTop += step;
        el.dispatchEvent(new Event('scroll'));
        await settle();
        layout();
        work.push(performance.now() - t);
        const now = await frame();
        frames.push(now - last);
        last = now;
      }
      // Frames that took more than one refresh period and a half: dropped
      // frames, which the p95 of intervals (jitter around 16.7 ms included) does
      // not tell apart from a late timer.
      const dropped = frames.filter((f) => f > 25).length;
      return { workP95: pct(work, 0.95), workMax: Math.max(...work), frameP95: pct(frames, 0.95), frameMax: Math.max(...frames), frameMedian: pct(frames, 0.5), dropped, steps: frames.length };
    }
    const hex = await scroll(document.getElementById('hex'), 60);
    const tree = await scroll(document.getElementById('tree'), 66);
    return { hoverP95: pct(hover, 0.95), hoverMedian: pct(hover, 0.5), hex, tree };
  });
  const rowsInTree = await page.evaluate(() => document.querySelectorAll('.trow').length);
  const mem = await memory(page);
  await page.close();
  return { decoded, build, nodes, stats, rowsInTree, mem, errors };
})();
if (big) console.log('1M-node tree:', JSON.stringify(big));

// App transfer size (gzip -9): the page's critical path (the HTML and what it
// loads: the page's JS, wasm and CSS) and the decode worker: its script and one
// decoder module (hexlens-worker-NAME), the one the opened file needs. A visit
// transfers the page and the modules of the formats it opens.
const gz = (f) => zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length;
let critical = 0;
const modules = new Map();
const assets = [];
for (const f of fs.readdirSync(DIST)) {
  if (!/\.(wasm|js|css|html)$/.test(f)) continue;
  const n = gz(path.join(DIST, f));
  const m = f.match(/^hexlens-worker-(\w+?)(_bg)?\.(js|wasm)$/);
  if (m) modules.set(m[1], (modules.get(m[1]) || 0) + n);
  else critical += n;
  assets.push(`${f} ${n}`);
}
const workerJs = path.join(DIST, 'static/worker.js');
const workerScript = fs.existsSync(workerJs) ? gz(workerJs) : 0;
assets.push(`static/worker.js ${workerScript}`);
// The tools module (exports, structure search) is fetched only when one of
// those is asked for: not part of a visit that opens a file.
const perModule = [...modules].filter(([m]) => m !== 'tools').map(([m, n]) => [m, n + workerScript]);
const tools = (modules.get('tools') || 0) + workerScript;
const biggest = Math.max(...perModule.map(([, n]) => n));
const transfer = critical + biggest;
const deployed = critical + workerScript + [...modules.values()].reduce((a, b) => a + b, 0);

await browser.close();
site.server.close();
fs.rmSync(tmp, { recursive: true, force: true });

const cpu = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) || [])[1] || 'unknown CPU';
const chromeV = spawnSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).stdout.trim();
const ms = (v) => (Number.isFinite(v) ? `${v.toFixed(0)} ms` : 'n/a');
const ms1 = (v) => `${v.toFixed(1)} ms`;
const lines = [];
lines.push(`Measured by \`node bench/browser.mjs --write\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${cpu}), ${chromeV}, headless.`);
lines.push(`Load average at the end: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}.`);
lines.push('');
lines.push('| file (DXIL container, sparse) | first hex rows + tree root painted | decoded | scrolled to the last byte | function block opened (click, or opening it when too big for a click) | JS heap | page wasm | worker wasm | renderer RSS |');
lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of fileRows) {
  lines.push(`| ${r.size} | ${ms(r.firstPaint)} | ${ms(r.decoded)} | ${r.end.ok ? ms(r.end.ms) : 'not reached'} | ${ms(r.expand.ms)} | ${MiB(r.mem.heap)} MiB | ${MiB(r.mem.pageWasm)} MiB | ${MiB(r.mem.workerWasm)} MiB | ${MiB(r.mem.rss)} MiB |`);
}
if (denseRows.length) {
  lines.push('');
  lines.push('Dense files (`bench/dense.sh` makes them), opened through the file input:');
  lines.push('');
  lines.push('| file | bytes | first hex rows + tree root painted | tree shown | page + worker wasm after opening | the two slowest of 12 groups opened, biggest closed one first (those not decoded before) | page + worker wasm after it and End |');
  lines.push('| --- | ---: | --- | --- | --- | --- | --- |');
  for (const r of denseRows) {
    lines.push(`| ${r.file} | ${r.bytes.toLocaleString('en')} | ${ms(r.firstPaint)} | ${ms(r.decoded)} | ${MiB(r.memOpen.pageWasm + r.memOpen.workerWasm)} MiB | ${ms(r.group.ms)} (${r.group.name})${r.group.next ? `; ${ms(r.group.next.ms)} (${r.group.next.name})` : ''}${r.group.lost.length ? `; ${r.group.lost.length} left the view, not timed` : ''} | ${MiB(r.memEnd.pageWasm + r.memEnd.workerWasm)} MiB |`);
  }
}
if (big) {
lines.push('');
lines.push(`A container of 166,667 parts (\`parts-1m.dxbc\`, about 1,000,000 nodes decoded eagerly; the worker holds ${big.nodes} of them after opening, the page none; shown in ${ms(big.decoded)}, of which ${ms(big.build)} on the page's thread taking in the worker's first answer; ${big.rowsInTree} tree rows in the DOM):`);
lines.push('');
lines.push('| what | 95th percentile | worst | median |');
lines.push('| --- | --- | --- | --- |');
lines.push(`| hover → highlight rendered and laid out (400 hovers, hex and tree) | ${ms1(big.stats.hoverP95)} | | ${ms1(big.stats.hoverMedian)} |`);
lines.push(`| hex pane scroll step: work | ${ms1(big.stats.hex.workP95)} | ${ms1(big.stats.hex.workMax)} | |`);
lines.push(`| hex pane scroll: frame interval (${big.stats.hex.dropped} of ${big.stats.hex.steps} over 25 ms) | ${ms1(big.stats.hex.frameP95)} | ${ms1(big.stats.hex.frameMax)} | ${ms1(big.stats.hex.frameMedian)} |`);
lines.push(`| tree scroll step: work | ${ms1(big.stats.tree.workP95)} | ${ms1(big.stats.tree.workMax)} | |`);
lines.push(`| tree scroll: frame interval (${big.stats.tree.dropped} of ${big.stats.tree.steps} over 25 ms) | ${ms1(big.stats.tree.frameP95)} | ${ms1(big.stats.tree.frameMax)} | ${ms1(big.stats.tree.frameMedian)} |`);
lines.push('');
lines.push(`Memory with that tree open: JS heap ${MiB(big.mem.heap)} MiB, page wasm ${MiB(big.mem.pageWasm)} MiB, worker wasm ${MiB(big.mem.workerWasm)} MiB, renderer RSS ${MiB(big.mem.rss)} MiB.`);
}
lines.push('');
if (searchRows.length) {
  lines.push('');
  lines.push('Search throughput (the 1 GiB sparse file; Ctrl+F, Enter to the final count, against a simple JS search of the same file in the page):');
  lines.push('');
  lines.push('| query | bytes | hexlens | MB/s | result | reference (JS, 4 MiB slices, indexOf) | MB/s | its hits |');
  lines.push('| --- | ---: | --- | ---: | --- | --- | ---: | ---: |');
  for (const r of searchRows) {
    lines.push(`| ${r.what} | ${r.size.toLocaleString('en')} | ${r.ms} ms | ${(r.size / 1e6 / (r.ms / 1000)).toFixed(0)} | ${r.status} | ${r.ref.ms.toFixed(0)} ms | ${(r.size / 1e6 / (r.ref.ms / 1000)).toFixed(0)} | ${r.ref.hits} |`);
  }
}
if (scanRows.length) {
  lines.push('');
  lines.push('Containers inside other files (from the file input, or the Scan button, to the tree shown):');
  lines.push('');
  lines.push('| file | tree shown | containers found | worker wasm after |');
  lines.push('| --- | --- | --- | --- |');
  for (const r of scanRows) lines.push(`| ${r.what} | ${ms(r.decoded)} | ${r.found} | ${MiB(r.mem.workerWasm)} MiB |`);
}
if (compareRows.length) {
  lines.push('');
  lines.push('Comparing two files (Compare with…: from picking the second file to the summary shown; then the byte-level next difference twice from the start, the structure-level next difference twice, each to its node selected, and the merged tree\'s list scrolled to its end):');
  lines.push('');
  lines.push('| pair | compared | summary | merged-tree rows | next differing bytes, twice | next difference, twice | list to its end | JS heap | worker wasm | renderer RSS |');
  lines.push('| --- | --- | --- | ---: | --- | --- | --- | --- | --- | --- |');
  for (const r of compareRows) {
    lines.push(`| ${r.what} | ${ms(r.compared)} | ${r.summary.replace(/^.*: (the structures differ|equal structures); /, '$1; ')} | ${r.rowsShown} | ${ms(r.steps[0].ms)} (${r.steps[0].where}); ${ms(r.steps[1].ms)} (${r.steps[1].where}) | ${r.picks.map(ms).join(', ')} | ${ms(r.scrolled)} | ${MiB(r.mem.heap)} MiB | ${MiB(r.mem.workerWasm)} MiB | ${MiB(r.mem.rss)} MiB |`);
  }
}
if (shareRows.length) {
  lines.push('');
  lines.push('Find, mark and share (the file\'s SHA-256 in the address bar, counted from the tree shown; a structure search, the first one fetching the tools module; the whole tree exported as the text dump, to the download):');
  lines.push('');
  lines.push('| file | bytes | SHA-256 known | structure search | first (with the tools module) | again | text export | its bytes | worker wasm after |');
  lines.push('| --- | ---: | --- | --- | --- | --- | --- | ---: | --- |');
  for (const r of shareRows) {
    lines.push(`| ${r.file} | ${r.bytes.toLocaleString('en')} | ${ms(r.hashed)} | \`${r.query}\`: ${r.structure[0].status} | ${ms(r.structure[0].ms)} | ${ms(r.structure[1].ms)} | ${ms(r.exportMs)} | ${r.exportBytes.toLocaleString('en')} | ${MiB(r.mem.workerWasm)} MiB |`);
  }
}
lines.push('');
lines.push(`App transfer size (gzip -9): ${transfer.toLocaleString('en')} bytes for a visit that opens a file of the biggest decoder module: the page's critical path ${critical.toLocaleString('en')}, and the decode worker with one module: ${perModule.map(([m, n]) => `${m} ${n.toLocaleString('en')}`).join(', ')}; the tools module, fetched only for an export, a structure search, a comparison or a file no other module decodes, ${tools.toLocaleString('en')}. Everything deployed: ${deployed.toLocaleString('en')} (${assets.join(', ')}).`);
const table = lines.join('\n');
console.log('\n' + table);
const errs = [...fileRows.flatMap((r) => r.errors), ...compareRows.flatMap((r) => r.errors), ...denseRows.flatMap((r) => r.errors), ...(big ? big.errors : [])];
if (errs.length) console.log('\npage errors:', errs);

if (flag('--write')) {
  const res = path.join(ROOT, 'bench/RESULTS.md');
  let text = fs.existsSync(res) ? fs.readFileSync(res, 'utf8') : '# Benchmark results\n\n## Browser\n\n(filled in by bench/browser.mjs)\n';
  const block = `<!-- browser:begin -->\n${table}\n<!-- browser:end -->`;
  if (text.includes('<!-- browser:begin -->')) {
    text = text.replace(/<!-- browser:begin -->[\s\S]*<!-- browser:end -->/, block);
  } else if (text.includes('(filled in by bench/browser.mjs)')) {
    text = text.replace('(filled in by bench/browser.mjs)', block);
  } else {
    text += `\n## Browser\n\n${block}\n`;
  }
  fs.writeFileSync(res, text);
  console.log(`wrote ${res}`);
}
