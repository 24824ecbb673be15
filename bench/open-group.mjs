// Opening one group of a file in the viewer, several runs: the time from the
// click on the group's twisty to the frame in which it shows open with its
// children, in headless Chromium.
//
//   node bench/open-group.mjs FILE PATH [--runs 5]
//
// Serves HEXLENS_DIST (default target/bench-dist: build it first, as
// bench/browser.mjs does without --no-build). Each run opens FILE in a fresh
// page, waits until it is decoded, opens the groups on the way to PATH (a path
// as the JSON contract writes it, e.g. `Modules/[0]/Uast`) one after another,
// then times PATH's opening. Prints each run and the median.
import { launch, serve } from '../tests/browser/harness.mjs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const opt = (f, d) => (args.includes(f) ? args[args.indexOf(f) + 1] : d);
const [FILE, PATH] = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1] === '--runs'));
if (!FILE || !PATH) {
  console.error('usage: node bench/open-group.mjs FILE PATH [--runs 5]');
  process.exit(2);
}
const DIST = path.resolve(process.env.HEXLENS_DIST || path.join(ROOT, 'target/bench-dist'));
const RUNS = Number(opt('--runs', '5'));

const site = await serve({ dist: DIST });
const browser = await launch();

/** Clicks the twisty of the row at `p` and resolves with the ms until it shows open. */
async function open(page, p) {
  const row = page.locator(`#tree .trow[data-path="${p}"]`);
  await row.waitFor();
  return page.evaluate(async (p) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const sel = `#tree .trow[data-path="${CSS.escape(p)}"]`;
    const t0 = performance.now();
    document.querySelector(sel).querySelector('.twisty').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    for (;;) {
      const t = await frame();
      const r = document.querySelector(sel);
      if (r && !r.classList.contains('lazy') && r.getAttribute('aria-expanded') === 'true' && document.querySelector(`${sel} + .trow`)) return t - t0;
    }
  }, p);
}

const times = [];
for (let i = 0; i < RUNS; i++) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(site.base);
  await page.setInputFiles('input[type=file]', FILE);
  await page.waitForFunction(() => performance.getEntriesByName('hexlens:decoded').length > 0, null, { timeout: 600000 });
  const parts = PATH.split('/');
  for (let k = 1; k < parts.length; k++) {
    const up = parts.slice(0, k).join('/');
    const shown = await page.locator(`#tree .trow[data-path="${up}"][aria-expanded="true"]`).count();
    if (!shown) await open(page, up);
  }
  const ms = await open(page, PATH);
  times.push(ms);
  console.log(`run ${i + 1}: ${PATH} opened in ${ms.toFixed(0)} ms`);
  await page.close();
}
await browser.close();
site.server.close();
const sorted = [...times].sort((a, b) => a - b);
console.log(`median of ${RUNS}: ${sorted[Math.floor(RUNS / 2)].toFixed(0)} ms (${sorted[0].toFixed(0)}–${sorted[RUNS - 1].toFixed(0)})`);
