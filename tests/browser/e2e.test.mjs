// End-to-end tests of the hexlens web app in real headless Chromium (Debian's
// /usr/bin/chromium driven by playwright-core). They serve the release build
// (trunk build --release --public-url /hexlens/) from a sub-path on 127.0.0.1,
// so they also prove the site works from any static host and path.
//
//   HEXLENS_DIST       the built site (default target/browser-dist)
//   HEXLENS_ARTIFACTS  where screenshots go (default target/browser-artifacts)
//   CHROMIUM           the browser (default /usr/bin/chromium)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
// The static server (the build under a sub-path on 127.0.0.1) and the Chromium
// launch are the shared ones of harness.mjs.
import { ART, DIST, SAMPLES, launch, manifest, serve } from './harness.mjs';
import { XSS, denseContainer, dxbc, isgn, xssContainer } from './fixtures.mjs';
import os from 'node:os';
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { writeDxil, writeParts } from '../../bench/gen-inputs.mjs';

const SAMPLE = 'hs_mismatch_2_code_dxil.dxil.dxbc';
const sample = fs.readFileSync(path.join(SAMPLES, SAMPLE));

let server;
let base;
let browser;
let context;
let page;
const requests = [];
const problems = [];
const dialogs = [];

async function shot(name) {
  await page.screenshot({ path: path.join(ART, `${name}.png`) });
}

async function open(query = '') {
  await page.goto(base + query);
  await page.waitForSelector('.toolbar');
}

/** Opens `bytes` as `name` through the toolbar's (or empty state's) file input. */
async function loadViaInput(name, bytes) {
  const input = (await page.$('#file-input')) ? '#file-input' : '#file-input-empty';
  await page.setInputFiles(input, { name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await waitForFile(name);
}

async function waitForFile(name) {
  await page.waitForFunction(
    // Decoded (the worker's tree is shown) and the first bytes read from the file.
    (n) => document.querySelector('#file-info .file-name')?.textContent === n &&
      document.querySelector('#tree[data-decoded=true]') &&
      document.querySelector('#hex .hrow:not(.pending)'),
    name,
  );
}

/** Dispatches synthetic drag events carrying a File, as a real drag and drop does. */
async function dragFile(name, bytes, events) {
  await page.evaluate(
    ({ name, data, events }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], name));
      for (const type of events) {
        document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }
    },
    { name, data: Array.from(bytes), events },
  );
}

const row = (p) => `#tree .trow[data-path="${p}"]`;

/** Offsets of the highlighted cells in the hex (`hx`) or ASCII (`as`) column. */
async function highlighted(col) {
  // A row inside the node (neither of its ends) is marked as a whole.
  return page.$$eval(`#hex .${col} .c[data-h~=hl], #hex .hrow[data-hall] .${col} .c`, (els) => els.map((e) => Number(e.dataset.o)));
}

function range(start, end) {
  return Array.from({ length: end - start }, (_, i) => start + i);
}

before(async () => {
  assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `no build in ${DIST}: run scripts/test-browser.sh`);
  fs.mkdirSync(ART, { recursive: true });
  ({ server, base } = await serve());
  browser = await launch();
  // No service worker: these tests watch (and hold back) the requests the page
  // makes for what it shows; the offline cache is offline.test.mjs's subject.
  context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light', serviceWorkers: 'block' });
  context.on('request', (r) => requests.push(r.url()));
  page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console error: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('a first visit explains what to do and offers the samples', async () => {
  await open();
  const empty = page.locator('#empty-state');
  await empty.waitFor();
  assert.match(await empty.locator('.lead').textContent(), /Drag a file anywhere onto this page/);
  await page.waitForSelector('#sample-list .sample');
  assert.equal(await page.locator('#sample-list .sample').count(), manifest.samples.length);
  assert.match(await page.locator('#privacy-note').textContent(), /never leaves this machine/);
  await shot('01-empty-state');
});

test('the first page fetches no wasm; choosing a file says it is opening it while the viewer loads, and says so if the viewer cannot load', async () => {
  const fetched = [];
  const onRequest = (r) => fetched.push(new URL(r.url()).pathname);
  page.on('request', onRequest);
  // Hold the app's wasm back: the first page is all there is meanwhile.
  let release;
  const held = new Promise((r) => (release = r));
  await page.route('**/hexlens-web-*_bg.wasm', async (route) => {
    await held;
    await route.continue();
  });
  try {
    await open();
    await page.waitForSelector('#sample-list .sample');
    await page.waitForTimeout(300);
    assert.deepEqual(fetched.filter((p) => p.endsWith('.wasm') || /hexlens-web-.*\.js$/.test(p)), [], 'nothing of the app before a file is chosen');
    await page.click(`#sample-list .sample[data-file="${SAMPLE}"]`);
    const status = page.locator('#shell-status');
    await status.waitFor();
    assert.equal(await status.textContent(), `Opening ${SAMPLE}…`);
    assert.equal(await status.getAttribute('role'), 'status');
    release();
    await waitForFile(SAMPLE);
    assert.equal(await page.locator('#shell').count(), 0, 'the app replaced the first page');
    assert.equal(await page.locator('#file-input').count(), 1, 'one toolbar');
  } finally {
    release();
    await page.unroute('**/hexlens-web-*_bg.wasm');
    page.off('request', onRequest);
  }
  // The app's module cannot be fetched: the first page says so.
  await page.route('**/hexlens-web-*_bg.wasm', (route) => route.abort());
  try {
    await open();
    await page.setInputFiles('#file-input-empty', { name: 'x.bin', mimeType: 'application/octet-stream', buffer: Buffer.from('abc') });
    const alert = page.locator('#shell-status[role=alert]');
    await alert.waitFor();
    assert.match(await alert.textContent(), /^Could not start the viewer: /);
  } finally {
    await page.unroute('**/hexlens-web-*_bg.wasm');
    // The aborted fetch is this test's doing, not the page's.
    problems.splice(0, problems.length, ...problems.filter((p) => !/hexlens-web|Could not start|Failed to fetch|WebAssembly/i.test(p)));
  }
});

test('a sample opened through the file input shows its parts in an ARIA tree', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  assert.equal(await page.locator('#tree').getAttribute('role'), 'tree');
  const parts = ['SFI0', 'ISG1', 'OSG1', 'PSG1', 'PSV0', 'HASH', 'DXIL'];
  for (const [i, cc] of parts.entries()) {
    const r = page.locator(row(`Parts/[${i}]`));
    assert.equal(await r.getAttribute('role'), 'treeitem');
    assert.equal(await r.getAttribute('aria-level'), '3');
    assert.match(await r.locator('.tval').textContent(), new RegExp(`^${cc}: `), 'the row leads with the FourCC');
  }
  assert.equal(await page.locator(row('Parts')).getAttribute('aria-expanded'), 'true');
  assert.equal(await page.locator('#notice-damaged').count(), 0, 'a real sample decodes cleanly');
  await shot('02-sample-opened');
});

test('a synthetic drop shows the drop target, then opens the file', async () => {
  await open();
  const other = 'embedded_rs_vs_space0_code_dxbc.dxbc';
  const bytes = fs.readFileSync(path.join(SAMPLES, other));
  await dragFile(other, bytes, ['dragenter', 'dragover']);
  await page.locator('#drop-overlay').waitFor();
  await shot('03-dragging');
  await dragFile(other, bytes, ['drop']);
  await waitForFile(other);
  assert.equal(await page.locator('#drop-overlay').count(), 0);
  assert.match(await page.locator(row('Parts/[4]')).textContent(), /RTS0/);
});

test('a bundled sample opens from the picker and from ?sample=', async () => {
  await open(`?sample=${SAMPLE}`);
  await waitForFile(SAMPLE);
  const pick = manifest.samples[2].file;
  await page.selectOption('#sample-select', pick);
  await waitForFile(pick);
  assert.ok(page.url().includes(`sample=${encodeURIComponent(pick)}`) || page.url().includes(`sample=${pick}`));
});

test('every format in the picker opens, decodes cleanly and links tree and bytes both ways', async () => {
  const formats = new Map();
  for (const s of manifest.samples) if (!formats.has(s.format)) formats.set(s.format, s.file);
  assert.deepEqual([...formats.keys()].sort(), ['cdac', 'chapel-dyno', 'dxcontainer', 'llvm1-bytecode']);
  // A byte inside a decoded field of each sample: the DXBC header's FileSize, the
  // .dyno format version, the LLVM 1.x module block id, the cDAC directory's first
  // word (just after the DACBLOB magic, inside the ELF's section).
  const probe = {
    dxcontainer: () => 24,
    'chapel-dyno': () => 8,
    'llvm1-bytecode': () => 4,
    cdac: (bytes) => bytes.indexOf('DACBLOB') + 8,
  };
  for (const [format, file] of formats) {
    const bytes = fs.readFileSync(path.join(SAMPLES, file));
    const at = probe[format](bytes);
    assert.ok(at >= 4, `${file}: probe offset ${at}`);
    await open(`?sample=${encodeURIComponent(file)}`);
    await waitForFile(file);
    assert.equal(await page.locator('#file-info .badge').textContent(), format, file);
    assert.equal(await page.locator('#notice-damaged').count(), 0, `${file} decodes cleanly`);
    // Go to the byte and select its owner: the tree expands to it.
    await page.locator('#hex').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+g');
    await page.keyboard.type(String(at));
    await page.keyboard.press('Enter');
    await page.waitForSelector(`#hex .hx .c.cur[data-o="${at}"]`);
    await page.click(`#hex .hx .c[data-o="${at}"]`);
    const selected = page.locator('#tree .trow[aria-selected="true"]');
    await selected.waitFor();
    const p = await selected.getAttribute('data-path');
    const start = Number(await selected.getAttribute('data-start'));
    const end = Number(await selected.getAttribute('data-end'));
    assert.ok(start <= at && at < end && end - start <= 64, `${file}: ${p} [${start}, ${end}) owns byte ${at}`);
    assert.notEqual(await selected.getAttribute('data-kind'), 'unknown', `${file}: byte ${at} is decoded`);
    // Tree → bytes: hovering the row lights exactly its bytes.
    await selected.hover();
    await page.waitForSelector('#hex .c[data-h~=hl], #hex .hrow[data-hall] .c');
    assert.deepEqual(await highlighted('hx'), range(start, end), `${file}: ${p}`);
    // Bytes → tree: hovering the byte makes that row the hovered one.
    await page.hover(`#hex .hx .c[data-o="${at}"]`);
    await page.waitForSelector(`${row(p)}.hovered`);
    await shot(`13-format-${format}`);
  }
});

test('DXIL bitcode is decoded down to its records, linked to their bits, and the checksums are shown', async () => {
  await open(`?sample=${SAMPLE}`);
  await waitForFile(SAMPLE);
  // Goes to a byte and clicks it: the tree selects the byte's owner.
  const selectByte = async (at) => {
    await page.locator('#hex').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+g');
    await page.keyboard.type(String(at));
    await page.keyboard.press('Enter');
    await page.waitForSelector(`#hex .hx .c.cur[data-o="${at}"]`);
    await page.click(`#hex .hx .c[data-o="${at}"]`);
    const selected = page.locator('#tree .trow[aria-selected="true"]');
    await selected.waitFor();
    return selected;
  };
  // A byte well inside the bitcode (which starts at 0x3BC in this sample) belongs
  // to a field of a record, not to the block around it.
  const at = 0x500;
  const selected = await selectByte(at);
  const p = await selected.getAttribute('data-path');
  assert.match(p, /^Parts\/\[6\]\/Program\/DXIL\/Blocks\/\[0\]\/Body\/.+/, `byte 0x500 is owned by ${p}`);
  const start = Number(await selected.getAttribute('data-start'));
  const end = Number(await selected.getAttribute('data-end'));
  assert.ok(start <= at && at < end, `${p} [${start}, ${end})`);
  // Bit-precise fields say which bits they cover; hovering lights the bytes they touch.
  if (['bits', 'varint', 'bool'].includes(await selected.getAttribute('data-kind'))) {
    assert.match(await page.locator('#details-props').textContent(), /bits \d+\.\d–\d+\.\d/);
  }
  await selected.hover();
  await page.waitForSelector('#hex .c[data-h~=hl], #hex .hrow[data-hall] .c');
  assert.deepEqual(await highlighted('hx'), range(start, end), p);
  await shot('14-bitcode-record');
  // The container digest and the HASH part's MD5 are verified.
  assert.equal(await (await selectByte(4)).getAttribute('data-path'), 'Header/Hash');
  assert.match(await page.locator('#details-props').textContent(), /DXBC checksum matches/);
  assert.equal(await (await selectByte(0x38c)).getAttribute('data-path'), 'Parts/[5]/Hash/Digest');
  assert.match(await page.locator('#details-props').textContent(), /matches the MD5 of the DXIL part's bitcode/);
});

test('hovering a tree row highlights exactly its bytes in the hex and ASCII columns', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  for (const p of ['Header/FileSize', 'Header', 'Parts/[0]']) {
    const r = page.locator(row(p));
    const start = Number(await r.getAttribute('data-start'));
    const end = Number(await r.getAttribute('data-end'));
    await r.hover();
    await page.waitForSelector('#hex .c[data-h~=hl], #hex .hrow[data-hall] .c');
    assert.deepEqual(await highlighted('hx'), range(start, end), `${p} hex`);
    assert.deepEqual(await highlighted('as'), range(start, end), `${p} ascii`);
    if (p === 'Header') await shot('04-hover-tree-row');
  }
  // FileSize is the u32 at 0x18 in every DXBC header.
  assert.equal(await page.locator(row('Header/FileSize')).getAttribute('data-start'), '24');
});

test('hovering a byte highlights its innermost owner in the tree and shows its path', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  await page.hover('#hex .hx .c[data-o="26"]');
  const hovered = page.locator('#tree .trow.hovered');
  await hovered.waitFor();
  assert.equal(await hovered.getAttribute('data-path'), 'Header/FileSize');
  const crumbs = await page.locator('#breadcrumb .crumb').allTextContents();
  assert.deepEqual(crumbs.slice(1), ['Header', 'FileSize']);
  assert.deepEqual(await highlighted('hx'), range(24, 28));
  await shot('05-hover-byte');
  // An owner inside a collapsed part: the part's row lights up, the path is complete.
  const part1 = Number(await page.locator(row('Parts/[1]')).getAttribute('data-start'));
  await page.hover(`#hex .hx .c[data-o="${part1 + 1}"]`);
  await page.waitForSelector(`${row('Parts/[1]')}.hovered.hovered-inside`);
  const path = await page.locator('#breadcrumb .crumb').allTextContents();
  assert.deepEqual(path.slice(1), ['Parts', '[1]', 'Name']);
});

test('hover feedback is fast: 300 byte hovers from field to field', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  const stats = await page.evaluate(async () => {
    const cells = [...document.querySelectorAll('#hex .hx .c')];
    const times = [];
    let changed = 0;
    for (let i = 0; i < 300; i++) {
      const c = cells[(i * 7) % cells.length];
      const before = document.querySelector('#breadcrumb')?.textContent;
      const t = performance.now();
      c.dispatchEvent(new MouseEvent('mousemove', { bubbles: true }));
      // Yew renders in microtasks queued by the event; a message (a task, but
      // unthrottled unlike setTimeout) arrives after all of them have run.
      await new Promise((r) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = r;
        ch.port2.postMessage(0);
      });
      times.push(performance.now() - t);
      if (document.querySelector('#breadcrumb')?.textContent !== before) changed++;
    }
    times.sort((a, b) => a - b);
    return { median: times[150], p95: times[285], changed, owner: document.querySelector('#tree .trow.hovered') !== null };
  });
  console.log(`# hover re-render: median ${stats.median.toFixed(2)} ms, p95 ${stats.p95.toFixed(2)} ms (${stats.changed} of 300 moved to another node)`);
  assert.ok(stats.changed > 100, 'the hovers were rendered before being timed');
  assert.ok(stats.owner, 'a tree row is highlighted');
  // Budgets with headroom for slow CI machines (typical here: median ~1 ms, p95 ~17 ms
  // when the hover jumps to a field spanning every visible row).
  assert.ok(stats.median < 8, `median ${stats.median} ms`);
  assert.ok(stats.p95 < 50, `p95 ${stats.p95} ms`);
});

test('clicking selects, expands the tree to the node and scrolls the other pane to it', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  // Tree -> hex: the DXIL part lies far below the first screen of bytes.
  const dxil = page.locator(row('Parts/[6]'));
  const start = Number(await dxil.getAttribute('data-start'));
  await dxil.click();
  const first = page.locator(`#hex .hx .c[data-o="${start}"]`);
  await first.waitFor();
  assert.match(await first.getAttribute('class'), /\bsel\b/);
  assert.equal(await page.locator('#details-path').textContent(), 'Parts/[6]');
  // Hex -> tree: a byte inside a collapsed part expands the tree down to its owner.
  const o = start + 0x30;
  await page.click(`#hex .hx .c[data-o="${o}"]`);
  const sel = page.locator('#tree .trow[aria-selected="true"]');
  await sel.waitFor();
  const [s, e] = [Number(await sel.getAttribute('data-start')), Number(await sel.getAttribute('data-end'))];
  assert.ok(s <= o && o < e, `selected row ${s}..${e} owns ${o}`);
  assert.ok(Number(await sel.getAttribute('aria-level')) > 3, 'expanded below the part');
  assert.ok(await sel.isVisible());
  await shot('06-click-selects');
});

test('go to offset (Ctrl+G) moves the cursor and the inspector reads the bytes there', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  await page.locator('#hex').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+g');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'goto-input');
  await page.keyboard.type('0x400');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#hex .hx .c.cur[data-o="1024"]');
  assert.match(await page.locator('#inspector h3').textContent(), /0x400 \(1024\)/);
  const cell = (t, col) => page.locator(`#inspector tr[data-type="${t}"] td`).nth(col).textContent();
  assert.equal(await cell('u32', 0), String(sample.readUInt32LE(1024)));
  assert.equal(await cell('u32', 1), String(sample.readUInt32BE(1024)));
  assert.equal(await cell('i16', 1), String(sample.readInt16BE(1024)));
  assert.equal(await cell('u64', 0), String(sample.readBigUInt64LE(1024)));
  assert.equal(await cell('u8', 0), String(sample[1024]));
  // Floats are written as the browser writes numbers.
  const f32 = sample.readFloatLE(1024);
  const shortest = [...Array(9).keys()].map((p) => f32.toPrecision(p + 1)).find((t) => Math.fround(parseFloat(t)) === f32);
  assert.equal(await cell('f32', 0), Number.isFinite(f32) ? shortest : String(f32), 'the shortest text of the f32');
  assert.equal(await cell('f64', 1), String(sample.readDoubleBE(1024)));
  await shot('07-goto-offset');
  // Decimal works too; a bad offset is flagged, not followed.
  await page.fill('#goto-input', '24');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#hex .hx .c.cur[data-o="24"]');
  assert.match(await page.locator('#inspector tr[data-type="fourcc"] td').textContent(), /'/);
  // The hex pane moves its cursor with the arrow keys; Enter selects the owner.
  await page.focus('#hex');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#hex .hx .c.cur[data-o="25"]');
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector('#hex .hx .c.cur[data-o="41"]');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#details-path').textContent(), 'Header/PartOffsets/[2]');
  await page.fill('#goto-input', 'nope');
  await page.keyboard.press('Enter');
  await page.waitForSelector('form.goto.invalid');
});

test('the tree is keyboard driven like a native tree view', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  await page.focus('#tree');
  // The rows come from the decode worker: a key that moves by rows acts once
  // they are there, so each step waits for what it should show.
  const selected = (p) => page.waitForSelector(`${row(p)}[aria-selected="true"]`);
  await page.keyboard.press('Home');
  await selected('');
  await page.keyboard.press('ArrowDown');
  await selected('Header');
  await page.keyboard.press('ArrowRight');
  await selected('Header/Magic');
  await page.keyboard.press('ArrowLeft');
  await selected('Header');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector(`${row('Header')}[aria-expanded="false"]`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${row('Header')}[aria-expanded="true"]`);
  await page.keyboard.press('End');
  await page.waitForFunction(() => {
    const rows = document.querySelectorAll('#tree .trow');
    return rows.length && rows[rows.length - 1].getAttribute('aria-selected') === 'true';
  });
  assert.equal(
    await page.locator('#tree').getAttribute('aria-activedescendant'),
    await page.locator('#tree .trow[aria-selected="true"]').getAttribute('id'),
  );
});

test('panes resize by dragging or with the keyboard', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  const width = () => page.locator('.tree-pane').evaluate((e) => e.getBoundingClientRect().width);
  const w0 = await width();
  const split = page.locator('.splitter').first();
  const box = await split.boundingBox();
  await page.mouse.move(box.x + 3, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + 83, box.y + 200, { steps: 4 });
  await page.mouse.up();
  const w1 = await width();
  assert.ok(Math.abs(w1 - w0 - 80) <= 2, `dragged 80px: ${w0} -> ${w1}`);
  await split.focus();
  await page.keyboard.press('ArrowLeft');
  assert.ok(Math.abs((await width()) - (w1 - 16)) <= 1);
});

/** Every start where `needle` (bytes, with `null` for any byte) matches `data`. */
function referenceSearch(data, needle) {
  const out = [];
  outer: for (let i = 0; i + needle.length <= data.length; i++) {
    for (let k = 0; k < needle.length; k++) {
      if (needle[k] !== null && data[i + k] !== needle[k]) continue outer;
    }
    out.push(i);
  }
  return out;
}

const cursorAt = async () => Number.parseInt((await page.locator('#hex').getAttribute('aria-label')).match(/0x([0-9A-F]+)/)[1], 16);

async function searchFor(mode, text) {
  await page.keyboard.press('Control+f');
  await page.locator('#search-input').waitFor();
  await page.selectOption('#search-mode', mode);
  await page.fill('#search-input', text);
  await page.press('#search-input', 'Enter');
  await page.waitForFunction(() => !/searching/.test(document.querySelector('#search-status')?.textContent || 'searching'));
  return page.locator('#search-status').textContent();
}

test('search (Ctrl+F): byte patterns with wildcards match a reference search, across page and chunk boundaries; F3 walks the matches', async () => {
  // A file of few distinct bytes (so matches are many), 9 MiB: it crosses the
  // search's 4 MiB read chunks and many 64 KiB pages; known matches sit across both.
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  const data = Buffer.alloc(9 << 20);
  for (let i = 0; i < data.length; i++) data[i] = 0x41 + Math.floor(rnd() * 4);
  const mark = [0xde, 0xad, 0xbe, 0xef];
  const places = [65534, (4 << 20) - 2, (8 << 20) - 1, 3 * 65536 - 3];
  for (const p of places) mark.forEach((b, k) => (data[p + k] = b));
  await open();
  await loadViaInput('pattern.bin', data);
  const status = await searchFor('hex', 'DE ?? BE EF');
  const want = referenceSearch(data, [0xde, null, 0xbe, 0xef]);
  assert.deepEqual(want, [...places].sort((a, b) => a - b));
  assert.match(status, new RegExp(`^1 of ${want.length}$`));
  // The first match is shown, its bytes marked as the current match.
  assert.equal(await cursorAt(), want[0]);
  assert.equal(await page.locator('#hex .c.hitc').count() >= 4 * 2, true, 'hex and ASCII cells of the match');
  for (let i = 1; i < want.length; i++) {
    await page.keyboard.press('F3');
    await page.waitForFunction((i) => document.querySelector('#search-status').textContent.startsWith(`${i + 1} of`), i);
    assert.equal(await cursorAt(), want[i], `match ${i}`);
  }
  await page.keyboard.press('F3');
  await page.waitForFunction(() => document.querySelector('#search-status').textContent.startsWith('1 of'));
  await page.keyboard.press('Shift+F3');
  await page.waitForFunction((n) => document.querySelector('#search-status').textContent.startsWith(`${n} of`), want.length);
  assert.equal(await cursorAt(), want.at(-1));
  // The results list: a row a match, its offset and what matched; the current
  // one marked; a click shows a match.
  const rows = page.locator('#search-results .sr');
  assert.deepEqual(
    (await rows.allTextContents()).map((t) => parseInt(t.trim().split(/\s+/)[0], 16)),
    want,
  );
  assert.match(await rows.nth(0).textContent(), /4 bytes/);
  assert.equal(await page.locator('#search-results .sr.cur').getAttribute('data-i'), String(want.length - 1));
  await rows.nth(1).click();
  await page.waitForFunction(() => document.querySelector('#search-status').textContent.startsWith('2 of'));
  assert.equal(await cursorAt(), want[1]);
  await shot('34-search-results');
  // Random patterns (two to five bytes of the file, some wildcards): the count
  // matches the reference's, and so do the first and last matches.
  for (let round = 0; round < 6; round++) {
    const len = 2 + Math.floor(rnd() * 4);
    const at = Math.floor(rnd() * (data.length - len));
    const needle = [...data.subarray(at, at + len)].map((b, k) => (k > 0 && rnd() < 0.25 ? null : b));
    const text = needle.map((b) => (b === null ? '??' : b.toString(16).padStart(2, '0'))).join(' ');
    const ref = referenceSearch(data, needle);
    const capped = Math.min(ref.length, 100000);
    const st = await searchFor('hex', text);
    const more = ref.length > capped ? '\\+ \\(stopped at 0x[0-9A-F]+ of 0x900000\\)' : '';
    assert.match(st, new RegExp(`^1 of ${capped}${more}$`), `${text}: ${st}, reference ${ref.length}`);
    assert.equal(await cursorAt(), ref[0], text);
    if (ref.length <= 100000) {
      await page.keyboard.press('Shift+F3');
      await page.waitForFunction((n) => document.querySelector('#search-status').textContent.startsWith(`${n} of`), ref.length);
      assert.equal(await cursorAt(), ref.at(-1), text);
    }
  }
  // A query that cannot be searched says why.
  const bad = await searchFor('hex', 'XYZ');
  assert.match(bad, /not a hex digit/);
  assert.equal(await page.locator('#search-bar.invalid').count(), 1);
});

test('search finds text in UTF-16 and either case, and numbers in every width, in a decoded file; a match reveals its owner in the tree', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  await page.keyboard.press('Control+f');
  await page.locator('#search-input').waitFor();
  await page.selectOption('#search-mode', 'text');
  await page.check('#search-case');
  await page.fill('#search-input', 'dxil');
  await page.press('#search-input', 'Enter');
  await page.waitForFunction(() => /of \d+$/.test(document.querySelector('#search-status')?.textContent || ''), null, { timeout: 5000 }).catch(async (e) => {
    throw new Error(`status: ${await page.locator('#search-status').textContent()}; ${e}`);
  });
  const lower = Buffer.from(sample.toString('latin1').toLowerCase(), 'latin1');
  const want = referenceSearch(lower, [...Buffer.from('dxil')]);
  assert.equal(await page.locator('#search-status').textContent(), `1 of ${want.length}`);
  assert.equal(await cursorAt(), want[0]);
  // The match's owner is selected and shown in the tree.
  await page.locator('#tree .trow[aria-selected="true"]').waitFor();
  // A number: 1 as any integer width finds u8, u16, u32 and u64 in both orders.
  await page.selectOption('#search-mode', 'number');
  await page.fill('#search-input', '1');
  await page.press('#search-input', 'Enter');
  await page.waitForFunction(() => /of \d+$/.test(document.querySelector('#search-status')?.textContent || ''), null, { timeout: 5000 }).catch(async (e) => {
    throw new Error(`status: ${await page.locator('#search-status').textContent()}; ${e}`);
  });
  const n = Number((await page.locator('#search-status').textContent()).match(/of (\d+)/)[1]);
  // One match per offset where any width in either order holds 1.
  const starts = new Set();
  for (const w of [1, 2, 4, 8]) {
    const le = [1, ...Array(w - 1).fill(0)];
    for (const needle of [le, [...le].reverse()]) for (const i of referenceSearch(sample, needle)) starts.add(i);
  }
  assert.equal(n, starts.size);
  assert.equal(await page.locator('#search-stop').isVisible(), false, 'Stop shows only while searching');
  await shot('30-search');
  await page.keyboard.press('Escape');
});

test('a file no decoder recognises is shown as plain hex with a notice', async () => {
  await open();
  const text = Buffer.from('hello, this is not any known binary format\n'.repeat(40));
  await loadViaInput('notes.txt', text);
  await page.locator('#notice-raw').waitFor();
  assert.match(await page.locator('#notice-raw').textContent(), /shown as plain hex/);
  assert.ok((await page.locator('#hex .hrow').count()) > 10);
  assert.match(await page.locator(row('')).getAttribute('class'), /has-error/);
  assert.match(await page.locator(row('')).textContent(), /no decoder recognises this file/);
  await shot('08-unrecognised');
});

test('bytes no field claims show as unknown, in the tree and in the hex', async () => {
  await open();
  // 12 bytes between the header (0x24 long) and the only part.
  await loadViaInput('gap.dxbc', dxbc([['ISGN', isgn('POSITION')]], { gap: 12 }));
  const gap = page.locator(row('Parts/unknown'));
  assert.equal(await gap.getAttribute('data-kind'), 'unknown');
  assert.deepEqual([await gap.getAttribute('data-start'), await gap.getAttribute('data-end')], ['36', '48']);
  const tinted = await page.$$eval('#hex .hx .c.tu', (els) => els.map((e) => Number(e.dataset.o)));
  assert.deepEqual(tinted, range(36, 48));
});

test('a damaged file shows its partial tree with the errors marked', async () => {
  await open();
  await loadViaInput('truncated.dxbc', sample.subarray(0, 300));
  await page.locator('#notice-damaged').waitFor();
  assert.ok((await page.locator('#tree .trow.has-error').count()) >= 1);
  await page.click('#notice-damaged button');
  await page.locator('#details-error').waitFor();
  assert.match(await page.locator('#details-error').textContent(), /past the end|bytes/);
  const sel = page.locator('#tree .trow[aria-selected="true"]');
  assert.match(await sel.getAttribute('class'), /has-error/);
  assert.ok((await sel.locator('.terrmsg').textContent()).length > 5, 'the row says what went wrong');
  await shot('09-damaged');
});

test('nothing a file contains is inserted as HTML', async () => {
  await open();
  const name = '<b id="injected">bold</b>.dxbc';
  await loadViaInput(name, xssContainer());
  // The string table entry: select it by going to its offset.
  await page.fill('#goto-input', '0x4C');
  await page.keyboard.press('Enter');
  const sel = page.locator('#tree .trow[aria-selected="true"]');
  await sel.waitFor();
  assert.equal(await sel.getAttribute('data-path'), 'Parts/[0]/Signature/Strings/[0]');
  assert.ok((await sel.locator('.tval').textContent()).includes(XSS));
  assert.ok((await page.locator('#details-props').textContent()).includes(XSS));
  assert.equal(await page.locator('#file-info .file-name').textContent(), name);
  assert.equal(await page.locator('img').count(), 0, 'no <img> was created');
  assert.equal(await page.locator('#injected').count(), 0, 'no <b> was created');
  await page.waitForTimeout(200);
  assert.deepEqual(dialogs, [], 'no script ran');
  await shot('10-xss-as-text');
  // The offset that names the string: hovering it also marks the bytes it points at.
  await page.fill('#goto-input', '0x34');
  await page.keyboard.press('Enter');
  const ref = page.locator(row('Parts/[0]/Signature/Parameters/[0]/Name'));
  await ref.hover();
  await page.waitForSelector('#hex .hx .c[data-h~=rf]');
  const marked = await page.$$eval('#hex .hx .c[data-h~=rf]', (els) => els.map((e) => Number(e.dataset.o)));
  assert.deepEqual(marked, range(0x4c, 0x69));
});

test('a 50 MB file keeps only visible rows in the DOM and scrolls end to end', async () => {
  await open();
  const n = 50 * 1024 * 1024;
  const t0 = Date.now();
  await page.evaluate((n) => {
    const a = new Uint8Array(n);
    for (let i = 0; i < n; i += 97) a[i] = i & 0xff;
    const dt = new DataTransfer();
    dt.items.add(new File([a], 'big.bin'));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, n);
  await waitForFile('big.bin');
  const loadMs = Date.now() - t0;
  const rows = await page.locator('#hex .hrow').count();
  assert.ok(rows > 10 && rows < 80, `${rows} hex rows in the DOM`);
  const t1 = Date.now();
  for (let i = 1; i <= 20; i++) {
    await page.locator('#hex').evaluate((e, f) => (e.scrollTop = e.scrollHeight * f), i / 20);
  }
  await page.locator('#hex').evaluate((e) => (e.scrollTop = e.scrollHeight));
  const lastOff = (n - 16).toString(16).toUpperCase().padStart(8, '0');
  await page.waitForFunction(
    (o) => [...document.querySelectorAll('#hex .hrow .off')].some((e) => e.textContent === o),
    lastOff,
  );
  const scrollMs = Date.now() - t1;
  assert.ok((await page.locator('#hex .hrow').count()) < 80);
  console.log(`# 50 MB file: opened in ${loadMs} ms, 21 jumps to the end in ${scrollMs} ms, ${rows} rows in the DOM`);
  await shot('11-large-file-end');
});

test('dark theme follows the system setting', async () => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await open(`?sample=${SAMPLE}`);
  await waitForFile(SAMPLE);
  await page.hover(row('Parts/[1]'));
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = bg.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 120, `dark background, got ${bg}`);
  await shot('12-dark-theme');
  await page.emulateMedia({ colorScheme: 'light' });
});

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'hexlens-e2e-'));
after(() => fs.rmSync(TMP, { recursive: true, force: true }));

test('a 4 GiB file opens from disk, decodes in the worker, scrolls to its last byte, and a lazy block decodes when opened', async () => {
  // Sparse: a DXIL container whose bitcode has one function block of almost 4 GiB.
  const file = path.join(TMP, 'huge.dxbc');
  const size = writeDxil(file, 2 ** 32 - 4);
  await open();
  await page.setInputFiles('#file-input-empty', file);
  await waitForFile('huge.dxbc');
  assert.equal(await page.locator('#file-info .file-size').getAttribute('title'), `${size} bytes`);
  // Only the pages in view are read: the page's own cache holds a few MiB at most.
  await page.locator('#hex').evaluate((e) => (e.scrollTop = e.scrollHeight));
  const last = (Math.floor((size - 1) / 16) * 16).toString(16).toUpperCase().padStart(8, '0');
  await page.waitForFunction(
    (o) => [...document.querySelectorAll('#hex .hrow:not(.pending) .off')].some((e) => e.textContent === o),
    last,
  );
  // Go to offset lands on the exact byte, though one pixel of scroll is 33 rows here;
  // the wheel then moves by rows.
  const target = 0x87654321;
  await page.keyboard.press('Control+g');
  await page.fill('#goto-input', '0x87654321');
  await page.keyboard.press('Enter');
  const cur = `#hex .hrow:not(.pending) .hx .c.cur[data-o="${target}"]`;
  await page.waitForSelector(cur);
  const firstOff = () => page.locator('#hex .hrow .off').first().textContent();
  const before = parseInt(await firstOff(), 16);
  await page.locator('#hex').hover();
  await page.mouse.wheel(0, 60);
  await page.waitForFunction((b) => parseInt(document.querySelector('#hex .hrow .off').textContent, 16) !== b, before);
  assert.equal(parseInt(await firstOff(), 16), before + 3 * 16, 'one wheel notch of 60 px moves three rows');
  // A click opens the groups it lands in only while they are small: the 4 GiB
  // Program part is selected, not decoded, until it is opened; then a click
  // lands on its function block, lazy too, which decodes when opened.
  await page.locator('#hex').evaluate((e) => (e.scrollTop = 0));
  await page.waitForSelector('#hex .hrow:not(.pending) .c[data-o="96"]');
  let id;
  for (const want of [/^\W*Program.*not decoded yet/, /FUNCTION_BLOCK.*not decoded yet/]) {
    await page.click('#hex .hx .c[data-o="96"]');
    const lazy = page.locator('.trow.lazy.selected');
    await lazy.waitFor();
    assert.match(await lazy.textContent(), want);
    id = await lazy.getAttribute('data-id');
    await lazy.locator('.twisty').click();
    await page.waitForSelector(`.trow[data-id="${id}"][aria-expanded=true]:not(.lazy)`);
  }
  const kids = await page.locator('.trow').allTextContents();
  assert.ok(kids.some((t) => t.includes('AbbrevID')), 'the block header is decoded once opened');
  await shot('14-huge-file-lazy-block');
});

test('a dense file: the page holds what it shows; pages of a long list, go-to into an unopened group, hover both ways', async () => {
  // 10,000 signatures, one after another: the part table and the list of parts
  // come in pages of 1,000, and the signatures past the opening budget are
  // decoded when they are opened (or a go-to lands in one).
  const n = 10000;
  const bytes = denseContainer(n);
  const dv = new DataView(bytes.buffer);
  const partAt = (i) => dv.getUint32(32 + 4 * i, true);
  await open();
  await loadViaInput('dense.dxbc', bytes);
  // Only the rows in view are in the DOM.
  assert.ok((await page.locator('#tree .trow').count()) < 80);
  // The list shows its pages (paths skip them: a part's path is Parts/[i]).
  const pages = page.locator(`${row('Parts')}[aria-level="3"]`);
  await pages.first().waitFor();
  const names = await pages.locator('.tname').allTextContents();
  assert.equal(names.length, 10, names.join());
  const span = (name) => name.slice(1, -1).split('…').map(Number);
  // Opening a page shows its parts; a part's signature is decoded when it is
  // opened in turn.
  const [lo] = span(names[1]);
  const pageRow = page.locator('#tree .trow', { has: page.locator('.tname', { hasText: names[1] }) });
  await pageRow.locator('.twisty').click();
  await pageRow.and(page.locator('[aria-expanded=true]')).waitFor();
  const first = row(`Parts/[${lo}]`);
  await page.waitForSelector(first);
  assert.match(await page.locator(first).textContent(), /ISGN/);
  await page.locator(`${first} .twisty`).click();
  const sig = row(`Parts/[${lo}]/Signature`);
  await page.waitForSelector(`${sig}.lazy`);
  const nodes = Number(await page.locator('#tree').getAttribute('data-nodes'));
  await page.locator(`${sig} .twisty`).click();
  await page.waitForSelector(`${sig}[aria-expanded=true]:not(.lazy)`);
  assert.ok(Number(await page.locator('#tree').getAttribute('data-nodes')) > nodes, 'the worker decoded it');
  // Tree → bytes: hovering the part lights exactly its bytes.
  const start = Number(await page.locator(first).getAttribute('data-start'));
  const end = Number(await page.locator(first).getAttribute('data-end'));
  assert.equal(start, partAt(lo));
  // (Selecting it scrolls the hex pane there.)
  await page.locator(`${first} .tname`).click();
  await page.waitForSelector(`#hex .hx .c.cur[data-o="${start}"]`);
  // Its details name the parent down through the page it sits in.
  const parent = page.locator('#details-props dt:text-is("Parent") + dd');
  await page.waitForFunction((p) => document.querySelector('#details-path')?.textContent === p, `Parts/[${lo}]`);
  assert.equal(await parent.textContent(), `Parts/${names[1]}`);
  await page.locator(first).hover();
  await page.waitForFunction((s) => document.querySelector(`#hex .hx .c[data-o="${s}"][data-h~=hl]`) ||
    document.querySelector(`#hex .hrow[data-hall] .hx .c[data-o="${s}"]`), start);
  assert.deepEqual(await highlighted('hx'), range(start, end));
  // Go to an offset inside a page not opened yet: the page and the part open
  // down to the byte's field, which is selected and shown.
  const k = span(names[8])[0] + 7;
  const target = partAt(k) + 8 + 32; // the element's semantic name
  await page.keyboard.press('Control+g');
  await page.fill('#goto-input', String(target));
  await page.keyboard.press('Enter');
  const selected = page.locator('#tree .trow[aria-selected="true"]');
  await page.waitForFunction((k) => document.querySelector('#tree .trow[aria-selected="true"]')?.dataset.path?.startsWith(`Parts/[${k}]/`), k);
  const p = await selected.getAttribute('data-path');
  assert.match(await selected.textContent(), new RegExp(`E${k}`));
  const s0 = Number(await selected.getAttribute('data-start'));
  const e0 = Number(await selected.getAttribute('data-end'));
  assert.ok(s0 <= target && target < e0, `${p} [${s0}, ${e0}) owns ${target}`);
  // Bytes → tree: hovering the byte lights that row and names it below.
  await page.waitForSelector(`#hex .hx .c.cur[data-o="${target}"]`);
  await page.hover(`#hex .hx .c[data-o="${target}"]`);
  await page.waitForSelector(`${row(p)}.hovered`);
  assert.match(await page.locator('#breadcrumb').textContent(), new RegExp(`\\[${k}\\]`));
  // Walk a few thousand rows with the keyboard: rows arrive as the pane moves,
  // and the page never holds more than a window of them.
  await page.focus('#tree');
  for (let i = 0; i < 100; i++) await page.keyboard.press('PageDown');
  await page.waitForFunction(() => !document.querySelector('#tree .trow.pending'));
  const pos = Number(await selected.getAttribute('aria-posinset'));
  assert.ok(pos > 2000, `walked to row ${pos}`);
  assert.ok((await page.locator('#tree .trow').count()) < 80);
  const mem = await page.evaluate(() => window.wasmBindings.debug_memory());
  assert.ok(mem.workerWasm > 0 && mem.workerWasm < 96 * 2 ** 20, `worker wasm ${mem.workerWasm}`);
  assert.ok(mem.pageWasm < 32 * 2 ** 20, `page wasm ${mem.pageWasm}`);
  await shot('15-dense-file');
});

test('decoding shows progress and can be cancelled; the bytes stay', async () => {
  const file = path.join(TMP, 'many-parts.dxbc');
  // Big enough that decoding it takes seconds: the click must land while it runs.
  writeParts(file, 1000000);
  await open();
  await page.setInputFiles('#file-input-empty', file);
  await page.waitForSelector('#notice-decoding');
  await page.click('#cancel-decode');
  await page.waitForSelector('#notice-cancelled');
  await page.waitForSelector('#hex .hrow:not(.pending)');
  assert.equal(await page.locator('#tree').getAttribute('data-decoded'), 'false');
  // Opening another file afterwards starts a fresh decoder.
  await loadViaInput(SAMPLE, sample);
  assert.ok((await page.locator('.trow').count()) > 3);
});

test("the page holds no decoder: a file's bytes show before the decoder's module has arrived, and only the module the file needs is fetched", async () => {
  // Hold back the decode worker's wasm modules until the hex view is shown.
  let release;
  const held = new Promise((r) => (release = r));
  const asked = [];
  await page.route('**/hexlens-worker-*_bg.wasm', async (route) => {
    asked.push(route.request().url().match(/hexlens-worker-(\w+)_bg/)[1]);
    await held;
    await route.continue();
  });
  try {
    await open();
    await page.setInputFiles('#file-input-empty', { name: SAMPLE, mimeType: 'application/octet-stream', buffer: sample });
    const first = page.locator('#hex .hrow:not(.pending) .hx .c[data-o="0"]');
    await first.waitFor();
    assert.equal(await first.textContent(), '44', 'the first byte, D of DXBC');
    assert.equal(await page.locator('#tree').getAttribute('data-decoded'), 'false', 'not decoded yet');
    release();
    await waitForFile(SAMPLE);
    assert.ok((await page.locator('.trow').count()) > 3, 'the tree shows once the decoder is there');
    assert.deepEqual(asked, ['llvm'], 'a DXContainer needs the llvm module only');
    // A file of another module's format stops the worker and starts one with that module.
    const dyno = fs.readFileSync(path.join(SAMPLES, 'writer_le.dyno'));
    await loadViaInput('writer_le.dyno', dyno);
    assert.equal(await page.locator(row('Modules')).count(), 1, 'the .dyno tree shows');
    // A file no first-bytes probe knows goes to the module that searches files.
    await loadViaInput('plain.bin', Buffer.from('just some text, no format at all\n'.repeat(40)));
    await page.locator('#tree[data-decoded="true"]').waitFor();
    // It finds no cDAC blob: the scan module looks for containers inside.
    assert.deepEqual(asked, ['llvm', 'dyno', 'cdac', 'tools']);
    assert.match(await page.locator(row('')).textContent(), /no container of a known format was found inside it/);
    // A PDB gets the pdb module (MSF, and the DXContainer a shader PDB holds).
    const pdb = fs.readFileSync(path.join(SAMPLES, '../../tests/fixtures/msf/dxc_dxil_shader.pdb'));
    await loadViaInput('shader.pdb', pdb);
    assert.equal(await page.locator(row('SuperBlock')).count(), 1, 'the PDB tree shows');
    assert.deepEqual(asked, ['llvm', 'dyno', 'cdac', 'tools', 'pdb']);
    // Back to a shader: the llvm module again.
    await loadViaInput(SAMPLE, sample);
    assert.ok((await page.locator('.trow').count()) > 3);
  } finally {
    release();
    await page.unroute('**/hexlens-worker-*_bg.wasm');
  }
  // The page's own module carries no decoder; each decoder module carries its
  // own formats only (the dyno module shows generated code as bitcode, so it
  // holds the bitcode block names too, and the pdb module decodes the
  // DXContainer a shader PDB holds, so it holds the llvm module's texts).
  const wasm = fs.readdirSync(DIST).filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm.length, 9, `the page's module, five decoder modules, the tools module, the listing pane's and the .ksy interpreter's: ${wasm}`);
  const pageWasm = fs.readFileSync(path.join(DIST, wasm.find((f) => !f.startsWith('hexlens-worker'))));
  const mod = (m) => fs.readFileSync(path.join(DIST, `hexlens-worker-${m}_bg.wasm`));
  const has = {
    llvm: ['MODULE_BLOCK', 'pipeline state validation'],
    llvm1: ['uncompressed LLVM 1.x bytecode'],
    pdb: ['free block map'],
    dyno: ['uAST section'],
    cdac: ['DACBLOB'],
    ksy: ['a format described by a Kaitai Struct .ksy file'],
  };
  // Searching and copying are the tools module's: no decoder module holds them.
  for (const t of ['only wildcards: every offset would match', 'const unsigned char data[']) {
    assert.ok(fs.readFileSync(path.join(DIST, 'hexlens-worker-tools_bg.wasm')).includes(t), `the tools module holds ${t}`);
    for (const m of ['llvm', 'llvm1', 'pdb', 'dyno', 'cdac']) assert.ok(!mod(m).includes(t), `the ${m} module does not hold ${t}`);
  }
  const nested = (other, m, t) => (other === 'dyno' && t === 'MODULE_BLOCK') || (other === 'pdb' && m === 'llvm');
  for (const [m, texts] of Object.entries(has)) {
    const w = mod(m);
    for (const t of texts) {
      assert.ok(!pageWasm.includes(t), `the page module does not hold ${t}`);
      assert.ok(w.includes(t), `the ${m} module holds ${t}`);
      for (const other of Object.keys(has).filter((o) => o !== m && !nested(o, m, t))) {
        assert.ok(!mod(other).includes(t), `the ${other} module does not hold ${t}`);
      }
    }
  }
});

test('a crash in the decode worker shows an error banner and keeps the hex view', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  const firstRow = () => page.locator('#hex .hrow:not(.pending)').first().textContent();
  const before = await firstRow();
  problems.length = 0;
  await page.evaluate(() => window.wasmBindings.debug_crash_decoder());
  const banner = page.locator('#notice-crashed');
  await banner.waitFor();
  assert.match(await banner.textContent(), /decoder crashed.*test hook/s);
  // The bytes are still shown (the banner takes some height, so fewer rows fit).
  assert.equal(await firstRow(), before);
  assert.ok((await page.locator('#hex .hrow:not(.pending)').count()) > 10);
  await shot('15-worker-crash');
  // The next file gets a new worker.
  await loadViaInput('again.dxbc', sample);
  assert.ok((await page.locator('.trow').count()) > 3);
  // The crash logs to the console by design; nothing else may.
  problems.splice(0, problems.length, ...problems.filter((p) => !/test hook|unreachable|RuntimeError/.test(p)));
});

// ---- Selection, copy, export, permalinks, history, structure search ----

const CLI = process.env.HEXLENS_CLI;

/** What `hexlens ARGS` prints (the CLI the test script builds). */
function cli(args) {
  assert.ok(CLI && fs.existsSync(CLI), `HEXLENS_CLI (${CLI}) must name the hexlens binary: scripts/test-browser.sh builds it`);
  const r = spawnSync(CLI, args, { maxBuffer: 1 << 30 });
  assert.ok(r.status === 0 || r.status === 1, `hexlens ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const cell = (o) => `#hex .hx .c[data-o="${o}"]`;
const statusText = () => page.locator('#cursor-pos').textContent();

/** Chooses `value` in the copy menu and waits for the menu to say it is done. */
async function copyAs(value) {
  await page.evaluate(() => (document.querySelector('#copy-status').textContent = ''));
  await page.selectOption('#copy-as', value);
  await page.waitForFunction(() => /^(Copied|Saved|Could)/.test(document.querySelector('#copy-status').textContent));
  const said = await page.locator('#copy-status').textContent();
  assert.doesNotMatch(said, /^Could/, `${value}: ${said}`);
  return page.evaluate(() => navigator.clipboard.readText());
}

/** The numbers `0x..` in `text`, as bytes. */
const arrayBytes = (text) => Buffer.from([...text.matchAll(/0x([0-9A-F]{2})/g)].map((m) => parseInt(m[1], 16)));

test('bytes are selected by drag, Shift+click and Shift+arrows; the status bar gives the range; copy as hex, C, Rust, Python and base64 gives exactly those bytes', async () => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(base).origin });
  await open();
  await loadViaInput(SAMPLE, sample);
  // A drag from 0x10 to 0x2F.
  const box = async (o) => (await page.locator(cell(o)).boundingBox());
  const a = await box(0x10);
  const b = await box(0x2f);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
  assert.equal(await statusText(), 'selected 0x10–0x2F, 32 bytes');
  const marked = await page.$$eval('#hex .hx .c.rng', (els) => els.map((e) => Number(e.dataset.o)));
  assert.deepEqual(marked, range(0x10, 0x30));
  await shot('31-byte-selection');
  const want = sample.subarray(0x10, 0x30);
  const hex = await copyAs('bytes:hex');
  assert.equal(hex, [...want].map((x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' ').replace(/(.{47}) /g, '$1\n'));
  for (const [form, head] of [['c', /^const unsigned char data\[32\] = \{/], ['rust', /^const DATA: \[u8; 32\] = \[/], ['python', /^data = bytes\(\[/]]) {
    const t = await copyAs(`bytes:${form}`);
    assert.match(t, head, form);
    assert.deepEqual(arrayBytes(t), want, form);
  }
  assert.deepEqual(Buffer.from(await copyAs('bytes:base64'), 'base64'), want);
  // A click ends the selection; Shift+click selects from the cursor.
  await page.click(cell(0x40));
  assert.equal(await statusText(), 'cursor 0x40');
  await page.click(cell(0x44), { modifiers: ['Shift'] });
  assert.equal(await statusText(), 'selected 0x40–0x44, 5 bytes');
  // Shift+arrows move the end; Ctrl+C copies the selection as hex.
  await page.focus('#hex');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
  assert.equal(await statusText(), 'selected 0x40–0x47, 8 bytes');
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.keyboard.press('Control+c');
  await page.waitForFunction(async () => (await navigator.clipboard.readText()) !== '');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), [...sample.subarray(0x40, 0x48)].map((x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' '));
  // Without a byte selection, a copy takes the selected node's bytes.
  await page.keyboard.press('ArrowRight');
  await page.locator(row('Header/FileSize')).click();
  assert.equal(await copyAs('bytes:hex'), [...sample.subarray(24, 28)].map((x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' '));
});

test("a node's value, path and subtree copy, and the tree and a subtree export, as hexlens dump writes them", async () => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(base).origin });
  const file = path.join(os.tmpdir(), `hexlens-e2e-${process.pid}-${SAMPLE}`);
  fs.writeFileSync(file, sample);
  await open();
  await loadViaInput(SAMPLE, sample);
  await page.locator(row('Parts/[1]')).click();
  await page.waitForFunction(() => document.querySelector('#details-path')?.textContent === 'Parts/[1]');
  assert.equal(await copyAs('node:path'), 'Parts/[1]');
  assert.equal(await copyAs('node:json'), cli(['dump', file, '--json', '--select', 'Parts/[1]']).toString());
  // A value, whole: the part's FourCC.
  await page.locator('#tree .trow[aria-selected="true"]').press('ArrowRight');
  await page.locator(row('Parts/[1]/Name')).click();
  const want = JSON.parse(cli(['dump', file, '--json', '--select', 'Parts/[1]/Name'])).tree.value;
  assert.equal(await copyAs('node:value'), want);
  // Downloads: the whole tree as JSON and as text, a subtree as text.
  const saved = async (value) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.selectOption('#copy-as', value)]);
    return { name: dl.suggestedFilename(), data: fs.readFileSync(await dl.path()) };
  };
  const json = await saved('file:json');
  assert.equal(json.name, `${SAMPLE}.json`);
  const cliJson = cli(['dump', file, '--json']);
  if (!json.data.equals(cliJson)) {
    fs.writeFileSync(path.join(ART, 'export-mismatch-page.json'), json.data);
    fs.writeFileSync(path.join(ART, 'export-mismatch-cli.json'), cliJson);
  }
  assert.ok(json.data.equals(cliJson), 'the exported JSON is the CLI JSON, byte for byte (both in the artifacts if not)');
  const text = await saved('file:text');
  assert.ok(text.data.equals(cli(['dump', file])), 'the exported text is the CLI text dump');
  await page.locator(row('Parts/[1]')).click();
  const sub = await saved('subtree:text');
  assert.equal(sub.name, `${SAMPLE}-Parts-1.txt`);
  assert.ok(sub.data.equals(cli(['dump', file, '--select', 'Parts/[1]'])));
  fs.rmSync(file);
});

/** The fragment's fields. */
const fragment = async () => Object.fromEntries(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)));

test('the URL fragment keeps the place (hash, node, cursor, what is open): a reload restores it, a sample link opens there, a dropped file comes back to it', async () => {
  const name = manifest.samples[0].file;
  await open(`?sample=${encodeURIComponent(name)}`);
  await page.waitForSelector('#tree[data-decoded=true]');
  await page.locator(row('Parts/[2]')).click();
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('node') === 'Parts/[2]');
  const f = await fragment();
  assert.match(f.sha, /^[0-9a-f]{64}$/);
  const data = fs.readFileSync(path.join(SAMPLES, name));
  assert.equal(f.sha, crypto.createHash('sha256').update(data).digest('hex'));
  assert.ok(!Object.values(f).some((v) => v.length > 64 && v !== f.sha), 'no file content in the URL');
  // What is open goes into the link too: open the part.
  assert.equal(await page.locator(`${row('Parts/[2]')}[aria-expanded="false"]`).count(), 1);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).getAll('open').includes('Parts/[2]'));
  const opened = await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).getAll('open'));
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#details-path')?.textContent === 'Parts/[2]');
  assert.equal(await page.locator('#tree .trow[aria-selected="true"]').getAttribute('data-path'), 'Parts/[2]');
  await page.locator(`${row('Parts/[2]')}[aria-expanded="true"]`).waitFor();
  await page.locator(row('Parts/[2]/Name')).waitFor();
  assert.deepEqual(
    (await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).getAll('open'))).sort(),
    [...opened].sort(),
    'the reloaded view has the same open set',
  );
  // A hand-written link to a sample needs no hash.
  await page.goto(`${base}?sample=${encodeURIComponent(name)}#node=Parts/[1]&at=44`);
  await page.waitForFunction(() => document.querySelector('#details-path')?.textContent === 'Parts/[1]');
  assert.equal(await cursorAt(), 0x44);
  // A dropped file: its place comes back when the same file is opened again.
  await open();
  await loadViaInput(SAMPLE, sample);
  await page.fill('#goto-input', '0x123');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('at') === '123');
  const place = await fragment();
  await page.reload();
  await page.waitForSelector('#empty-state');
  await loadViaInput(SAMPLE, sample);
  await page.waitForFunction((p) => document.querySelector('#details-path')?.textContent === p, place.node);
  assert.equal(await cursorAt(), 0x123);
  // Another file does not take this file's place.
  await loadViaInput('other.dxbc', dxbc([['ISGN', isgn('POSITION')]]));
  assert.equal(await cursorAt(), 0);
});

test('a link into a file scanned for containers opens it scanned, at its place', async () => {
  await open('?sample=basic_code_dxil.dxil.dxbc');
  await page.waitForSelector('#tree[data-decoded=true]');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('sha'));
  await page.locator('#scan-btn').click();
  await page.locator(row('DXContainer@0x0/Header')).waitFor();
  await page.locator(row('DXContainer@0x0/Header')).click();
  await page.waitForFunction(() => {
    const p = new URLSearchParams(location.hash.slice(1));
    return p.get('scan') === '1' && p.get('node') === 'DXContainer@0x0/Header';
  });
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#details-path')?.textContent === 'DXContainer@0x0/Header');
  assert.equal(await page.locator('#file-info .badge').textContent(), 'embedded');
  assert.equal(await page.locator('#scan-btn').textContent(), 'Decode as its format');
  // Decoded as its format again, the link says so.
  await page.locator('#scan-btn').click();
  await page.locator('#file-info .badge:text-is("dxcontainer")').waitFor();
  await page.locator(row('Header')).click();
  await page.waitForFunction(() => {
    const p = new URLSearchParams(location.hash.slice(1));
    return p.get('scan') === null && p.get('node') === 'Header';
  });
});

test('history: Back and Forward (Alt+Left / Alt+Right) walk through the places visited', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  const go = async (o) => {
    await page.fill('#goto-input', `0x${o.toString(16)}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((o) => new URLSearchParams(location.hash.slice(1)).get('at') === o.toString(16).toUpperCase(), o);
  };
  for (const o of [0x10, 0x40, 0x80]) await go(o);
  await page.locator('#hex').focus();
  await page.keyboard.press('Alt+ArrowLeft');
  await page.waitForFunction(() => /cursor at offset 0x40$/.test(document.querySelector('#hex').getAttribute('aria-label')));
  await page.keyboard.press('Alt+ArrowLeft');
  await page.waitForFunction(() => /cursor at offset 0x10$/.test(document.querySelector('#hex').getAttribute('aria-label')));
  await page.keyboard.press('Alt+ArrowRight');
  await page.waitForFunction(() => /cursor at offset 0x40$/.test(document.querySelector('#hex').getAttribute('aria-label')));
  // The browser's own Back (the mouse's back button) does the same.
  await page.goForward();
  await page.waitForFunction(() => /cursor at offset 0x80$/.test(document.querySelector('#hex').getAttribute('aria-label')));
  assert.equal(await page.locator('#details-path').textContent(), await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('node')));
  // Moving the cursor is not a jump: the entry follows it (once the keys pause),
  // and going back and forward again comes back to where it was left.
  await page.locator('#hex').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('at') === '83');
  await page.keyboard.press('Alt+ArrowLeft');
  await page.waitForFunction(() => /cursor at offset 0x40$/.test(document.querySelector('#hex').getAttribute('aria-label')));
  await page.keyboard.press('Alt+ArrowRight');
  await page.waitForFunction(() => /cursor at offset 0x83$/.test(document.querySelector('#hex').getAttribute('aria-label')));
});

test('bookmarks: named, coloured ranges and nodes that tint the bytes, go there, stay with the file across a reload, and export and import as JSON', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  await page.waitForFunction(() => /sha=/.test(location.hash));
  await page.click('#bm-toggle');
  // A byte range: 0x10–0x1F, blue, with a note.
  await page.click(cell(0x10));
  await page.click(cell(0x1f), { modifiers: ['Shift'] });
  await page.fill('#bm-name', 'hash');
  await page.selectOption('#bm-colour', '2');
  await page.fill('#bm-note', 'the container digest <b>not html</b>');
  await page.click('#bm-form button[type=submit]');
  // A node: the selected part, named after it when no name is given.
  await page.locator(row('Parts/[1]')).click();
  await page.waitForFunction(() => document.querySelector('#details-path')?.textContent === 'Parts/[1]');
  await page.selectOption('#bm-colour', '4');
  await page.click('#bm-form button[type=submit]');
  const items = () => page.$$eval('#bm-list .bm-item', (els) => els.map((e) => [e.querySelector('.bm-go').textContent, e.querySelector('.bm-range').textContent, e.querySelector('.bm-note').textContent]));
  const p1 = { start: Number(await page.locator(row('Parts/[1]')).getAttribute('data-start')), end: Number(await page.locator(row('Parts/[1]')).getAttribute('data-end')) };
  const want = [['hash', '0x10–0x1F', 'the container digest <b>not html</b>'], ['[1]', `0x${p1.start.toString(16).toUpperCase()}–0x${(p1.end - 1).toString(16).toUpperCase()}`, '']];
  assert.deepEqual(await items(), want);
  assert.equal(await page.locator('#bm-list b').count(), 0, 'a note is text, not HTML');
  // Their bytes are tinted with their colours.
  await page.locator('#hex').evaluate((e) => (e.scrollTop = 0));
  await page.waitForSelector('#hex .hx .c.bm2[data-o="16"]');
  assert.deepEqual(await page.$$eval('#hex .hx .c.bm2', (els) => els.map((e) => Number(e.dataset.o))), range(0x10, 0x20));
  await page.waitForSelector(`#hex .hx .c.bm4[data-o="${p1.start}"]`);
  await shot('33-bookmarks');
  // A click on one goes there.
  await page.click('#bm-list .bm-item:nth-child(1) .bm-go');
  assert.equal(await statusText(), 'selected 0x10–0x1F, 16 bytes');
  await page.click('#bm-list .bm-item:nth-child(2) .bm-go');
  await page.waitForFunction(() => document.querySelector('#details-path')?.textContent === 'Parts/[1]');
  // Kept with the file: a reload, then the same file again.
  await page.reload();
  await page.waitForSelector('#empty-state');
  await loadViaInput(SAMPLE, sample);
  await page.click('#bm-toggle');
  await page.waitForFunction(() => document.querySelectorAll('#bm-list .bm-item').length === 2);
  assert.deepEqual(await items(), want);
  // Another file has none.
  await loadViaInput('other.dxbc', dxbc([['ISGN', isgn('POSITION')]]));
  await page.waitForFunction(() => document.querySelectorAll('#bm-list .bm-item').length === 0);
  await loadViaInput(SAMPLE, sample);
  await page.waitForFunction(() => document.querySelectorAll('#bm-list .bm-item').length === 2);
  // Export, remove both, import the file back.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#bm-export')]);
  const saved = await dl.path();
  const json = JSON.parse(fs.readFileSync(saved, 'utf8'));
  assert.equal(json.sha256, crypto.createHash('sha256').update(sample).digest('hex'));
  assert.deepEqual(json.bookmarks.map((b) => [b.name, b.start, b.end, b.path, b.colour, b.note]), [
    ['hash', 0x10, 0x20, '', 2, want[0][2]],
    ['[1]', p1.start, p1.end, 'Parts/[1]', 4, ''],
  ]);
  await page.click('#bm-list .bm-item:nth-child(1) .bm-del');
  await page.click('#bm-list .bm-item:nth-child(1) .bm-del');
  await page.waitForFunction(() => document.querySelectorAll('#bm-list .bm-item').length === 0);
  assert.equal(await page.locator('#hex .c.bm2').count(), 0);
  await page.setInputFiles('#bm-import', saved);
  await page.waitForFunction(() => document.querySelectorAll('#bm-list .bm-item').length === 2);
  assert.deepEqual(await items(), want);
  await page.click('#bm-toggle');
});

test('structure search finds nodes by path pattern and by value, each match selecting its node in the tree', async () => {
  await open();
  await loadViaInput(SAMPLE, sample);
  const file = path.join(os.tmpdir(), `hexlens-e2e-s-${process.pid}.dxbc`);
  fs.writeFileSync(file, sample);
  for (const q of ['Parts/*/Name', 'POSITION']) {
    const want = JSON.parse(cli(['find', file, q, '--json'])).map((h) => h.path);
    assert.ok(want.length > 1, q);
    const st = await searchFor('structure', q);
    assert.equal(st, `1 of ${want.length}`, q);
    for (let i = 0; i < want.length; i++) {
      if (i > 0) await page.keyboard.press('F3');
      await page.waitForFunction((p) => document.querySelector('#details-path')?.textContent === p, want[i]);
      assert.equal(await page.locator('#tree .trow[aria-selected="true"]').getAttribute('data-path'), want[i], `${q} match ${i}`);
    }
    // Each row of the results list ends with its node's path; a click selects it.
    const rows = page.locator('#search-results .sr');
    const shown = await rows.evaluateAll((rs) => rs.map((r) => [Number(r.dataset.i), r.textContent]));
    assert.ok(shown.length >= Math.min(want.length, 8), q);
    shown.forEach(([i, t]) => assert.ok(t.endsWith(want[i]), `${t} names ${want[i]}`));
    const pick = shown[0][0];
    await rows.nth(0).click();
    await page.waitForFunction((p) => document.querySelector('#details-path')?.textContent === p, want[pick]);
    assert.equal(await page.locator('#search-status').textContent(), `${pick + 1} of ${want.length}`);
  }
  await shot('32-structure-search');
  await page.keyboard.press('Escape');
  fs.rmSync(file);
});

test('a structure search over a dense file shows how far its walk is, and Stop stops it', async () => {
  await open();
  await loadViaInput('dense-200k.dxbc', denseContainer(200000));
  await page.keyboard.press('Control+f');
  await page.selectOption('#search-mode', 'structure');
  await page.fill('#search-input', 'no such name anywhere');
  await page.press('#search-input', 'Enter');
  // The walk reports where it is: the percentage grows past 0 while it runs.
  await page.waitForFunction(() => /searching… ([1-9]\d*) %/.test(document.querySelector('#search-status').textContent), null, { timeout: 60000 });
  const seen = await page.locator('#search-status').textContent();
  await page.locator('#search-stop').click();
  await page.waitForFunction(() => /stopped at 0x[0-9A-F]+ of 0x[0-9A-F]+/.test(document.querySelector('#search-status').textContent));
  const stopped = await page.locator('#search-status').textContent();
  assert.match(stopped, /^no matches \(stopped/, `${seen} → ${stopped}`);
  // Nothing arrives after the stop; a new structure search runs in a fresh tools module.
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('#search-status').textContent(), stopped);
  assert.equal(await searchFor('structure', 'Parts/[7]/Name'), '1 of 1');
  await page.keyboard.press('Escape');
});

test('containers inside other files: an effect-like file shows each shader where it lies, and any file can be scanned on request', async () => {
  await open();
  const dir = path.join(SAMPLES, '../../tests/fixtures/embedded');
  // The containers and their bytes, as `hexlens dump --json` gives them.
  const top = (file, extra = []) =>
    JSON.parse(cli(['dump', file, '--json', '--max-depth', '1', ...extra])).tree.children.filter((c) => c.kind !== 'unknown');
  const fx = path.join(dir, 'effect.fxo');
  await loadViaInput('effect.fxo', fs.readFileSync(fx));
  assert.equal(await page.locator('#file-info .badge').textContent(), 'embedded');
  const want = top(fx);
  assert.equal(want.length, 3);
  for (const c of want) {
    assert.equal(await page.locator(row(c.name)).count(), 1, c.name);
  }
  // A container opens to its own tree, its nodes on the file's bytes.
  const first = want[0];
  await page.locator(row(first.name)).click();
  await page.locator(`${row(first.name)}[aria-expanded="true"]`).waitFor();
  await page.locator(row(`${first.name}/Header`)).waitFor();
  await page.locator(row(`${first.name}/Header`)).hover();
  const header = JSON.parse(cli(['dump', fx, '--json', '--select', `${first.name}/Header`])).tree;
  assert.equal(header.start, first.start, 'the header starts where the container does');
  assert.deepEqual(await highlighted('hx'), range(header.start, header.end));
  await shot('33-embedded-containers');
  // A DirectX Container scanned on request is one container, the whole file;
  // the button turns it back.
  await loadViaInput(SAMPLE, sample);
  assert.equal(await page.locator('#scan-btn').textContent(), 'Scan for containers');
  await page.locator('#scan-btn').click();
  await page.locator(row('DXContainer@0x0')).waitFor();
  assert.equal(await page.locator('#file-info .badge').textContent(), 'embedded');
  assert.equal(await page.locator('#scan-btn').textContent(), 'Decode as its format');
  await page.locator('#scan-btn').click();
  await page.locator(row('Header')).waitFor();
  assert.equal(await page.locator('#file-info .badge').textContent(), 'dxcontainer');
  // A file with a cDAC blob is a cDAC file; scanned, its every container shows,
  // as `hexlens dump --scan` lists them, and the export is the scanned tree.
  const every = path.join(dir, 'every_format.bin');
  await loadViaInput('every_format.bin', fs.readFileSync(every));
  assert.equal(await page.locator('#file-info .badge').textContent(), 'cdac');
  await page.locator('#scan-btn').click();
  await page.locator('#file-info .badge:text-is("embedded")').waitFor();
  await page.locator('#tree[data-decoded="true"]').waitFor();
  const scanned = top(every, ['--scan']);
  assert.equal(scanned.length, 8);
  // Small containers open at once: the tree pane is scrolled to each row.
  const seen = new Set();
  const tree = page.locator('#tree');
  await tree.evaluate((e) => (e.scrollTop = 0));
  for (let i = 0; i < 400 && seen.size < scanned.length; i++) {
    for (const c of scanned) if (await page.locator(row(c.name)).count()) seen.add(c.name);
    const end = await tree.evaluate((e) => {
      const was = e.scrollTop;
      e.scrollTop += e.clientHeight / 2;
      return e.scrollTop === was;
    });
    if (end) break;
    await page.waitForTimeout(20);
  }
  assert.deepEqual([...seen].sort(), scanned.map((c) => c.name).sort());
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#copy-as').selectOption('file:json'),
  ]);
  const got = fs.readFileSync(await download.path());
  assert.ok(got.equals(cli(['dump', every, '--json', '--scan'])), 'the export is hexlens dump --scan --json');
});

/** The hex pane's cells in view: A's (offset, byte text, marked as differing)
 * and B's (offset in B, byte text, marked), and how B lines up with A. Waits
 * until no row in view is still being read. */
async function hexSides() {
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('#hex .hrow')];
    return rows.length > 0 && rows.every((r) => !r.classList.contains('pending') && r.querySelector('.offb')?.textContent !== '··');
  });
  return page.evaluate(() => {
    const cell = (c, k) => [Number(c.dataset[k]), c.textContent, c.classList.contains('dif')];
    return {
      delta: Number(document.querySelector('.hex-pane').dataset.delta),
      a: [...document.querySelectorAll('#hex .hx:not(.hxb) .c[data-o]')].map((c) => cell(c, 'o')),
      b: [...document.querySelectorAll('#hex .hxb .c[data-ob]')].map((c) => cell(c, 'ob')),
    };
  });
}

/** Checks the cells in view mark exactly the bytes that differ from those
 * beside them (A's byte at o, B's at o + delta; a byte with none beside it
 * differs), and show the files' bytes. */
function checkMarks(sides, A, B, what) {
  const hex = (v) => v.toString(16).toUpperCase().padStart(2, '0');
  assert.ok(sides.a.length > 0 && sides.b.length > 0, `${what}: both sides show bytes`);
  for (const [o, text, dif] of sides.a) {
    assert.equal(text, hex(A[o]), `${what}: A's byte at ${o}`);
    assert.equal(dif, A[o] !== B[o + sides.delta], `${what}: A's byte at ${o} marked ${dif}`);
  }
  for (const [ob, text, dif] of sides.b) {
    assert.equal(text, hex(B[ob]), `${what}: B's byte at ${ob}`);
    assert.equal(dif, A[ob - sides.delta] !== B[ob], `${what}: B's byte at ${ob} marked ${dif}`);
  }
}

test('compare with another file: the merged tree hexlens diff --tree prints, next and previous difference selecting each node, both hex panes marking the differing bytes, byte-level next difference', async () => {
  const dir = path.join(SAMPLES, '../../tests/fixtures/dxcontainer/curated');
  const a = path.join(dir, 'embedded_rs_gs_space1_code_dxbc.dxbc');
  const b = path.join(dir, 'embedded_rs_gs_space1_naked_code_dxbc.dxbc');
  const [A, B] = [fs.readFileSync(a), fs.readFileSync(b)];
  const want = JSON.parse(cli(['diff', a, b, '--json', '--tree']));
  const lines = cli(['diff', a, b, '--tree']).toString().trimEnd().split('\n').slice(0, -1);
  assert.equal(want.equal, false);
  assert.equal(lines.length, want.rows.length);
  await open();
  await loadViaInput('a.dxbc', A);
  await page.setInputFiles('#cmp-file', { name: 'b.dxbc', mimeType: 'application/octet-stream', buffer: B });
  await page.waitForFunction(() => /structures differ/.test(document.querySelector('#cmp-summary')?.textContent || ''));
  const summary = await page.locator('#cmp-summary').textContent();
  const counts = (k) => want.differences.filter((d) => d.change === k).length;
  assert.match(summary, new RegExp(`${counts('changed')} changed, ${counts('moved')} moved, ${counts('removed')} only in A, ${counts('added')} only in B`));
  // The merged tree: hexlens diff --tree's lines, only the differences and
  // the groups holding them at first, every row once the filter is off.
  const panel = () => page.locator('#cmp-list .sr').evaluateAll((rs) => rs.map((r) => [Number(r.dataset.row), r.dataset.path, r.querySelector('.cmp-text').textContent]));
  const expect = (keep) => want.rows.map((r, i) => [i, r.path, lines[i].trimStart()]).filter(([i]) => keep(want.rows[i]));
  const shown = await panel();
  assert.ok(shown.length >= 8);
  assert.deepEqual(shown, expect((r) => r.mark !== 'same').slice(0, shown.length));
  await page.locator('#cmp-only').uncheck();
  const all = await panel();
  assert.deepEqual(all, expect(() => true).slice(0, all.length));
  assert.ok(all.some(([, , t]) => t.startsWith('= ')), 'identical rows show');
  await page.locator('#cmp-only').check();
  // B's bytes stand beside A's, at the same offsets to begin with.
  let sides = await hexSides();
  assert.equal(sides.delta, 0);
  checkMarks(sides, A, B, 'at first');
  // Byte-level next difference: the runs of bytes that differ, in order.
  const runs = [];
  for (let o = 0, end = Math.max(A.length, B.length); o < end; o++) {
    if (A[o] !== B[o]) {
      if (runs.length && runs[runs.length - 1][1] === o) runs[runs.length - 1][1] = o + 1;
      else runs.push([o, o + 1]);
    }
  }
  const hx = (v) => `0x${v.toString(16).toUpperCase()}`;
  const walked = runs.filter(([s]) => s > 0).slice(0, 6);
  for (const [s, e] of walked) {
    await page.locator('#cmp-bnext').click();
    await page.waitForFunction((t) => document.querySelector('#cmp-where')?.textContent.startsWith(t), `Bytes ${hx(s)}–${hx(e - 1)} differ`);
    sides = await hexSides();
    assert.ok(sides.a.some(([o]) => o === s), `run at ${s} is in view`);
    checkMarks(sides, A, B, `run at ${s}`);
  }
  await page.locator('#cmp-bprev').click();
  const [ps, pe] = walked[walked.length - 2];
  await page.waitForFunction((t) => document.querySelector('#cmp-where')?.textContent.startsWith(t), `Bytes ${hx(ps)}–${hx(pe - 1)} differ`);
  // Next difference walks the differences in the tree's order, selecting
  // each node of A, lining B's bytes up with it.
  const diffRows = want.rows.map((r, i) => [r, i]).filter(([r]) => r.difference !== null);
  assert.equal(diffRows.length, want.differences.length);
  for (const [r, i] of diffRows) {
    await page.locator('#cmp-next').click();
    await page.waitForFunction((i) => document.querySelector('#cmp-list .sr.cur')?.dataset.row === String(i), i);
    if (r.mark !== 'added') {
      await page.waitForFunction((p) => document.querySelector('#tree .trow[aria-selected="true"]')?.dataset.path === p, r.path);
    }
    sides = await hexSides();
    assert.equal(sides.delta, r.align[1] - r.align[0], `${r.path} lines B up`);
    checkMarks(sides, A, B, r.path);
  }
  // Previous wraps around to the last.
  await page.locator('#cmp-next').click();
  await page.locator('#cmp-prev').click();
  await page.waitForFunction((i) => document.querySelector('#cmp-list .sr.cur')?.dataset.row === String(i), diffRows[diffRows.length - 1][1]);
  // A click on a row selects it; a twisty folds what is below a row.
  const pc = want.rows.findIndex((r) => r.path === 'Header/PartCount');
  await page.locator(`#cmp-list .sr[data-row="${pc}"]`).click();
  await page.waitForFunction(() => document.querySelector('#tree .trow[aria-selected="true"]')?.dataset.path === 'Header/PartCount');
  assert.equal(await page.locator(`#cmp-list .sr[data-row="${pc}"] .cmp-text`).textContent(), '~ PartCount: 5 -> 4');
  // Both files' bytes are in view side by side, in a 1400 px window.
  const fit = await page.evaluate(() => {
    const hex = document.getElementById('hex');
    const last = [...document.querySelectorAll('#hex .hxb .c')].pop().getBoundingClientRect();
    return last.right <= hex.getBoundingClientRect().right;
  });
  assert.ok(fit, "B's last column is in view without scrolling");
  await shot('35-compare');
  const header = want.rows.findIndex((r) => r.path === 'Header');
  await page.locator(`#cmp-list .sr[data-row="${header}"] .cmp-twisty`).click();
  assert.equal(await page.locator(`#cmp-list .sr[data-row="${pc}"]`).count(), 0, 'folded away');
  await page.locator(`#cmp-list .sr[data-row="${header}"] .cmp-twisty`).click();
  assert.equal(await page.locator(`#cmp-list .sr[data-row="${pc}"]`).count(), 1);
  await page.locator('#cmp-close').click();
  await page.waitForFunction(() => !document.querySelector('.hex-pane.cmp') && document.querySelector('#details-path'));
  // ?sample=A&compare=B opens A and compares it with B.
  const [x, y] = ['basic_code_dxil.dxil.dxbc', 'hs_mismatch_2_code_dxil.dxil.dxbc'];
  const linked = JSON.parse(cli(['diff', path.join(SAMPLES, x), path.join(SAMPLES, y), '--json']));
  await open(`?sample=${x}&compare=${y}`);
  await page.waitForFunction(() => /structures differ/.test(document.querySelector('#cmp-summary')?.textContent || ''));
  const n = (k) => linked.differences.filter((d) => d.change === k).length;
  assert.match(await page.locator('#cmp-summary').textContent(), new RegExp(`${n('changed')} changed, ${n('moved')} moved, ${n('removed')} only in A, ${n('added')} only in B`));
  assert.equal(await page.locator('#cmp-list .sr:not(.cmp-inside)').first().getAttribute('data-path'), linked.differences[0].path);
  checkMarks(await hexSides(), fs.readFileSync(path.join(SAMPLES, x)), fs.readFileSync(path.join(SAMPLES, y)), 'linked');
  await shot('36-compare-hex');
  // Opening another file ends the comparison.
  await loadViaInput('a.dxbc', A);
  await page.waitForFunction(() => document.querySelector('#cmp-panel').hidden && !document.querySelector('.hex-pane.cmp'));
  // A file picked to compare with while the open one is still being decoded
  // is compared once it is.
  const dense = Buffer.from(denseContainer(200000));
  const changed = Buffer.from(dense);
  changed[changed.length - 3] ^= 0xff;
  await page.locator('input[type=file]').first().setInputFiles({ name: 'dense.dxbc', mimeType: 'application/octet-stream', buffer: dense });
  await page.setInputFiles('#cmp-file', { name: 'changed.dxbc', mimeType: 'application/octet-stream', buffer: changed });
  await page.waitForFunction(() => /structures differ/.test(document.querySelector('#cmp-summary')?.textContent || ''), null, { timeout: 120000 });
  assert.match(await page.locator('#cmp-summary').textContent(), /1 bytes differ/);
});

test('no request left for a non-local address, and no errors were logged', async () => {
  assert.ok(requests.length > 5);
  const foreign = requests.filter((u) => {
    const url = new URL(u);
    return !['data:', 'blob:'].includes(url.protocol) && url.hostname !== '127.0.0.1';
  });
  assert.deepEqual(foreign, []);
  assert.deepEqual(problems, []);
});
