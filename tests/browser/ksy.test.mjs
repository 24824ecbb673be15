// Formats the user describes (.ksy) in the web app, in headless Chromium: a
// real file decoded with a .ksy shows the tree `hexlens dump --ksy` gives,
// linked to its bytes; a refused .ksy says its line and key; a missing
// import is named, then found once added; kept formats are offered for
// files with their extension after a reload; the interpreter's module is
// fetched only when a format is used.
//
//   HEXLENS_DIST       the built site (default target/browser-dist)
//   HEXLENS_ARTIFACTS  where screenshots go (default target/browser-artifacts)
//   HEXLENS_CLI        the hexlens binary (the tree is compared with its dump --ksy)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ART, DIST, ROOT, launch, openFile, serve, watch } from './harness.mjs';

const CLI = process.env.HEXLENS_CLI;
const KSY = path.join(ROOT, 'tests/ksy');
const PNG = path.join(KSY, 'files/debian-nodejs-logo.png');
const PNG_KSY = path.join(KSY, 'formats/png.ksy');
const SELF = path.join(KSY, 'oracle/selftest');

let server;
let base;
let browser;
let context;
let page;
const requests = [];
// What went wrong on the page: its errors, console errors, failed requests
// and dialogs (see the harness's `watch`).
let watched;
const problems = () => [
  ...watched.problems,
  ...watched.dialogs.map((d) => `dialog: ${d}`),
  ...watched.consoleErrors.filter((t) => !t.startsWith('Failed to load resource')).map((t) => `console error: ${t}`),
];

async function shot(name) {
  await page.screenshot({ path: path.join(ART, `${name}.png`) });
}

async function open() {
  await page.goto(base);
  await page.waitForSelector('.toolbar');
}

async function pickFormats(files) {
  await page.setInputFiles(
    '#format-input',
    files.map(([name, text]) => ({ name, mimeType: 'text/yaml', buffer: Buffer.from(text) })),
  );
}

async function waitForFormat(name, format) {
  await page.waitForFunction(
    ([n, f]) => document.querySelector('#file-info .file-name')?.textContent === n &&
      document.querySelector('#file-info .badge')?.textContent === f &&
      document.querySelector('#tree[data-decoded=true]') &&
      document.querySelector('#hex .hrow:not(.pending)'),
    [name, format],
  );
}

function dump(file, ksy, ...args) {
  const r = spawnSync(CLI, ['dump', file, '--ksy', ksy, '--json', ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return JSON.parse(r.stdout);
}

const row = (p) => `#tree .trow[data-path="${p}"]`;

/** Opens the row at path `p` if it is closed. */
async function expand(p) {
  await page.waitForSelector(row(p));
  if ((await page.getAttribute(row(p), 'aria-expanded')) === 'false') await page.click(`${row(p)} .twisty`);
}

async function highlighted() {
  return page.$$eval('#hex .hx .c[data-h~=hl], #hex .hrow[data-hall] .hx .c', (els) => els.map((e) => Number(e.dataset.o)));
}

const range = (start, end) => Array.from({ length: end - start }, (_, i) => start + i);

before(async () => {
  assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `no build in ${DIST}: run scripts/test-browser.sh`);
  assert.ok(CLI && fs.existsSync(CLI), `HEXLENS_CLI (${CLI}) must name the hexlens binary`);
  fs.mkdirSync(ART, { recursive: true });
  ({ server, base } = await serve());
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light', serviceWorkers: 'block' });
  context.on('request', (r) => requests.push(r.url()));
  page = await context.newPage();
  watched = await watch(context, page);
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('a PNG decoded with png.ksy shows the tree of hexlens dump --ksy, linked to its bytes', async () => {
  await open();
  const png = fs.readFileSync(PNG);
  await openFile(page, 'logo.png', png);
  await page.waitForSelector('#tree[data-decoded=true]');
  // Opening a file fetches no interpreter: it comes with the first format.
  assert.ok(!requests.some((u) => u.includes('hexlens-worker-ksy')), 'the .ksy module was fetched before a format was used');
  await pickFormats([['png.ksy', fs.readFileSync(PNG_KSY, 'utf8')]]);
  await waitForFormat('logo.png', 'ksy:png');
  assert.ok(requests.some((u) => u.includes('hexlens-worker-ksy_bg.wasm')), 'the .ksy module was not fetched');
  const want = dump(PNG, PNG_KSY);
  assert.equal(want.format, 'ksy:png');
  // The root's children, in order, with the dump's spans.
  await page.waitForSelector(row('chunks'));
  const top = await page.$$eval('#tree .trow', (rs) =>
    rs.map((r) => [r.dataset.path, Number(r.dataset.start), Number(r.dataset.end)]).filter(([p]) => p && !p.includes('/')),
  );
  assert.deepEqual(top, want.tree.children.map((c) => [c.name, c.start, c.end]));
  // Open the chunk list and its first chunk: rows as the dump has them.
  await expand('chunks');
  await page.waitForSelector(row('chunks/[0]'));
  await expand('chunks/[0]');
  await page.waitForSelector(row('chunks/[0]/kind'));
  const chunk = want.tree.children.find((c) => c.name === 'chunks').children[0];
  for (const c of chunk.children) {
    const r = page.locator(row(`chunks/[0]/${c.name}`));
    assert.equal(Number(await r.getAttribute('data-start')), c.start, c.name);
    assert.equal(Number(await r.getAttribute('data-end')), c.end, c.name);
  }
  // Hovering a row lights exactly its bytes.
  const kind = chunk.children.find((c) => c.name === 'kind');
  await page.locator(row('chunks/[0]/kind')).hover();
  await page.waitForSelector('#hex .c[data-h~=hl], #hex .hrow[data-hall] .c');
  assert.deepEqual(await highlighted(), range(kind.start, kind.end));
  // Hovering a byte lights its innermost owner.
  await page.hover(`#hex .hx .c[data-o="${kind.start + 1}"]`);
  await page.waitForSelector(`${row('chunks/[0]/kind')}.hovered`);
  // The details say what the .ksy says of a node: the format's doc at its root.
  await page.locator('#tree .trow[data-path=""]').click();
  await page.waitForSelector('#details-doc');
  assert.equal(await page.textContent('#details-doc'), 'A PNG file is an 8-byte signature followed by length-prefixed, CRC-checked chunks.');
  await page.locator(row('chunks/[0]/kind')).hover();
  await shot('ksy-01-png');
  // Back to hexlens's own decoders: the file is raw bytes to them.
  await page.click('#format-builtin');
  await page.waitForFunction(() => document.querySelector('#file-info .badge')?.textContent === 'raw');
  assert.deepEqual(problems(), []);
});

test('a refused .ksy says its line and key; a missing import is named, then found once added', async () => {
  await open();
  const bin = fs.readFileSync(path.join(SELF, 'imp_main.bin'));
  await openFile(page, 'imp_main.bin', bin);
  await page.waitForSelector('#tree[data-decoded=true]');
  await pickFormats([['bad.ksy', 'meta:\n  id: bad\nseq:\n  - id: a\n    type: u9\n']]);
  const failed = page.locator('#notice-failed');
  await failed.waitFor();
  assert.match(await failed.textContent(), /bad\.ksy: line 5, column \d+: \/seq\/0\/type: unknown type 'u9'/);
  await shot('ksy-02-refused');
  // A format whose imports are not kept yet: the error names them.
  await pickFormats([['imp_main.ksy', fs.readFileSync(path.join(SELF, 'imp_main.ksy'), 'utf8')]]);
  await page.waitForFunction(() => /imp_rel/.test(document.querySelector('#notice-failed')?.textContent ?? ''));
  // Adding them (with what they import in turn) decodes the file.
  await pickFormats([
    ['imp_rel.ksy', fs.readFileSync(path.join(SELF, 'imp_rel.ksy'), 'utf8')],
    ['imp_abs.ksy', fs.readFileSync(path.join(SELF, 'lib/common/imp_abs.ksy'), 'utf8')],
    ['imp_leaf.ksy', fs.readFileSync(path.join(SELF, 'lib/common/imp_leaf.ksy'), 'utf8')],
    ['imp_main.ksy', fs.readFileSync(path.join(SELF, 'imp_main.ksy'), 'utf8')],
  ]);
  await waitForFormat('imp_main.bin', 'ksy:imp_main');
  const want = dump(path.join(SELF, 'imp_main.bin'), path.join(SELF, 'imp_main.ksy'), '--ksy-path', path.join(SELF, 'lib'));
  const top = await page.$$eval('#tree .trow', (rs) => rs.map((r) => r.dataset.path).filter((p) => p && !p.includes('/')));
  assert.deepEqual(top, want.tree.children.map((c) => c.name));
});

test('kept formats stay after a reload and are offered for files with their extension', async () => {
  await open();
  const png = fs.readFileSync(PNG);
  await openFile(page, 'again.png', png);
  await page.waitForSelector('#tree[data-decoded=true]');
  const offer = page.locator('#format-offer', { hasText: 'Decode as png' });
  await offer.waitFor();
  await offer.click();
  await waitForFormat('again.png', 'ksy:png');
  assert.deepEqual(problems(), []);
});

test('the format editor decodes again as one types, marks an error at its line, and applies the format to a part of the file', async () => {
  await open();
  const png = fs.readFileSync(PNG);
  // The PNG inside a file: ten bytes before it, seven after.
  const inside = Buffer.concat([Buffer.alloc(10, 0x11), png, Buffer.alloc(7, 0xee)]);
  const file = path.join(ART, 'ksy-inside.bin');
  fs.writeFileSync(file, inside);
  await openFile(page, 'inside.bin', inside);
  await page.waitForSelector('#tree[data-decoded=true]');
  const text = fs.readFileSync(PNG_KSY, 'utf8');
  await pickFormats([['png.ksy', text]]);
  await waitForFormat('inside.bin', 'ksy:png');
  await page.click('#format-edit');
  await page.waitForSelector('#ksy-editor:not([hidden])');
  assert.equal(await page.inputValue('#ksy-text'), text);
  // Applied to the PNG's bytes: the tree is the dump's with --at and --size.
  await page.fill('#ksy-at', '0xA');
  await page.fill('#ksy-size', String(png.length));
  await page.dispatchEvent('#ksy-size', 'change');
  await page.waitForSelector(`${row('png')}[data-start="10"]`);
  const want = dump(file, PNG_KSY, '--at', '10', '--size', String(png.length));
  const top = await page.$$eval('#tree .trow', (rs) =>
    rs.map((r) => [r.dataset.path, Number(r.dataset.start), Number(r.dataset.end)]).filter(([p]) => p && !p.includes('/')),
  );
  assert.deepEqual(top, want.tree.children.map((c) => [c.name, c.start, c.end]));
  assert.equal(top.find(([p]) => p === 'png')[2], 10 + png.length);
  // An error as one types: marked at its line, said under the text.
  const lines = text.split('\n');
  const bad = lines.findIndex((l) => l.includes('type: u4'));
  const broken = lines.map((l, i) => (i === bad ? l.replace('type: u4', 'type: u9') : l)).join('\n');
  await page.fill('#ksy-text', broken);
  await page.waitForSelector('#ksy-editor .ksy-ln.err');
  assert.equal(await page.textContent('#ksy-editor .ksy-ln.err'), String(bad + 1));
  assert.match(await page.textContent('#ksy-status'), new RegExp(`png\\.ksy: line ${bad + 1}, column \\d+: .*unknown type 'u9'`));
  await shot('ksy-03-editor-error');
  // Mended, and a field renamed: decoded again, the mark gone.
  await page.fill('#ksy-text', text.replace('- id: signature', '- id: magic'));
  await page.waitForSelector(row('png/magic'));
  assert.equal(await page.$('#ksy-editor .ksy-ln.err'), null);
  assert.match(await page.textContent('#ksy-status'), /Decoded with png\.ksy/);
  // The selected bytes: the format applied to them.
  await page.click('#ksy-editor button:text("Whole file")');
  await page.waitForFunction(() => !document.querySelector('#tree .trow[data-path="png"]') && document.querySelector('#tree[data-decoded=true]'));
  await page.click('#hex .hx .c[data-o="10"]');
  await page.click('#hex .hx .c[data-o="17"]', { modifiers: ['Shift'] });
  await page.click('#ksy-editor button:text("Selection")');
  await page.waitForSelector(`${row('png')}[data-start="10"][data-end="18"]`);
  assert.equal(await page.inputValue('#ksy-at'), '0xA');
  assert.equal(await page.inputValue('#ksy-size'), '0x8');
  await shot('ksy-04-editor');
  // Kept as edited.
  assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('hexlens.ksy'))['png.ksy']), text.replace('- id: signature', '- id: magic'));
  await page.fill('#ksy-text', text);
  await page.waitForSelector(row('png/signature'));
  assert.deepEqual(problems(), []);
  // The editor's script and style sheet are the page's own: no policy blocked them.
  assert.deepEqual(await watched.violations(), []);
});

test('a link names the format and where it applies: the same file opened again after a reload is decoded with it, at that place', async () => {
  await open();
  const png = fs.readFileSync(PNG);
  const inside = Buffer.concat([Buffer.alloc(10, 0x11), png, Buffer.alloc(7, 0xee)]);
  await openFile(page, 'inside.bin', inside);
  await page.waitForSelector('#tree[data-decoded=true]');
  await pickFormats([['png.ksy', fs.readFileSync(PNG_KSY, 'utf8')]]);
  await waitForFormat('inside.bin', 'ksy:png');
  await page.click('#format-edit');
  await page.fill('#ksy-at', '10');
  await page.fill('#ksy-size', String(png.length));
  await page.dispatchEvent('#ksy-size', 'change');
  await page.waitForSelector(`${row('png')}[data-start="10"][data-end="${10 + png.length}"]`);
  await expand('png');
  await page.locator(row('png/chunks')).click();
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('node') === 'png/chunks');
  const link = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  assert.equal(link.ksy, 'png.ksy');
  assert.match(link.ksyh, /^[0-9a-f]{16}$/);
  assert.equal(link.ksyat, 'A');
  assert.equal(link.ksysize, png.length.toString(16).toUpperCase());
  const url = page.url();
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForSelector('#empty-state');
  await openFile(page, 'inside.bin', inside);
  await waitForFormat('inside.bin', 'ksy:png');
  await page.waitForFunction(() => document.querySelector('#details-path')?.textContent === 'png/chunks');
  assert.equal(await page.getAttribute(row('png'), 'data-start'), '10');
  // A link whose format this browser keeps with another text: said, and
  // the file is shown as hexlens decodes it.
  await page.evaluate(() => localStorage.setItem('hexlens.ksy.offers', localStorage.getItem('hexlens.ksy.offers').replace(/^(png\.ksy \S+ )\S+/m, '$10000000000000000')));
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForSelector('#empty-state');
  await openFile(page, 'inside.bin', inside);
  await page.waitForFunction(() => /does not keep with that text/.test(document.getElementById('copy-status')?.textContent ?? ''));
  assert.equal(await page.textContent('#file-info .badge'), 'raw');
  assert.deepEqual(problems(), []);
});

test('the bytes a process made show in a hex view of their own, linked to the nodes read from them', async () => {
  await open();
  // A format whose body is zlib-compressed records, and a file made for it.
  const ksy = [
    'meta: {id: packed, endian: le}',
    'seq:',
    '  - {id: magic, contents: "PK1"}',
    '  - {id: len, type: u4}',
    '  - {id: body, size: len, process: zlib, type: records}',
    '  - {id: tail, type: u2}',
    'types:',
    '  records:',
    '    seq:',
    '      - {id: count, type: u2}',
    '      - {id: items, type: item, repeat: expr, repeat-expr: count}',
    '  item:',
    '    seq:',
    '      - {id: tag, type: u1}',
    '      - {id: text, type: strz, encoding: ASCII}',
    '',
  ].join('\n');
  const made = Buffer.concat([
    Buffer.from([3, 0]),
    ...['alpha', 'beta', 'gamma gamma gamma gamma'].map((t, i) => Buffer.concat([Buffer.from([0x41 + i]), Buffer.from(`${t}\0`)])),
  ]);
  const { deflateSync } = await import('node:zlib');
  const packed = deflateSync(made);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(packed.length);
  const file = Buffer.concat([Buffer.from('PK1'), len, packed, Buffer.from([0x34, 0x12])]);
  const fileAt = path.join(ART, 'ksy-packed.bin');
  const ksyAt = path.join(ART, 'packed.ksy');
  fs.writeFileSync(fileAt, file);
  fs.writeFileSync(ksyAt, ksy);
  const want = dump(fileAt, ksyAt);
  const body = want.tree.children.find((c) => c.name === 'body');
  assert.deepEqual([body.start, body.end], [7, 7 + packed.length]);
  const text1 = body.children.find((c) => c.name === 'items').children[1].children.find((c) => c.name === 'text');
  assert.equal(text1.in, 'decoded');
  await openFile(page, 'packed.bin', file);
  await page.waitForSelector('#tree[data-decoded=true]');
  await pickFormats([['packed.ksy', ksy]]);
  await waitForFormat('packed.bin', 'ksy:packed');
  await expand('body');
  await expand('body/items');
  await expand('body/items/[1]');
  // A node in the made bytes covers its field's bytes in the file: hovering
  // it lights them, and a byte there is the field's own.
  await page.locator(row('body/items/[1]/text')).hover();
  await page.waitForSelector('#hex .c[data-h~=hl], #hex .hrow[data-hall] .c');
  assert.deepEqual(await highlighted(), range(body.start, body.end));
  await page.hover(`#hex .hx .c[data-o="${body.start + 2}"]`);
  await page.waitForSelector(`${row('body')}.hovered`);
  await page.locator(row('body/items/[1]/text')).click();
  await page.waitForSelector('#details-inner');
  assert.match(await page.textContent('#details-inner'), new RegExp(`0x${text1.start.toString(16).toUpperCase()}–0x${text1.end.toString(16).toUpperCase()}`));
  await page.click('#details-inner button');
  await page.waitForSelector('#ksy-inner .inner-b.mark');
  // The view shows the made bytes, the node's marked.
  const cells = await page.$$eval('#ksy-inner .inner-b', (cs) => cs.map((c) => [Number(c.dataset.b), c.textContent, c.classList.contains('mark')]));
  assert.equal(cells.length, made.length);
  for (const [b, t, marked] of cells) {
    assert.equal(t, made[b].toString(16).toUpperCase().padStart(2, '0'), `byte ${b}`);
    assert.equal(marked, b >= text1.start && b < text1.end, `byte ${b} marked`);
  }
  assert.match(await page.textContent('#inner-status'), new RegExp(`^${made.length} bytes its process made from the file's 0x7–0x${(7 + packed.length).toString(16).toUpperCase()}`));
  // Hovering a byte names its owner; a click selects it in the tree, and the
  // view follows.
  const tag2 = body.children.find((c) => c.name === 'items').children[2].children.find((c) => c.name === 'tag');
  await page.hover(`#ksy-inner .inner-b[data-b="${tag2.start}"]`);
  await page.waitForFunction(() => /items\/\[2\]\/tag$/.test(document.querySelector('#ksy-inner .ksy-place')?.textContent ?? ''));
  await page.click(`#ksy-inner .inner-b[data-b="${tag2.start}"]`);
  await page.waitForFunction(() => document.querySelector('#details-path')?.textContent === 'body/items/[2]/tag');
  await page.waitForFunction((b) => {
    const m = [...document.querySelectorAll('#ksy-inner .inner-b.mark')].map((c) => Number(c.dataset.b));
    return m.length === 1 && m[0] === b;
  }, tag2.start);
  await shot('ksy-06-decoded-bytes');
  // The field itself shows all of them.
  await page.locator(row('body')).click();
  await page.waitForFunction((n) => document.querySelectorAll('#ksy-inner .inner-b.mark').length === n, made.length);
  assert.deepEqual(problems(), []);
});

test('a long list of unsized entries shows what was read at once, is read ahead with progress and Stop, and shows the rest when opened', async () => {
  await open();
  // 48 MiB of records of 0 to 250 bytes: where each starts is known only by
  // reading the ones before it.
  const ksy = [
    'meta: {id: recs, endian: le}',
    'seq:',
    '  - {id: magic, contents: [0x52]}',
    '  - {id: records, type: record, repeat: eos}',
    'types:',
    '  record:',
    '    seq:',
    '      - {id: len, type: u1}',
    '      - {id: body, size: len}',
    '',
  ].join('\n');
  const size = 48 << 20;
  const data = Buffer.alloc(size + 256);
  data[0] = 0x52;
  let at = 1;
  let n = 0;
  while (at < size) {
    const len = (n * 37) % 251;
    data[at] = len;
    data.fill(n & 0xff, at + 1, at + 1 + len);
    at += 1 + len;
    n += 1;
  }
  const file = data.subarray(0, at);
  await openFile(page, 'records.bin', file);
  await page.waitForSelector('#tree[data-decoded=true]');
  await pickFormats([['recs.ksy', ksy]]);
  await waitForFormat('records.bin', 'ksy:recs');
  await expand('records');
  // What was read first shows: pages, then the rest of the list (the
  // tree's last row).
  const rest = page.locator('#tree .trow', { has: page.locator('.tname', { hasText: /^\[\d+…\]$/ }) });
  await page.locator('#tree .trow', { hasText: '[0…999]' }).waitFor();
  await page.locator('#tree').evaluate((e) => (e.scrollTop = e.scrollHeight));
  await rest.waitFor();
  const first = Number((await rest.locator('.tname').textContent()).match(/\d+/)[0]);
  assert.ok(first > 0 && first % 1000 === 0 && first < n / 2, `the rest starts at ${first} of ${n}`);
  // The worker reads it ahead, saying how far; Stop stops it, Read on goes on.
  const bar = page.locator('#ksy-reading');
  await page.waitForFunction(() => /Reading the list ahead: \d+%/.test(document.querySelector('#ksy-reading')?.textContent ?? ''));
  await bar.locator('button', { hasText: 'Stop' }).click();
  await page.waitForFunction(() => /stopped at \d+%/.test(document.querySelector('#ksy-reading')?.textContent ?? ''));
  const stopped = await bar.textContent();
  await page.waitForTimeout(600);
  assert.equal(await bar.textContent(), stopped, 'reading went on after Stop');
  // The rest's row says how far it has been read.
  const pct = stopped.match(/stopped at (\d+)%/)[1];
  await page.waitForFunction((p) => (document.querySelector('#tree .trow:last-child .tval')?.textContent ?? '').includes(`read ahead (${p}% of these bytes)`), pct);
  await shot('ksy-07-reading-stopped');
  await bar.locator('button', { hasText: 'Read on' }).click();
  await page.waitForFunction(() => /read to its end: [\d,]+ more entries/.test(document.querySelector('#ksy-reading')?.textContent ?? ''), null, { timeout: 60000 });
  const more = Number((await bar.textContent()).match(/([\d,]+) more entries/)[1].replaceAll(',', ''));
  assert.equal(more, n - first);
  await page.waitForFunction(() => /entries read ahead to the end/.test([...document.querySelectorAll('#tree .trow .tval')].map((e) => e.textContent).join('\n')));
  // Opened, the rest shows its pages, and the list its count.
  await rest.locator('.twisty').click();
  const last = `[${Math.floor((n - 1) / 1000) * 1000}…${n - 1}]`;
  await page.locator('#tree .trow', { hasText: `[${first}…${first + 999}]` }).waitFor();
  await page.locator('#tree').evaluate((e) => (e.scrollTop = e.scrollHeight));
  await page.locator('#tree .trow .tname', { hasText: last }).first().waitFor();
  await page.locator('#tree').evaluate((e) => (e.scrollTop = 0));
  await page.waitForFunction((c) => (document.querySelector('#tree .trow[data-path="records"] .tval')?.textContent ?? '').includes(c), String(n));
  await shot('ksy-08-rest-opened');
  assert.deepEqual(problems(), []);
});

test('a structure search and an export of a file decoded with a .ksy run on its tree, as the CLI does with --ksy', async () => {
  await open();
  const png = fs.readFileSync(PNG);
  await openFile(page, 'logo.png', png);
  await page.waitForSelector('#tree[data-decoded=true]');
  await pickFormats([['png.ksy', fs.readFileSync(PNG_KSY, 'utf8')]]);
  await waitForFormat('logo.png', 'ksy:png');
  // The search: the CLI's `find --ksy` matches, each selecting its node.
  const q = 'chunks/*/kind';
  const r = spawnSync(CLI, ['find', PNG, q, '--ksy', PNG_KSY, '--json'], { encoding: 'utf8' });
  const want = JSON.parse(r.stdout).map((h) => h.path);
  assert.ok(want.length > 1);
  await page.keyboard.press('Control+f');
  await page.locator('#search-input').waitFor();
  await page.selectOption('#search-mode', 'structure');
  await page.fill('#search-input', q);
  await page.press('#search-input', 'Enter');
  await page.waitForFunction((n) => document.querySelector('#search-status')?.textContent === `1 of ${n}`, want.length);
  for (let i = 0; i < want.length; i++) {
    if (i > 0) await page.keyboard.press('F3');
    await page.waitForFunction((p) => document.querySelector('#details-path')?.textContent === p, want[i]);
  }
  await page.keyboard.press('Escape');
  // The export: the CLI's `dump --ksy --json`, byte for byte.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.selectOption('#copy-as', 'file:json')]);
  const got = fs.readFileSync(await dl.path());
  const cli = spawnSync(CLI, ['dump', PNG, '--ksy', PNG_KSY, '--json'], { maxBuffer: 1 << 30 }).stdout;
  assert.ok(got.equals(cli), 'the exported JSON is the CLI dump --ksy --json');
  assert.deepEqual(problems(), []);
});
