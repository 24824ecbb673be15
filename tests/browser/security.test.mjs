// Security tests of the built web app in headless Chromium: the page's
// Content-Security-Policy (no inline script, nothing remote), file content shown
// only as text, no network request beyond the page's own files, and huge strings
// shown clipped instead of freezing the page.
//
// Same stack as e2e.test.mjs (node --test + playwright-core on /usr/bin/chromium,
// the release build served from 127.0.0.1 under /hexlens/); shared set-up lives in
// harness.mjs. The files opened are generated here, byte by byte.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dxbc, isgn } from './fixtures.mjs';
import {
  ART,
  DIST,
  PREFIX,
  ROOT,
  SAMPLES,
  launch,
  manifest,
  openFile,
  selectOffset,
  serve,
  waitForFile,
  watch,
} from './harness.mjs';

/** The policy www/index.html must carry, directive by directive. */
const POLICY = {
  'default-src': ["'none'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'worker-src': ["'self'"],
  'connect-src': ["'self'"],
  'style-src': ["'self'"],
  // Yew writes style="" attributes (indentation, pane widths, scroll offsets);
  // Chromium drops them under style-src 'self' alone. Attributes only: <style>
  // elements stay forbidden by style-src.
  'style-src-attr': ["'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  // The web app manifest (installing the site); the service worker is a worker-src.
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'none'"],
};

function parsePolicy(text) {
  const out = {};
  for (const part of text.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name] = values;
  }
  return out;
}

// ---- generated files ---------------------------------------------------------

/** A STR0 part: a u32 size (counting itself), then NUL-terminated strings. */
function str0(strings) {
  const enc = strings.map((s) => new TextEncoder().encode(s));
  const size = 4 + enc.reduce((n, e) => n + e.length + 1, 0);
  const out = new Uint8Array((size + 3) & ~3);
  new DataView(out.buffer).setUint32(0, size, true);
  const offsets = [];
  let at = 4;
  for (const e of enc) {
    offsets.push(at);
    out.set(e, at);
    at += e.length + 1;
  }
  return { data: out, offsets };
}

/**
 * A SYM0 part: 20-byte COFF symbols. A name is either a STR0 offset (a number:
 * four zero bytes, then the offset) or at most 8 bytes inline.
 */
function sym0(names) {
  const out = new Uint8Array(20 * names.length);
  const dv = new DataView(out.buffer);
  names.forEach((name, i) => {
    const at = 20 * i;
    if (typeof name === 'number') dv.setUint32(at + 4, name, true);
    else out.set(name.subarray(0, 8), at);
    dv.setUint32(at + 8, 0, true); // Value
    dv.setUint32(at + 12, 0, true); // SectionIndex: part [0]
    out[at + 17] = 2; // ComplexType: function
    out[at + 18] = 2; // StorageClass: external
  });
  return out;
}

/** Strings that run script, load something or mislead if a viewer mishandles them. */
const PAYLOADS = [
  '<img src=x onerror="window.__pwned=1;alert(1)">',
  '<script>window.__pwned=2;alert(2)</script>',
  'javascript:window.__pwned=3;alert(3)',
  '"><svg onload="window.__pwned=4;alert(4)">',
  "'><iframe src=\"javascript:alert(5)\"></iframe><a href=\"https://example.com/\">link</a>",
  '<style>body{display:none}</style><link rel=stylesheet href=https://example.com/x.css>',
  'abc\u202Efed\u200B\u200D (right-to-left override, zero-width space and joiner)',
];
/** How the page must show each payload: literally, invisible characters as escapes. */
const SHOWN = PAYLOADS.map((p) =>
  p.replace(/[\u202E\u200B\u200D]/g, (c) => `\\u{${c.codePointAt(0).toString(16)}}`),
);
/** An inline 8-byte symbol name holding a NUL, markup and a zero-width space. */
const SHORT_NAME = new Uint8Array([0x4e, 0x00, ...new TextEncoder().encode('<i>\u200B')]);
const SHORT_SHOWN = 'N\\u{0}<i>\\u{200b}';
const FILE_NAME = '"><img src=x onerror=alert(7)>.dxbc';

/** DXBC: [0] ISGN whose element is named by a payload, [1] STR0 of payloads, [2] SYM0 naming them. */
function payloadContainer() {
  const table = str0(PAYLOADS);
  const parts = [
    ['ISGN', isgn(PAYLOADS[0])],
    ['STR0', table.data],
    ['SYM0', sym0([...table.offsets, SHORT_NAME])],
  ];
  const bytes = dxbc(parts);
  // Where STR0's strings and SYM0's symbols start in the file.
  const dv = new DataView(bytes.buffer);
  const partData = (i) => dv.getUint32(32 + 4 * i, true) + 8;
  return {
    bytes,
    // The ISGN element's name (fixtures.isgn puts it 32 bytes into the part).
    isgnName: partData(0) + 32,
    strings: table.offsets.map((o) => partData(1) + o),
    symbols: [...table.offsets, 0].map((_, i) => partData(2) + 20 * i),
  };
}

const MB = 1 << 20;

/** DXBC with one STR0 part holding a single 1 MiB string of 'A's. */
function megabyteString() {
  const bytes = dxbc([['STR0', str0(['A'.repeat(MB)]).data]]);
  const dv = new DataView(bytes.buffer);
  return { bytes, at: dv.getUint32(32, true) + 8 + 4 };
}

// ---- set-up -------------------------------------------------------------------

let browser;
let site;

before(async () => {
  assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `no build in ${DIST}: run scripts/test-browser.sh`);
  fs.mkdirSync(ART, { recursive: true });
  site = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  site?.server.close();
});

async function newPage() {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const w = await watch(context, page);
  return { context, page, w };
}

/** Errors the console reported, CSP violations first among them. */
async function assertClean(page, w, what) {
  assert.deepEqual(await w.violations(), [], `${what}: CSP violations`);
  assert.deepEqual(w.consoleErrors, [], `${what}: console errors`);
  assert.deepEqual(w.problems, [], `${what}: errors`);
  assert.deepEqual(w.dialogs, [], `${what}: dialogs`);
}

// ---- a. the policy -------------------------------------------------------------

test('the built page has no inline script, carries the policy, and its integrity hashes hold', () => {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)];
  assert.ok(scripts.length >= 1, 'the page loads its app through a script file');
  for (const [whole, attrs, body] of scripts) {
    assert.match(attrs, /\ssrc="[^"]+"/, `a script without src: ${whole.slice(0, 80)}`);
    assert.equal(body.trim(), '', `a script with inline code: ${whole.slice(0, 80)}`);
  }
  assert.doesNotMatch(html, /<[^>]*\son[a-z]+\s*=/i, 'no inline event handler attribute');
  assert.doesNotMatch(html, /javascript:/i);

  const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/gi)];
  assert.equal(metas.length, 1, 'one CSP meta tag');
  assert.deepEqual(parsePolicy(metas[0][1]), POLICY);
  // The policy must come before anything it governs.
  assert.ok(metas[0].index < html.search(/<(script|link|base)\b/i), 'the CSP meta tag comes first');

  // Every integrity attribute matches the file it names, the moved loader included.
  const tags = [...html.matchAll(/<(?:script|link)\b[^>]*>/gi)].map(([t]) => t);
  const withSri = tags.filter((t) => /\sintegrity="/.test(t));
  assert.ok(withSri.length >= 3, `loader, stylesheet and service-worker registration carry integrity (${withSri.length})`);
  for (const t of withSri) {
    const url = t.match(/\s(?:href|src)="([^"]+)"/)[1];
    const [algo, want] = t.match(/\sintegrity="([^"]+)"/)[1].split(/-(.*)/s);
    const got = crypto.createHash(algo).update(fs.readFileSync(path.join(DIST, url))).digest('base64');
    assert.equal(got, want, `integrity of ${url}`);
  }
  // A first visit fetches no wasm: trunk's preloads of the app's module are gone,
  // and the loader imports the module and starts the wasm only when the first
  // page (static/shell.js) calls hexlensStart().
  assert.ok(!tags.some((t) => /rel="(module)?preload"/.test(t)), 'no preload tag');
  const loader = tags.find((t) => /^<script\b/.test(t)).match(/\ssrc="([^"]+)"/)[1];
  const code = fs.readFileSync(path.join(DIST, loader), 'utf8');
  const js = fs.readdirSync(DIST).find((f) => /^hexlens-web-.*\.js$/.test(f));
  const wasm = fs.readdirSync(DIST).find((f) => /^hexlens-web-.*_bg\.wasm$/.test(f));
  assert.ok(code.includes(`import('./${js}')`), `${loader} imports ${js} when started`);
  assert.ok(code.includes(`'./${wasm}'`), `${loader} loads ${wasm}`);
  assert.match(code, /window\.hexlensStart = /);
  assert.doesNotMatch(code, /^import /m, 'the loader imports nothing up front');
  assert.ok(html.includes('<script type="module" src="./static/shell.js"></script>'), 'the first page loads its script');
});

test('no CSP violation or error while loading the page and opening every sample and a payload file', async () => {
  const { context, page, w } = await newPage();
  try {
    await page.goto(site.base);
    await page.locator('#tree, #empty-state').first().waitFor();
    for (const s of manifest.samples) {
      await page.goto(`${site.base}?sample=${encodeURIComponent(s.file)}`);
      await waitForFile(page, s.file);
      // Style attributes must apply: rows are indented by depth.
      const indent = await page
        .locator('#tree [role=treeitem][aria-level="2"]')
        .first()
        .evaluate((e) => parseFloat(getComputedStyle(e).paddingLeft));
      assert.ok(indent > 4, `${s.file}: rows are indented (${indent}px), style attributes apply`);
      await assertClean(page, w, s.file);
    }
    const p = payloadContainer();
    await openFile(page, FILE_NAME, p.bytes);
    for (const at of [...p.strings, ...p.symbols]) await selectOffset(page, at);
    await page.waitForTimeout(200);
    await assertClean(page, w, 'payload file');
  } finally {
    await context.close();
  }
});

// ---- b. file content is text ---------------------------------------------------

test('strings holding HTML and script are shown as literal text, and nothing runs or loads', async () => {
  const { context, page, w } = await newPage();
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  try {
    await page.goto(site.base);
    const p = payloadContainer();
    await openFile(page, FILE_NAME, p.bytes);
    const details = page.locator('#details');
    // Each STR0 entry: its tree row and the details pane show the payload as text.
    for (const [i, at] of p.strings.entries()) {
      const row = await selectOffset(page, at);
      await assert.doesNotReject(row.waitFor({ state: 'visible' }));
      const text = await row.textContent();
      assert.ok(text.includes(`"${SHOWN[i]}"`), `row ${i} shows the string as text: ${text}`);
      assert.ok((await details.textContent()).includes(`"${SHOWN[i]}"`), `details ${i}`);
    }
    // Each symbol: named by its STR0 string (long names) or inline, NUL included.
    // Going to the symbol opens it; its name's row is then selected by a click.
    for (const [i, at] of p.symbols.entries()) {
      await selectOffset(page, at);
      const want = `"${i < PAYLOADS.length ? SHOWN[i] : SHORT_SHOWN}"`;
      const named = page.locator('#tree [role=treeitem]').filter({ hasText: want });
      assert.ok((await named.count()) >= 1, `symbol ${i}: a row shows ${want}`);
      await named.first().click();
      await page.waitForFunction((t) => document.querySelector('#details').textContent.includes(t), want);
    }
    // The input signature's element name is a payload too.
    const isgnRow = await selectOffset(page, p.isgnName);
    assert.ok((await isgnRow.textContent()).includes(`"${SHOWN[0]}"`), 'ISGN element name');
    assert.ok((await details.textContent()).includes(`"${SHOWN[0]}"`), 'ISGN element name, details');
    assert.ok(
      (await page.locator('#file-info').textContent()).includes(FILE_NAME),
      'the file name is shown as text',
    );
    await page.waitForTimeout(300);

    // No element, attribute or script came from the file.
    const dom = await page.evaluate(() => ({
      img: document.querySelectorAll('img').length,
      iframe: document.querySelectorAll('iframe, object, embed').length,
      style: document.querySelectorAll('style').length,
      anchors: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')),
      links: [...document.querySelectorAll('link')].map((l) => l.getAttribute('href')),
      handlers: [...document.querySelectorAll('*')].flatMap((e) =>
        [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${e.tagName} ${a.name}`),
      ),
      scripts: [...document.querySelectorAll('script')].map((s) => s.getAttribute('src')),
      pwned: window.__pwned,
      rawOverride: document.body.textContent.includes('\u202E'),
    }));
    assert.equal(dom.img, 0, 'no <img>');
    assert.equal(dom.iframe, 0, 'no <iframe>, <object> or <embed>');
    assert.equal(dom.style, 0, 'no <style>');
    assert.ok(dom.anchors.every((h) => !/^(javascript|https?):/i.test(h)), `links: ${dom.anchors}`);
    assert.ok(dom.links.every((h) => h === null || !/example\.com/.test(h)), `link tags: ${dom.links}`);
    assert.deepEqual(dom.handlers, [], 'no inline event handler attribute');
    assert.ok(dom.scripts.every((s) => s && s.startsWith('./')), `only the page's own scripts: ${dom.scripts}`);
    assert.equal(dom.pwned, undefined, 'no payload ran');
    assert.equal(dom.rawOverride, false, 'U+202E is shown as an escape, never applied');
    assert.deepEqual(w.dialogs, [], 'no dialog');
    const foreign = requests.filter((u) => !u.startsWith(site.base) && !u.startsWith('data:'));
    assert.deepEqual(foreign, [], 'no request outside the site');
    assert.ok(!requests.some((u) => new URL(u, site.base).pathname === `${PREFIX}x`), 'no request for img src=x');
    await page.screenshot({ path: path.join(ART, 'security-payloads.png') });
    await assertClean(page, w, 'payload file');
  } finally {
    await context.close();
  }
});

// ---- c. the network log ----------------------------------------------------------

test("the network log shows only the page's own files, from loading through opening, hovering and expanding", async () => {
  const { context, page, w } = await newPage();
  const cdpLog = [];
  const workerLog = [];
  const workers = [];
  const seen = [];
  context.on('request', (r) => seen.push(r.url()));
  const cdp = await context.newCDPSession(page);
  cdp.on('Network.requestWillBeSent', (e) => cdpLog.push(e.request.url));
  // Workers are separate targets: attach to each as it starts, log its requests
  // too, then let it run. Playwright's own session may resume a worker before this
  // one has enabled its log, so Playwright's request events (which include the
  // workers' requests) are checked as well.
  cdp.on('Target.attachedToTarget', async ({ sessionId, targetInfo }) => {
    workers.push(targetInfo.url);
    const send = (id, method) =>
      cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) }).catch(() => {});
    await send(1, 'Network.enable');
    await send(2, 'Runtime.runIfWaitingForDebugger');
  });
  cdp.on('Target.receivedMessageFromTarget', ({ message }) => {
    const m = JSON.parse(message);
    if (m.method === 'Network.requestWillBeSent') workerLog.push(m.params.request.url);
  });
  await cdp.send('Network.enable');
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  try {
    await page.goto(site.base);
    const sample = manifest.samples[0].file;
    await openFile(page, sample, fs.readFileSync(path.join(SAMPLES, sample)));
    // Hover rows and bytes, expand every collapsed row on screen, select a few.
    const rows = page.locator('#tree [role=treeitem]');
    for (let i = 0; i < Math.min(await rows.count(), 12); i++) await rows.nth(i).hover();
    await page.locator('#hex .hx .c').nth(40).hover();
    const before = await rows.count();
    const collapsed = page.locator('#tree [role=treeitem][aria-expanded="false"]');
    for (let i = 0; i < 6 && (await collapsed.count()) > 0; i++) {
      await collapsed.nth(i).click();
      await page.keyboard.press('ArrowRight');
    }
    await page.waitForFunction((n) => document.querySelectorAll('#tree [role=treeitem]').length > n, before);
    await rows.last().hover();
    const p = payloadContainer();
    await openFile(page, FILE_NAME, p.bytes);
    await selectOffset(page, p.strings[0]);
    await page.waitForTimeout(500);

    const all = [...cdpLog, ...workerLog, ...seen];
    assert.ok(cdpLog.some((u) => u.endsWith('.wasm')), `the CDP log saw the wasm load: ${cdpLog}`);
    const own = new Set(fs.readdirSync(DIST, { recursive: true }).map((f) => f.split(path.sep).join('/')));
    const outside = all.filter((u) => {
      const url = new URL(u);
      if (url.protocol === 'data:') return !u.startsWith('data:image/svg+xml'); // the icon
      if (url.protocol === 'blob:') return !u.startsWith(`blob:${new URL(site.base).origin}/`);
      if (url.origin !== new URL(site.base).origin || !url.pathname.startsWith(PREFIX)) return true;
      const rel = decodeURIComponent(url.pathname.slice(PREFIX.length));
      return rel !== '' && !own.has(rel);
    });
    assert.deepEqual(outside, [], 'requests beyond the page\'s own files');
    for (const u of workers) assert.ok(u.startsWith(site.base), `worker ${u} is one of the site's files`);
    console.log(
      `# network: ${cdpLog.length} page requests (CDP), ${workerLog.length} logged in ${workers.length} worker(s), ${seen.length} seen by Playwright; all under ${PREFIX}`,
    );
    await assertClean(page, w, 'network test');
  } finally {
    await context.close();
  }
});

// ---- d. a 1 MiB string ---------------------------------------------------------

test('a 1 MiB string opens without freezing the page and is shown clipped with its length', async () => {
  const { context, page, w } = await newPage();
  try {
    await page.goto(site.base);
    await page.locator('input[type=file]').first().waitFor({ state: 'attached' });
    // A heartbeat: the longest time the page's main thread went without running it.
    await page.evaluate(() => {
      window.__gap = 0;
      let last = performance.now();
      window.__beat = setInterval(() => {
        const now = performance.now();
        window.__gap = Math.max(window.__gap, now - last);
        last = now;
      }, 20);
    });
    const { bytes, at } = megabyteString();
    const t0 = Date.now();
    await openFile(page, 'megabyte-string.dxbc', bytes);
    const row = await selectOffset(page, at);
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    const t1 = Date.now();
    await page.evaluate(() => 1);
    const roundTrip = Date.now() - t1;
    const gap = await page.evaluate(() => window.__gap);
    console.log(`# 1 MiB string: opened and selected in ${t1 - t0} ms, round trip ${roundTrip} ms, longest main-thread stall ${gap.toFixed(0)} ms`);
    assert.ok(roundTrip < 2_000, `the page answers (${roundTrip} ms)`);
    assert.ok(gap < 5_000, `the page never stalled for long (${gap} ms)`);

    // The entry's field is the string and its NUL terminator: 1,048,577 bytes.
    const text = await row.textContent();
    assert.ok(text.length < 1_000, `the row holds ${text.length} characters: ${text.slice(0, 300)}…`);
    assert.ok(
      /"A{256}…" \(1,048,577 bytes, first 256 shown\)/.test(text),
      `the row is clipped and says how long: ${text}`,
    );
    const details = await page.locator('#details').textContent();
    assert.ok(details.length < 20_000, `the details hold ${details.length} characters`);
    assert.ok(
      /"A{4096}…" \(1,048,577 bytes, first 4,096 shown\)/.test(details),
      `details are clipped and say how long: ${details.slice(0, 200)}…`,
    );
    assert.ok(!details.includes('A'.repeat(4097)), 'details show at most 4,096 bytes');
    // The page still works: hover another row, the details follow.
    await page.locator('#tree [role=treeitem]').first().click();
    await page.waitForFunction(() => !document.querySelector('#details').textContent.includes('AAAAAAAA'));
    await page.screenshot({ path: path.join(ART, 'security-megabyte-string.png') });
    await assertClean(page, w, '1 MiB string');
  } finally {
    await context.close();
  }
});

// ---- the documented headers ----------------------------------------------------

/** The headers docs/HOSTING.md tells static hosts to send: its Netlify `_headers` example. */
function documentedHeaders() {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/HOSTING.md'), 'utf8');
  const block = doc.match(/#### Netlify[^\n]*\n[\s\S]*?```\n\/\*\n([\s\S]*?)```/);
  assert.ok(block, 'docs/HOSTING.md has a _headers example');
  const headers = Object.fromEntries(
    [...block[1].matchAll(/^ {2}([A-Za-z-]+): (.+)$/gm)].map((m) => [m[1].toLowerCase(), m[2].trim()]),
  );
  return { doc, headers, policy: headers['content-security-policy'] };
}

test('the headers docs/HOSTING.md documents are the meta policy plus frame-ancestors, and the app runs under them', async () => {
  const { doc, headers, policy } = documentedHeaders();
  assert.ok(policy, 'the _headers example sets Content-Security-Policy');
  assert.deepEqual(parsePolicy(policy), { ...POLICY, 'frame-ancestors': ["'none'"] });
  // The nginx and Apache examples say the same policy.
  for (const host of ['#### nginx', '#### Apache']) {
    const section = doc.slice(doc.indexOf(host), doc.indexOf('####', doc.indexOf(host) + 4));
    assert.ok(section.includes(`"${policy}"`), `${host} sends the same policy`);
  }

  assert.equal(headers['x-content-type-options'], 'nosniff');
  const strict = await serve({ headers });
  const { context, page, w } = await newPage();
  try {
    // Under the header policy (which also governs the worker's script), every
    // format still opens and decodes.
    const formats = new Map(manifest.samples.map((s) => [s.format, s.file]));
    for (const file of formats.values()) {
      await page.goto(`${strict.base}?sample=${encodeURIComponent(file)}`);
      await waitForFile(page, file);
    }
    const p = payloadContainer();
    await openFile(page, FILE_NAME, p.bytes);
    await selectOffset(page, p.strings[1]);
    await assertClean(page, w, 'header policy');
    // frame-ancestors 'none': a page of no policy of its own cannot frame the app.
    const framer = await context.newPage();
    const said = [];
    framer.on('console', (m) => said.push(m.text()));
    await framer.setContent(`<iframe src="${strict.base}"></iframe>`);
    await framer.waitForTimeout(1500);
    const framed = framer.frames().find((f) => f !== framer.mainFrame());
    const inside = framed
      ? await framed.evaluate(() => document.querySelector('input[type=file]') !== null).catch(() => false)
      : false;
    assert.equal(inside, false, 'the app did not load inside a frame');
    assert.ok(said.some((t) => /frame-ancestors/.test(t)), `Chromium refused the frame: ${said}`);
  } finally {
    await context.close();
    strict.server.close();
  }
});
