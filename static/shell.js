// The first page a visit shows, before any file is chosen: www/index.html holds
// its markup (the toolbar and the empty state, as the app draws them), and this
// script makes it work without the app's WebAssembly, which a first visit does
// not download. It lists the bundled samples, and when a file is picked,
// dropped or a sample chosen it starts the app (the loader's `hexlensStart`,
// see scripts/externalize-scripts.mjs) and hands it the choice: a sample
// through the URL's `?sample=`, as a sample link does, a file through
// `window.hexlensPendingFile` (and the samples manifest it read through
// `window.hexlensSamples`). The app then removes this markup and draws its own,
// except the empty state, which it keeps and shows whenever no file is open:
// from then on (`window.hexlensStarted`) a choice made there is handed to the
// app as a `hexlens:open` event ({file} or {sample}).
//
// Every text taken from the samples manifest is set as text.

const shell = document.getElementById('shell');
let starting = false;

/** Starts the app to open `name`, saying so as the app's own notice does. */
function start(name) {
  if (starting) return;
  starting = true;
  shell.setAttribute('aria-busy', 'true');
  const status = document.getElementById('shell-status');
  const strong = document.createElement('strong');
  strong.textContent = name;
  status.replaceChildren('Opening ', strong, '…');
  status.hidden = false;
  const failed = (e) => {
    status.className = 'notice error';
    status.setAttribute('role', 'alert');
    status.textContent = `Could not start the viewer: ${e && e.message ? e.message : e}`;
  };
  const go = () => window.hexlensStart().catch(failed);
  if (window.hexlensStart) go();
  else addEventListener('hexlens:loader', go, { once: true });
}

/** Hands a choice to the running app; false if the app has not started. */
function toApp(detail) {
  if (!window.hexlensStarted) return false;
  dispatchEvent(new CustomEvent('hexlens:open', { detail }));
  return true;
}

function openFile(file) {
  if (!file || toApp({ file }) || starting) return;
  window.hexlensPendingFile = file;
  start(file.name);
}

function openSample(name) {
  if (!name || toApp({ sample: name }) || starting) return;
  const url = new URL(location.href);
  url.searchParams.set('sample', name);
  history.replaceState(history.state, '', url);
  start(name);
}

const linked = new URLSearchParams(location.search).get('sample');
// A sample link: the app opens it at once.
if (linked !== null) start(linked);
for (const id of ['file-input', 'file-input-empty']) {
  const input = document.getElementById(id);
  input?.addEventListener('change', () => {
    const file = input.files && input.files[0];
    openFile(file);
    input.value = '';
  });
}
const select = document.getElementById('sample-select');
select?.addEventListener('change', () => openSample(select.value));
document.getElementById('sample-list')?.addEventListener('click', (e) => {
  const b = e.target instanceof Element ? e.target.closest('button[data-file]') : null;
  if (b) openSample(b.dataset.file);
});

// Dropping a file anywhere opens it (the app's own listener takes over once it runs).
const overlay = document.getElementById('drop-overlay');
const carries = (e) => e.dataTransfer && [...e.dataTransfer.types].includes('Files');
const over = (e) => {
  if (starting || !carries(e)) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = 'copy';
  overlay.hidden = false;
};
addEventListener('dragenter', over);
addEventListener('dragover', over);
addEventListener('dragleave', (e) => {
  if (!e.relatedTarget) overlay.hidden = true;
});
addEventListener('drop', (e) => {
  if (starting) return;
  e.preventDefault();
  overlay.hidden = true;
  openFile(e.dataTransfer && e.dataTransfer.files[0]);
});

fillSamples();

/** Lists the bundled samples (static/samples/manifest.json) in the picker and the empty state. */
async function fillSamples() {
  let list = [];
  try {
    const r = await fetch(new URL('static/samples/manifest.json', document.baseURI));
    const json = await r.json();
    list = Array.isArray(json.samples) ? json.samples : [];
    // The app reads the list from here rather than fetching it again.
    window.hexlensSamples = json;
  } catch {
    return; // The app says what went wrong when it starts.
  }
  const text = (v) => (typeof v === 'string' ? v : '');
  const el = (tag, cls, t) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (t !== undefined) e.textContent = t;
    return e;
  };
  const ul = document.getElementById('sample-list');
  const select = document.getElementById('sample-select');
  for (const s of list) {
    const file = text(s.file);
    if (!file || file.includes('/')) continue;
    const li = el('li');
    const b = el('button', 'sample');
    b.dataset.file = file;
    const title = el('span', 'sample-title', text(s.title));
    title.append(el('span', 'badge', text(s.format)));
    b.append(title, el('span', 'sample-note', text(s.note)), el('span', 'sample-src', `${file} · ${text(s.source)}`));
    li.append(b);
    ul.append(li);
    const o = el('option', '', `${text(s.title)} (${text(s.format)})`);
    o.value = file;
    o.title = text(s.note);
    select.append(o);
  }
}

// The listing pane (static/listing.js and its worker module), fetched when it is
// first opened: the app's toolbar button calls this to open or close it. An
// address that names a line of it (`listing=`) opens it once the app shows a file.
let listing;
if (new URLSearchParams(location.search).has('listing')) {
  const waiting = new MutationObserver(() => {
    if (!document.getElementById('listing-button')) return;
    waiting.disconnect();
    window.hexlensListing();
  });
  waiting.observe(document.body, { childList: true, subtree: true });
}
/** The listing worker's request (job `job`) for the program holding the selection, or program `which`. */
window.hexlensListingRequest = (job, which) => {
  const src = window.wasmBindings?.listing_source?.();
  if (!src) return null;
  // A bare module names itself by the file's name, as `hexlens dis` does.
  const name = document.querySelector('#file-info .file-name')?.textContent ?? '';
  const msg = { type: 'listing', job, blob: src.blob, scan: src.scan, name, at: src.start };
  if (which !== undefined) msg.program = which;
  return msg;
};
window.hexlensListing = () => {
  if (!listing) {
    // The pane's worker starts (its module fetched and compiled, the program
    // read) while the pane's script is fetched; the pane takes it, the
    // request it was sent (its first job) and what it answered before the
    // pane listened.
    const worker = new Worker(new URL('worker.js?m=listing', import.meta.url));
    const early = [];
    worker.onmessage = (e) => early.push(e.data);
    const asked = window.hexlensListingRequest(1);
    if (asked) worker.postMessage(asked);
    window.hexlensListingWorker = { worker, early, asked };
  }
  listing ??= import('./listing.js');
  listing.then(
    (m) => m.toggle(),
    (e) => {
      listing = undefined;
      alert(`Could not open the listing: ${e && e.message ? e.message : e}`);
    },
  );
};

// The glance (static/glance.js: a map of the whole file beside the bytes, its
// byte statistics and a table of fields), fetched when it is first opened:
// the app's toolbar button calls this to open or close it. Its worker starts
// when it opens.
let glance;
window.hexlensGlance = () => {
  glance ??= import('./glance.js');
  glance.then(
    (m) => m.toggle(),
    (e) => {
      glance = undefined;
      alert(`Could not open the glance: ${e && e.message ? e.message : e}`);
    },
  );
};

// Formats the user describes (static/ksy.js), fetched when first used: the
// app's "Format…" button and drops of .ksy files call `hexlensFormats(files)`,
// its "Decode as" and "Built-in" buttons `hexlensFormats.apply(name)`, its
// "Edit format" button the editor.
let formats;
const withFormats = (f) => {
  formats ??= import('./ksy.js');
  formats.then(f, (e) => {
    formats = undefined;
    alert(`Could not load the formats: ${e && e.message ? e.message : e}`);
  });
};
window.hexlensFormats = (files) => {
  // Taken now: an input's list empties when the input is cleared.
  const list = Array.from(files);
  withFormats((m) => m.pick(list));
};
window.hexlensFormats.apply = (name) => withFormats((m) => m.apply(name));
// The details pane's "Show" on a node in bytes a `.ksy` field's process made
// (or on that field): static/inner.js shows them.
let inner;
// What the decode worker says for the scripts: the bytes static/inner.js
// asked for, or how far it has read a long list ahead (static/ksy.js shows
// it, with Stop).
window.hexlensFormats.heard = (m) => {
  if (m.type === 'inner') inner?.then((i) => i.heard(m));
  else withFormats((k) => k.reading(m));
};
window.hexlensFormats.inner = (path) => {
  inner ??= import('./inner.js');
  inner.then(
    (m) => m.show(path),
    (e) => {
      inner = undefined;
      alert(`Could not load the view of decoded bytes: ${e && e.message ? e.message : e}`);
    },
  );
};
// The kept formats, a line each (`file id hash ext…`, kept by static/ksy.js
// in `hexlens.ksy.offers`; it drops `kept` below when it keeps more).
let kept;
const keptFormats = () => {
  if (!kept) {
    let lines = '';
    try {
      lines = localStorage.getItem('hexlens.ksy.offers') ?? '';
    } catch {}
    kept = lines.split('\n').map((l) => l.split(' ')).filter((w) => w.length > 2);
  }
  return kept;
};
// The kept format offered for a file named `name`: the first whose
// `meta/file-extension`s name its extension, as `file<TAB>id`.
window.hexlensFormats.offer = (name) => {
  const dot = name.lastIndexOf('.');
  const ext = dot < 0 ? null : name.slice(dot + 1).toLowerCase();
  const k = ext && keptFormats().find((w) => w.slice(3).includes(ext));
  return k ? `${k[0]}\t${k[1]}` : undefined;
};
window.hexlensFormats.forget = () => {
  kept = undefined;
};
// A link's format (its file name, the hash of its text, where it applies:
// hex, blank for the whole file): decodes the open file with it if it is
// kept with that text, else says so and returns false.
window.hexlensFormats.restore = (name, hash, at, size) => {
  if (!keptFormats().some((w) => w[0] === name && w[2] === hash)) {
    const s = document.getElementById('copy-status');
    if (s) s.textContent = `This link's place is in the file decoded with the format ${name}, which this browser does not keep with that text: drop the .ksy to decode with it.`;
    return false;
  }
  const place = {};
  if (at) place.at = parseInt(at, 16);
  if (size) place.size = parseInt(size, 16);
  withFormats((m) => m.apply(name, place));
  return true;
};
// The formats' controls: the app's "Format…" input, its "Decode as" and
// "Built-in" buttons, and `.ksy` files dropped on the page (alone, or with the
// file to decode), taken before the app's own drop handler sees them.
document.addEventListener('change', (e) => {
  if (e.target.id === 'format-input' && e.target.files.length) {
    window.hexlensFormats(e.target.files);
    e.target.value = '';
  }
});
document.addEventListener('click', (e) => {
  const b = e.target.closest?.('#format-offer, #format-builtin, #format-edit');
  if (b?.id === 'format-edit') withFormats((m) => m.edit());
  else if (b) window.hexlensFormats.apply(b.id === 'format-offer' ? b.dataset.file : null);
});
window.addEventListener(
  'drop',
  (e) => {
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (!files.some((f) => f.name.toLowerCase().endsWith('.ksy'))) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    // The app's drop target closes as when a drag leaves the window.
    window.dispatchEvent(new Event('dragleave'));
    window.hexlensFormats(files);
  },
  true,
);
