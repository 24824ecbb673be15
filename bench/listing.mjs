// Browser benchmark of the listing pane (static/listing.js): the dense modules
// bench/dense.sh makes, opened in the viewer, then the pane opened on them.
//
//   node bench/listing.mjs [--no-build] [--runs 5] [--dense DIR]
//
// Per file, 5 runs (a fresh page each), medians:
//   first screen  from the click on Listing to the first animation frame with
//                 the pane's first lines made (its module and worker fetched
//                 and started, the file's programs found, the module read and
//                 numbered, the head made)
//   scroll        150 steps of 5 lines a frame down the pane, each step's
//                 frame interval (p95, and how many were over 25 ms: dropped)
//   jump          a line near the end of the text (the find box): from Enter
//                 to the line marked
//   memory        the page's JS heap and wasm, the listing worker's wasm
// Builds the release site as bench/browser.mjs does unless --no-build
// (HEXLENS_DIST: an existing build).
import { chromium } from '../tests/browser/node_modules/playwright-core/index.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../tests/browser/harness.mjs';
import { buildSite } from './build-site.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const opt = (f, d) => (args.includes(f) ? args[args.indexOf(f) + 1] : d);
const DIST = process.env.HEXLENS_DIST || path.join(ROOT, 'target/bench-dist');
const RUNS = Number(opt('--runs', '5'));
const DENSE_DIR = opt('--dense', path.join(ROOT, 'target/dense'));
const FILES = ['dxil-container.dxbc', 'sqlite-O1g.bc', 'sqlite-O2.bc'].map((f) => path.join(DENSE_DIR, f));
for (const f of FILES) {
  if (!fs.existsSync(f)) throw new Error(`${f} is missing: run PREPARE_ONLY=1 bench/dense.sh`);
}
if (!args.includes('--no-build')) buildSite(DIST);

const site = await serve({ dist: path.resolve(DIST) });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--enable-precise-memory-info'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const MiB = (b) => (b / 1048576).toFixed(1);

async function once(file) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(site.base);
  await page.setInputFiles('input[type=file]', file);
  await page.waitForSelector('#tree[data-decoded=true]', { timeout: 120_000 });
  await page.waitForSelector('#listing-button');
  const t0 = await page.evaluate(() => performance.now());
  await page.click('#listing-button');
  const first = await page.evaluate(async (t0) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    for (;;) {
      const t = await frame();
      if (document.querySelector('#listing-pane .listing-line:not(.pending):not([hidden])')) return t - t0;
    }
  }, t0);
  const scroll = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const el = document.querySelector('#listing-pane .listing-scroll');
    const frames = [];
    let last = await frame();
    for (let i = 0; i < 150; i++) {
      el.scrollTop += 5 * 18;
      el.dispatchEvent(new Event('scroll'));
      const now = await frame();
      frames.push(now - last);
      last = now;
    }
    frames.sort((a, b) => a - b);
    return { p95: frames[Math.floor(frames.length * 0.95)], dropped: frames.filter((f) => f > 25).length, steps: frames.length };
  });
  // A line near the end: the last function's closing brace is found by its text.
  const jump = await page.evaluate(async () => {
    const input = document.querySelector('#listing-pane .listing-search');
    input.value = 'attributes #0 = ';
    const t = performance.now();
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const m = document.querySelector('#listing-pane .listing-line.marked');
      if (m && m.textContent.startsWith('attributes #0 = ')) return performance.now() - t;
    }
  });
  const mem = await page.evaluate(() => ({
    heap: performance.memory.usedJSHeapSize,
    pageWasm: window.wasmBindings.debug_memory().pageWasm,
    listingWasm: Number(document.querySelector('#listing-pane').dataset.wasmBytes || 0),
    rows: document.querySelectorAll('#listing-pane .listing-line:not([hidden])').length,
  }));
  await page.close();
  return { first, scroll, jump, mem, errors };
}

console.log(`${new Date().toISOString()}, ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}, ${RUNS} runs each, medians`);
console.log('| file | bytes | first screen | scroll frame p95 (dropped of 150) | find a line near the end | page JS heap | page wasm | listing worker wasm | lines in the DOM |');
console.log('|---|---:|---:|---|---:|---:|---:|---:|---:|');
for (const f of FILES) {
  const rs = [];
  for (let i = 0; i < RUNS; i++) rs.push(await once(f));
  const errs = rs.flatMap((r) => r.errors);
  const m = (g) => median(rs.map(g));
  console.log(`| ${path.basename(f)} | ${fs.statSync(f).size} | ${m((r) => r.first).toFixed(0)} ms | ${m((r) => r.scroll.p95).toFixed(1)} ms (${m((r) => r.scroll.dropped)}) | ${m((r) => r.jump).toFixed(0)} ms | ${MiB(m((r) => r.mem.heap))} MiB | ${MiB(m((r) => r.mem.pageWasm))} MiB | ${MiB(m((r) => r.mem.listingWasm))} MiB | ${m((r) => r.mem.rows)} |${errs.length ? ` errors: ${errs.join('; ')}` : ''}`);
}
await browser.close();
site.server?.close?.();
process.exit(0);
