#!/usr/bin/env node
// Trunk post-build step (scripts/post-build.mjs runs it last: it lists the files the
// others leave): makes the built site installable and usable offline.
//
// Writes into the build:
//   - icon.svg, icon-192.png, icon-512.png: the app's icon (the favicon's hexagon),
//     drawn here; browsers want PNGs of 192 and 512 pixels to offer installing;
//   - manifest.webmanifest: name, icons, colours, start URL and scope "./" (relative
//     to the manifest, so the site installs from whatever folder it is hosted in);
//     www/index.html links it;
//   - sw.js: www/sw.js preceded by the build's file list and a hash of all of it
//     (the cache's name: a new build is a new cache, the old one is deleted when
//     the new one takes over);
//   - register-sw-<hash>.js: www/register-sw.js, loaded by a <script> tag with its
//     `integrity` added to index.html (no inline script: the page's policy
//     forbids it).
//
// Under `trunk serve` (the page then holds trunk's live-reload client) the page
// registers no worker, and sw.js is one that deletes this folder's caches and
// unregisters itself: a development build is never served from a cache, and a
// release build cached earlier at the same address stops being served (browsers
// check a registered worker's script for a new version on each visit).
//
// Environment (set by trunk): TRUNK_STAGING_DIR (the build being assembled),
// TRUNK_PUBLIC_URL. Running it again on a build gives the same files (the old
// script tag is replaced).
// Usage outside trunk: TRUNK_STAGING_DIR=dist TRUNK_PUBLIC_URL=./ node scripts/offline.mjs

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const stage = process.env.TRUNK_STAGING_DIR;
if (!stage) {
  console.error('offline: TRUNK_STAGING_DIR is not set (run me as a trunk post_build hook)');
  process.exit(2);
}
const publicUrl = process.env.TRUNK_PUBLIC_URL || '/';
const www = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'www');

/** The app's colours (www/style.css: --accent, and --bg of the light theme). */
const ACCENT = '#2f6fed';
const BACKGROUND = '#eef0f4';

// ---- the icon ---------------------------------------------------------------------

/** The favicon's drawing, in a 32×32 box: a hexagon and three lines. */
const HEXAGON = [
  [16, 2],
  [28, 9],
  [28, 23],
  [16, 30],
  [4, 23],
  [4, 9],
];
const LINES = [
  [11, 12, 21, 12],
  [11, 16, 21, 16],
  [11, 20, 17, 20],
];
const LINE_HALF_WIDTH = 1;

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M${HEXAGON.map((p) => p.join(' ')).join('L')}z" fill="${ACCENT}"/><path d="${LINES.map(([a, b, c, d]) => `M${a} ${b}H${c}`).join('')}" stroke="white" stroke-width="${2 * LINE_HALF_WIDTH}" stroke-linecap="round"/></svg>\n`;

function insideHexagon(x, y) {
  // Convex and listed clockwise (y down): inside is right of every edge.
  for (let i = 0; i < HEXAGON.length; i++) {
    const [ax, ay] = HEXAGON[i];
    const [bx, by] = HEXAGON[(i + 1) % HEXAGON.length];
    if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) < 0) return false;
  }
  return true;
}

function onLine(x, y) {
  return LINES.some(([ax, ay, bx, by]) => {
    const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
    return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))) <= LINE_HALF_WIDTH;
  });
}

/** The icon as RGBA pixels, `size`×`size`, 4×4 samples a pixel for smooth edges. */
function drawIcon(size) {
  const accent = [1, 3, 5].map((i) => parseInt(ACCENT.slice(i, i + 2), 16));
  const px = Buffer.alloc(size * size * 4);
  const S = 4;
  for (let py = 0; py < size; py++) {
    for (let pxi = 0; pxi < size; pxi++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = ((pxi + (sx + 0.5) / S) * 32) / size;
          const y = ((py + (sy + 0.5) / S) * 32) / size;
          if (!insideHexagon(x, y)) continue;
          const c = onLine(x, y) ? [255, 255, 255] : accent;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
      const at = (py * size + pxi) * 4;
      if (a > 0) {
        px[at] = Math.round(r / a);
        px[at + 1] = Math.round(g / a);
        px[at + 2] = Math.round(b / a);
        px[at + 3] = Math.round((255 * a) / (S * S));
      }
    }
  }
  return px;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG file of RGBA pixels: 8 bits a channel, every row unfiltered. */
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  const rows = Buffer.alloc(size * (1 + size * 4));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (1 + size * 4) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

fs.writeFileSync(path.join(stage, 'icon.svg'), SVG);
for (const size of [192, 512]) fs.writeFileSync(path.join(stage, `icon-${size}.png`), png(size, drawIcon(size)));

// ---- the manifest --------------------------------------------------------------------

const manifest = {
  id: './',
  name: 'hexlens — structure-aware hex viewer',
  short_name: 'hexlens',
  description: 'A structure-aware hex viewer that runs entirely in your browser; files never leave your machine.',
  start_url: './',
  scope: './',
  display: 'standalone',
  background_color: BACKGROUND,
  theme_color: ACCENT,
  icons: [
    { src: 'icon-192.png', sizes: '192x192', type: 'image/png' },
    { src: 'icon-512.png', sizes: '512x512', type: 'image/png' },
    { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml' },
  ],
};
fs.writeFileSync(path.join(stage, 'manifest.webmanifest'), `${JSON.stringify(manifest, null, 2)}\n`);

// ---- the registration script and its tag ------------------------------------------------

const sri = (data) => `sha384-${crypto.createHash('sha384').update(data).digest('base64')}`;
const htmlFile = path.join(stage, 'index.html');
let html = fs.readFileSync(htmlFile, 'utf8');
const dev = /trunk-autoreload-/.test(html);

for (const name of fs.readdirSync(stage)) {
  if (/^register-sw-[0-9a-f]+\.js$/.test(name)) fs.rmSync(path.join(stage, name));
}
html = html.replace(/<script\b[^>]*\bsrc="[^"]*register-sw-[0-9a-f]+\.js"[^>]*><\/script>\n?/g, '');
// A development build registers nothing (a worker an earlier release build left is
// replaced by the retiring sw.js below when the browser checks it for updates).
if (!dev) {
  const register = fs.readFileSync(path.join(www, 'register-sw.js'));
  const name = `register-sw-${crypto.createHash('sha256').update(register).digest('hex').slice(0, 16)}.js`;
  fs.writeFileSync(path.join(stage, name), register);
  if (!html.includes('</head>')) {
    console.error(`offline: no </head> in ${htmlFile}`);
    process.exit(1);
  }
  html = html.replace('</head>', `<script defer src="${publicUrl}${name}" integrity="${sri(register)}"></script>\n</head>`);
}
fs.writeFileSync(htmlFile, html);

// ---- the service worker ---------------------------------------------------------------

/** Every file of the build but sw.js, relative to it, sorted. */
function files(dir, rel = '') {
  return fs
    .readdirSync(path.join(dir, rel), { withFileTypes: true })
    .flatMap((e) => {
      const r = rel ? `${rel}/${e.name}` : e.name;
      return e.isDirectory() ? files(dir, r) : [r];
    })
    .filter((r) => r !== 'sw.js')
    .sort();
}

// The version: a hash of every file and of the worker itself, so a build that
// changes either gets a cache of its own.
const assets = files(stage);
const template = fs.readFileSync(path.join(www, 'sw.js'), 'utf8');
const hash = crypto.createHash('sha256').update(template).update('\0');
for (const a of assets) hash.update(`${a}\0`).update(fs.readFileSync(path.join(stage, a))).update('\0');
const version = hash.digest('hex').slice(0, 16);

const RETIRE = `// hexlens, development build (trunk serve): no offline cache. This worker deletes
// the caches an earlier build left for this folder and unregisters itself.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  const prefix = "hexlens " + self.registration.scope + " ";
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(prefix)).map((n) => caches.delete(n))))
      .then(() => self.registration.unregister()),
  );
});
`;

const build = { version, assets: assets.map((a) => a.split('/').map(encodeURIComponent).join('/')) };
const sw = dev ? RETIRE : `const BUILD = ${JSON.stringify(build)};\n${template}`;
fs.writeFileSync(path.join(stage, 'sw.js'), sw);

const bytes = assets.reduce((n, a) => n + fs.statSync(path.join(stage, a)).size, 0);
console.log(
  dev
    ? 'offline: development build, sw.js clears the offline cache'
    : `offline: sw.js caches ${assets.length} files (${bytes} bytes), build ${version}`,
);
