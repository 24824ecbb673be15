// What a visit downloads, against its budgets (measured as bench/transfer.mjs
// measures it: the release build, every response gzip -9, service workers
// blocked).
//
// A first visit, before a file is chosen, fetches the first page only (markup,
// style sheet, static/shell.js, the loader, the samples manifest): no wasm.
// Opening a file then fetches the app's module and the one decoder module the
// file needs; a visit that searches, copies or exports fetches the tools module
// as well, which is not counted here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIST } from './harness.mjs';
import { measureTransfer, total, FIRST_VISIT_BUDGET, VISIT_BUDGET } from './transfer.mjs';

test('a first visit stays within its budget and fetches no wasm; a visit with a DXIL container open fetches one decoder module', async (t) => {
  const sample = 'hs_mismatch_2_code_dxil.dxil.dxbc';
  const { before, opened } = await measureTransfer(DIST, sample);
  const first = total(before);
  const visit = first + total(opened);
  t.diagnostic(`first visit ${first} bytes (budget ${FIRST_VISIT_BUDGET}); with ${sample} open ${visit} bytes (budget ${VISIT_BUDGET})`);
  assert.ok(first <= FIRST_VISIT_BUDGET, `first visit: ${first} bytes, over ${FIRST_VISIT_BUDGET}: ${before.map((r) => `${r.file} ${r.gzip}`).join(', ')}`);
  assert.deepEqual(before.filter((r) => r.file.endsWith('.wasm')), [], 'no wasm before a file is chosen');
  const wasm = opened.filter((r) => r.file.endsWith('.wasm')).map((r) => r.file.replace(/-[0-9a-f]{12,16}_bg/, '_bg'));
  assert.deepEqual(wasm.sort(), ['hexlens-web_bg.wasm', 'hexlens-worker-llvm_bg.wasm'], 'the app and the llvm decoder module');
  assert.ok(visit <= VISIT_BUDGET, `with a file open: ${visit} bytes, over ${VISIT_BUDGET}: ${opened.map((r) => `${r.file} ${r.gzip}`).join(', ')}`);
});
