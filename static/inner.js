// The bytes a `.ksy` field's `process` made (xor, rotate, zlib, …), which
// are not the file's: a hex view of them docked under the viewer. The
// details pane's "Show" (on such a field, or on a node read from its bytes)
// opens it through `hexlensFormats.inner(path)` (static/shell.js).
//
// The decode worker holds them (`wasmBindings.ksy_worker()` gives it and
// the load it holds): the view asks it for a window of them at a time
// (`{type: "inner", job, path, from, to}`, crates/worker/src/worker.rs),
// with which node owns each byte; the page hands its answers to `heard`. Only the rows in view are in the DOM.
// The node asked about is marked; hovering a byte marks the node owning it
// and names it; a click selects that node in the tree (`ksy_go`). While
// open, the view follows the selection to other nodes in such bytes.
//
// File content is only ever set as text.

import { el, styles } from './ksy.js';

const ROW = 16; // bytes a row
const LINE = 18; // px, the stylesheet's line height
const WINDOW = 4096; // bytes asked for at once (a multiple of ROW)

let pane = null; // its elements, once built
let view = null; // what is shown: {path, job, holder, at, len, mark, windows}
let hover = -1; // the owner (an index into a window's segments) hovered
let following = null; // what tells the view where the selection is

const hex = (n, w = 0) => n.toString(16).toUpperCase().padStart(w, '0');
const bindings = () => window.wasmBindings ?? {};

/** Shows the bytes a `process` made around the node at `path`. */
export function show(path) {
  if (!pane) build();
  pane.root.hidden = false;
  document.body.classList.add('ksy-inner');
  follow();
  open(path);
}

function open(path) {
  const w = bindings().ksy_worker?.();
  if (!w) return status('The decoder is not running: open the file again.', true);
  const [worker, job] = w;
  const same = view && view.job === job && view.path === path;
  if (same) return;
  view = { path, job, worker, holder: null, windows: new Map(), asked: new Set() };
  status('Reading…');
  ask(0);
}

function ask(from) {
  if (view.asked.has(from)) return;
  view.asked.add(from);
  view.worker.postMessage({ type: 'inner', job: view.job, path: view.path, from, to: from + WINDOW });
}

/** The worker's answer (static/shell.js hands it over). */
export function heard(m) {
  if (!view || m.job !== view.job || m.path !== view.path) return;
  if (m.error) return status(m.error, true);
  const first = view.holder === null;
  if (first || view.holder !== m.holder) {
    view.holder = m.holder;
    view.at = m.at;
    view.len = m.len;
    view.mark = m.mark;
  }
  const owners = new Map();
  for (let i = 0; i < m.owners.length; i += 2) owners.set(m.owners[i], m.owners[i + 1]);
  view.windows.set(m.from, { bytes: m.bytes, segs: m.segs, owners });
  if (first) {
    pane.title.textContent = m.holder || '/';
    status(
      `${m.len} bytes its process made from the file's 0x${hex(m.at)}–0x${hex(m.end)}; ` +
        `the node is at 0x${hex(m.mark[0])}–0x${hex(m.mark[1])} of them`,
    );
    pane.spacer.style.height = `${Math.ceil(m.len / ROW) * LINE}px`;
    // The node into view.
    const row = Math.floor(m.mark[0] / ROW);
    const rows = Math.floor(pane.scroller.clientHeight / LINE);
    const top = pane.scroller.scrollTop / LINE;
    if (row < top || row >= top + rows - 1) pane.scroller.scrollTop = Math.max(0, (row - 2) * LINE);
  }
  render();
}

function status(text, bad = false) {
  pane.status.className = bad ? 'ksy-status bad' : 'ksy-status';
  pane.status.textContent = text;
}

function build() {
  const root = el('section', 'ksy-inner-pane');
  root.id = 'ksy-inner';
  root.setAttribute('aria-label', 'Decoded bytes');
  styles();
  const head = el('div', 'ksy-head');
  head.append(el('span', 'ksy-label', 'Decoded bytes of'));
  const title = el('span', 'ksy-title');
  const name = el('span', 'ksy-place');
  const shut = el('button', 'btn btn-small', 'Close');
  shut.type = 'button';
  shut.addEventListener('click', close);
  head.append(title, name, shut);
  const scroller = el('div', 'inner-scroll');
  scroller.id = 'inner-scroll';
  const spacer = el('div', 'inner-spacer');
  const rows = el('div', 'inner-rows');
  spacer.append(rows);
  scroller.append(spacer);
  scroller.addEventListener('scroll', () => requestAnimationFrame(render));
  new ResizeObserver(() => render()).observe(scroller);
  rows.addEventListener('mouseover', (e) => point(e.target, false));
  rows.addEventListener('click', (e) => point(e.target, true));
  rows.addEventListener('mouseleave', () => {
    hover = -1;
    name.textContent = '';
    render();
  });
  const stat = el('div', 'ksy-status');
  stat.id = 'inner-status';
  stat.setAttribute('role', 'status');
  root.append(head, scroller, stat);
  document.body.append(root);
  pane = { root, title, name, scroller, spacer, rows, status: stat };
}

function close() {
  pane.root.hidden = true;
  document.body.classList.remove('ksy-inner');
  following?.disconnect();
  following = null;
  view = null;
}

/** The owner of byte `b` (which must be in a window held): `[id, start, end]`. */
function ownerOf(b) {
  const w = view.windows.get(b - (b % WINDOW));
  if (!w) return null;
  // The segments tile the window in order: the last starting at or before b.
  const s = w.segs;
  let lo = 0;
  let hi = s.length / 3;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (s[mid * 3] <= b) lo = mid;
    else hi = mid;
  }
  const i = lo * 3;
  return b >= s[i] && b < s[i + 1] ? [s[i + 2], s[i], s[i + 1]] : null;
}

/** The pointer over (or a click on, `go`) the byte cell `t`. */
function point(t, go) {
  const b = Number(t?.dataset?.b);
  if (!view || !Number.isFinite(b)) return;
  const o = ownerOf(b);
  if (!o) return;
  const path = view.windows.get(b - (b % WINDOW)).owners.get(o[0]) ?? '';
  if (go) {
    view.mark = [o[1], o[2]];
    bindings().ksy_go?.(view.at, path);
  }
  if (hover !== o[0] || go) {
    hover = o[0];
    pane.name.textContent = `0x${hex(b)} · ${path}`;
    render();
  }
}

/** The rows in view. */
function render() {
  if (!view || view.holder === null) return;
  const sc = pane.scroller;
  const first = Math.floor(sc.scrollTop / LINE);
  const count = Math.ceil(sc.clientHeight / LINE) + 1;
  const last = Math.min(Math.ceil(view.len / ROW), first + count);
  pane.rows.style.transform = `translateY(${first * LINE}px)`;
  const frag = document.createDocumentFragment();
  const digits = Math.max(4, hex(Math.max(0, view.len - 1)).length);
  const [ms, me] = view.mark;
  for (let r = first; r < last; r++) {
    const start = r * ROW;
    const wfrom = start - (start % WINDOW);
    const w = view.windows.get(wfrom);
    if (!w) ask(wfrom);
    const line = el('div', 'inner-row');
    line.append(el('span', 'inner-off', hex(start, digits)));
    let text = '';
    for (let i = 0; i < ROW && start + i < view.len; i++) {
      const b = start + i;
      const v = w ? w.bytes[b - wfrom] : undefined;
      const c = el('span', 'inner-b', v === undefined ? '··' : hex(v, 2));
      c.dataset.b = b;
      if (b >= ms && b < me) c.classList.add('mark');
      if (hover >= 0 && w) {
        const o = ownerOf(b);
        if (o && o[0] === hover) c.classList.add('hover');
      }
      line.append(c);
      text += v === undefined ? ' ' : v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : '.';
    }
    line.append(el('span', 'inner-text', text));
    frag.append(line);
  }
  pane.rows.replaceChildren(frag);
}

/** Follows the selection: a node in such bytes (the details pane names it)
 * is shown as soon as it is selected. */
function follow() {
  if (following) return;
  const check = () => {
    const d = document.getElementById('details-inner');
    const path = d?.dataset.path;
    if (path !== undefined && view && path !== view.path) open(path);
  };
  following = new MutationObserver(check);
  following.observe(document.getElementById('details') ?? document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['data-path'],
  });
}
