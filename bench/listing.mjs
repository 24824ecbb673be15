// Browser benchmark of the listing pane (static/listing.js): the dense modules
// bench/dense.sh makes, opened in the viewer, then the pane opened on them.
//
//   node bench/listing.mjs [--no-build] [--runs 5] [--dense DIR]
//
// Per file, 5 runs (a fresh page each), medians:
//   first screen  from the click on Listing (its event in the page) to the
//                 first animation frame with
//                 every line in view made (its module and worker fetched and
//                 started, the file's programs found, the module's records
//                 read, the pieces in view made: the header and the first
//                 named types, which read the first bodies)
//   scroll        150 steps of 5 lines a frame down the pane, each step's
//                 frame interval (p95, and how many were over 25 ms: dropped),
//                 the pane's own work in each frame (its scroll handler and
//                 the layout of the rows it changed: p95), and the same
//                 page's frame intervals with nothing scrolled (p95: the
//                 frame clock the intervals are measured against)
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
  // The time of the click itself, as the page sees it (not of the driver's
  // steps before it: scrolling the button into view, moving the mouse).
  await page.evaluate(() => {
    document.addEventListener(
      'click',
      (e) => {
        if (e.target.closest?.('#listing-button')) window.benchClickAt ??= performance.now();
      },
      true,
    );
  });
  await page.click('#listing-button');
  const first = await page.evaluate(async () => {
    const t0 = window.benchClickAt;
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    for (;;) {
      const t = await frame();
      // Every line in view made (none waiting for its piece).
      const rows = [...document.querySelectorAll('#listing-pane .listing-line:not([hidden])')];
      if (rows.length > 0 && rows.every((r) => !r.classList.contains('pending'))) return t - t0;
    }
  });
  const scroll = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const el = document.querySelector('#listing-pane .listing-scroll');
    const frames = [];
    const work = [];
    let last = await frame();
    for (let i = 0; i < 150; i++) {
      const a = performance.now();
      el.scrollTop += 5 * 18;
      el.dispatchEvent(new Event('scroll'));
      // The pane's own work in the frame: its scroll handler and the layout
      // of the rows it changed (forced here to be counted).
      void el.querySelector('.listing-line')?.offsetHeight;
      work.push(performance.now() - a);
      const now = await frame();
      frames.push(now - last);
      last = now;
    }
    frames.sort((a, b) => a - b);
    work.sort((a, b) => a - b);
    const at95 = (xs) => xs[Math.floor(xs.length * 0.95)];
    // The same page's frame clock with nothing scrolled: what the intervals
    // are made of when the pane does nothing.
    const idle = [];
    last = await frame();
    for (let i = 0; i < 150; i++) {
      const now = await frame();
      idle.push(now - last);
      last = now;
    }
    idle.sort((a, b) => a - b);
    return { p95: at95(frames), work95: at95(work), idle95: at95(idle), dropped: frames.filter((f) => f > 25).length, steps: frames.length };
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
console.log("| file | bytes | first screen | scroll frame p95 (dropped of 150) | idle frame p95 | the pane's work a frame (p95) | find a line near the end | page JS heap | page wasm | listing worker wasm | lines in the DOM |");
console.log('|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|');
for (const f of FILES) {
  const rs = [];
  for (let i = 0; i < RUNS; i++) rs.push(await once(f));
  const errs = rs.flatMap((r) => r.errors);
  const m = (g) => median(rs.map(g));
  console.log(`| ${path.basename(f)} | ${fs.statSync(f).size} | ${m((r) => r.first).toFixed(0)} ms | ${m((r) => r.scroll.p95).toFixed(1)} ms (${m((r) => r.scroll.dropped)}) | ${m((r) => r.scroll.idle95).toFixed(1)} ms | ${m((r) => r.scroll.work95).toFixed(1)} ms | ${m((r) => r.jump).toFixed(0)} ms | ${MiB(m((r) => r.mem.heap))} MiB | ${MiB(m((r) => r.mem.pageWasm))} MiB | ${MiB(m((r) => r.mem.listingWasm))} MiB | ${m((r) => r.mem.rows)} |${errs.length ? ` errors: ${errs.join('; ')}` : ''}`);
}
await browser.close();
site.server?.close?.();
process.exit(0);
