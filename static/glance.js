// The glance: the whole file at a glance. A strip along the right edge maps the
// file from its first byte (top) to its last (bottom): the parts of its
// structure in colours, or how random (entropy), how empty (zero bytes) or how
// textual (printable bytes) each stretch is, with bookmarks, search matches and
// comparison differences ticked beside it and the bytes in view framed; a click
// or a drag there goes to that byte. A panel under the viewer counts the bytes
// of the selected node, the selected range or the whole file (a histogram of
// the 256 byte values, entropy, zero, printable and high bytes, and for the
// file an entropy graph along it), and lists the selected node's fields in a
// table that sorts, filters and copies.
//
// It is fetched when first opened (static/shell.js's `hexlensGlance`, which the
// app's toolbar button calls) and runs its own worker on the tools module
// (hexlens-worker-tools), which does all the reading and counting: the map has
// a fixed number of cells (CELLS, whatever the file's size), estimated from
// samples first and then counted exactly, a stretch of cells at a time; the
// statistics are counted in steps that report progress and can be stopped; the
// table's rows are sorted and filtered there, and only the rows in view are
// asked for. The page only draws.
//
// The page's side: `wasmBindings.listing_source()` gives the open file, the
// selection and (its `marks`) the bookmarks, search matches and differences
// (polled while open, drawn when they change); `listing_point([at, at + 1],
// true)` goes to a byte, `ksy_go(at, path)` selects a node. The same look
// tells when another file opens, or the file is decoded again (with a format,
// or scanned for containers): the glance starts afresh; and when the selection
// moves (the details pane naming another node, or other bytes selected).
//
// In the structure mode, each part's colour is also on its rows in the tree and
// under its bytes in the hex pane (a `--glc` property on those elements, which
// glance.css draws as a swatch and an underline), kept up as the panes redraw.
//
// File content is only ever set as text.

const CELLS = 1024; // the map's cells, whatever the file's size
const ROW = 22; // px, a table row's height (the stylesheet's)
const PAGE = 100; // table rows asked for at once
const KEEP = 40; // pages of table rows kept
const MAXPX = 4e6; // px, past which the table's scroll height is scaled
const POLL = 400; // ms between looks at the marks
const MARK = ['#8a4fd8', '#f59e0b', '#e5484d']; // bookmarks, matches, differences
const COLS = [['path', 'Path'], ['offset', 'Offset'], ['size', 'Size'], ['kind', 'Kind'], ['value', 'Value'], ['meaning', 'Meaning']];
// Entropy's colours, from nothing random (dark blue) to all random (red).
const RAMP = [[0, [14, 20, 64]], [2, [36, 78, 196]], [4, [32, 160, 172]], [6, [236, 200, 44]], [7, [242, 124, 32]], [8, [214, 32, 32]]];

let ui = null; // the elements, once built
let worker = null;
let job = 0;
let mode = 'structure';
let map = emptyMap();
let marks = { list: new Float64Array(0) };
let stats = emptyStats();
let table = emptyTable();
let tab = 'stats';
let shownPath = null; // the selected node's path, as the details pane names it
let tinting = false; // whether tree rows and hex cells carry colours now
let observer = null;
let poller = 0;
let follow = 0; // the timer that follows the selection
let filterTimer = 0;
let copying = 'csv';
let palette = null;
const queued = new Set();
const partCss = [];

/** An element: `props` are its properties (`aria-…`, `data-…` and `role` set as
 * attributes), `kids` its children (strings become text). */
function h(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'role' || k.startsWith('aria-') || k.startsWith('data-')) e.setAttribute(k, v);
    else e[k] = v;
  }
  e.append(...kids);
  return e;
}

const btn = (text, title, id) => h('button', { type: 'button', className: 'btn btn-small', title, ...(id && { id }) }, text);

/** A checkbox and its label. */
function check(id, text, checked) {
  const c = h('input', { type: 'checkbox', id, checked });
  return [h('label', { className: 'glance-check' }, c, text), c];
}

const bindings = () => window.wasmBindings ?? {};
const hex = (n) => `0x${Math.floor(n).toString(16).toUpperCase()}`;
const num = (n) => Math.round(n).toLocaleString('en');
const pct = (n, of) => (of > 0 ? `${((100 * n) / of).toFixed(2)}%` : '0.00%');
const byteName = (b) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;
const rgb = (c) => `rgb(${c[0]},${c[1]},${c[2]})`;
const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * Math.min(1, Math.max(0, t))));
const isOpen = () => !!ui && !ui.panel.hidden;
const appRoot = () => document.getElementById('app-root') ?? document.body;

/** The colour of part `i`: hues a golden angle apart, so neighbours differ. */
export function partRgb(i) {
  const h = (((i * 137.508) % 360) + 360) % 360 / 360;
  const s = 0.62;
  const l = 0.55;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const f = (t) => {
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [f(h + 1 / 3), f(h), f(h - 1 / 3)].map((v) => Math.round(v * 255));
}

/** The bytes `[start, end)` cell `i` of `cells` covers in a file of `size` bytes. */
export function cellRange(i, size, cells) {
  return [Math.floor((i * size) / cells), Math.floor(((i + 1) * size) / cells)];
}

/** The colour of bytes no decoder claimed (an `unknown` part). */
export const UNKNOWN_RGB = [160, 166, 178];

/** The colour of part `i` of the open file: grey for bytes nothing claimed. */
function partColour(i) {
  if (map.parts[i]?.kind === 'unknown') return rgb(UNKNOWN_RGB);
  return (partCss[i] ??= rgb(partRgb(i)));
}

/** Opens the glance, or closes it if it is open. */
export function toggle() {
  if (isOpen()) return close();
  if (!ui) build();
  ui.panel.hidden = false;
  ui.map.hidden = false;
  document.body.classList.add('glance-open');
  observer = new MutationObserver(() => soon(panesChanged));
  observer.observe(appRoot(), { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['data-o', 'data-b', 'data-path', 'style'] });
  document.addEventListener('scroll', scrolled, true);
  poller = setInterval(pollMarks, POLL);
  load();
}

function close() {
  ui.panel.hidden = true;
  ui.map.hidden = true;
  ui.hover.hidden = true;
  document.body.classList.remove('glance-open', 'glance-tints');
  observer?.disconnect();
  observer = null;
  document.removeEventListener('scroll', scrolled, true);
  clearInterval(poller);
  clearTimeout(follow);
  clearTimeout(filterTimer);
  untint();
  if (worker) worker.terminate();
  worker = null;
  job += 1;
}

function emptyMap() {
  return { size: 0, cells: 0, parts: [], paths: new Map(), owners: null, entropy: null, zeros: null, text: null, have: null, pass: 'none', full: 0, paused: false };
}

function emptyStats() {
  return { span: null, counts: new Float64Array(256), done: 0, running: false, stale: true };
}

function emptyTable() {
  return { path: '', all: false, sort: 'order', desc: false, filter: '', key: '', total: -1, pages: new Map(), asked: new Set(), pool: [] };
}

/** Opens the file in the worker (a new job) and starts everything afresh. */
function load() {
  job += 1;
  map = emptyMap();
  marks = { list: new Float64Array(0) };
  stats = emptyStats();
  const pool = table.pool;
  table = { ...emptyTable(), all: ui.all.checked, sort: table.sort, desc: table.desc, filter: table.filter, pool };
  shownPath = detailsPath();
  table.path = shownPath ?? '';
  ui.map.dataset.pass = 'none';
  ui.map.dataset.size = '0';
  ui.map.dataset.cells = '0';
  showPass();
  drawMap();
  drawMarks();
  drawStats();
  soon(panesChanged);
  const src = bindings().listing_source?.();
  given = src && { blob: src.blob, ksy: src.ksy, scan: !!src.scan, at: place(src) };
  if (!src) {
    // Nothing to list until a file opens (the page reloads the glance then).
    table.pool.forEach((r) => (r.hidden = true));
    ui.count.textContent = '';
    return say('No file is open.');
  }
  if (!worker) {
    worker = new Worker(new URL('worker.js?m=tools', import.meta.url));
    worker.onmessage = (e) => receive(e.data);
    worker.onerror = (e) => say(`The glance stopped: ${e.message || 'its module could not start'}`, true);
  }
  say('Reading the file…', false, 'map');
  worker.postMessage({ type: 'glance', job, blob: src.blob, scan: src.scan, ksy: src.ksy, cells: CELLS });
  rangeOption();
  requery();
  if (tab === 'stats') runStats();
  pollMarks();
}

function receive(m) {
  if (m.type === 'panic') return say(`The glance stopped: ${m.message}`, true);
  if (m.job !== job) return;
  // The worker's memory, for the benchmarks (bench/glance.mjs).
  if (m.wasmBytes) ui.map.dataset.wasm = String(m.wasmBytes);
  if (m.type === 'failed') return say(m.message, true);
  if (m.type === 'glance-parts') return gotParts(m);
  if (m.type === 'glance-cells') return gotCells(m);
  if (m.type === 'stats') return gotStats(m);
  if (m.type === 'glance-stopped') return stopped(m.what);
  if (m.type === 'table-progress') return say(`Decoding the fields to list… ${Math.floor((100 * m.done) / Math.max(1, m.total))}%`, false, 'table');
  if (m.type === 'table') return gotTable(m);
  if (m.type === 'table-copied') return copied(m);
}

let saidBy = '';
/** Sets the status line; `by` names what said it, so that it can clear it. */
function say(text, bad = false, by = '') {
  saidBy = by;
  ui.status.textContent = text;
  ui.status.classList.toggle('bad', bad);
}

function unsay(by) {
  if (saidBy === by) say('');
}

/** Runs `f` once in the next frame, however often it is asked for before then. */
function soon(f) {
  if (queued.has(f)) return;
  queued.add(f);
  requestAnimationFrame(() => {
    queued.delete(f);
    if (isOpen()) f();
  });
}

// ---------- building ----------

function build() {
  document.head.append(h('link', { rel: 'stylesheet', href: new URL('glance.css', import.meta.url).href }));
  const modes = [['structure', 'Parts', 'The parts of the structure'], ['entropy', 'Entropy', 'Entropy: bits per byte, 0 (blue) to 8 (red)'], ['zeros', 'Zeros', 'The share of zero bytes'], ['text', 'Text', 'The share of printable bytes']];
  const modeSel = h('select', { id: 'glance-mode', className: 'glance-mode', title: 'What the map shows', 'aria-label': 'Map mode' },
    ...modes.map(([value, t, title]) => h('option', { value, title }, t)));
  modeSel.addEventListener('change', () => setMode(modeSel.value));
  const canvas = h('canvas', { id: 'glance-canvas', className: 'glance-canvas' });
  const marksCanvas = h('canvas', { id: 'glance-marks', className: 'glance-marks' });
  const frame = h('div', { id: 'glance-frame', className: 'glance-frame', hidden: true });
  const track = h('div', { className: 'glance-track' }, canvas, marksCanvas, frame);
  const mapRun = h('button', { id: 'glance-map-run', className: 'glance-map-run', type: 'button' });
  mapRun.addEventListener('click', toggleMapPass);
  const hover = h('div', { id: 'glance-hover', className: 'glance-hover', hidden: true });
  const strip = h('aside', { id: 'glance-map', className: 'glance-map', 'aria-label': 'Map of the file' }, modeSel, track, mapRun, hover);

  const tabStats = btn('Statistics', 'Byte statistics', 'glance-tab-stats');
  const tabTable = btn('Fields', "The selected node's fields", 'glance-tab-table');
  for (const [b, t] of [[tabStats, 'stats'], [tabTable, 'table']]) {
    b.setAttribute('role', 'tab');
    b.addEventListener('click', () => showTab(t));
  }
  const status = h('span', { id: 'glance-status', className: 'glance-status', role: 'status' });
  const shut = btn('Close', 'Close the glance (Escape)');
  shut.addEventListener('click', close);
  const head = h('div', { className: 'glance-head' }, h('span', { className: 'glance-title' }, 'Glance'),
    h('div', { className: 'glance-tabs', role: 'tablist' }, tabStats, tabTable), status, shut);
  const panel = h('section', { id: 'glance-panel', className: 'glance-panel', 'aria-label': 'Glance' }, head, buildStats(), buildTable());
  // Escape closes the glance (in a filter holding text, it clears the filter first).
  panel.addEventListener('keydown', (e) => e.key === 'Escape' && !(e.target instanceof HTMLInputElement && e.target.value) && close());
  document.body.append(strip, panel);
  ui = { ...ui, map: strip, mode: modeSel, track, canvas, marks: marksCanvas, frame, mapRun, hover, panel, status, tabStats, tabTable };

  canvas.addEventListener('pointerdown', press);
  canvas.addEventListener('pointermove', moved);
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', release);
  canvas.addEventListener('pointerleave', () => (hover.hidden = true));
  new ResizeObserver(() => {
    if (fit(canvas) | fit(marksCanvas)) {
      drawMap();
      drawMarks();
    }
    soon(drawFrame);
  }).observe(track);
  new ResizeObserver(() => soon(drawStats)).observe(ui.statsBody);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    palette = null;
    drawMap();
    drawStats();
  });
  showTab(tab);
}

function buildStats() {
  const scopes = [['node', 'Selected node'], ['range', 'Selected range'], ['file', 'Whole file']];
  const scope = h('select', { id: 'glance-scope', 'aria-label': 'What to count' }, ...scopes.map(([value, t]) => h('option', { value }, t)));
  scope.addEventListener('change', () => runStats());
  const [followLabel, followBox] = check('glance-follow', 'Follow the selection', true);
  const run = btn('Run', '', 'glance-run');
  run.addEventListener('click', () => (stats.running ? worker?.postMessage({ type: 'glance-stop', job, what: 'stats' }) : runStats()));
  const [logLabel, logBox] = check('glance-log', 'Log scale', false);
  logBox.addEventListener('change', () => drawStats());
  const counts = btn('Counts', 'Show every byte value’s count', 'glance-counts');
  counts.setAttribute('aria-expanded', 'false');
  counts.addEventListener('click', toggleCounts);
  const what = h('span', { className: 'glance-what' });
  const hist = h('canvas', { id: 'glance-hist', className: 'glance-hist', 'aria-label': 'Histogram of byte values' });
  const barText = h('div', { id: 'glance-bar', className: 'glance-bar-text' });
  const graph = h('canvas', { id: 'glance-graph', className: 'glance-graph', hidden: true, 'aria-label': 'Entropy along the file' });
  const summary = h('dl', { id: 'glance-summary', className: 'glance-summary' });
  const figures = {};
  for (const [id, label, unit] of [['entropy', 'Entropy', ' bits per byte'], ['zeros', 'Zero bytes'], ['printable', 'Printable'], ['high', 'High (≥ 0x80)'], ['total', 'Bytes counted']]) {
    figures[id] = h('span', { id: `glance-${id}`, className: 'glance-fig' }, '–');
    summary.append(h('dt', {}, label), h('dd', {}, figures[id], unit ?? ''));
  }
  const body = h('div', { className: 'glance-stats-body' }, h('div', { className: 'glance-plots' }, hist, barText, graph), summary);
  const countTable = h('table', { id: 'glance-count-table', className: 'glance-count-table', hidden: true });
  const pane = h('div', { id: 'glance-stats', className: 'glance-pane', role: 'tabpanel' },
    h('div', { className: 'glance-bar-row' }, h('span', { className: 'glance-label' }, 'Count'), scope, followLabel, run, logLabel, counts, what), body, countTable);
  hist.addEventListener('pointermove', (e) => {
    const r = hist.getBoundingClientRect();
    const b = Math.min(255, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * 256)));
    barText.textContent = `${byteName(b)}: ${num(stats.counts[b])} (${pct(stats.counts[b], stats.done)})`;
  });
  hist.addEventListener('pointerleave', () => (barText.textContent = ''));
  ui = { ...ui, scope, followBox, run, logBox, counts, what, hist, graph, figures, countTable, statsBody: body, statsPane: pane };
  return pane;
}

function buildTable() {
  const filter = h('input', { id: 'glance-filter', className: 'glance-filter', type: 'search', placeholder: 'Filter', 'aria-label': 'Show the rows holding this text' });
  filter.addEventListener('input', () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => {
      table.filter = filter.value;
      requery();
    }, 200);
  });
  const [allLabel, all] = check('glance-all', 'All descendants', false);
  all.addEventListener('change', () => {
    table.all = all.checked;
    requery();
  });
  const order = btn('Tree order', 'List the rows as the tree does', 'glance-order');
  order.addEventListener('click', () => sortBy('order'));
  const csv = btn('Copy CSV', 'Copy every row (as filtered and sorted) as CSV', 'glance-csv');
  csv.addEventListener('click', () => copy('csv'));
  const tsv = btn('Copy TSV', 'Copy every row (as filtered and sorted) as tab-separated text', 'glance-tsv');
  tsv.addEventListener('click', () => copy('tsv'));
  const node = h('span', { className: 'glance-node' });
  const count = h('span', { id: 'glance-count', className: 'glance-count' });
  const heads = COLS.map(([c, t]) => {
    const b = h('button', { type: 'button', className: 'glance-col', role: 'columnheader', 'data-col': c, title: `Sort by ${t.toLowerCase()} (again: the other way)` },
      h('span', {}, t), h('span', { className: 'glance-arrow' }));
    b.addEventListener('click', () => sortBy(c));
    return b;
  });
  const lines = h('div', { className: 'glance-lines' });
  const spacer = h('div', { className: 'glance-spacer' }, lines);
  const rows = h('div', { id: 'glance-rows', className: 'glance-rows', tabIndex: 0, role: 'rowgroup' }, spacer);
  rows.addEventListener('scroll', () => soon(renderRows));
  new ResizeObserver(() => soon(renderRows)).observe(rows);
  lines.addEventListener('click', (e) => {
    const r = e.target instanceof Element ? e.target.closest('.glance-row') : null;
    if (r && !r.classList.contains('pending')) bindings().ksy_go?.(Number(r.dataset.start), r.dataset.path);
  });
  const pane = h('div', { id: 'glance-table', className: 'glance-pane glance-table', role: 'tabpanel' },
    h('div', { className: 'glance-bar-row' }, node, filter, allLabel, order, csv, tsv, count),
    h('div', { className: 'glance-cols', role: 'row' }, ...heads), rows);
  ui = { ...ui, node, all, order, count, heads, rows, spacer, lines, tablePane: pane };
  return pane;
}

function showTab(t) {
  tab = t;
  ui.statsPane.hidden = t !== 'stats';
  ui.tablePane.hidden = t !== 'table';
  ui.tabStats.setAttribute('aria-selected', String(t === 'stats'));
  ui.tabTable.setAttribute('aria-selected', String(t === 'table'));
  if (!worker) return;
  if (t === 'stats' && stats.stale) runStats();
  if (t === 'stats') soon(drawStats);
  if (t === 'table' && table.key === tableKey()) soon(renderRows);
  else if (t === 'table') requery();
}

/** Sizes canvas `c` in device pixels; true if its size changed. */
function fit(c) {
  const d = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(c.clientWidth * d));
  const ht = Math.max(1, Math.round(c.clientHeight * d));
  if (c.width === w && c.height === ht) return false;
  c.width = w;
  c.height = ht;
  return true;
}

/** The theme's colours, as [r, g, b] (read from the stylesheet's variables). */
function colours() {
  if (palette) return palette;
  const css = getComputedStyle(document.documentElement);
  const probe = document.createElement('canvas').getContext('2d');
  const get = (name, fallback) => {
    probe.fillStyle = fallback;
    probe.fillStyle = css.getPropertyValue(name).trim() || fallback;
    const s = String(probe.fillStyle);
    if (s[0] === '#') return [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));
    return (s.match(/[\d.]+/g) ?? ['128', '128', '128']).slice(0, 3).map(Number);
  };
  palette = {
    panel: get('--panel', '#ffffff'), panel2: get('--panel-2', '#f6f7f9'), border: get('--border', '#dcdfe6'),
    text: get('--text', '#1c2230'), muted: get('--muted', '#6a7283'), accent: get('--accent', '#2f6fed'),
    bz: get('--bz', '#a3aab7'), bp: get('--bp', '#0b5cad'), bw: get('--bw', '#16804f'), bo: get('--bo', '#a8560a'),
  };
  return palette;
}

// ---------- the map ----------

/** The map's cells: arrays for `cells` cells of a `size`-byte file (kept if they are these). */
function sizeMap(size, cells) {
  if (map.have && map.cells === cells && map.size === size) return;
  map = { ...map, size, cells, entropy: new Float32Array(cells), zeros: new Float32Array(cells), text: new Float32Array(cells), have: new Uint8Array(cells) };
  ui.map.dataset.size = String(size);
  ui.map.dataset.cells = String(cells);
}

function gotParts(m) {
  sizeMap(m.size, m.cells);
  map = { ...map, parts: m.parts, owners: m.owners, paths: new Map() };
  m.parts.forEach((p, i) => map.paths.set(p.path, i));
  unsay('map');
  showPass();
  drawMap();
  drawMarks();
  soon(drawFrame);
  soon(panesChanged);
}

/** Cells counted: the coarse pass's (which comes before the parts: the file's
 * structure may take longer to read) or the exact pass's, which replace them. */
function gotCells(m) {
  sizeMap(m.size, m.cells);
  const full = m.pass === 'full';
  for (let k = m.from; k < m.to && k < map.cells; k++) {
    if (!full && map.have[k] === 2) continue;
    const j = k - m.from;
    map.entropy[k] = m.entropy[j];
    map.zeros[k] = m.zeros[j];
    map.text[k] = m.text[j];
    map.have[k] = full ? 2 : 1;
  }
  if (full) map.full = Math.max(map.full, m.to);
  if (full && m.done) map.pass = 'full';
  else if (map.pass === 'none') map.pass = 'coarse';
  ui.map.dataset.pass = map.pass;
  showPass();
  if (mode !== 'structure') soon(drawMap);
  if (tab === 'stats' && ui.scope.value === 'file') soon(drawGraph);
}

/** The strip's foot: how far the exact pass is, and a button to pause or resume it. */
function showPass() {
  const b = ui.mapRun;
  const going = map.cells > 0 && map.pass !== 'full';
  b.hidden = !going;
  if (!going) return;
  const p = `${Math.floor((100 * map.full) / map.cells)}%`;
  b.textContent = map.paused ? `▶ ${p}` : p;
  b.title = map.paused ? 'The exact count is paused: resume it' : `Counting the map exactly (${p}): pause`;
}

function toggleMapPass() {
  if (!worker || !map.cells) return;
  map.paused = !map.paused;
  worker.postMessage({ type: map.paused ? 'glance-stop' : 'glance-on', job, what: 'map' });
  showPass();
}

function setMode(m) {
  mode = m;
  ui.mode.value = m;
  drawMap();
  soon(panesChanged);
}

/** The colour of cell `i` in the current mode. */
function cellColour(i, t) {
  if (mode === 'structure') {
    const o = map.owners[i];
    return o >= 0 ? partColour(o) : rgb(t.panel2);
  }
  if (!map.have[i]) return rgb(t.border);
  if (mode === 'entropy') return rgb(ramp(map.entropy[i]));
  if (mode === 'zeros') return rgb(mix(t.panel, t.text, map.zeros[i]));
  return rgb(mix(t.panel, t.bp, map.text[i]));
}

function ramp(e) {
  for (let k = 1; k < RAMP.length; k++) {
    if (e <= RAMP[k][0] || k === RAMP.length - 1) {
      const [a, ca] = RAMP[k - 1];
      const [b, cb] = RAMP[k];
      return mix(ca, cb, (e - a) / (b - a));
    }
  }
  return RAMP[0][1];
}

/** Draws the cells: cell i takes the rows [i·H/cells, (i+1)·H/cells), at least one. */
function drawMap() {
  const c = ui.canvas;
  const ctx = c.getContext('2d');
  ctx.imageSmoothingEnabled = false;
  ctx.clearRect(0, 0, c.width, c.height);
  const n = map.cells;
  const H = c.height;
  if (!n || (mode === 'structure' && !map.owners)) return;
  const t = colours();
  for (let i = 0; i < n; i++) {
    const y0 = Math.floor((i * H) / n);
    const y1 = Math.max(y0 + 1, Math.floor(((i + 1) * H) / n));
    ctx.fillStyle = cellColour(i, t);
    ctx.fillRect(0, y0, c.width, y1 - y0);
  }
}

/** Ticks for the marks at the strip's right edge: a lane for each kind. */
function drawMarks() {
  const c = ui.marks;
  const ctx = c.getContext('2d');
  ctx.clearRect(0, 0, c.width, c.height);
  const list = marks.list;
  if (!map.size || !list.length) return;
  const lane = Math.max(1, Math.floor(c.width / 3));
  const least = Math.max(2, Math.round(2 * (window.devicePixelRatio || 1)));
  for (let j = 0; j + 2 < list.length; j += 3) {
    const kind = list[j];
    if (!(kind >= 0 && kind <= 2)) continue;
    const y0 = Math.floor((list[j + 1] / map.size) * c.height);
    const y1 = Math.max(y0 + least, Math.ceil((list[j + 2] / map.size) * c.height));
    ctx.fillStyle = MARK[kind];
    ctx.fillRect(kind * lane, Math.min(y0, c.height - least), lane, y1 - y0);
  }
}

// What the worker was given (`{blob, ksy, scan, at}`, `at` the selection), or null.
let given = null;

/** The selection as `listing_source()` gives it, as text. */
const place = (src) => `${src.start} ${src.end} ${src.range ?? ''}`;

/** Looks at the page: another file, or the file decoded again, starts the
 * glance afresh; the selection moving is followed; the marks drawn if they changed. */
function pollMarks() {
  if (!isOpen()) return;
  const src = bindings().listing_source?.() ?? null;
  if (src?.blob !== given?.blob || src?.ksy !== given?.ksy || !!src?.scan !== !!given?.scan) return load();
  if (!src) return;
  if (place(src) !== given.at) {
    given.at = place(src);
    selected();
  }
  const list = src.marks;
  const old = marks.list;
  if (list.length === old.length && list.every((v, i) => v === old[i])) return;
  marks = { list };
  drawMarks();
}

/** Frames the bytes the hex pane shows (its first and last drawn rows). */
function drawFrame() {
  let lo = Infinity;
  let hi = -1;
  for (const r of appRoot().querySelectorAll('section.hex-pane .hrow[data-b]')) {
    const b = Number(r.getAttribute('data-b'));
    if (b < lo) lo = b;
    if (b > hi) hi = b;
  }
  const tall = ui.canvas.clientHeight;
  const f = ui.frame;
  f.hidden = !map.size || hi < 0 || !tall;
  if (f.hidden) return;
  const top = (lo / map.size) * tall;
  const bottom = (Math.min(map.size, hi + 16) / map.size) * tall;
  f.style.top = `${top.toFixed(1)}px`;
  f.style.height = `${Math.max(3, bottom - top).toFixed(1)}px`;
  f.dataset.first = String(lo);
  f.dataset.last = String(hi);
}

function scrolled(e) {
  if (e.target instanceof Element && e.target.matches('section.hex-pane .vscroll')) soon(drawFrame);
}

/** The byte at the pointer's height on the strip. */
function byteAt(clientY) {
  const r = ui.canvas.getBoundingClientRect();
  const at = Math.floor(((clientY - r.top) / r.height) * map.size);
  return Math.min(map.size - 1, Math.max(0, at));
}

/** The cell holding byte `at` (the one whose `cellRange` holds it). */
const cellOf = (at) => Math.min(map.cells - 1, Math.max(0, Math.ceil(((at + 1) * map.cells) / map.size) - 1));

let dragging = false;
let dragY = 0;

function press(e) {
  if (e.button !== 0 || !map.size) return;
  dragging = true;
  ui.canvas.setPointerCapture(e.pointerId);
  dragY = e.clientY;
  jump();
  e.preventDefault();
}

function moved(e) {
  if (!map.size) return;
  dragY = e.clientY;
  if (dragging) soon(jump);
  describe(e.clientY);
}

function release(e) {
  dragging = false;
  if (ui.canvas.hasPointerCapture?.(e.pointerId)) ui.canvas.releasePointerCapture(e.pointerId);
}

function jump() {
  bindings().listing_point?.([byteAt(dragY), byteAt(dragY) + 1], true);
}

/** Names what the pointer is over on the strip: the byte, and its part or figure. */
function describe(clientY) {
  const at = byteAt(clientY);
  const i = cellOf(at);
  let what;
  if (mode === 'structure') {
    const o = map.owners[i];
    what = o >= 0 ? map.parts[o].path || '/' : 'no part';
  } else if (!map.have[i]) {
    what = 'not counted yet';
  } else {
    const about = map.have[i] === 1 ? '≈' : '';
    if (mode === 'entropy') what = `${about}${map.entropy[i].toFixed(2)} bits per byte`;
    else if (mode === 'zeros') what = `${about}${(100 * map.zeros[i]).toFixed(1)}% zero bytes`;
    else what = `${about}${(100 * map.text[i]).toFixed(1)}% printable`;
  }
  const text = `${hex(at)} · ${what}`;
  ui.map.title = text;
  ui.hover.textContent = text;
  ui.hover.hidden = false;
  const r = ui.map.getBoundingClientRect();
  ui.hover.style.top = `${Math.max(0, clientY - r.top - 10)}px`;
}

// ---------- colours in the tree and the hex pane ----------

/** The innermost part holding byte `o`, or -1 (the parts are sorted by start). */
function partAt(o) {
  const p = map.parts;
  let lo = 0;
  let hi = p.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (p[mid].start <= o) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // Parts may hold parts: the last one starting before `o` may end before it.
  for (let k = at, n = 0; k >= 0 && n < 64; k--, n++) if (p[k].end > o) return k;
  return -1;
}

/** The part a tree row's path is or lies under, or -1. */
function partOfPath(path) {
  let p = path;
  while (p !== null) {
    const i = map.paths.get(p);
    if (i !== undefined) return i;
    const k = p.lastIndexOf('/');
    p = k < 0 ? null : p.slice(0, k);
  }
  return -1;
}

function setGlc(e, i) {
  const want = i >= 0 ? partColour(i) : '';
  if (e.style.getPropertyValue('--glc') === want) return;
  if (want) e.style.setProperty('--glc', want);
  else e.style.removeProperty('--glc');
}

/** The panes changed: colours on what they drew, the frame, and the selected node. */
function panesChanged() {
  const on = mode === 'structure' && map.parts.length > 0;
  document.body.classList.toggle('glance-tints', on);
  const root = appRoot();
  if (on) {
    tinting = true;
    for (const r of root.querySelectorAll('.tree .trow')) {
      const path = r.getAttribute('data-path');
      setGlc(r, path === null ? -1 : partOfPath(path));
    }
    for (const c of root.querySelectorAll('section.hex-pane [data-o]')) setGlc(c, partAt(Number(c.getAttribute('data-o'))));
  } else untint();
  drawFrame();
  const p = detailsPath();
  if (p !== null && p !== shownPath) {
    shownPath = p;
    selectedPath(p);
    selected();
  }
}

function untint() {
  if (!tinting) return;
  tinting = false;
  for (const e of appRoot().querySelectorAll('[style*="--glc"]')) e.style.removeProperty('--glc');
}

/** The selected node's path as the details pane shows it ('' for the root), or null. */
function detailsPath() {
  const d = document.getElementById('details-path');
  if (!d) return null;
  const t = d.textContent ?? '';
  return t === '/' ? '' : t;
}

// ---------- the selection ----------

/** The selection moved to bits `[start, end)`. */
function selected() {
  rangeOption();
  soon(panesChanged);
  if (!ui.followBox.checked || ui.scope.value === 'file') return;
  clearTimeout(follow);
  follow = setTimeout(() => {
    const span = statsSpan();
    if (typeof span === 'string' || (stats.span && span[0] === stats.span[0] && span[1] === stats.span[1])) return;
    if (tab === 'stats') runStats();
    else stats.stale = true;
  }, 250);
}

/** The range scope is offered only while a range of bytes is selected. */
function rangeOption() {
  const o = ui.scope.querySelector('option[value=range]');
  const has = !!bindings().listing_source?.()?.range;
  o.disabled = !has;
  o.textContent = has ? 'Selected range' : 'Selected range (none)';
  o.title = has ? 'The bytes selected in the hex pane' : 'Drag over the bytes (or Shift+click) to select a range';
}

/** The table shows the children of the newly selected node, unless it is one of its rows. */
function selectedPath(p) {
  const pre = table.path === '' ? '' : `${table.path}/`;
  const rest = p.startsWith(pre) ? p.slice(pre.length) : null;
  const isRow = p !== table.path && !!rest && (table.all || !rest.includes('/'));
  if (p === table.path || isRow) return soon(renderRows);
  table.path = p;
  requery();
}

// ---------- statistics ----------

/** The bytes `[start, end)` the scope names, or why there are none. */
function statsSpan() {
  const src = bindings().listing_source?.();
  if (!src) return 'No file is open.';
  const scope = ui.scope.value;
  if (scope === 'file') return [0, map.size || src.blob.size];
  if (scope === 'range') return src.range ? [src.range[0], src.range[1]] : 'No range of bytes is selected: drag over the bytes to select one.';
  return [Math.floor(src.start / 8), Math.ceil(src.end / 8)];
}

function runStats() {
  ui.graph.hidden = ui.scope.value !== 'file';
  const span = statsSpan();
  stats = emptyStats();
  stats.stale = false;
  if (typeof span === 'string') {
    showRun();
    drawStats();
    return say(span, false, 'stats');
  }
  stats.span = span;
  ui.what.textContent = `${hex(span[0])}–${hex(span[1])} (${num(span[1] - span[0])} bytes)`;
  if (!worker) return;
  stats.running = span[1] > span[0];
  if (stats.running) {
    worker.postMessage({ type: 'stats', job, start: span[0], end: span[1] });
    say('Counting… 0%', false, 'stats');
  } else say('No bytes to count.', false, 'stats');
  showRun();
  drawStats();
}

function gotStats(m) {
  if (!stats.span || m.start !== stats.span[0] || m.end !== stats.span[1]) return;
  stats.counts = m.counts;
  stats.done = m.done;
  const of = m.end - m.start;
  if (m.finished) {
    stats.running = false;
    say(`Counted ${num(m.done)} bytes.`, false, 'stats');
  } else if (stats.running) say(`Counting… ${Math.floor((100 * m.done) / Math.max(1, of))}%`, false, 'stats');
  showRun();
  soon(drawStats);
}

function stopped(what) {
  if (what === 'map') {
    map.paused = true;
    return showPass();
  }
  if (what !== 'stats' || !stats.running) return;
  stats.running = false;
  const of = stats.span ? stats.span[1] - stats.span[0] : 0;
  say(`Stopped at ${Math.floor((100 * stats.done) / Math.max(1, of))}%: the figures are of the bytes counted so far.`, false, 'stats');
  showRun();
}

function showRun() {
  ui.run.textContent = stats.running ? 'Stop' : 'Run';
  ui.run.title = stats.running ? 'Stop counting' : 'Count the bytes again';
}

function drawStats() {
  if (!ui || ui.statsPane.hidden) return;
  const c = stats.counts;
  const total = stats.done;
  let entropy = 0;
  let printable = c[9] + c[10] + c[13];
  let high = 0;
  for (let b = 0; b < 256; b++) {
    if (c[b] > 0 && total > 0) {
      const p = c[b] / total;
      entropy -= p * Math.log2(p);
    }
    if (b >= 0x20 && b <= 0x7e) printable += c[b];
    if (b >= 0x80) high += c[b];
  }
  const f = ui.figures;
  f.entropy.textContent = total ? entropy.toFixed(3) : '–';
  f.zeros.textContent = `${num(c[0])} (${pct(c[0], total)})`;
  f.printable.textContent = `${num(printable)} (${pct(printable, total)})`;
  f.high.textContent = `${num(high)} (${pct(high, total)})`;
  f.total.textContent = num(total);
  drawHist();
  if (!ui.countTable.hidden) fillCounts();
  ui.graph.hidden = ui.scope.value !== 'file';
  if (!ui.graph.hidden) drawGraph();
}

/** The byte values' counts as bars (coloured by class, as the hex pane colours bytes). */
function drawHist() {
  const cv = ui.hist;
  fit(cv);
  const ctx = cv.getContext('2d');
  const d = window.devicePixelRatio || 1;
  const W = cv.width;
  const foot = Math.round(13 * d);
  const H = cv.height - foot;
  const t = colours();
  ctx.clearRect(0, 0, W, cv.height);
  const c = stats.counts;
  const log = ui.logBox.checked;
  let max = 0;
  for (let b = 0; b < 256; b++) max = Math.max(max, c[b]);
  const scale = (v) => (max <= 0 ? 0 : log ? Math.log1p(v) / Math.log1p(max) : v / max);
  for (let b = 0; b < 256; b++) {
    if (!c[b]) continue;
    const x0 = Math.floor((b * W) / 256);
    const x1 = Math.max(x0 + 1, Math.floor(((b + 1) * W) / 256));
    const y = Math.max(1, Math.round(scale(c[b]) * (H - 2)));
    const cls = b === 0 ? t.bz : b === 0x20 || (b >= 9 && b <= 13) ? t.bw : b > 0x20 && b < 0x7f ? t.bp : t.bo;
    ctx.fillStyle = rgb(cls);
    ctx.fillRect(x0, H - y, x1 - x0, y);
  }
  ctx.fillStyle = rgb(t.border);
  ctx.fillRect(0, H, W, Math.max(1, Math.round(d)));
  ctx.fillStyle = rgb(t.muted);
  ctx.font = `${Math.round(10 * d)}px system-ui, sans-serif`;
  ctx.textBaseline = 'bottom';
  ctx.textAlign = 'left';
  for (const b of [0, 0x40, 0x80, 0xc0]) ctx.fillText(byteName(b), Math.floor((b * W) / 256) + 2, cv.height);
  ctx.textAlign = 'right';
  ctx.fillText('0xFF', W - 2, cv.height);
}

/** Entropy along the whole file, from the map's cells: offset across, 0–8 bits up. */
function drawGraph() {
  const cv = ui.graph;
  if (cv.hidden) return;
  fit(cv);
  const ctx = cv.getContext('2d');
  const d = window.devicePixelRatio || 1;
  const t = colours();
  const left = Math.round(34 * d);
  const foot = Math.round(14 * d);
  const W = cv.width - left;
  const H = cv.height - foot;
  ctx.clearRect(0, 0, cv.width, cv.height);
  ctx.font = `${Math.round(10 * d)}px system-ui, sans-serif`;
  ctx.fillStyle = rgb(t.muted);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const bits of [0, 4, 8]) {
    const y = Math.round(H - (bits / 8) * (H - 1)) - 0.5;
    ctx.fillText(bits === 8 ? '8 bits' : String(bits), left - 4, Math.min(H - 5 * d, Math.max(6 * d, y)));
    ctx.fillStyle = rgb(t.border);
    ctx.fillRect(left, y, W, Math.max(1, Math.round(d)));
    ctx.fillStyle = rgb(t.muted);
  }
  ctx.textBaseline = 'bottom';
  ctx.textAlign = 'left';
  ctx.fillText('0x0', left, cv.height);
  ctx.textAlign = 'right';
  ctx.fillText(hex(map.size), cv.width, cv.height);
  ctx.textAlign = 'center';
  ctx.fillText('offset', left + W / 2, cv.height);
  const n = map.cells;
  if (!n) return;
  ctx.fillStyle = rgb(t.accent);
  for (let i = 0; i < n; i++) {
    if (!map.have[i]) continue;
    const x0 = left + Math.floor((i * W) / n);
    const x1 = Math.max(x0 + 1, left + Math.floor(((i + 1) * W) / n));
    const y = Math.max(1, Math.round((map.entropy[i] / 8) * (H - 1)));
    ctx.fillRect(x0, H - y, x1 - x0, y);
  }
}

function toggleCounts() {
  const t = ui.countTable;
  t.hidden = !t.hidden;
  ui.counts.setAttribute('aria-expanded', String(!t.hidden));
  if (!t.hidden) fillCounts();
}

/** The count table: every byte value, its count and its share. */
function fillCounts() {
  const t = ui.countTable;
  if (!t.tBodies.length) {
    const head = h('thead', {}, h('tr', {}, ...['Byte', 'Char', 'Count', 'Share'].map((c) => h('th', {}, c))));
    const body = h('tbody');
    for (let b = 0; b < 256; b++) {
      const ch = b > 0x20 && b < 0x7f ? String.fromCharCode(b) : '';
      body.append(h('tr', { 'data-byte': b }, h('td', { className: 'mono' }, byteName(b)), h('td', { className: 'mono' }, ch), h('td'), h('td')));
    }
    t.append(head, body);
  }
  const rows = t.tBodies[0].rows;
  for (let b = 0; b < 256; b++) {
    const n = stats.counts[b];
    rows[b].cells[2].textContent = num(n);
    rows[b].cells[3].textContent = pct(n, stats.done);
  }
}

// ---------- the field table ----------

function tableKey() {
  return JSON.stringify([table.path, table.all, table.sort, table.desc, table.filter]);
}

/** The table's question changed: forget its rows and ask again. */
function requery() {
  table.key = tableKey();
  table.total = -1;
  table.pages = new Map();
  table.asked = new Set();
  ui.node.textContent = `${table.all ? 'Descendants' : 'Children'} of ${table.path || '/'}`;
  ui.node.title = ui.node.textContent;
  ui.count.textContent = '';
  for (const b of ui.heads) {
    const on = b.dataset.col === table.sort;
    b.lastChild.textContent = on ? (table.desc ? '▼' : '▲') : '';
    b.setAttribute('aria-sort', on ? (table.desc ? 'descending' : 'ascending') : 'none');
  }
  ui.order.disabled = table.sort === 'order';
  ui.rows.scrollTop = 0;
  renderRows();
}

function sortBy(col) {
  if (col === table.sort && col !== 'order') table.desc = !table.desc;
  else {
    table.sort = col;
    table.desc = false;
  }
  requery();
}

function askPage(k) {
  if (!worker || !given || table.asked.has(k)) return;
  table.asked.add(k);
  const { path, all, sort, desc, filter } = table;
  worker.postMessage({ type: 'table', job, path, all, sort, desc, filter, first: k * PAGE, count: PAGE });
}

function gotTable(m) {
  if (JSON.stringify([m.path, m.all, m.sort, m.desc, m.filter]) !== table.key) return;
  if (m.error) {
    table.total = 0;
    ui.count.textContent = '0 rows';
    say(m.error, true, 'table');
    return renderRows();
  }
  unsay('table');
  table.total = m.total;
  table.pages.set(Math.floor(m.first / PAGE), m.rows);
  ui.count.textContent = `${num(m.total)} row${m.total === 1 ? '' : 's'}`;
  renderRows();
}

/** Draws the rows in view (asking for the pages of them not here), reusing row elements. */
function renderRows() {
  if (!ui || ui.tablePane.hidden || !table.key) return;
  const sc = ui.rows;
  if (table.total < 0) askPage(0);
  const total = Math.max(0, table.total);
  const whole = total * ROW;
  const tall = Math.min(whole, MAXPX);
  ui.spacer.style.height = `${tall}px`;
  const view = sc.clientHeight;
  const shown = Math.ceil(view / ROW) + 1;
  let first;
  let top;
  if (whole <= MAXPX) {
    first = Math.floor(sc.scrollTop / ROW);
    top = first * ROW;
  } else {
    // Too many rows for the browser's scroll height: the scroll bar's place
    // stands for a place among the rows.
    const f = sc.scrollTop / Math.max(1, tall - view);
    first = Math.floor(Math.min(1, f) * Math.max(0, total - shown + 1));
    top = sc.scrollTop;
  }
  const last = Math.min(total, first + shown);
  for (let k = Math.floor(first / PAGE); k * PAGE < last; k++) if (!table.pages.has(k)) askPage(k);
  ui.lines.style.transform = `translateY(${top}px)`;
  const pool = table.pool;
  let n = 0;
  for (let i = first; i < last; i++, n++) {
    let row = pool[n];
    if (!row) {
      row = h('div', { className: 'glance-row', role: 'row' }, ...COLS.map(([c]) => h('span', { className: `gc gc-${c}` })));
      pool.push(row);
      ui.lines.append(row);
    }
    row.hidden = false;
    fillRow(row, table.pages.get(Math.floor(i / PAGE))?.[i % PAGE]);
  }
  for (; n < pool.length; n++) pool[n].hidden = true;
  trimPages(first);
}

function fillRow(row, r) {
  const cells = row.children;
  row.classList.toggle('pending', !r);
  if (!r) {
    row.classList.remove('current');
    delete row.dataset.path;
    delete row.dataset.start;
    for (const c of cells) c.textContent = '';
    cells[0].textContent = '…';
    return;
  }
  const [path, start, end, kind, value, meaning] = r;
  const s = Number(start);
  row.dataset.path = String(path);
  row.dataset.start = String(s);
  row.classList.toggle('current', path === shownPath);
  const texts = [String(path), hex(s), hex(Number(end) - s), String(kind ?? ''), String(value ?? ''), String(meaning ?? '')];
  texts.forEach((t, k) => {
    if (cells[k].textContent !== t) cells[k].textContent = t;
  });
  cells[0].title = texts[0];
  cells[4].title = texts[4];
  cells[5].title = texts[5];
}

/** Forgets the pages of rows farthest from the view while more are kept than KEEP. */
function trimPages(first) {
  if (table.pages.size <= KEEP) return;
  const here = Math.floor(first / PAGE);
  const far = [...table.pages.keys()].sort((a, b) => Math.abs(b - here) - Math.abs(a - here));
  for (const k of far.slice(0, table.pages.size - KEEP)) {
    table.pages.delete(k);
    table.asked.delete(k);
  }
}

function copy(form) {
  if (!worker || !given || !table.key) return;
  copying = form;
  const { path, all, sort, desc, filter } = table;
  worker.postMessage({ type: 'table-copy', job, path, all, sort, desc, filter, form });
  say('Copying…', false, 'copy');
}

function copied(m) {
  if (m.error) return say(`Could not copy: ${m.error}`, true, 'copy');
  if (!navigator.clipboard) return say('This browser gives the page no clipboard here.', true, 'copy');
  navigator.clipboard.writeText(m.text).then(
    () => say(`Copied ${num(m.rows)} row${m.rows === 1 ? '' : 's'} as ${copying.toUpperCase()}.`, false, 'copy'),
    (e) => say(`Could not copy: ${e && e.message ? e.message : e}`, true, 'copy'),
  );
}
