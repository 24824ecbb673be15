// The site installs and works offline: its web app manifest, and its service worker
// (sw.js, written by scripts/offline.mjs) that keeps the build's files in a cache.
//
// Same stack as e2e.test.mjs (node --test + playwright-core on /usr/bin/chromium,
// the release build served from 127.0.0.1 under /hexlens/; harness.mjs). Going
// offline is both the browser's network emulation (context.setOffline) and the
// server shut down: nothing can come from the network.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ART, CHROMIUM_OPTIONS, DIST, ROOT, SAMPLES, launch, manifest, serve, watch } from './harness.mjs';

const SAMPLE = 'hs_mismatch_2_code_dxil.dxil.dxbc';
const PICKED = 'x86_64-linux.o';
const DROPPED = 'writer_le.dyno';

/** What the build's sw.js says of itself: `{ version, assets }`. */
function buildOf(dist) {
  const sw = fs.readFileSync(path.join(dist, 'sw.js'), 'utf8');
  const m = sw.match(/^const BUILD = (\{.*\});$/m);
  assert.ok(m, `${dist}/sw.js starts with the build's file list`);
  return JSON.parse(m[1]);
}

/** Stops `site`'s server at once, open connections included. */
function shutDown(site) {
  site.server.closeAllConnections();
  return new Promise((resolve) => site.server.close(resolve));
}

const row = (p) => `#tree .trow[data-path="${p}"]`;

/** Waits until `name` is open, decoded by the worker, with its first bytes shown. */
async function waitForFile(page, name) {
  await page.waitForFunction(
    (n) =>
      document.querySelector('#file-info .file-name')?.textContent === n &&
      document.querySelector('#tree[data-decoded=true]') &&
      document.querySelector('#hex .hrow:not(.pending)'),
    name,
    { timeout: 60_000 },
  );
}

/**
 * Waits until `fn` (run in the page, awaited) returns true; polls every 200 ms. A
 * page that reloads meanwhile (a new worker taking over reloads it) is asked again.
 */
async function until(page, fn, what, timeout = 60_000) {
  const end = Date.now() + timeout;
  const ask = () =>
    page.evaluate(fn).catch((e) => {
      if (/Execution context was destroyed|navigation/i.test(e.message)) return false;
      throw e;
    });
  while (!(await ask())) {
    assert.ok(Date.now() < end, `timed out waiting until ${what}`);
    await page.waitForTimeout(200);
  }
}

/** Whether build B's worker has installed and waits. */
const waiting = async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting);

/** Waits until a service worker controls the page and returns this scope's cache names. */
async function controlled(page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
  return page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith(`hexlens ${document.baseURI}`)));
}

/** The PNG's width and height, from its IHDR chunk. */
function pngSize(file) {
  const b = fs.readFileSync(file);
  assert.equal(b.subarray(1, 4).toString('ascii'), 'PNG', `${file} is a PNG`);
  assert.equal(b.subarray(12, 16).toString('ascii'), 'IHDR');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

let browser;

before(async () => {
  assert.ok(fs.existsSync(path.join(DIST, 'sw.js')), `no sw.js in ${DIST}: run scripts/test-browser.sh`);
  fs.mkdirSync(ART, { recursive: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

test('the page links a web app manifest with the app name, scope, colours and icons, and Chromium can install it', async () => {
  const site = await serve();
  // A profile on disk: Chromium offers no installing in an incognito-like context
  // (newContext's), and says so as an installability error.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hexlens-profile-'));
  const context = await chromium.launchPersistentContext(profile, CHROMIUM_OPTIONS);
  const page = context.pages()[0] ?? (await context.newPage());
  const w = await watch(context, page);
  try {
    await page.goto(site.base);
    await page.locator('#empty-state').waitFor();
    const href = await page.$eval('link[rel=manifest]', (l) => l.href);
    assert.equal(href, `${site.base}manifest.webmanifest`);
    const m = JSON.parse(fs.readFileSync(path.join(DIST, 'manifest.webmanifest'), 'utf8'));
    assert.equal(m.name, 'hexlens — structure-aware hex viewer');
    assert.equal(m.short_name, 'hexlens');
    assert.equal(m.start_url, './');
    assert.equal(m.scope, './');
    assert.equal(m.display, 'standalone');
    // The colours are the stylesheet's: its accent and its light background.
    const css = await page.evaluate(() => {
      const s = getComputedStyle(document.documentElement);
      return { accent: s.getPropertyValue('--accent').trim(), bg: s.getPropertyValue('--bg').trim() };
    });
    assert.equal(m.theme_color, css.accent);
    assert.equal(await page.$eval('meta[name=theme-color]', (e) => e.content), css.accent);
    assert.equal(m.background_color, css.bg);
    for (const size of [192, 512]) {
      const icon = m.icons.find((i) => i.sizes === `${size}x${size}`);
      assert.ok(icon && icon.type === 'image/png', `a ${size}px PNG icon: ${JSON.stringify(m.icons)}`);
      assert.deepEqual(pngSize(path.join(DIST, icon.src)), [size, size], `${icon.src} is ${size}×${size}`);
    }
    // Chromium's own reading of it (with the service worker running, as the site
    // is installed): parsed from the page's link, no errors, and nothing that
    // stops installing.
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const got = await cdp.send('Page.getAppManifest');
    assert.equal(got.url, href);
    assert.deepEqual(got.errors, [], 'the manifest parses');
    assert.deepEqual(JSON.parse(got.data), m, 'Chromium fetched the manifest of the build');
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], 'Chromium would offer to install the site');
    assert.deepEqual(await w.violations(), [], 'no CSP violation');
    assert.deepEqual(w.consoleErrors, []);
    assert.deepEqual(w.problems, []);
  } finally {
    await context.close();
    await shutDown(site);
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('after one visit the site works offline: a reload, a sample from the picker and a dropped file, all decoded, with no request to the network', async () => {
  const site = await serve();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const w = await watch(context, page);
  try {
    await page.goto(site.base);
    const names = await controlled(page);
    const { version, assets } = buildOf(DIST);
    assert.deepEqual(names, [`hexlens ${site.base} ${version}`], 'one cache, named after the build');
    const cached = await page.evaluate(async (n) => (await (await caches.open(n)).keys()).length, names[0]);
    assert.equal(cached, assets.length, 'every file of the build is cached');
    assert.ok(assets.some((a) => /^hexlens-worker-dyno_bg\.wasm$/.test(a)) && assets.includes(`static/samples/${PICKED}`));

    await context.setOffline(true);
    await shutDown(site);
    const failed = [];
    const answered = [];
    context.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText}`));
    context.on('response', (r) => answered.push([r.url(), r.fromServiceWorker()]));
    await page.reload();
    await page.locator('#empty-state').waitFor();
    await page.locator('#sample-list .sample').nth(manifest.samples.length - 1).waitFor();
    assert.equal(await page.locator('#sample-list .sample').count(), manifest.samples.length);

    // A sample from the empty page's list, then one from the toolbar's picker (a
    // format of another decoder module), then a dropped file (a third module).
    await page.click(`#sample-list .sample[data-file="${SAMPLE}"]`);
    await waitForFile(page, SAMPLE);
    assert.match(await page.locator(`${row('Parts/[0]')} .tval`).textContent(), /^SFI0: /);
    await page.selectOption('#sample-select', PICKED);
    await waitForFile(page, PICKED);
    assert.match(await page.locator(`${row('ObjectFile/Format')} .tval`).textContent(), /"Elf"/, 'the ELF object decodes');
    const bytes = fs.readFileSync(path.join(SAMPLES, DROPPED));
    await page.evaluate(
      ({ name, data }) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(data)], name));
        for (const type of ['dragenter', 'dragover', 'drop']) {
          document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
        }
      },
      { name: DROPPED, data: Array.from(bytes) },
    );
    await waitForFile(page, DROPPED);
    assert.equal(await page.locator(row('Modules')).count(), 1, 'the .dyno library decodes');
    await page.screenshot({ path: path.join(ART, 'offline-dropped.png') });
    // A link to a sample opens offline too (the page's address keeps its query).
    await page.goto(`${site.base}?sample=${SAMPLE}`);
    await waitForFile(page, SAMPLE);
    assert.match(await page.locator(`${row('Parts/[6]')} .tval`).textContent(), /^DXIL: /);

    assert.deepEqual(failed, [], 'no request failed');
    assert.ok(answered.length >= 8, `the page, its scripts, wasm and samples were answered: ${answered.length}`);
    const fromNetwork = answered.filter(([u, sw]) => !sw && !u.startsWith('data:') && !u.startsWith('blob:'));
    assert.deepEqual(fromNetwork, [], 'every answer came from the service worker');
    for (const m of ['llvm', 'cdac', 'dyno']) {
      assert.ok(answered.some(([u]) => u.endsWith(`hexlens-worker-${m}_bg.wasm`)), `the ${m} module came from the cache`);
    }
    assert.deepEqual(await w.violations(), [], 'no CSP violation');
    assert.deepEqual(w.consoleErrors, []);
    assert.deepEqual(w.problems, []);
  } finally {
    await context.close();
    if (site.server.listening) await shutDown(site);
  }
});

test('a new build replaces the old one: open windows keep their build, the next visit runs the new one and the old cache is deleted', async () => {
  // Build B: build A with a sample's title changed, and the hook run again over it
  // (new file list hash, new sw.js).
  const distB = fs.mkdtempSync(path.join(os.tmpdir(), 'hexlens-build-b-'));
  fs.cpSync(DIST, distB, { recursive: true });
  const list = path.join(distB, 'static/samples/manifest.json');
  const json = JSON.parse(fs.readFileSync(list, 'utf8'));
  const titleA = json.samples[0].title;
  const titleB = `${titleA} (build B)`;
  json.samples[0].title = titleB;
  fs.writeFileSync(list, JSON.stringify(json));
  const hook = spawnSync(process.execPath, [path.join(ROOT, 'scripts/offline.mjs')], {
    env: { ...process.env, TRUNK_STAGING_DIR: distB, TRUNK_PUBLIC_URL: './' },
    encoding: 'utf8',
  });
  assert.equal(hook.status, 0, hook.stderr);
  const a = buildOf(DIST).version;
  const b = buildOf(distB).version;
  assert.notEqual(a, b, 'the new build has a new version');

  let site = await serve();
  const port = site.server.address().port;
  const context = await browser.newContext();
  const page = await context.newPage();
  const w = await watch(context, page);
  const title = (p) => p.locator('#sample-list .sample .sample-title').first().textContent();
  try {
    await page.goto(site.base);
    assert.deepEqual(await controlled(page), [`hexlens ${site.base} ${a}`]);
    await page.locator('#sample-list .sample').first().waitFor();
    assert.match(await title(page), new RegExp(`^${titleA}`));

    // The host now serves build B. A reload still shows build A (from its cache)
    // while build B installs beside it and waits.
    await shutDown(site);
    site = await serve({ dist: distB, port });
    await page.reload();
    await page.locator('#sample-list .sample').first().waitFor();
    assert.match(await title(page), new RegExp(`^${titleA}`), 'the open page stays on build A');
    await until(page, waiting, 'build B waits');
    const both = await page.evaluate(async () => (await caches.keys()).sort());
    assert.deepEqual(both, [`hexlens ${site.base} ${a}`, `hexlens ${site.base} ${b}`].sort(), 'both builds are cached');

    // A second window opens while the first is still on build A: build B does not
    // take over (the first window would lose its build's files), both show A.
    const second = await context.newPage();
    await second.goto(site.base);
    await second.locator('#sample-list .sample').first().waitFor();
    assert.match(await title(second), new RegExp(`^${titleA}`), 'the second window runs build A too');
    await second.waitForTimeout(1000);
    assert.ok(await page.evaluate(waiting), 'build B still waits');
    await second.close();

    // Alone again, the next load switches to build B: the page reloads itself once
    // under the new worker, which has deleted build A's cache.
    await page.reload();
    await page
      .waitForFunction(
        (t) => document.querySelector('#sample-list .sample .sample-title')?.textContent.startsWith(t),
        titleB,
        { timeout: 60_000 },
      )
      .catch(async (e) => {
        const state = await page.evaluate(async () => {
          const r = await navigator.serviceWorker.getRegistration();
          return { active: r?.active?.scriptURL, waiting: Boolean(r?.waiting), caches: await caches.keys() };
        });
        throw new Error(`${e.message}; the page shows build A; workers and caches: ${JSON.stringify(state)}`);
      });
    // The new worker deletes build A's cache when it activates, before it claims the
    // page; the browser may list a deleted cache for a moment after (seen once in CI
    // on a loaded machine), so this waits up to 10 s for the list to settle.
    await controlled(page);
    await until(page, async () => (await caches.keys()).filter((k) => k.startsWith(`hexlens ${document.baseURI}`)).length === 1, "build A's cache is gone", 10_000);
    const left = await controlled(page);
    assert.deepEqual(left, [`hexlens ${site.base} ${b}`], "build A's cache is gone");
    const script = await page.evaluate(() => navigator.serviceWorker.controller.scriptURL);
    assert.equal(script, `${site.base}sw.js`);
    // The new page's files are build B's: a sample decodes.
    await page.click(`#sample-list .sample[data-file="${SAMPLE}"]`);
    await waitForFile(page, SAMPLE);
    assert.deepEqual(await w.violations(), [], 'no CSP violation');
    assert.deepEqual(w.consoleErrors, []);
    assert.deepEqual(w.problems, []);
  } finally {
    await context.close();
    await shutDown(site);
    fs.rmSync(distB, { recursive: true, force: true });
  }
});

test("a development build (trunk serve) served where a release was cached retires the release's worker and cache", async () => {
  // The development build: the release with trunk's live-reload client in its page
  // (an empty stand-in here: the hook only looks for its script tag), and the hook
  // run again over it.
  const distDev = fs.mkdtempSync(path.join(os.tmpdir(), 'hexlens-build-dev-'));
  fs.cpSync(DIST, distDev, { recursive: true });
  fs.writeFileSync(path.join(distDev, 'trunk-autoreload-0.js'), '\n');
  const index = path.join(distDev, 'index.html');
  let html = fs.readFileSync(index, 'utf8');
  html = html.replace(/<script defer src="[^"]*register-sw-[^>]*><\/script>\n?/, '');
  fs.writeFileSync(index, html.replace('</head>', '<script src="./trunk-autoreload-0.js"></script>\n</head>'));
  const hook = spawnSync(process.execPath, [path.join(ROOT, 'scripts/offline.mjs')], {
    env: { ...process.env, TRUNK_STAGING_DIR: distDev, TRUNK_PUBLIC_URL: './' },
    encoding: 'utf8',
  });
  assert.equal(hook.status, 0, hook.stderr);
  assert.doesNotMatch(fs.readFileSync(index, 'utf8'), /register-sw-/, 'the development page registers no worker');

  let site = await serve();
  const port = site.server.address().port;
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(site.base);
    assert.equal((await controlled(page)).length, 1);
    await shutDown(site);
    site = await serve({ dist: distDev, port });
    // The browser checks the registered worker's script on this visit and finds
    // the retiring one: it deletes the cache and unregisters.
    await page.reload();
    await until(page, async () => !(await navigator.serviceWorker.getRegistration()), 'the worker is unregistered');
    await until(page, async () => (await caches.keys()).length === 0, 'the cache is deleted');
    // From then on the page comes from the server, uncontrolled.
    const before = site.served.length;
    await page.reload();
    await page.locator('#empty-state').waitFor();
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null);
    assert.ok(site.served.slice(before).includes('/hexlens/'), `the page came from the server: ${site.served.slice(before)}`);
  } finally {
    await context.close();
    await shutDown(site);
    fs.rmSync(distDev, { recursive: true, force: true });
  }
});
