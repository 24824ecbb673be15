// The listing pane (static/listing.js and its worker module) in headless
// Chromium: its text is `hexlens dis`'s, hovering a line marks its bytes,
// selecting bytes marks their line, a click on a name goes to its definition.
//
//   HEXLENS_CLI        the hexlens binary (the text is compared with its `dis --json`)
//   HEXLENS_DIST, HEXLENS_ARTIFACTS, CHROMIUM: as harness.mjs says

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ART, DIST, SAMPLES, launch, serve, waitForFile, selectOffset } from './harness.mjs';

const CLI = process.env.HEXLENS_CLI;
let server;
let base;
let browser;
let context;
let page;
const problems = [];
const requests = [];

/** `hexlens dis FILE --json ARGS…`: its records. */
function dis(file, ...args) {
  assert.ok(CLI && fs.existsSync(CLI), `HEXLENS_CLI (${CLI}) must name the hexlens binary`);
  const r = spawnSync(CLI, ['dis', file, '--json', ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

before(async () => {
  assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `no build in ${DIST}: run scripts/test-browser.sh`);
  fs.mkdirSync(ART, { recursive: true });
  ({ server, base } = await serve());
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light', serviceWorkers: 'block' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  context.on('request', (r) => requests.push(r.url()));
  page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Opens bundled sample `name` and the listing pane; waits for its first lines. */
async function openListing(name) {
  await page.goto(`${base}?sample=${encodeURIComponent(name)}`);
  await waitForFile(page, name);
  if (!(await page.locator('#listing-pane:not([hidden])').count())) await page.click('#listing-button');
  await page.waitForSelector('#listing-pane .listing-line:not(.pending):not([hidden])');
}

/** The pane's whole text, through its Copy button. */
async function paneText() {
  await page.click('#listing-pane button:has-text("Copy")');
  await page.waitForFunction(() => document.querySelector('#listing-pane .listing-status')?.textContent === 'Copied the listing.');
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Opens the DXIL sample's listing: `hexlens dis`'s lines of the program the pane shows. */
async function dxilLines() {
  const name = 'basic_code_dxil.dxil.dxbc';
  await openListing(name);
  const program = await shownProgram();
  return dis(path.join(SAMPLES, name)).filter((l) => l.program === program);
}

/** The program the pane shows (its path). */
async function shownProgram() {
  return page.$eval('#listing-pane .listing-program', (s) => s.selectedOptions[0]?.textContent.split(' ')[0]);
}

test('the pane shows hexlens dis for a DXIL program and an SM4/5 one, a piece at a time', async () => {
  for (const name of ['basic_code_dxil.dxil.dxbc', 'd3d12_shaders_L2434_ps_dmax_code.dxbc']) {
    const file = path.join(SAMPLES, name);
    const all = dis(file);
    await openListing(name);
    const program = await shownProgram();
    const want = all.filter((l) => l.program === program);
    assert.ok(want.length > 20, `${name}: ${program}`);
    // Only the lines in view are in the DOM.
    const rows = await page.locator('#listing-pane .listing-line:not([hidden])').count();
    assert.ok(rows < 60, `${rows} rows`);
    const first = await page.$$eval('#listing-pane .listing-line:not([hidden])', (els) => els.slice(0, 5).map((e) => e.textContent));
    assert.deepEqual(first, want.slice(0, 5).map((l) => l.text), name);
    assert.equal(await paneText(), want.map((l) => l.text).join('\n') + '\n', name);
  }
  await page.screenshot({ path: path.join(ART, 'listing-pane.png') });
  assert.deepEqual(problems, []);
  // Nothing but the site's own files.
  assert.ok(requests.every((u) => u.startsWith(base) || u.startsWith('blob:')), requests.join('\n'));
});

test('hovering a line marks exactly its bytes in the hex pane; a click goes there', async () => {
  const lines = await dxilLines();
  // An instruction line made from one short record.
  const target = lines.find((l) => /^ {2}%\d+ = /.test(l.text) && l.spans.length === 1 && l.spans[0][1] - l.spans[0][0] <= 8);
  assert.ok(target, 'an instruction line');
  const rowOf = (t) => page.locator('#listing-pane .listing-line:not([hidden])', { hasText: t.text }).first();
  await page.fill('#listing-pane .listing-search', target.text.trim());
  await page.press('#listing-pane .listing-search', 'Enter');
  await page.waitForSelector('#listing-pane .listing-line.marked');
  assert.equal(await page.textContent('#listing-pane .listing-line.marked'), target.text);
  // A click takes the cursor to the line's first byte.
  await rowOf(target).click({ position: { x: 4, y: 9 } });
  const [s, e] = target.spans[0];
  await page.waitForFunction((o) => document.querySelector(`#hex .hx .c[data-o="${o}"]`), s);
  await rowOf(target).hover({ position: { x: 4, y: 9 } });
  await page.waitForFunction(() => document.querySelector('#hex .hx .c[data-h~=hl]'));
  const marked = await page.$$eval('#hex .hx .c[data-h~=hl], #hex .hrow[data-hall] .hx .c', (els) => els.map((x) => Number(x.dataset.o)));
  const want = [];
  for (let o = s; o < e; o++) want.push(o);
  assert.deepEqual(marked.sort((a, b) => a - b), want);
  await page.mouse.move(5, 5);
  await page.waitForFunction(() => !document.querySelector('#hex .hx .c[data-h~=hl]'));
});

test('selecting bytes marks the line made from them; a name goes to its definition', async () => {
  const lines = await dxilLines();
  // A use of a numbered value on a later line.
  const def = lines.find((l) => /^ {2}%\d+ = /.test(l.text) && lines.some((u) => u !== l && u.text.includes(`${l.text.trim().split(' ')[0]},`)));
  assert.ok(def, 'a value used later');
  const v = def.text.trim().split(' ')[0];
  const use = lines.find((u) => u !== def && u.text.includes(`${v},`) && u.spans.some(([a, b]) => b - a >= 3));
  // Select a byte inside the use's record (its first and last may be shared
  // with the records beside it) in the hex pane: its line is marked.
  const [s] = use.spans.find(([a, b]) => b - a >= 3);
  await selectOffset(page, s + 1);
  await page.waitForFunction((t) => document.querySelector('#listing-pane .listing-line.marked')?.textContent === t, use.text);
  // Click the name: the pane goes to the line that defines it.
  const box = await page.evaluate(({ t, v }) => {
    const row = [...document.querySelectorAll('#listing-pane .listing-line')].find((r) => !r.hidden && r.textContent === t);
    const node = row.firstChild;
    const at = t.indexOf(`${v},`);
    const r = document.createRange();
    r.setStart(node, at + 1);
    r.setEnd(node, at + 2);
    const b = r.getBoundingClientRect();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }, { t: use.text, v });
  await page.mouse.click(box.x, box.y);
  await page.waitForFunction((t) => document.querySelector('#listing-pane .listing-line.marked')?.textContent === t, def.text);
  // Back returns to the use.
  await page.click('#listing-pane button:has-text("Back")');
  await page.waitForFunction((t) => document.querySelector('#listing-pane .listing-line.marked')?.textContent === t, use.text);
  await page.screenshot({ path: path.join(ART, 'listing-definition.png') });
  assert.deepEqual(problems, []);
});

test('a click on a metadata node, an attribute group or a function goes to the line that defines it', async () => {
  const lines = await dxilLines();
  const texts = lines.map((l) => l.text);
  const unique = (t) => texts.indexOf(t) === texts.lastIndexOf(t);
  const escape = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const defOf = {
    '!': (w) => texts.find((t) => t.startsWith(`${w} = `)),
    '#': (w) => texts.find((t) => t.startsWith(`attributes ${w} = `)),
    '@': (w) => texts.find((t) => /^(define|declare) /.test(t) && t.includes(`${w}(`)),
  };
  let checked = 0;
  for (const sigil of ['!', '#', '@']) {
    // A line that uses a name of this kind defined on another line.
    let pick = null;
    for (const t of texts) {
      if (!unique(t) || !t.trim()) continue;
      for (const m of t.matchAll(new RegExp(`${escape(sigil)}[\\w.$-]+`, 'g'))) {
        const def = defOf[sigil](m[0]);
        if (m.index > 0 && def && def !== t) {
          pick = { use: t, word: m[0], def, at: m.index };
          break;
        }
      }
      if (pick) break;
    }
    assert.ok(pick, `a use of a ${sigil} name`);
    await page.fill('#listing-pane .listing-search', pick.use.trim());
    await page.press('#listing-pane .listing-search', 'Enter');
    await page.waitForFunction((t) => document.querySelector('#listing-pane .listing-line.marked')?.textContent === t, pick.use);
    const box = await page.evaluate(({ t, at }) => {
      const row = [...document.querySelectorAll('#listing-pane .listing-line')].find((r) => !r.hidden && r.textContent === t);
      const r = document.createRange();
      r.setStart(row.firstChild, at + 1);
      r.setEnd(row.firstChild, at + 2);
      const b = r.getBoundingClientRect();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    }, { t: pick.use, at: pick.at });
    await page.mouse.click(box.x, box.y);
    await page.waitForFunction((t) => document.querySelector('#listing-pane .listing-line.marked')?.textContent === t, pick.def);
    checked += 1;
  }
  assert.equal(checked, 3);
  assert.deepEqual(problems, []);
});

test('the page keeps a bounded text: pieces far from the view are dropped and made again', async () => {
  const lines = await dxilLines();
  await page.evaluate(() => {
    window.hexlensListingHold = 8;
  });
  // A find of the last line makes every piece on the way.
  const last = lines[lines.length - 1].text;
  await page.fill('#listing-pane .listing-search', last.trim());
  await page.press('#listing-pane .listing-search', 'Enter');
  await page.waitForFunction((t) => document.querySelector('#listing-pane .listing-line.marked')?.textContent === t, last);
  const held = await page.$eval('#listing-pane', (e) => Number(e.dataset.held));
  assert.ok(held > 0 && held < lines.length / 2, `${held} of ${lines.length} lines kept`);
  // The pieces dropped are made again: the whole text, and the top.
  assert.equal(await paneText(), lines.map((l) => l.text).join('\n') + '\n');
  await page.$eval('#listing-pane .listing-scroll', (e) => {
    e.scrollTop = 0;
    e.dispatchEvent(new Event('scroll'));
  });
  await page.waitForFunction((t) => document.querySelector('#listing-pane .listing-line:not([hidden]):not(.pending)')?.textContent === t, lines[0].text);
  await page.evaluate(() => {
    delete window.hexlensListingHold;
  });
  assert.deepEqual(problems, []);
});

test('another file opened while the pane is open shows its own programs', async () => {
  await openListing('basic_code_dxil.dxil.dxbc');
  const next = 'd3d12_shaders_L2434_ps_dmax_code.dxbc';
  const want = dis(path.join(SAMPLES, next));
  await page.selectOption('#sample-select', next);
  await waitForFile(page, next);
  await page.waitForFunction(
    (t) => document.querySelector('#listing-pane .listing-line:not(.pending):not([hidden])')?.textContent === t,
    want[0].text,
  );
  assert.equal(await shownProgram(), want[0].program);
  // Closed, the page forgets the pane's hooks; opened again, it reads the file afresh.
  await page.click('#listing-pane button:has-text("Close")');
  assert.equal(await page.evaluate(() => typeof window.hexlensListingSelected), 'undefined');
  await page.click('#listing-button');
  await page.waitForSelector('#listing-pane .listing-line:not(.pending):not([hidden])');
  assert.deepEqual(problems, []);
});

test('the address names the marked line, and opening it shows that line', async () => {
  const lines = await dxilLines();
  const target = lines.find((l) => l.text.startsWith('declare '));
  assert.ok(target, 'a declare line');
  await page.fill('#listing-pane .listing-search', target.text);
  await page.press('#listing-pane .listing-search', 'Enter');
  await page.waitForFunction((t) => document.querySelector('#listing-pane .listing-line.marked')?.textContent === t, target.text);
  const url = new URL(page.url());
  assert.match(url.searchParams.get('listing'), /^\d+:\d+\.\d+$/);
  // A fresh page at that address opens the pane on that line.
  await page.goto('about:blank');
  await page.goto(url.href);
  await page.waitForFunction((t) => document.querySelector('#listing-pane .listing-line.marked')?.textContent === t, target.text, { timeout: 60_000 });
  // The app puts back the selection its fragment names when its worker has
  // found the node, which may be after the pane is ready: that selection
  // leaves the address's line marked.
  const other = lines.find((l) => l !== target && l.text.startsWith('  %') && l.spans.some(([a, b]) => b - a >= 3));
  const [s, e] = other.spans.find(([a, b]) => b - a >= 3);
  await page.evaluate(([a, b]) => window.hexlensListingSelected(a * 8, b * 8), [s, e]);
  await page.waitForTimeout(1000);
  assert.equal(await page.textContent('#listing-pane .listing-line.marked'), target.text);
  // From the user's first key or click, the pane follows the selection again.
  await selectOffset(page, s + 1);
  await page.waitForFunction((t) => document.querySelector('#listing-pane .listing-line.marked')?.textContent === t, other.text);
  // Closed, the address names no line.
  await page.click('#listing-pane button:has-text("Close")');
  assert.equal(new URL(page.url()).searchParams.get('listing'), null);
  assert.deepEqual(problems, []);
});
