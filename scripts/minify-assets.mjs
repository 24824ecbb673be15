#!/usr/bin/env node
// Trunk post-build step (scripts/post-build.mjs runs it before externalize-scripts.mjs):
// drops comments and layout whitespace from the built style sheets and comment
// lines from the JS bindings, then updates the `integrity` hashes index.html
// gives for them. The page's critical path is measured in gzip bytes
// (bench/RESULTS.md, "App transfer size"): this saves about 1.6 KB of it, and
// about 0.6 KB more from index.html.
//
// Conservative on purpose (trunk's own minifier rewrote the HTML as well):
//   - CSS: comments removed and whitespace collapsed outside quoted strings;
//   - JS (wasm-bindgen's bindings of the page and of the decode workers):
//     minified by terser (tests/browser's npm packages, which
//     scripts/setup-web.sh --npm installs) when it is there: names of locals
//     shortened, whitespace gone, exports kept (8.2 KB -> about 5.5 KB gzip for
//     the page's). Without it (a debug build on a machine without the npm
//     packages) only whole lines that are `//` comments or `/* … */` blocks
//     starting a line are removed;
//   - wasm modules and their bindings: the hashed names of imported functions
//     shortened (short-imports.mjs; about 8 KB of a visit with a DXIL file);
//   - the page's own scripts (static/*.js): the same, as modules or (worker.js)
//     a classic script;
//   - index.html: comments (`<!-- … -->`, the notes for maintainers in
//     www/index.html) and the indentation at the start of each line removed;
//     the `integrity` attribute of tags naming a changed file updated.
//
// Environment (set by trunk): TRUNK_STAGING_DIR (the build being assembled).
// Usage outside trunk: TRUNK_STAGING_DIR=dist node scripts/minify-assets.mjs

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { shortenImports } from './short-imports.mjs';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('minify-assets: TRUNK_STAGING_DIR is not set');
  process.exit(1);
}

/** CSS without comments and with whitespace collapsed, strings untouched. */
function minifyCss(css) {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === '"' || c === "'") {
      // A quoted string, escapes included, copied as it is.
      let j = i + 1;
      while (j < css.length && css[j] !== c) j += css[j] === '\\' ? 2 : 1;
      out += css.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 2;
    } else if (/\s/.test(c)) {
      while (i < css.length && /\s/.test(css[i])) i++;
      // One space where two tokens would otherwise touch.
      const prev = out[out.length - 1];
      const next = css[i];
      if (prev !== undefined && next !== undefined && !/[{};,>]/.test(prev) && !/[{};,>]/.test(next)) out += ' ';
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/;}/g, '}');
}

/** JS without whole-line comments. */
function stripJsCommentLines(js) {
  return js.replace(/^[ \t]*\/\*[\s\S]*?\*\/[ \t]*\n/gm, '').replace(/^[ \t]*\/\/.*\n/gm, '');
}

/** terser's `minify`, or null when tests/browser's npm packages are missing. */
async function loadTerser() {
  const here = path.dirname(new URL(import.meta.url).pathname);
  const entry = path.join(here, '..', 'tests', 'browser', 'node_modules', 'terser', 'main.js');
  if (!fs.existsSync(entry)) return null;
  try {
    return (await import(entry)).minify;
  } catch (e) {
    console.error(`minify-assets: terser did not load (${e}); JS keeps its layout`);
    return null;
  }
}

/** JS minified by terser. The page's bindings are an ES module (its exports
 *  keep their names); a worker's are a classic script whose top-level
 *  `wasm_bindgen` static/worker.js calls (top-level names are never renamed). */
async function minifyJs(terser, js, name) {
  const module = /^\s*export\b|\nexport\b|\bimport\.meta\b/.test(js);
  const out = await terser(js, { module, ecma: 2020, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  if (typeof out.code !== 'string') throw new Error(`terser gave nothing for ${name}`);
  return out.code;
}

const sri = (data) => `sha384-${crypto.createHash('sha384').update(data).digest('base64')}`;

// Short import names in each wasm module and its bindings (short-imports.mjs);
// the wasm files carry no integrity attribute.
for (const name of fs.readdirSync(dir)) {
  const wasmName = name.replace(/\.js$/, '_bg.wasm');
  if (!/^hexlens-.*\.js$/.test(name) || !fs.existsSync(path.join(dir, wasmName))) continue;
  const out = shortenImports(fs.readFileSync(path.join(dir, name), 'utf8'), fs.readFileSync(path.join(dir, wasmName)));
  if (out.skipped) {
    console.warn(`minify-assets: ${wasmName} keeps its import names: ${out.skipped}`);
    continue;
  }
  fs.writeFileSync(path.join(dir, name), out.js);
  fs.writeFileSync(path.join(dir, wasmName), out.wasm);
}

const terser = await loadTerser();
const changed = new Map();
for (const name of fs.readdirSync(dir)) {
  const file = path.join(dir, name);
  let before;
  let after;
  if (name.endsWith('.css')) {
    before = fs.readFileSync(file, 'utf8');
    after = minifyCss(before);
  } else if (/^hexlens-.*\.js$/.test(name)) {
    before = fs.readFileSync(file, 'utf8');
    after = terser ? await minifyJs(terser, before, name) : stripJsCommentLines(before);
  } else {
    continue;
  }
  if (after !== before) {
    fs.writeFileSync(file, after);
    changed.set(name, sri(after));
  }
}
// The page's own scripts (static/: the first page's shell.js, the decode
// workers' worker.js, the listing pane's listing.js), whose comments are for
// maintainers: shell.js and worker.js are on every visit's critical path.
for (const name of fs.existsSync(path.join(dir, 'static')) ? fs.readdirSync(path.join(dir, 'static')) : []) {
  if (!name.endsWith('.js')) continue;
  const file = path.join(dir, 'static', name);
  const before = fs.readFileSync(file, 'utf8');
  const after = terser ? await minifyJs(terser, before, name) : stripJsCommentLines(before);
  if (after !== before) {
    fs.writeFileSync(file, after);
    changed.set(name, sri(after));
  }
}

const indexFile = path.join(dir, 'index.html');
let html = fs.readFileSync(indexFile, 'utf8');
for (const [name, hash] of changed) {
  const names = new RegExp(`(href|src)="[^"]*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`);
  html = html.replace(/<(link|script)\b[^>]*>/g, (tag) =>
    names.test(tag) ? tag.replace(/integrity="[^"]*"/, `integrity="${hash}"`) : tag,
  );
}
html = html.replace(/<!--[\s\S]*?-->/g, '').replace(/^[ \t]+/gm, '').replace(/\n{2,}/g, '\n');
fs.writeFileSync(indexFile, html);
console.log(`minify-assets: ${[...changed.keys()].join(', ') || 'nothing changed'}`);
