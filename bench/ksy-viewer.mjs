// Browser benchmark: a .ksy format applied to big files in the web viewer, in
// headless Chromium (the browser tests' driver and harness).
//
//   node bench/ksy-viewer.mjs [--runs 5]
//
// Uses the built site in HEXLENS_DIST (default target/browser-dist: run
// scripts/test-browser.sh or trunk first). Writes its inputs to a temp dir:
//   wav-1GiB.wav, wav-4GiB.wav  RIFF WAVE files whose `data` chunk fills the
//                               file (sparse: only the headers are written),
//                               decoded with tests/ksy/formats/wav.ksy, whose
//                               sizes are known up front (`size: len`)
//   records-N.bin               records of 1 to 64 bytes end to end (4, 16,
//                               64 MiB, 1 GiB), decoded with a format whose
//                               list is an unsized `repeat: eos` of variable
//                               entries (shown once its first 4 MiB are read;
//                               the worker reads the rest ahead)
// Each run opens a new page, opens the file (shown as plain hex: no built-in
// decoder knows it), then picks the format in the toolbar's Format… input, and
// times from that pick to the first animation frame showing the tree's rows of
// the format and hex rows with bytes (the format's code and the interpreter's
// module are fetched in that time, as on a first use). Prints the median of the
// runs, and the page's and the worker's wasm memory after the last run; for
// the unsized lists, also how long the worker then takes to read the rest
// ahead to the list's end, and its memory then.
import { chromium } from '../tests/browser/node_modules/playwright-core/index.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, CHROMIUM_OPTIONS } from '../tests/browser/harness.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const DIST = path.resolve(process.env.HEXLENS_DIST ?? path.join(ROOT, 'target/browser-dist'));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : process.argv[i + 1];
};
const RUNS = Number(arg('--runs', '5'));

/** A sparse RIFF WAVE file of `size` bytes: `fmt `, then `data` to the end. */
function writeWav(file, size) {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(Math.min(size - 8, 0xffffffff), 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(2, 22);
  h.writeUInt32LE(48000, 24);
  h.writeUInt32LE(48000 * 4, 28);
  h.writeUInt16LE(4, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(size - 44, 40);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, h, 0, h.length, 0);
  fs.ftruncateSync(fd, size);
  fs.closeSync(fd);
}

const RECORDS_KSY = `meta:
  id: records
  endian: le
seq:
  - id: records
    type: record
    repeat: eos
types:
  record:
    seq:
      - id: len
        type: u1
      - id: body
        size: len
`;

/** Records of 1 to 64 bytes (a length byte, then the body) filling `size` bytes. */
function writeRecords(file, size) {
  const out = Buffer.alloc(size);
  let at = 0;
  let x = 12345;
  while (at < size) {
    x = (x * 1103515245 + 12345) >>> 0;
    const len = Math.min(((x >>> 16) % 64) + 1, size - at - 1);
    if (len < 0) break;
    out[at] = len;
    at += 1 + len;
  }
  fs.writeFileSync(file, out);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hexlens-ksy-bench-'));
const wavKsy = fs.readFileSync(path.join(ROOT, 'tests/ksy/formats/wav.ksy'), 'utf8');
const cases = [
  { file: 'wav-1GiB.wav', make: (f) => writeWav(f, 2 ** 30), ksy: ['wav.ksy', wavKsy], rows: 'chunks', note: 'sizes known up front' },
  { file: 'wav-4GiB.wav', make: (f) => writeWav(f, 2 ** 32 - 2), ksy: ['wav.ksy', wavKsy], rows: 'chunks', note: 'sizes known up front' },
  { file: 'records-4MiB.bin', make: (f) => writeRecords(f, 4 << 20), ksy: ['records.ksy', RECORDS_KSY], rows: 'records', note: 'unsized repeat: eos' },
  { file: 'records-16MiB.bin', make: (f) => writeRecords(f, 16 << 20), ksy: ['records.ksy', RECORDS_KSY], rows: 'records', note: 'unsized repeat: eos' },
  { file: 'records-64MiB.bin', make: (f) => writeRecords(f, 64 << 20), ksy: ['records.ksy', RECORDS_KSY], rows: 'records', note: 'unsized repeat: eos' },
  { file: 'records-1GiB.bin', make: (f) => writeRecords(f, 2 ** 30), ksy: ['records.ksy', RECORDS_KSY], rows: 'records', note: 'unsized repeat: eos' },
];
for (const c of cases) c.make(path.join(dir, c.file));

const site = await serve({ dist: DIST });
const base = site.base;
const browser = await chromium.launch({ ...CHROMIUM_OPTIONS, args: [...(CHROMIUM_OPTIONS.args ?? []), '--enable-precise-memory-info'] });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const rows = [];
for (const c of cases) {
  const times = [];
  let mem = null;
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(base);
    await page.waitForSelector('.toolbar');
    const input = (await page.$('#file-input')) ? '#file-input' : '#file-input-empty';
    await page.setInputFiles(input, path.join(dir, c.file));
    await page.waitForSelector('#tree[data-decoded=true]', { timeout: 120_000 });
    // The clock starts when the format is picked; a frame loop stops it.
    await page.evaluate((list) => {
      window.__shown = new Promise((resolve) => {
        document.addEventListener('change', (e) => {
          if (e.target.id !== 'format-input') return;
          const t0 = performance.now();
          const frame = () => {
            const ok = /^ksy:/.test(document.querySelector('#file-info .badge')?.textContent ?? '') &&
              document.querySelector(`#tree .trow[data-path="${list}"]`) &&
              document.querySelector('#hex .hrow:not(.pending)');
            if (ok) resolve(performance.now() - t0);
            else requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
        }, { capture: true, once: true });
      });
    }, c.rows);
    await page.setInputFiles('#format-input', { name: c.ksy[0], mimeType: 'text/yaml', buffer: Buffer.from(c.ksy[1]) });
    times.push(await page.evaluate(() => window.__shown));
    if (run === RUNS - 1) {
      mem = await page.evaluate(() => window.wasmBindings.debug_memory?.());
      if (c.rows === 'records' && fs.statSync(path.join(dir, c.file)).size > 8 << 20) {
        // The worker reads the rest (past the first 4 MiB) ahead: how long to the list's end, and
        // its memory then (the last run only).
        const t = Date.now();
        await page.waitForFunction(() => /read to its end/.test(document.querySelector('#ksy-reading')?.textContent ?? ''), null, { timeout: 600_000 });
        c.ahead = { ms: Date.now() - t, mem: await page.evaluate(() => window.wasmBindings.debug_memory?.()) };
      }
    }
    await context.close();
  }
  const size = fs.statSync(path.join(dir, c.file)).size;
  rows.push({ ...c, size, times, median: median(times), mem });
  console.error(`${c.file}: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
}
await browser.close();
site.server.close();
fs.rmSync(dir, { recursive: true, force: true });

const mib = (b) => (b === undefined || b === null ? '?' : `${(b / 2 ** 20).toFixed(1)} MiB`);
console.log(`A .ksy format picked for an open file: to its first screen (${RUNS} runs, median; new page each run)\n`);
console.log('| file | bytes | format | first screen, median | runs | page wasm | worker wasm |');
console.log('| --- | ---: | --- | ---: | --- | --- | --- |');
for (const r of rows) {
  console.log(`| ${r.file} | ${r.size.toLocaleString('en-US')} | ${r.ksy[0]} (${r.note}) | ${r.median.toFixed(0)} ms | ${r.times.map((t) => t.toFixed(0)).join(', ')} | ${mib(r.mem?.pageWasm)} | ${mib(r.mem?.workerWasm)} |`);
}
console.log('\nThe rest of an unsized list, read ahead by the worker after the first screen (the last run):\n');
console.log('| file | to the list\'s end after the first screen | worker wasm then |');
console.log('| --- | ---: | --- |');
for (const r of rows.filter((r) => r.ahead)) {
  console.log(`| ${r.file} | ${(r.ahead.ms / 1000).toFixed(1)} s | ${mib(r.ahead.mem?.workerWasm)} |`);
}
