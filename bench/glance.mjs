// Browser benchmark: the glance (static/glance.js) on big files, in headless
// Chromium (the browser tests' driver and harness).
//
//   node bench/glance.mjs [--runs 5]
//
// Uses the built site in HEXLENS_DIST (default target/browser-dist). Writes
// its inputs to a temp dir:
//   dxil-4GiB.dxbc     a DXIL container of 4 GiB (sparse: only its headers
//                      are written; bench/gen-inputs.mjs)
//   random-1GiB.bin    1 GiB of random bytes (no decoder knows it)
//   parts-100000.dxbc  a container of 100,000 input signatures (the table of
//                      its Parts list has 100,000 rows)
// and, if bench/dense.sh has made it (target/dense/, or HEXLENS_DENSE_DIR), the
// dense input sqlite-O1g.bc: clang-19 bitcode of SQLite with debug info, whose
// table of all the nodes under its module block (its biggest) is timed too.
// Each run opens a new page and the file, then times, from the click that
// opens the glance (its script, the tools module, the file's top levels and
// the map's coarse pass, read from samples of each cell), to the map shown
// coarse, and to the map counted exactly (every byte read); on the random
// file, the whole file's statistics (a histogram of 1 GiB) from picking the
// scope to the last count; on the container of 100,000 parts, the table of
// its Parts list from the click on the table's tab to its first screen of
// rows, and from a click on the Size column to the first screen sorted.
// Prints the median of the runs, and the page's and the glance worker's wasm
// memory after the last.
import { chromium } from '../tests/browser/node_modules/playwright-core/index.mjs';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, CHROMIUM_OPTIONS } from '../tests/browser/harness.mjs';
import { denseContainer } from '../tests/browser/fixtures.mjs';
import { writeDxil } from './gen-inputs.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const DIST = path.resolve(process.env.HEXLENS_DIST ?? path.join(ROOT, 'target/browser-dist'));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : process.argv[i + 1];
};
const RUNS = Number(arg('--runs', '5'));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hexlens-glance-'));
const file = (n) => path.join(dir, n);
writeDxil(file('dxil-4GiB.dxbc'), 2 ** 32 - 64);
{
  const fd = fs.openSync(file('random-1GiB.bin'), 'w');
  const chunk = Buffer.alloc(16 << 20);
  for (let i = 0; i < 64; i++) fs.writeSync(fd, crypto.randomFillSync(chunk));
  fs.closeSync(fd);
}
fs.writeFileSync(file('parts-100000.dxbc'), denseContainer(100_000));
const DENSE = path.join(process.env.HEXLENS_DENSE_DIR ?? path.join(ROOT, 'target/dense'), 'sqlite-O1g.bc');
const dense = fs.existsSync(DENSE);
if (dense) fs.copyFileSync(DENSE, file('sqlite-O1g.bc'));
else console.error(`no ${DENSE} (bench/dense.sh makes it): the dense input is left out`);

const site = await serve({ dist: DIST });
const browser = await chromium.launch(CHROMIUM_OPTIONS);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A new page with `name` open. */
async function opened(name) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(site.base);
  await page.waitForSelector('.toolbar');
  const input = (await page.$('#file-input')) ? '#file-input' : '#file-input-empty';
  await page.setInputFiles(input, file(name));
  await page.waitForSelector('#tree[data-decoded=true]', { timeout: 120_000 });
  return { context, page };
}

/** Milliseconds from `act` to `done` holding (polled every frame). */
async function timed(page, act, done, arg) {
  const t0 = Date.now();
  await act();
  await page.waitForFunction(done, arg, { timeout: 900_000, polling: 'raf' });
  return Date.now() - t0;
}

/** The wasm memory of the page and of the glance's worker. */
async function glanceMemory(page) {
  return page.evaluate(() => ({
    pageWasm: window.wasmBindings.debug_memory?.()?.pageWasm,
    workerWasm: Number(document.getElementById('glance-map')?.dataset.wasm),
  }));
}

const results = [];
function record(what, times, mem) {
  results.push({ what, times, median: median(times), mem });
  console.error(`${what}: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
}

for (const name of ['dxil-4GiB.dxbc', 'random-1GiB.bin', ...(dense ? ['sqlite-O1g.bc'] : [])]) {
  const coarse = [];
  const full = [];
  let mem;
  for (let run = 0; run < RUNS; run++) {
    const { context, page } = await opened(name);
    const t0 = Date.now();
    await page.click('#glance-button');
    await page.waitForSelector('#glance-map:is([data-pass=coarse],[data-pass=full])', { timeout: 120_000 });
    coarse.push(Date.now() - t0);
    await page.waitForSelector('#glance-map[data-pass=full]', { timeout: 900_000 });
    full.push(Date.now() - t0);
    if (run === RUNS - 1) mem = await glanceMemory(page);
    await context.close();
  }
  record(`${name}: the map, coarse`, coarse);
  record(`${name}: the map, counted exactly`, full, mem);
}

{
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    const { context, page } = await opened('random-1GiB.bin');
    await page.click('#glance-button');
    await page.waitForSelector('#glance-map[data-pass=full]', { timeout: 900_000 });
    await page.click('#glance-tab-stats');
    const total = (2 ** 30).toLocaleString('en');
    times.push(await timed(page, () => page.selectOption('#glance-scope', 'file'),
      (t) => document.getElementById('glance-total')?.textContent.trim() === t &&
        document.getElementById('glance-run')?.textContent.trim() !== 'Stop', total));
    await context.close();
  }
  record('random-1GiB.bin: a histogram of the whole file', times);
}

{
  const first = [];
  const sorted = [];
  let mem;
  for (let run = 0; run < RUNS; run++) {
    const { context, page } = await opened('parts-100000.dxbc');
    await page.click('#tree .trow[data-path="Parts"] .tname');
    await page.waitForFunction(() => document.getElementById('details-path')?.textContent === 'Parts');
    await page.click('#glance-button');
    await page.waitForSelector('#glance-map[data-pass=full]', { timeout: 120_000 });
    first.push(await timed(page, () => page.click('#glance-tab-table'),
      () => document.getElementById('glance-count')?.textContent.startsWith('100,000 rows') &&
        document.querySelector('#glance-rows .glance-row:not([hidden])')));
    // Sizes are equal but for the names' lengths: the largest come first.
    sorted.push(await timed(page, async () => {
      await page.click('.glance-col[data-col=size]');
      await page.click('.glance-col[data-col=size]');
    }, () => {
      const r = document.querySelector('#glance-rows .glance-row:not([hidden])');
      return r && r.dataset.path !== 'Parts/[0]' && document.querySelector('.glance-col[data-col=size]')?.getAttribute('aria-sort') === 'descending';
    }));
    if (run === RUNS - 1) mem = await glanceMemory(page);
    await context.close();
  }
  record('parts-100000.dxbc: the table of 100,000 parts, first screen', first);
  record('parts-100000.dxbc: sorted by size (two clicks: ascending, then descending)', sorted, mem);
}

if (dense) {
  // Every node under the module block (the tree is decoded as it is listed).
  const first = [];
  const sorted = [];
  let rows = '';
  let mem;
  for (let run = 0; run < RUNS; run++) {
    const { context, page } = await opened('sqlite-O1g.bc');
    // The biggest block shown (the module block).
    const block = await page.$$eval('#tree .trow[data-kind="struct"]', (rs) =>
      rs.filter((r) => r.dataset.path).sort((a, b) => (b.dataset.end - b.dataset.start) - (a.dataset.end - a.dataset.start))[0].dataset.path);
    await page.click(`#tree .trow[data-path="${block}"] .tname`);
    await page.waitForFunction((p) => document.getElementById('details-path')?.textContent === p, block);
    await page.click('#glance-button');
    await page.waitForSelector('#glance-map[data-pass=full]', { timeout: 120_000 });
    await page.click('#glance-tab-table');
    await page.waitForSelector('#glance-rows .glance-row:not([hidden])', { timeout: 120_000 });
    first.push(await timed(page, () => page.check('#glance-all'),
      () => /^Descendants/.test(document.querySelector('#glance-table')?.textContent ?? '') &&
        document.getElementById('glance-count')?.textContent.endsWith('rows') &&
        document.querySelector('#glance-rows .glance-row:not([hidden])')));
    rows = await page.textContent('#glance-count');
    sorted.push(await timed(page, async () => {
      await page.click('.glance-col[data-col=size]');
      await page.click('.glance-col[data-col=size]');
    }, () => document.querySelector('.glance-col[data-col=size]')?.getAttribute('aria-sort') === 'descending' &&
      document.getElementById('glance-count')?.textContent.endsWith('rows') &&
      document.querySelector('#glance-rows .glance-row:not([hidden])')));
    if (run === RUNS - 1) mem = await glanceMemory(page);
    await context.close();
  }
  record(`sqlite-O1g.bc: the table of every node under its module block (${rows}), first screen`, first);
  record('sqlite-O1g.bc: that table sorted by size (two clicks)', sorted, mem);
}

await browser.close();
site.server.close();
fs.rmSync(dir, { recursive: true, force: true });

const mib = (b) => (b === undefined || b === null ? '?' : `${(b / 2 ** 20).toFixed(1)} MiB`);
console.log(`The glance on big files (${RUNS} runs, median; a new page each run)\n`);
console.log('| what | median | runs | page wasm | glance worker wasm |');
console.log('| --- | ---: | --- | --- | --- |');
for (const r of results) {
  console.log(`| ${r.what} | ${r.median.toFixed(0)} ms | ${r.times.map((t) => t.toFixed(0)).join(', ')} | ${mib(r.mem?.pageWasm)} | ${mib(r.mem?.workerWasm)} |`);
}
