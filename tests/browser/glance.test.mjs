// The glance (static/glance.js) in headless Chromium: the whole file at a
// glance. The map's colours, read back from its canvas, are checked against
// the parts and owners worked out here from `hexlens dump --json`; a click on
// the map goes to the byte under it; planted random and zero regions read
// about 8 and 0 bits of entropy; the histogram's counts equal a count of the
// file's bytes made here; the field table's rows, sorted and filtered,
// equal the dump's; a row click selects its node; the table copies as TSV.
// Screenshots of each mode go to HEXLENS_ARTIFACTS.
//
//   HEXLENS_DIST       the built site (default target/browser-dist)
//   HEXLENS_ARTIFACTS  where screenshots go (default target/browser-artifacts)
//   HEXLENS_CLI        the hexlens binary (the oracle: its dump --json)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ART, DIST, SAMPLES, launch, openFile, serve, watch } from './harness.mjs';
import { XSS, dxbc, xssContainer } from './fixtures.mjs';

const CLI = process.env.HEXLENS_CLI;
const SAMPLE = 'hs_mismatch_2_code_dxil.dxil.dxbc';
const CELLS = 1024;

let server;
let base;
let browser;
let context;
let page;
let watched;
const requests = [];
const problems = () => [
  ...watched.problems,
  ...watched.dialogs.map((d) => `dialog: ${d}`),
  ...watched.consoleErrors.filter((t) => !t.startsWith('Failed to load resource')).map((t) => `console error: ${t}`),
];

const shot = (name) => page.screenshot({ path: path.join(ART, `${name}.png`) });

/** `hexlens dump FILE --json` (bytes written to a temp file first if given). */
function dump(bytes, name = 'file.bin') {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'glance-')), name);
  fs.writeFileSync(file, bytes);
  const r = spawnSync(CLI, ['dump', file, '--json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return JSON.parse(r.stdout);
}

/** Every node below `n` in depth-first order, with its path. */
function below(n, prefix = '', out = []) {
  for (const c of n.children ?? []) {
    const p = prefix ? `${prefix}/${c.name}` : c.name;
    out.push({ ...c, path: p });
    below(c, p, out);
  }
  return out;
}

const GROUP = new Set(['file', 'struct', 'array']);
const withPaths = (n, prefix) => (n.children ?? []).map((c) => ({ ...c, path: prefix ? `${prefix}/${c.name}` : c.name }));

/** The coloured parts, by the map's rule: the first level below the root with
 * more than one node, a list of groups there split into its entries. */
function parts(tree) {
  let level = { ...tree, path: '' };
  for (let i = 0; i < 16; i++) {
    const kids = withPaths(level, level.path);
    if (kids.length === 1 && GROUP.has(kids[0].kind)) level = kids[0];
    else break;
  }
  const kids = withPaths(level, level.path);
  let room = 4096 - kids.length;
  const out = [];
  for (const k of kids) {
    const items = withPaths(k, k.path);
    if (k.kind === 'array' && items.some((i) => GROUP.has(i.kind)) && items.length <= room + 1) {
      room -= items.length - 1;
      out.push(...items);
    } else out.push(k);
  }
  return out.filter((p) => p.end > p.start).sort((a, b) => a.start - b.start);
}

const cellRange = (i, size, cells) => [Math.floor((i * size) / cells), Math.floor(((i + 1) * size) / cells)];

/** For each cell, the part holding most of its bytes (the first such), or -1. */
function owners(ps, size, cells) {
  const out = [];
  for (let i = 0; i < cells; i++) {
    const [a, b] = cellRange(i, size, cells);
    let best = 0;
    let k = -1;
    ps.forEach((p, j) => {
      const n = Math.min(b, p.end) - Math.max(a, p.start);
      if (n > best) [best, k] = [n, j];
    });
    out.push(k);
  }
  return out;
}

async function open() {
  await page.goto(base);
  await page.waitForSelector('.toolbar');
}

/** Opens the glance (if it is closed) and waits until the map is counted exactly. */
async function glance() {
  if (!(await page.$('body.glance-open'))) await page.click('#glance-button');
  await page.waitForSelector('#glance-map[data-pass=full]', { timeout: 60_000 });
}

async function closeGlance() {
  if (await page.$('body.glance-open')) await page.click('#glance-button');
  await page.waitForFunction(() => !document.body.classList.contains('glance-open'));
}

/** Selects the tree row at `p` (its parents must be open). */
async function selectRow(p) {
  await page.click(`#tree .trow[data-path="${p}"] .tname`);
  await page.waitForFunction((q) => document.getElementById('details-path')?.textContent === q, p);
}

before(async () => {
  assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `no build in ${DIST}: run scripts/test-browser.sh`);
  assert.ok(CLI && fs.existsSync(CLI), `HEXLENS_CLI (${CLI}) must name the hexlens binary`);
  fs.mkdirSync(ART, { recursive: true });
  ({ server, base } = await serve());
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light', serviceWorkers: 'block' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  context.on('request', (r) => requests.push(r.url()));
  page = await context.newPage();
  watched = await watch(context, page);
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('the map colours each cell as the part holding most of its bytes (hexlens dump --json); tree rows and bytes take the same colours', async () => {
  await open();
  const bytes = fs.readFileSync(path.join(SAMPLES, SAMPLE));
  await openFile(page, SAMPLE, bytes);
  assert.ok(!requests.some((u) => u.includes('glance.js')), 'the glance was fetched before it was opened');
  await glance();
  const want = dump(bytes, SAMPLE);
  const ps = parts(want.tree);
  assert.ok(ps.some((p) => p.path.startsWith('Parts/[')) && ps.length > 3, ps.map((p) => p.path).join(' '));
  const size = bytes.length;
  const cells = Math.min(CELLS, size);
  const own = owners(ps, size, cells);
  assert.equal(await page.getAttribute('#glance-map', 'data-cells'), String(cells));
  assert.equal(await page.getAttribute('#glance-map', 'data-size'), String(size));
  // Every pixel row of the canvas: the last cell drawn over it sets its colour.
  const got = await page.evaluate(async () => {
    const m = await import(new URL('glance.js', document.querySelector('script[src$="shell.js"]').src).href);
    const c = document.getElementById('glance-canvas');
    const d = c.getContext('2d').getImageData(Math.floor(c.width / 2), 0, 1, c.height).data;
    const rows = [];
    for (let y = 0; y < c.height; y++) rows.push([d[4 * y], d[4 * y + 1], d[4 * y + 2]]);
    const colours = [];
    for (let k = 0; k < 64; k++) colours.push(m.partRgb(k));
    return { rows, colours, unknown: m.UNKNOWN_RGB };
  });
  const H = got.rows.length;
  assert.ok(H > 200, `the canvas is ${H} px tall`);
  let compared = 0;
  for (let y = 0; y < H; y++) {
    let last = -1;
    for (let i = 0; i < cells; i++) {
      const y0 = Math.floor((i * H) / cells);
      const y1 = Math.max(y0 + 1, Math.floor(((i + 1) * H) / cells));
      if (y0 <= y && y < y1) last = i;
    }
    const k = own[last];
    if (k < 0) continue;
    const expect = ps[k].kind === 'unknown' ? got.unknown : got.colours[k];
    assert.deepEqual(got.rows[y], expect, `pixel row ${y}: cell ${last}, part ${ps[k].path}`);
    compared++;
  }
  assert.ok(compared > H * 0.9, `${compared} of ${H} rows compared`);
  // The same colours on the parts' tree rows and under their bytes.
  const header = ps.findIndex((p) => p.path === 'Header');
  assert.ok(header >= 0);
  await page.waitForFunction(
    (c) => document.querySelector('#tree .trow[data-path="Header"]')?.style.getPropertyValue('--glc') === c &&
      document.querySelector('#hex [data-o="0"]')?.style.getPropertyValue('--glc') === c,
    `rgb(${got.colours[header].join(',')})`,
  );
  // Hovering names the part under the pointer.
  const box = await page.locator('#glance-canvas').boundingBox();
  const p1 = ps.find((p) => p.path === 'Parts/[1]');
  const mid = (p1.start + p1.end) / 2 / size;
  await page.mouse.move(box.x + box.width / 2, box.y + mid * box.height);
  await page.waitForFunction(() => /Parts\/\[1\]/.test(document.getElementById('glance-hover')?.textContent ?? ''));
  await shot('glance-01-structure');
  assert.deepEqual(problems(), []);
});

// Each part is 2 MiB: the map's cells (6 KiB each) hold enough bytes for their
// entropy to read near 8 bits on random bytes (a few hundred random bytes
// read well under 8: a small sample cannot show every byte value).
const PART = 2 << 20;

/** A container whose parts are 2 MiB of random bytes, of zeros and of text. */
function planted() {
  const n = PART;
  const text = new Uint8Array(n);
  const words = new TextEncoder().encode('the whole file at a glance ');
  for (let i = 0; i < n; i++) text[i] = words[i % words.length];
  return dxbc([
    ['RAND', new Uint8Array(crypto.randomBytes(n))],
    ['ZERO', new Uint8Array(n)],
    ['TEXT', text],
  ]);
}

/** The node of part `k`'s data in the planted file, from the dump. */
function partData(tree, k) {
  const p = below(tree).find((n) => n.path === `Parts/[${k}]/Data`);
  assert.equal(p?.end - p?.start, PART, `part ${k}'s data`);
  return p;
}

async function stats(scope) {
  await page.click('#glance-tab-stats');
  await page.selectOption('#glance-scope', scope);
  await page.waitForFunction(() => document.getElementById('glance-run')?.textContent.trim() !== 'Stop' &&
    document.getElementById('glance-total')?.textContent.trim() !== '');
}

const figure = async (id) => (await page.textContent(id)).trim();

test('entropy: planted random and zero regions read about 8 and 0 bits, on the map and in the statistics; the histogram counts the file', async () => {
  await closeGlance();
  const bytes = planted();
  await openFile(page, 'planted.dxbc', bytes);
  await glance();
  const want = dump(bytes, 'planted.dxbc');
  const rand = partData(want.tree, 0);
  const zero = partData(want.tree, 1);
  await page.selectOption('#glance-mode', 'entropy');
  const box = await page.locator('#glance-canvas').boundingBox();
  const hover = async (node) => {
    const y = box.y + (((node.start + node.end) / 2) / bytes.length) * box.height;
    await page.mouse.move(box.x + box.width / 2, y);
    const t = await page.textContent('#glance-hover');
    const m = /([\d.]+) bits per byte/.exec(t);
    assert.ok(m && !t.includes('≈'), `exact entropy on hover: ${t}`);
    return Number(m[1]);
  };
  const hr = await hover(rand);
  const hz = await hover(zero);
  assert.ok(hr > 7.9 && hr <= 8, `random: ${hr}`);
  assert.equal(hz, 0);
  // A search's matches are ticked beside the map, where they are (the lane of matches, amber).
  const hit = Buffer.from(bytes).indexOf('ZERO');
  assert.ok(hit > 0);
  await page.keyboard.press('Control+f');
  await page.selectOption('#search-mode', 'text');
  await page.fill('#search-input', 'ZERO');
  await page.press('#search-input', 'Enter');
  await page.waitForFunction(([at, size]) => {
    const c = document.getElementById('glance-marks');
    const lane = Math.max(1, Math.floor(c.width / 3));
    const y = Math.min(Math.floor((at / size) * c.height), c.height - 2);
    const d = c.getContext('2d').getImageData(lane + (lane >> 1), y, 1, 1).data;
    return d[0] === 0xf5 && d[1] === 0x9e && d[2] === 0x0b && d[3] === 255;
  }, [hit, bytes.length], { timeout: 10_000 });
  await page.keyboard.press('Escape');
  await shot('glance-02-entropy');
  await page.selectOption('#glance-mode', 'zeros');
  await shot('glance-03-zeros');
  await page.selectOption('#glance-mode', 'text');
  await shot('glance-04-text');
  // The statistics of the random part's data, then of the zero part's.
  await page.click('#glance-tab-stats');
  for (const [node, lo, hi] of [[rand, 7.99, 8], [zero, 0, 0]]) {
    const parent = node.path.slice(0, node.path.lastIndexOf('/'));
    for (const p of ['Parts', parent]) {
      await page.waitForSelector(`#tree .trow[data-path="${p}"]`);
      if ((await page.getAttribute(`#tree .trow[data-path="${p}"]`, 'aria-expanded')) === 'false') {
        await page.click(`#tree .trow[data-path="${p}"] .twisty`);
      }
    }
    await page.waitForSelector(`#tree .trow[data-path="${node.path}"]`);
    await selectRow(node.path);
    await stats('node');
    await page.waitForFunction((n) => document.getElementById('glance-total')?.textContent.includes(n), PART.toLocaleString('en'));
    const e = Number(await figure('#glance-entropy'));
    assert.ok(e >= lo && e <= hi, `${node.path}: ${e} bits per byte`);
  }
  await page.check('#glance-log');
  await shot('glance-05-statistics');
  // The whole file: every byte value's count against a count made here.
  await stats('file');
  await page.waitForFunction((n) => document.getElementById('glance-total')?.textContent.includes(n), bytes.length.toLocaleString('en'));
  const counts = new Array(256).fill(0);
  for (const b of bytes) counts[b]++;
  if (!(await page.isVisible('#glance-count-table'))) await page.click('#glance-counts');
  const shown = await page.$$eval('#glance-count-table [data-byte]', (rows) =>
    rows.map((r) => [Number(r.dataset.byte), r.cells[2].textContent]));
  assert.equal(shown.length, 256);
  for (const [b, t] of shown) assert.equal(Number(t.replace(/,/g, '')), counts[b], `byte ${b}`);
  const zeros = Number((await figure('#glance-zeros')).split(/\s/)[0].replace(/,/g, ''));
  assert.equal(zeros, counts[0]);
  const high = Number((await figure('#glance-high')).split(/\s/)[0].replace(/,/g, ''));
  assert.equal(high, counts.slice(128).reduce((a, b) => a + b, 0));
  await page.waitForSelector('#glance-graph');
  assert.deepEqual(problems(), []);
});

test('a click on the map goes to the byte under it, and the frame follows the bytes in view', async () => {
  const size = Number(await page.getAttribute('#glance-map', 'data-size'));
  const box = await page.locator('#glance-canvas').boundingBox();
  for (const f of [0.8, 0.3]) {
    const y = box.y + f * box.height;
    await page.mouse.click(box.x + box.width / 2, y);
    const at = Math.floor(((y - box.y) / box.height) * size);
    await page.waitForFunction(
      (a) => {
        const r = document.querySelector('#tree [role=treeitem][aria-selected="true"]');
        const row = document.querySelector(`#hex [data-b="${a - (a % 16)}"]`);
        const fr = document.getElementById('glance-frame');
        return r && Number(r.dataset.start) <= a && a < Number(r.dataset.end) && row &&
          Number(fr.dataset.first) <= a && a <= Number(fr.dataset.last);
      },
      at,
      { timeout: 10_000 },
    ).catch(async (e) => {
      const fr = await page.$eval('#glance-frame', (f) => [f.dataset.first, f.dataset.last]);
      throw new Error(`after a click at ${f} (byte ${at}): frame ${fr}: ${e.message}`);
    });
  }
  assert.deepEqual(problems(), []);
});

test('the field table lists, sorts and filters as hexlens dump --json; a row click selects its node; it copies as TSV', async () => {
  await closeGlance();
  const bytes = fs.readFileSync(path.join(SAMPLES, SAMPLE));
  await openFile(page, SAMPLE, bytes);
  const want = below(dump(bytes, SAMPLE).tree);
  await selectRow('Parts');
  await glance();
  await page.click('#glance-tab-table');
  const count = async (n) => {
    await page.waitForFunction((k) => document.getElementById('glance-count')?.textContent.replace(/,/g, '').startsWith(`${k} row`), n);
  };
  const rows = () => page.$$eval('#glance-rows .glance-row:not([hidden])', (rs) =>
    rs.map((r) => ({ path: r.dataset.path, start: Number(r.dataset.start), size: r.querySelector('.gc-size').textContent, kind: r.querySelector('.gc-kind').textContent })));
  const kids = want.filter((n) => n.path.startsWith('Parts/') && !n.path.slice(6).includes('/'));
  await count(kids.length);
  assert.deepEqual((await rows()).map((r) => r.path), kids.map((n) => n.path));
  // All descendants of Parts, sorted by size (largest first; equal sizes in the tree's order).
  await page.check('#glance-all');
  const all = want.filter((n) => n.path.startsWith('Parts/'));
  await count(all.length);
  await page.click('.glance-col[data-col=size]');
  await page.click('.glance-col[data-col=size]');
  const bySize = [...all].sort((a, b) => (b.end - b.start) - (a.end - a.start));
  await page.waitForFunction((p) => document.querySelector('#glance-rows .glance-row:not([hidden])')?.dataset.path === p, bySize[0].path);
  const top = (await rows()).slice(0, 10).map((r) => r.path);
  const sizes = bySize.map((n) => n.end - n.start);
  // Ties may stand in the tree's order: compare sizes, and paths where the size is unique.
  top.forEach((p, i) => {
    const n = all.find((x) => x.path === p);
    assert.equal(n.end - n.start, sizes[i], `row ${i}: ${p}`);
  });
  // Filtered by a kind: the rows whose path, kind, value or display holds it.
  await page.fill('#glance-filter', 'fourcc');
  const hits = all.filter((n) => [n.path, n.kind, String(n.value ?? ''), n.display ?? ''].some((t) => t.toLowerCase().includes('fourcc')));
  assert.ok(hits.length > 2);
  await count(hits.length);
  // By offset: ascending starts.
  await page.click('.glance-col[data-col=offset]');
  await page.waitForFunction(() => {
    const s = [...document.querySelectorAll('#glance-rows .glance-row:not([hidden])')].map((r) => Number(r.dataset.start));
    return s.length > 2 && s.every((v, i) => i === 0 || s[i - 1] <= v);
  });
  const shown = await rows();
  assert.deepEqual(shown.map((r) => r.path).sort(), hits.map((n) => n.path).sort());
  assert.ok(shown.every((r) => r.kind === 'fourcc'));
  await shot('glance-06-table');
  // A row click selects its node; the table stays.
  const pick = shown[2];
  await page.click(`#glance-rows .glance-row[data-path="${pick.path}"]`);
  await page.waitForFunction((p) => document.getElementById('details-path')?.textContent === p, pick.path);
  await count(hits.length);
  // Copy as TSV: a header line and one line per row shown.
  await page.click('#glance-tsv');
  await page.waitForFunction(() => /copied/i.test(document.getElementById('glance-status')?.textContent ?? ''));
  const tsv = await page.evaluate(() => navigator.clipboard.readText());
  const lines = tsv.trimEnd().split('\n');
  assert.equal(lines[0], 'path\toffset\tsize\tkind\tvalue\tmeaning');
  assert.equal(lines.length, hits.length + 1);
  assert.deepEqual(lines.slice(1).map((l) => l.split('\t')[0]), shown.map((r) => r.path));
  assert.deepEqual(problems(), []);
});

test('file content in the glance is text: a name that is markup shows as itself in the table', async () => {
  await closeGlance();
  await openFile(page, 'xss.dxbc', xssContainer());
  await selectRow('Parts');
  await glance();
  await page.click('#glance-tab-table');
  await page.check('#glance-all');
  await page.fill('#glance-filter', 'onerror');
  // The string's row, and the rows whose meaning names it.
  await page.waitForFunction((x) => [...document.querySelectorAll('#glance-rows .glance-row:not([hidden]) .gc-value')]
    .some((v) => v.textContent.includes(x)), XSS);
  const texts = await page.$$eval('#glance-rows .glance-row:not([hidden])', (rs) => rs.map((r) => r.textContent));
  assert.ok(texts.length > 0 && texts.every((t) => t.includes('onerror')), texts.join('\n'));
  assert.equal(await page.$$eval('#glance-panel img, #glance-map img', (i) => i.length), 0);
  assert.deepEqual(await watched.violations(), []);
  assert.deepEqual(problems(), []);
});
