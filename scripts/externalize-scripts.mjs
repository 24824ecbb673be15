#!/usr/bin/env node
// Trunk post-build step (scripts/post-build.mjs runs it): moves every inline <script> of the
// built page into a same-origin file beside it, so the page's Content-Security-Policy
// can forbid inline script (no 'unsafe-inline' in script-src).
//
// Trunk 0.21 writes two kinds of inline script into index.html:
//   - the loader, a module that imports the app's JS bindings, starts the wasm and
//     fires `TrunkApplicationStarted` (every build);
//   - the live-reload client (`trunk serve` only, unless --no-autoreload), whose
//     `{{__TRUNK_ADDRESS__}}` / `{{__TRUNK_WS_BASE__}}` placeholders trunk's dev
//     server fills in HTML responses only. Moved into a file they would never be
//     filled, so this hook resolves them the way trunk does: the address becomes
//     `window.location.host` (trunk's own fallback) and the WebSocket base is
//     derived from the public URL like trunk's default (`/` for `./`).
//
// Each script keeps its attributes and gets `src` (the public URL plus a file name
// carrying a hash of the content, so caches never serve a stale loader) and a
// sha384 `integrity`, like trunk's own tags. With a relative public URL (`./`) the
// loader's imports stay relative to the loader file, which sits beside
// index.html: hosting under any sub-path keeps working.
//
// The loader is also made to wait: it defines `window.hexlensStart()`, which
// static/shell.js calls when a file is chosen, and trunk's preloads of the app's
// module and wasm are dropped, so a first visit downloads neither (see
// deferStart below).
//
// Environment (set by trunk): TRUNK_STAGING_DIR (the build being assembled),
// TRUNK_PUBLIC_URL. Exits non-zero, failing the build, if an inline script is left.
//
// Usage outside trunk (e.g. on an existing dist): TRUNK_STAGING_DIR=dist
// TRUNK_PUBLIC_URL=./ node scripts/externalize-scripts.mjs

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const stage = process.env.TRUNK_STAGING_DIR;
if (!stage) {
  console.error('externalize-scripts: TRUNK_STAGING_DIR is not set (run me as a trunk post_build hook)');
  process.exit(2);
}
const publicUrl = process.env.TRUNK_PUBLIC_URL || '/';
const htmlFile = path.join(stage, 'index.html');
const html = fs.readFileSync(htmlFile, 'utf8');

/** The live-reload WebSocket path, as trunk serve derives it without --ws-base. */
function wsBase(url) {
  let base;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) base = new URL(url).pathname;
  else if (url.startsWith('/')) base = url;
  else if (url === './') base = '/';
  else base = url.startsWith('.') ? url.slice(1) : `/${url}`;
  return base.endsWith('/') ? base : `${base}/`;
}

const sri = (text) => `sha384-${crypto.createHash('sha384').update(text).digest('base64')}`;

// `<script attrs>body</script>`; attribute values never contain `>` in trunk's output.
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const hasAttr = (attrs, name) => new RegExp(`(^|\\s)${name}(\\s*=|\\s|$)`, 'i').test(attrs);

let moved = 0;
let out = html.replace(SCRIPT, (whole, attrs, body) => {
  if (hasAttr(attrs, 'src')) return whole;
  let code = body.trim();
  if (code === '') return ''; // an empty inline script does nothing; drop it
  let stem = 'inline';
  if (code.includes('{{__TRUNK_ADDRESS__}}') || code.includes('.well-known/trunk/ws')) {
    stem = 'trunk-autoreload';
    code = code
      .replace(/(['"`])\{\{__TRUNK_ADDRESS__\}\}\1/g, 'window.location.host')
      .replaceAll('{{__TRUNK_WS_BASE__}}', wsBase(publicUrl));
  } else if (code.includes('TrunkApplicationStarted')) {
    stem = 'start';
    code = deferStart(code);
  }
  code += '\n';
  const hash = crypto.createHash('sha256').update(code).digest('hex').slice(0, 16);
  const name = `${stem}-${hash}.js`;
  fs.writeFileSync(path.join(stage, name), code);
  moved += 1;
  // A nonce only makes sense on inline script; everything else is kept.
  const kept = attrs.replace(/\s+nonce\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '').trimEnd();
  return `<script${kept} src="${publicUrl}${name}" integrity="${sri(code)}"></script>`;
});

// The app's module and wasm are fetched when the app starts, not with the page:
// trunk's preloads of them go (the decode workers' files have none).
const APP_PRELOAD = /<link\b[^>]*\brel="(?:modulepreload|preload)"[^>]*\bhref="[^"]*hexlens-web-[^"]*"[^>]*>\s*/g;
const dropped = (out.match(APP_PRELOAD) || []).length;
out = out.replace(APP_PRELOAD, '');

const left = [...out.matchAll(SCRIPT)].filter(([, attrs]) => !hasAttr(attrs, 'src'));
if (left.length > 0) {
  console.error(`externalize-scripts: ${left.length} inline script(s) left in ${htmlFile}`);
  process.exit(1);
}
fs.writeFileSync(htmlFile, out);
console.log(`externalize-scripts: moved ${moved} inline script(s) out of index.html, dropped ${dropped} preload(s) of the app`);

/**
 * Trunk's loader imports the app's JS bindings and starts its wasm at once. A
 * first visit shows the page static/shell.js draws and needs neither until a
 * file is chosen, so the loader is rewritten to define `window.hexlensStart()`,
 * which imports and starts them on the first call (later calls return the same
 * promise), and to fire `hexlens:loader` once it is defined.
 */
function deferStart(code) {
  const imp = code.match(/^import init, \* as bindings from (['"])([^'"]+)\1;\s*$/m);
  const init = code.match(/^const wasm = await init\((\{[^\n]*\})\);\s*$/m);
  if (!imp || !init) {
    console.error(`externalize-scripts: trunk's loader is not the one expected:\n${code}`);
    process.exit(1);
  }
  const rest = code.slice(init.index + init[0].length).trim();
  return [
    'let started;',
    'window.hexlensStart = () => (started ??= (async () => {',
    `  const bindings = await import('${imp[2]}');`,
    `  const init = bindings.default;`,
    `  const wasm = await init(${init[1]});`,
    ...rest.split('\n').map((l) => `  ${l}`),
    '})());',
    "dispatchEvent(new Event('hexlens:loader'));",
  ].join('\n');
}
