// The listing pane: the program text of the open file (an SM4/5 program as FXC
// lists it, an LLVM bitcode module as llvm-dis prints it) beside the bytes. It is
// fetched when first opened (static/shell.js's `hexlensListing`, which the app's
// toolbar button calls), and runs its own worker module, hexlens-worker-listing
// (crates/worker/src/worker.rs, `listing`), which holds the one program text and
// makes it a piece at a time: the head, one function, the tail.
//
// Only the lines in view are in the DOM. Pieces not made yet take the room the
// worker estimates for them and are asked for as they scroll into view; a made
// piece's real height replaces the estimate, and the lines in view stay put.
//
// The page's side (src/listing.rs): `wasmBindings.listing_source()` gives the open
// file and the selected bits; `listing_point(spans, false)` marks a hovered line's
// bytes in the hex pane; `listing_point(spans, true)` moves the cursor to the
// first and selects its owner; the page calls `window.hexlensListingSelected(start, end)` (bits)
// when the selection moves, and the pane marks and shows the line made from it,
// and `window.hexlensListingReload()` when another file opens.
//
// A marked line is named in the address's query, `listing=P:K.I` (program P of the
// file, line I of piece K, from 0), which the app's own place (the fragment) leaves
// alone: opening that address opens the pane on that line (static/shell.js opens
// the pane once the app shows a file).
//
// File content is only ever set as text.

const LINE = 18; // px, the stylesheet's line height
const AHEAD = 2; // screens of lines asked for beyond the view
// Lines of text the page keeps (`window.hexlensListingHold` overrides it): past
// it, the pieces farthest from the view are dropped, and made again by the
// worker when they are looked at again.
const HOLD = 100000;

let root = null; // the pane's element
let scroller, spacer, rowsEl, statusEl, selectEl, searchEl, backEl;
let worker = null;
let job = 0;
// The open program: its pieces' lines (null until made) and heights.
let pieces = [];
let heights = [];
let starts = []; // starts[k]: the first line of piece k; starts[n]: the total
let programs = [];
let asked = new Set(); // pieces asked for and not back yet
let held = 0; // lines of the pieces kept
let waiters = new Map(); // piece -> callbacks run once it is made
let marked = null; // [piece, line] of the marked line
let trail = []; // places gone from by a go-to-definition
let pool = [];
// A line the address names, shown once its program is open: [program, piece, line].
let asking; // the program the open job asked for (undefined: the one holding the selection)
let linked = parsePlace(new URLSearchParams(location.search).get('listing'));
// Opened at such an address, the line it names stays marked while the app puts
// back the place its fragment names (that selection arrives when the app's
// worker has found its node, before or after the pane is ready): the pane
// follows the selection again from the user's first click or key.
let following = !linked;
if (!following) {
  const follow = () => {
    following = true;
    document.removeEventListener('pointerdown', follow, true);
    document.removeEventListener('keydown', follow, true);
  };
  document.addEventListener('pointerdown', follow, true);
  document.addEventListener('keydown', follow, true);
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function bindings() {
  return window.wasmBindings || {};
}

/** Opens the pane, or closes it if it is open. */
export function toggle() {
  if (root && !root.hidden) return close();
  if (!root) build();
  root.hidden = false;
  document.body.classList.add('listing-open');
  window.hexlensListingSelected = (start, end) => following && locate(start, end);
  window.hexlensListingReload = () => load();
  load();
}

function close() {
  place(null);
  root.hidden = true;
  document.body.classList.remove('listing-open');
  delete window.hexlensListingSelected;
  delete window.hexlensListingReload;
  bindings().listing_point?.([], false);
  if (worker) worker.terminate();
  worker = null;
}

function build() {
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = new URL('listing.css', import.meta.url).href;
  document.head.append(css);
  root = el('section', 'listing-pane');
  root.id = 'listing-pane';
  root.setAttribute('aria-label', 'Program text');
  const head = el('div', 'listing-head');
  const title = el('span', 'listing-title', 'Listing');
  selectEl = el('select', 'listing-program');
  selectEl.setAttribute('aria-label', 'Program');
  selectEl.addEventListener('change', () => load(Number(selectEl.value)));
  backEl = el('button', 'btn btn-small', 'Back');
  backEl.type = 'button';
  backEl.title = 'Back to where the last go-to-definition left (Alt+Left)';
  backEl.disabled = true;
  backEl.addEventListener('click', back);
  searchEl = el('input', 'listing-search');
  searchEl.type = 'search';
  searchEl.placeholder = 'Find in listing (Enter)';
  searchEl.setAttribute('aria-label', 'Find in listing');
  searchEl.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      find(searchEl.value, e.shiftKey ? -1 : 1);
    }
  });
  const copy = el('button', 'btn btn-small', 'Copy');
  copy.type = 'button';
  copy.title = "Copy the program's whole text";
  copy.addEventListener('click', () => whole().then((t) => navigator.clipboard.writeText(t)).then(() => say('Copied the listing.'), (e) => say(`Could not copy: ${e && e.message ? e.message : e}`)));
  const save = el('button', 'btn btn-small', 'Download');
  save.type = 'button';
  save.title = "Save the program's whole text";
  save.addEventListener('click', download);
  const shut = el('button', 'btn btn-small', 'Close');
  shut.type = 'button';
  shut.addEventListener('click', close);
  statusEl = el('span', 'listing-status');
  statusEl.setAttribute('role', 'status');
  head.append(title, selectEl, backEl, searchEl, copy, save, statusEl, shut);
  scroller = el('div', 'listing-scroll');
  scroller.tabIndex = 0;
  spacer = el('div', 'listing-spacer');
  rowsEl = el('div', 'listing-rows');
  spacer.append(rowsEl);
  scroller.append(spacer);
  root.append(head, scroller);
  document.body.append(root);
  scroller.addEventListener('scroll', () => requestAnimationFrame(render));
  new ResizeObserver(() => render()).observe(scroller);
  rowsEl.addEventListener('mouseover', (e) => {
    const row = e.target instanceof Element ? e.target.closest('.listing-line') : null;
    if (row) hover(Number(row.dataset.p), Number(row.dataset.i));
  });
  scroller.addEventListener('mouseleave', () => bindings().listing_point?.([], false));
  rowsEl.addEventListener('click', click);
  root.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') close();
    if (e.key === 'ArrowLeft' && e.altKey) back();
  });
}

function say(text) {
  statusEl.textContent = text;
}

/** Starts the worker and opens the program holding the selection (or program `which`). */
function load(which) {
  asking = which;
  if (worker) worker.terminate();
  worker = null;
  job += 1;
  reset();
  const msg = window.hexlensListingRequest(job, which);
  // The worker the page started when the pane was first asked for, else a new one.
  const warm = window.hexlensListingWorker;
  delete window.hexlensListingWorker;
  if (!msg) {
    if (warm) warm.worker.terminate();
    return say('No file is open.');
  }
  worker = warm ? warm.worker : new Worker(new URL('worker.js?m=listing', import.meta.url));
  worker.onerror = (e) => say(`The listing stopped: ${e.message || 'its module could not start'}`);
  say('Reading the program…');
  // The started worker was asked for this very job: its answers are ours.
  // Asked for something else, its answers go to a job that is over.
  const reuse = !!warm?.asked && ['job', 'blob', 'scan', 'name', 'at', 'program'].every((k) => warm.asked[k] === msg[k]);
  if (warm && !reuse) msg.job = job += 1;
  worker.onmessage = (e) => receive(e.data);
  if (!reuse) worker.postMessage(msg);
  if (warm) warm.early.forEach(receive);
}

function reset() {
  held = 0;
  pieces = [];
  heights = [];
  starts = [0];
  asked = new Set();
  waiters = new Map();
  marked = null;
  trail = [];
  backEl.disabled = true;
  spacer.style.height = '0px';
  render();
}

function receive(m) {
  // The worker's wasm memory, for the benchmark (bench/listing.mjs).
  if (m.wasmBytes) root.dataset.wasmBytes = String(m.wasmBytes);
  if (m.job !== job) return;
  if (m.type === 'panic') return say(`The listing stopped: ${m.message}`);
  if (m.type === 'failed') return say(m.message);
  if (m.type === 'listed') {
    if (m.error) return say(m.error);
    programs = m.programs.map((p) => ({ ...p }));
    selectEl.replaceChildren(...programs.map((p, i) => {
      const o = el('option', '', `${p.path || '(the file)'} ${p.kind}`);
      o.value = String(i);
      return o;
    }));
    selectEl.value = String(m.current);
    selectEl.hidden = programs.length < 2;
    pieces = new Array(m.pieces).fill(null);
    heights = m.estimates.map((h) => Math.max(1, h));
    restack();
    say('');
    scroller.scrollTop = 0;
    render();
    // The address's line is forgotten once shown (a reload before that, when
    // another file opens, still shows it if that file has it).
    const link = linked;
    if (link && link[0] !== m.current && link[0] < programs.length && asking === undefined) {
      return load(link[0]);
    }
    if (link && link[0] === m.current) {
      return ask(link[1], () => {
        linked = null;
        if (pieces[link[1]] && link[2] < pieces[link[1]].lines.length) mark(link[1], link[2], true);
      });
    }
    linked = null;
    const src = following && bindings().listing_source?.();
    if (src) locate(src.start, src.end);
    return;
  }
  if (m.type === 'piece') return made(m);
  if (m.type === 'located') {
    const cbs = waiters.get(`at${m.bit}`);
    waiters.delete(`at${m.bit}`);
    (cbs || []).forEach((f) => f(m.k));
  }
  if (m.type === 'defined') {
    const cbs = waiters.get(`def${m.name}`);
    waiters.delete(`def${m.name}`);
    (cbs || []).forEach((f) => f(m.k));
  }
}

function restack() {
  starts = [0];
  for (const h of heights) starts.push(starts[starts.length - 1] + h);
  spacer.style.height = `${starts[starts.length - 1] * LINE}px`;
}

/** Piece `m.k` is made: it takes its real height, the lines in view stay where they are. */
function made(m) {
  const lines = m.lines === 0 ? [] : m.text.split('\n');
  const spans = [];
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    const n = m.bits[at++];
    spans.push(m.bits.subarray(at, at + 2 * n));
    at += 2 * n;
  }
  const k = m.k;
  if (!pieces[k]) held += lines.length;
  pieces[k] = { lines, spans };
  asked.delete(k);
  const top = scroller.scrollTop / LINE;
  const before = starts[k + 1] <= top;
  const delta = lines.length - heights[k];
  heights[k] = lines.length;
  restack();
  if (before && delta !== 0) scroller.scrollTop += delta * LINE;
  render();
  const cbs = waiters.get(k);
  waiters.delete(k);
  (cbs || []).forEach((f) => f());
  trim();
}

/** Drops the pieces farthest from the view while the page keeps more than it should. */
function trim() {
  const hold = window.hexlensListingHold ?? HOLD;
  if (held > hold) {
    const first = Math.floor(scroller.scrollTop / LINE);
    const lo = pieceOf(first);
    const hi = pieceOf(first + Math.ceil(scroller.clientHeight / LINE));
    const far = [];
    pieces.forEach((p, k) => {
      if (p && (k < lo || k > hi) && !(marked && marked[0] === k)) far.push(k);
    });
    far.sort((a, b) => Math.abs(b - lo) - Math.abs(a - lo));
    for (const k of far) {
      if (held <= hold / 2) break;
      held -= pieces[k].lines.length;
      pieces[k] = null;
    }
  }
  root.dataset.held = String(held);
}

function ask(k, then) {
  if (k < 0 || k >= pieces.length) return;
  if (pieces[k]) {
    if (then) then();
    return;
  }
  if (then) waiters.set(k, [...(waiters.get(k) || []), then]);
  if (asked.has(k)) return;
  asked.add(k);
  worker.postMessage({ type: 'piece', job, k });
}

function piece(k) {
  return new Promise((resolve) => ask(k, () => resolve(pieces[k])));
}

/** The piece holding line `line` of the whole text. */
function pieceOf(line) {
  let lo = 0;
  let hi = pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Draws the lines in view (and asks for the pieces they are in). */
function render() {
  if (!root || root.hidden) return;
  const total = starts[starts.length - 1] || 0;
  const first = Math.floor(scroller.scrollTop / LINE);
  const count = Math.ceil(scroller.clientHeight / LINE) + 1;
  const last = Math.min(total, first + count);
  for (let k = pieceOf(first); k < pieces.length && starts[k] < first + count * (1 + AHEAD); k++) {
    ask(k);
  }
  rowsEl.style.transform = `translateY(${first * LINE}px)`;
  let n = 0;
  for (let line = first; line < last; line++, n++) {
    const k = pieceOf(line);
    const i = line - starts[k];
    const p = pieces[k];
    let row = pool[n];
    if (!row) {
      row = el('div', 'listing-line');
      pool.push(row);
      rowsEl.append(row);
    }
    row.hidden = false;
    row.dataset.p = String(k);
    row.dataset.i = String(i);
    const text = p ? p.lines[i] ?? '' : '';
    if (row.textContent !== text) row.textContent = text;
    row.classList.toggle('pending', !p);
    row.classList.toggle('marked', !!marked && marked[0] === k && marked[1] === i);
  }
  for (; n < pool.length; n++) pool[n].hidden = true;
}

function spansOf(k, i) {
  const p = pieces[k];
  return p && p.spans[i] ? p.spans[i] : new Float64Array(0);
}

/** The bytes bit ranges `bits` lie in, merged: [start, end, start, end, …]. */
function bytesOf(bits) {
  const out = [];
  for (let j = 0; j < bits.length; j += 2) {
    const s = Math.floor(bits[j] / 8);
    const e = Math.ceil(bits[j + 1] / 8);
    if (out.length && s <= out[out.length - 1]) out[out.length - 1] = Math.max(out[out.length - 1], e);
    else out.push(s, e);
  }
  return out;
}

function hover(k, i) {
  bindings().listing_point?.(bytesOf(spansOf(k, i)), false);
}

/** `P:K.I` as [P, K, I], or null. */
function parsePlace(v) {
  const m = /^(\d+):(\d+)\.(\d+)$/.exec(v || '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** Names line `i` of piece `k` of the open program in the address (null: none). */
function place(at) {
  const url = new URL(location.href);
  if (at) url.searchParams.set('listing', `${Number(selectEl.value) || 0}:${at[0]}.${at[1]}`);
  else url.searchParams.delete('listing');
  if (url.href !== location.href) window.history.replaceState(window.history.state, '', url);
}

/** Marks line `i` of piece `k` and scrolls it into view if it is not. */
function mark(k, i, scroll = true) {
  marked = [k, i];
  place(marked);
  const line = starts[k] + i;
  const top = scroller.scrollTop / LINE;
  const rows = scroller.clientHeight / LINE;
  if (scroll && (line < top || line >= top + rows - 1)) {
    scroller.scrollTop = Math.max(0, (line - Math.floor(rows / 3)) * LINE);
  }
  render();
}

/** The line made from the bits `[start, end)` (the one whose range fits them best), shown. */
function locate(start, end) {
  if (!worker || !pieces.length) return;
  const key = `at${start}`;
  waiters.set(key, [...(waiters.get(key) || []), (k) => ask(k, () => {
    const best = bestLine(k, start, end) ?? bestAnywhere(start, end);
    if (best) mark(best[0], best[1], true);
  })]);
  worker.postMessage({ type: 'locate', job, bit: start });
}

function bestLine(k, start, end) {
  const p = pieces[k];
  if (!p) return null;
  let best = null;
  let size = Infinity;
  for (let i = 0; i < p.lines.length; i++) {
    const s = p.spans[i];
    for (let j = 0; j < s.length; j += 2) {
      if (s[j] <= start && start < s[j + 1]) {
        // Prefer the line whose range fits the selection best.
        const d = (s[j + 1] - s[j]) + Math.abs(s[j] - start) + Math.abs(s[j + 1] - end);
        if (d < size) {
          size = d;
          best = [k, i];
        }
      }
    }
  }
  return best;
}

function bestAnywhere(start, end) {
  for (let k = 0; k < pieces.length; k++) {
    const b = bestLine(k, start, end);
    if (b) return b;
  }
  return null;
}

/** A click: on a name (`%12`, `@g`, `!34`, `#0`), to its definition; elsewhere, the line's bytes. */
function click(e) {
  const row = e.target instanceof Element ? e.target.closest('.listing-line') : null;
  if (!row) return;
  const k = Number(row.dataset.p);
  const i = Number(row.dataset.i);
  const word = wordAt(row, e.clientX, e.clientY);
  if (word && define(k, i, word)) return;
  mark(k, i, false);
  const s = spansOf(k, i);
  if (s.length) bindings().listing_point?.(bytesOf(s), true);
}

/** The name under the pointer in `row`, if any. */
function wordAt(row, x, y) {
  const text = row.textContent || '';
  let at = -1;
  if (document.caretPositionFromPoint) {
    const c = document.caretPositionFromPoint(x, y);
    if (c && row.contains(c.offsetNode)) at = c.offset;
  } else if (document.caretRangeFromPoint) {
    const r = document.caretRangeFromPoint(x, y);
    if (r && row.contains(r.startContainer)) at = r.startOffset;
  }
  if (at < 0) return null;
  const re = /[%@!#](?:"(?:[^"\\]|\\.)*"|[-\w$.]+)/g;
  for (let m; (m = re.exec(text)); ) {
    if (m.index <= at && at <= m.index + m[0].length) return m[0];
  }
  return null;
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Goes to the definition of `word` used on line `i` of piece `k`; false if it has none. */
function define(k, i, word) {
  const sigil = word[0];
  const name = escapeRe(word);
  const found = (kk, re) => {
    const p = pieces[kk];
    if (!p) return false;
    const j = p.lines.findIndex((l) => re.test(l));
    if (j < 0 || (kk === k && j === i)) return false;
    trail.push([k, i, scroller.scrollTop]);
    backEl.disabled = false;
    mark(kk, j, true);
    return true;
  };
  if (sigil === '%') {
    // A value or a block of this function: its defining line, its label, or the define line.
    const bare = word.slice(1).replace(/^"|"$/g, '');
    return found(k, new RegExp(`^\\s*${name} = `))
      || found(k, new RegExp(`^${escapeRe(bare)}:`))
      || found(k, new RegExp(`^define .*${name}[,)]`));
  }
  // Metadata, an attribute group, a global or a function: the worker knows
  // the piece that defines it (numbering what it must to tell).
  const re = sigil === '!' ? new RegExp(`^${name} = `)
    : sigil === '#' ? new RegExp(`^attributes ${name} = `)
      : new RegExp(`^(${name} = |(define|declare) .*${name}\\()`);
  const key = `def${word}`;
  if (!waiters.has(key)) worker.postMessage({ type: 'define', job, name: word });
  waiters.set(key, [...(waiters.get(key) || []), (kk) => {
    if (kk < 0) return say(`${word} is not defined in this text.`);
    ask(kk, () => found(kk, re) || say(`${word} is not defined in this text.`));
  }]);
  return true;
}

function back() {
  const h = trail.pop();
  backEl.disabled = trail.length === 0;
  if (!h) return;
  marked = [h[0], h[1]];
  scroller.scrollTop = h[2];
  render();
}

/** Finds `text` (any case) after the marked line (before it with `dir` -1), making pieces as it goes. */
async function find(text, dir) {
  if (!text || !pieces.length) return;
  const want = text.toLowerCase();
  const n = pieces.length;
  let [k, i] = marked || [pieceOf(Math.floor(scroller.scrollTop / LINE)), -1];
  const me = job;
  for (let step = 0; step <= n; step++) {
    const p = await piece(k);
    if (me !== job) return;
    const from = step === 0 ? i + dir : dir > 0 ? 0 : p.lines.length - 1;
    for (let j = from; j >= 0 && j < p.lines.length; j += dir) {
      if (p.lines[j].toLowerCase().includes(want)) {
        say('');
        return mark(k, j, true);
      }
    }
    k = (k + dir + n) % n;
    say(`Finding… (${step + 1} of ${n} pieces)`);
  }
  say(`No line holds "${text}".`);
}

/** The program's whole text (every piece made). */
async function whole() {
  const out = [];
  const me = job;
  for (let k = 0; k < pieces.length; k++) {
    const p = await piece(k);
    if (me !== job) throw new Error('another program was opened');
    for (const l of p.lines) out.push(l);
  }
  return out.join('\n') + '\n';
}

async function download() {
  try {
    say('Making the whole listing…');
    const text = await whole();
    const program = programs[Number(selectEl.value) || 0];
    const kind = program ? program.kind : '';
    const ext = kind === 'SHEX' || kind === 'SHDR' ? 'asm' : 'll';
    const a = el('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.download = `${(program && program.path ? program.path : 'module').replace(/[^\w.-]+/g, '_')}.${ext}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    say('');
  } catch (e) {
    say(`Could not make the listing: ${e && e.message ? e.message : e}`);
  }
}
