// What a visit transfers, as a browser sees it: the release build served
// statically, every file the page and its workers fetch, each body gzip -9.
//
//   node bench/transfer.mjs [--sample FILE]
//
// Serves HEXLENS_DIST (default target/bench-dist: build it first, as
// bench/browser.mjs does without --no-build) under /hexlens/ to headless Chromium
// with service workers blocked (the worker's install, which stores the whole
// build for offline use in the background after the page has loaded, is not
// part of what a visit needs), and prints each file fetched with its gzip -9
// size: first for the page before a file is chosen, then what opening a
// bundled sample adds (default: a DXIL hull shader, which starts the `llvm`
// decoder module). The budgets: ≤ 150,000 bytes before a file is chosen,
// ≤ 350,000 with the file open.
import { launch, PREFIX, serve } from '../tests/browser/harness.mjs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const opt = (f, d) => (args.includes(f) ? args[args.indexOf(f) + 1] : d);
const DIST = path.resolve(process.env.HEXLENS_DIST || path.join(ROOT, 'target/bench-dist'));
const SAMPLE = opt('--sample', 'hs_mismatch_2_code_dxil.dxil.dxbc');

/** Bytes of `gzip -9` of a file (the gzip program: node's zlib gives other sizes). */
const gzip9 = (f) => spawnSync('gzip', ['-9', '-c', f], { maxBuffer: 1 << 30 }).stdout.length;
const site = await serve({ dist: DIST });
const base = site.base;
const browser = await launch();
/** A path the server answered, as its file under DIST and that file's gzip -9 size. */
const fetched = (p) => {
  const file = p.slice(PREFIX.length) || 'index.html';
  return { file, gzip: gzip9(path.join(DIST, file)) };
};
const context = await browser.newContext({ serviceWorkers: 'block' });
const page = await context.newPage();
await page.goto(base);
await page.locator(`#sample-list .sample[data-file="${SAMPLE}"]`).waitFor();
await page.waitForTimeout(1500);
const before = site.served.splice(0).map(fetched);
await page.click(`#sample-list .sample[data-file="${SAMPLE}"]`);
await page.waitForFunction(() => performance.getEntriesByName('hexlens:decoded').length > 0, null, { timeout: 60000 });
await page.waitForTimeout(1500);
const opened = site.served.splice(0).map(fetched);
await browser.close();
site.server.close();

const sum = (l) => l.reduce((a, r) => a + r.gzip, 0);
const show = (title, l) => {
  console.log(title);
  for (const r of l) console.log(`  ${String(r.gzip).padStart(8)}  ${r.file}`);
};
show('before a file is chosen (gzip -9 bytes):', before);
show(`opening ${SAMPLE} adds:`, opened);
console.log(`before a file: ${sum(before).toLocaleString('en')} bytes (budget 150,000); with ${SAMPLE} open: ${(sum(before) + sum(opened)).toLocaleString('en')} bytes (budget 350,000)`);
