// Formats the user describes (Kaitai Struct .ksy files) on the page: fetched
// when a format is first picked or dropped, or offered for a file
// (static/shell.js's `hexlensFormats`), so the page's own module carries
// none of this.
//
// A picked or dropped .ksy is kept in this browser's localStorage under its
// file name (`hexlens.ksy`: name to text); what the page needs to offer
// kept formats for a file, each one's id and `meta/file-extension`s, is
// kept beside it (`hexlens.ksy.offers`: a line per format, `file id ext
// ext…`), which the page reads without this script. Applying a format
// hands the page (`wasmBindings.ksy_open`) the message for the `ksy` worker
// module: `{name, text, imports, hash, at, size}`, the imports being every
// other kept format (an import is found among them by name: `/common/riff`
// finds `riff.ksy`), `hash` a hash of the text (a link names the format by
// its file name and this hash), `at` and `size` the part of the file it
// applies to (absent: the whole file). The interpreter, in that module, says
// what is wrong with a format and names an import that is missing.
//
// The editor (`edit`) is a pane beside the viewer holding the applied
// format's text: the file is decoded again as one types, an error is marked
// at its line, and the part of the file the format applies to is set there
// (from a byte, for a length, or the selected bytes). Nothing leaves the
// browser; the text is only ever set as text.

const KEY = 'hexlens.ksy';
const OFFERS = 'hexlens.ksy.offers';

const isKsy = (name) => name.toLowerCase().endsWith('.ksy');

const unquote = (s) => {
  s = s.trim();
  const q = s[0];
  return (q === '"' || q === "'") && s.length > 1 && s.endsWith(q) ? s.slice(1, -1) : s;
};

/** The `meta/id` and `meta/file-extension`s of a .ksy's text, as far as the
 * common ways of writing them go (`id: x`; `file-extension: x`, `[x, y]` or a
 * block list); what is not found is left out. */
export function meta(text) {
  let id = null;
  const exts = [];
  let inMeta = false;
  let inList = false;
  for (const line of text.split(/\r?\n/)) {
    // A comment: `#` at the start or after a blank.
    const bare = line.replace(/(^|[ \t])#.*$/, '').trimEnd();
    if (!bare.trim()) continue;
    const indent = bare.length - bare.trimStart().length;
    const body = bare.trim();
    if (indent === 0) {
      inMeta = body === 'meta:';
      inList = false;
      continue;
    }
    if (!inMeta) continue;
    if (inList) {
      if (body.startsWith('- ')) {
        exts.push(unquote(body.slice(2)).toLowerCase());
        continue;
      }
      inList = false;
    }
    if (body.startsWith('id:')) {
      id = unquote(body.slice(3)) || null;
    } else if (body.startsWith('file-extension:')) {
      const v = body.slice('file-extension:'.length).trim();
      if (!v) inList = true;
      else if (v.startsWith('[') && v.endsWith(']')) {
        exts.push(...v.slice(1, -1).split(',').map((e) => unquote(e).toLowerCase()).filter(Boolean));
      } else exts.push(unquote(v).toLowerCase());
    }
  }
  return { id, exts };
}

/** Of formats given together (`[name, text]`), the one the others are for:
 * one no other imports (the first such), else the first. */
export function mainOf(given) {
  const imported = (name) => {
    const stem = name.replace(/\.ksy$/i, '');
    return given.some(([other, text]) =>
      other !== name &&
      text.split(/\r?\n/).some((l) => {
        const item = unquote(l.trim().replace(/^- /, ''));
        return item === stem || item.endsWith('/' + stem);
      }),
    );
  };
  return (given.find(([n]) => !imported(n)) ?? given[0])?.[0] ?? null;
}

/** The kept formats: name to text. */
export function library(storage = localStorage) {
  try {
    const v = JSON.parse(storage.getItem(KEY) ?? '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/** A hash of a format's text: FNV-1a (64 bits) of its UTF-8, in hex. */
export function textHash(text) {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (const b of new TextEncoder().encode(text)) {
    lo = (lo ^ b) >>> 0;
    // (hi, lo) * 0x100000001b3, modulo 2^64: lo * 0x1b3 fits a double.
    const l = lo * 0x1b3;
    hi = (Math.imul(hi, 0x1b3) + Math.floor(l / 0x100000000) + (lo << 8)) >>> 0;
    lo = l >>> 0;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** The offers line of each kept format: `file id hash ext…`. */
export function offers(lib) {
  return Object.entries(lib)
    .map(([name, text]) => {
      const m = meta(text);
      const id = m.id ?? name.replace(/\.ksy$/i, '');
      return [name, id, textHash(text), ...m.exts].map((w) => w.replace(/\s/g, '')).join(' ');
    })
    .join('\n');
}

function keep(given, storage = localStorage) {
  const lib = library(storage);
  for (const [name, text] of given) lib[name] = text;
  storage.setItem(KEY, JSON.stringify(lib));
  storage.setItem(OFFERS, offers(lib));
  window.hexlensFormats?.forget?.();
}

/** The worker's message for the kept format `name` applied to `place`
 * (`{at, size}`, each optional: the whole file), or null. */
export function message(name, lib = library(), place = {}) {
  if (!(name in lib)) return null;
  const imports = {};
  for (const [n, t] of Object.entries(lib)) if (n !== name) imports[n] = t;
  const m = { name, text: lib[name], imports, hash: textHash(lib[name]) };
  if (place.at) m.at = place.at;
  if (place.size !== undefined) m.size = place.size;
  return m;
}

// The format the open file is decoded with, and where: `{name, at, size}`.
let applied = null;

function say(text) {
  const s = document.getElementById('copy-status');
  if (s) s.textContent = text;
}

/** Picked or dropped files: the .ksy ones are kept; the first other one is
 * opened, decoded with the format they were given for; formats alone
 * decode the open file again. */
export async function pick(files) {
  const ksy = files.filter((f) => isKsy(f.name));
  const data = files.find((f) => !isKsy(f.name)) ?? null;
  const given = [];
  for (const f of ksy) {
    try {
      given.push([f.name, await f.text()]);
    } catch (e) {
      return say(`could not read ${f.name}: ${e && e.message ? e.message : e}`);
    }
  }
  try {
    keep(given);
  } catch {
    say('this browser could not keep the format (no room left?)');
  }
  const main = mainOf(given);
  const m = main && message(main, { ...library(), ...Object.fromEntries(given) });
  if (m) applied = { name: main };
  window.wasmBindings.ksy_open(m, data);
  if (editor && m) show(m.text);
}

/** Decodes the open file with the format `name` of `lib` (the kept ones;
 * `null`: with hexlens's own decoders), applied to `place` (`{at, size}`:
 * see `message`). */
export function apply(name, place = {}, lib = library()) {
  const m = name === null ? null : message(name, lib, place);
  if (name !== null && !m) return say(`the format ${name} is no longer kept`);
  applied = m && { name, at: m.at, size: m.size };
  window.wasmBindings.ksy_open(m, null);
  if (editor) {
    if (m) show(m.text);
    else close();
  }
}

// The editor pane.
const LINE_PX = 18; // ksy.css's line height
let editor = null; // its elements, once built
let typing = null; // the re-decode waiting for typing to pause
let watching = null; // what tells the pane how the decode went

export const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

/** A byte offset or count as the editor shows it: hex with 0x. */
const hex = (n) => `0x${n.toString(16).toUpperCase()}`;

/** A byte offset or count as typed: hex with 0x, or decimal; undefined if blank, NaN if bad. */
export function parseBytes(s) {
  const t = s.trim();
  if (!t) return undefined;
  const hex = /^0x[0-9a-f]+$/i.test(t);
  if (!hex && !/^[0-9]+$/.test(t)) return NaN;
  const n = hex ? parseInt(t.slice(2), 16) : Number(t);
  return Number.isSafeInteger(n) ? n : NaN;
}

/** Where an error the interpreter gave is: `{file, line}` (a line from 1), or null. */
export function errorPlace(text) {
  const m = /refused: (.+?\.ksy): line (\d+)/.exec(text);
  return m ? { file: m[1], line: Number(m[2]) } : null;
}

/** Opens the editor on the format the open file is decoded with. */
export function edit() {
  if (!applied) return say('decode the file with a format first (Format…)');
  if (!editor) build();
  show();
}

/** Links the panes' stylesheet, once. */
export function styles() {
  if (document.querySelector('link[href$="ksy.css"]')) return;
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = new URL('ksy.css', import.meta.url).href;
  document.head.append(css);
}

function build() {
  styles();
  const root = el('section', 'ksy-editor');
  root.id = 'ksy-editor';
  root.setAttribute('aria-label', 'Format editor');
  const head = el('div', 'ksy-head');
  const title = el('span', 'ksy-title');
  const shut = el('button', 'btn btn-small', 'Close');
  shut.type = 'button';
  shut.addEventListener('click', close);
  const place = el('div', 'ksy-place');
  const field = (label, id, hint) => {
    const l = el('label', 'ksy-field', label);
    const i = el('input', 'ksy-num');
    i.id = id;
    i.placeholder = hint;
    i.spellcheck = false;
    l.append(i);
    return [l, i];
  };
  const [atLabel, at] = field('At ', 'ksy-at', '0');
  const [sizeLabel, size] = field('Size ', 'ksy-size', 'to the end');
  const sel = el('button', 'btn btn-small', 'Selection');
  sel.type = 'button';
  sel.title = 'Apply the format to the selected bytes (or the selected node)';
  sel.addEventListener('click', () => {
    const src = window.wasmBindings?.listing_source?.();
    if (!src) return;
    const [a, b] = src.range ?? [Math.floor(src.start / 8), Math.ceil(src.end / 8)];
    at.value = hex(a);
    size.value = hex(b - a);
    redecode();
  });
  const whole = el('button', 'btn btn-small', 'Whole file');
  whole.type = 'button';
  whole.addEventListener('click', () => {
    at.value = '';
    size.value = '';
    redecode();
  });
  // Changes made together (one field left for the other) decode once.
  for (const i of [at, size]) {
    i.addEventListener('change', () => {
      clearTimeout(typing);
      typing = setTimeout(redecode, 150);
    });
  }
  place.append(atLabel, sizeLabel, sel, whole);
  head.append(title, place, shut);
  const body = el('div', 'ksy-body');
  const gutter = el('div', 'ksy-gutter');
  gutter.setAttribute('aria-hidden', 'true');
  const text = el('textarea', 'ksy-text');
  text.id = 'ksy-text';
  text.spellcheck = false;
  text.wrap = 'off';
  text.setAttribute('aria-label', 'The format (.ksy)');
  text.addEventListener('input', () => {
    lines();
    clearTimeout(typing);
    typing = setTimeout(redecode, 350);
  });
  text.addEventListener('scroll', () => {
    gutter.scrollTop = text.scrollTop;
  });
  text.addEventListener('keydown', (e) => {
    // Tab indents by two blanks (YAML has no tabs).
    if (e.key !== 'Tab' || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey) return;
    e.preventDefault();
    text.setRangeText('  ', text.selectionStart, text.selectionEnd, 'end');
    text.dispatchEvent(new Event('input'));
  });
  body.append(gutter, text);
  const status = el('div', 'ksy-status');
  status.id = 'ksy-status';
  status.setAttribute('role', 'status');
  root.append(head, body, status);
  document.body.append(root);
  editor = { root, title, at, size, gutter, text, status, name: null, mark: 0 };
}

/** Shows the applied format, whose text is `text`, in the editor. */
function show(text = library()[applied.name] ?? '') {
  const e = editor;
  e.root.hidden = false;
  document.body.classList.add('ksy-editing');
  if (e.name !== applied.name || e.text.value !== text) {
    e.name = applied.name;
    e.text.value = text;
  }
  e.title.textContent = applied.name;
  e.at.value = applied.at ? hex(applied.at) : '';
  e.size.value = applied.size === undefined ? '' : hex(applied.size);
  lines();
  watch();
}

function close() {
  if (!editor) return;
  clearTimeout(typing);
  editor.root.hidden = true;
  document.body.classList.remove('ksy-editing');
  watching?.disconnect();
  watching = null;
}

/** The gutter's line numbers, one per line of the text, the error's marked. */
function lines() {
  const e = editor;
  const n = e.text.value.split('\n').length;
  if (e.gutter.childElementCount !== n) {
    const frag = document.createDocumentFragment();
    for (let i = 1; i <= n; i++) frag.append(el('div', 'ksy-ln', String(i)));
    e.gutter.replaceChildren(frag);
  }
  for (const d of e.gutter.querySelectorAll('.err')) d.classList.remove('err');
  if (e.mark) e.gutter.children[e.mark - 1]?.classList.add('err');
  e.gutter.scrollTop = e.text.scrollTop;
}

/** Sets the editor's status line (only what changed: the line is inside
 * what `watch` watches). */
function status(cls, text) {
  const e = editor;
  if (e.status.className !== cls) e.status.className = cls;
  if (e.status.textContent !== text) e.status.textContent = text;
}

/** Keeps the edited text and decodes the open file with it again (with the
 * text as edited, whether or not the browser could keep it). */
function redecode() {
  const e = editor;
  clearTimeout(typing);
  const at = parseBytes(e.at.value);
  const size = parseBytes(e.size.value);
  if (Number.isNaN(at) || Number.isNaN(size)) {
    return status('ksy-status bad', 'At and Size are bytes: decimal, or hex with 0x.');
  }
  const edited = [e.name, e.text.value];
  try {
    keep([edited]);
    status('ksy-status', 'Decoding…');
  } catch {
    status('ksy-status bad', 'Decoding; this browser could not keep the format (no room left?)');
  }
  apply(e.name, { at, size }, { ...library(), [edited[0]]: edited[1] });
}

/** Follows the page's notices: the decode's error, marked at its line, or its success. */
function watch() {
  if (watching) return;
  const check = () => {
    const e = editor;
    const failed = document.getElementById('notice-failed');
    let mark = e.mark;
    if (failed) {
      const text = failed.textContent;
      const where = errorPlace(text);
      mark = where && where.file === e.name ? where.line : 0;
      status('ksy-status bad', text.replace(/^.*?the format is refused: /, ''));
    } else if (document.querySelector('#tree[data-decoded=true]')) {
      mark = 0;
      status('ksy-status', `Decoded with ${e.name}.`);
    }
    if (mark !== e.mark) {
      e.mark = mark;
      lines();
      // The marked line into view.
      const top = (mark - 1) * LINE_PX;
      if (mark && (top < e.text.scrollTop || top + LINE_PX > e.text.scrollTop + e.text.clientHeight)) {
        e.text.scrollTop = Math.max(0, top - e.text.clientHeight / 3);
      }
    }
  };
  watching = new MutationObserver(check);
  watching.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-decoded'] });
  check();
}

// Reading a long list ahead: the decode worker reads the rest of a list of
// unsized entries a step at a time (its node says how far it got, and
// shows what was read when opened) and reports each step here; the bar
// says how far, with Stop (and Read on).
let bar = null;
let hiding = null;

/** A report of the worker's (`{job, from, to, end, entries, done}` or
 * `{job, stopped}`). */
export function reading(m) {
  if (!bar) {
    styles();
    const root = el('div', 'ksy-reading');
    root.id = 'ksy-reading';
    root.setAttribute('role', 'status');
    const text = el('span', 'ksy-reading-text');
    const go = el('button', 'btn btn-small');
    go.type = 'button';
    go.addEventListener('click', () => {
      const w = window.wasmBindings?.ksy_worker?.();
      if (w) w[0].postMessage({ type: bar.stopped ? 'read-on' : 'stop-reading', job: w[1] });
    });
    root.append(text, go);
    document.body.append(root);
    bar = { root, text, go, stopped: false, last: null };
  }
  clearTimeout(hiding);
  bar.root.hidden = false;
  if (m.stopped !== undefined) {
    bar.stopped = m.stopped;
  } else {
    bar.last = m;
  }
  const l = bar.last;
  const pct = l ? Math.floor(((l.to - l.from) * 100) / Math.max(1, l.end - l.from)) : 0;
  const entries = l ? l.entries.toLocaleString('en') : '0';
  if (l?.done) {
    bar.text.textContent = `The list is read to its end: ${entries} more entries (open its last node to see them).`;
    bar.go.style.display = 'none';
    hiding = setTimeout(() => (bar.root.hidden = true), 8000);
  } else if (bar.stopped) {
    bar.text.textContent = `Reading the list ahead stopped at ${pct}% (${entries} entries).`;
    bar.go.style.display = '';
    bar.go.textContent = 'Read on';
  } else {
    bar.text.textContent = `Reading the list ahead: ${pct}%, ${entries} entries (open its last node to see them).`;
    bar.go.style.display = '';
    bar.go.textContent = 'Stop';
  }
}
