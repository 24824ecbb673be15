// Shared set-up for browser tests that drive the built web app through its UI: a
// static server for the build under a sub-path, Chromium, and helpers that open
// files through the page's file input. Only what the page shows is used (the file
// input, visible text, ARIA tree rows), never the app's internals.
//
//   HEXLENS_DIST  the built site (default target/browser-dist)
//   CHROMIUM      the browser (default /usr/bin/chromium)

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '../..');
export const DIST = path.resolve(process.env.HEXLENS_DIST ?? path.join(ROOT, 'target/browser-dist'));
export const ART = path.resolve(process.env.HEXLENS_ARTIFACTS ?? path.join(ROOT, 'target/browser-artifacts'));
/** The sub-path the site is served under (any static host, any path). */
export const PREFIX = '/hexlens/';
export const SAMPLES = path.join(ROOT, 'static/samples');
export const manifest = JSON.parse(fs.readFileSync(path.join(SAMPLES, 'manifest.json'), 'utf8'));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.md': 'text/markdown; charset=utf-8',
};

/**
 * Serves `dist` under PREFIX on 127.0.0.1 (`port`, or a free one). `headers` are
 * added to every response (e.g. the Content-Security-Policy a host would send).
 * Resolves to `{ server, base, served }`: `base` is the page's URL, `served` lists
 * every path answered with 200.
 */
export function serve({ dist = DIST, headers = {}, port = 0 } = {}) {
  const served = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (!url.pathname.startsWith(PREFIX)) {
      res.writeHead(404).end(`only ${PREFIX} is served`);
      return;
    }
    const rel = decodeURIComponent(url.pathname.slice(PREFIX.length)) || 'index.html';
    const file = path.resolve(dist, rel);
    if (!file.startsWith(dist + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404).end('not found');
        return;
      }
      served.push(url.pathname);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', ...headers });
      res.end(data);
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${server.address().port}${PREFIX}`, served }),
    );
  });
}

/** How the tests start Chromium: headless, with no background traffic of its own. */
export const CHROMIUM_OPTIONS = {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
};

/** Headless Chromium with no background traffic of its own. */
export function launch() {
  return chromium.launch(CHROMIUM_OPTIONS);
}

/**
 * Records what goes wrong on `page`: uncaught errors, console errors (Chromium
 * reports a blocked action as one), HTTP errors, dialogs (dismissed), and every
 * `securitypolicyviolation` event of the page's documents. The returned object's
 * arrays fill as the page runs; `violations()` reads the page's recorded events.
 */
export async function watch(context, page) {
  const problems = [];
  const dialogs = [];
  const consoleErrors = [];
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener(
      'securitypolicyviolation',
      (e) => window.__cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} ${e.sample}`),
      true,
    );
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  return {
    problems,
    dialogs,
    consoleErrors,
    violations: () => page.evaluate(() => window.__cspViolations ?? []),
  };
}

/** Opens `bytes` as `name` through the page's file input and waits until it is shown. */
export async function openFile(page, name, bytes) {
  await page.locator('input[type=file]').first().setInputFiles({
    name,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(bytes),
  });
  await waitForFile(page, name);
}

/**
 * Waits until the page names `name` as the open file, shows its structure tree and
 * no longer says it is opening or decoding it (the bytes may show first).
 */
export async function waitForFile(page, name, timeout = 60_000) {
  await page.waitForFunction(
    (n) =>
      document.querySelector('#tree [role=treeitem]') &&
      [...document.querySelectorAll('#file-info *')].some((e) => e.textContent === n) &&
      ![...document.querySelectorAll('[role=status]')].some((e) => /^\s*(Opening|Decoding)/.test(e.textContent)),
    name,
    { timeout },
  );
}

/** Goes to byte `offset` (Ctrl+G box) and returns the tree row that owns it, selected. */
export async function selectOffset(page, offset) {
  await page.fill('#goto-input', `0x${offset.toString(16)}`);
  await page.keyboard.press('Enter');
  const row = page.locator('#tree [role=treeitem][aria-selected="true"]');
  await page.waitForFunction((o) => {
    const r = document.querySelector('#tree [role=treeitem][aria-selected="true"]');
    return (
      r &&
      Number(r.dataset.start) <= o &&
      o < Number(r.dataset.end) &&
      !document.querySelector('#tree [aria-busy="true"]')
    );
  }, offset);
  return row;
}
