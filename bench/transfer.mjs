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
import { measureTransfer, total, FIRST_VISIT_BUDGET, VISIT_BUDGET } from '../tests/browser/transfer.mjs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const opt = (f, d) => (args.includes(f) ? args[args.indexOf(f) + 1] : d);
const DIST = path.resolve(process.env.HEXLENS_DIST || path.join(ROOT, 'target/bench-dist'));
const SAMPLE = opt('--sample', 'hs_mismatch_2_code_dxil.dxil.dxbc');

const { before, opened } = await measureTransfer(DIST, SAMPLE);
const show = (title, l) => {
  console.log(title);
  for (const r of l) console.log(`  ${String(r.gzip).padStart(8)}  ${r.file}`);
};
const n = (x) => x.toLocaleString('en');
show('before a file is chosen (gzip -9 bytes):', before);
show(`opening ${SAMPLE} adds:`, opened);
console.log(
  `before a file: ${n(total(before))} bytes (budget ${n(FIRST_VISIT_BUDGET)}); with ${SAMPLE} open: ${n(total(before) + total(opened))} bytes (budget ${n(VISIT_BUDGET)})`,
);
