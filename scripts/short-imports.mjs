// Short names for the functions a wasm module imports from its JS bindings.
//
// wasm-bindgen names each imported function after what it wraps plus a hash
// (`__wbg_instanceof_HtmlSelectElement_e8e746c4e56224c9`), and each name is in
// the download twice: in the module's import section and as a key of the
// bindings' import object. The hashes do not compress. minify-assets.mjs renames
// them (`$0`, `$1`, …) in both files: about 7 KB of the page's gzip download and
// 1 KB of a decoder module's (bench/RESULTS.md). The module name and every
// other import and export are left alone.
//
// The names are only renamed when each appears exactly once in the bindings and
// the two files name the same set: otherwise the files are left as they are and
// the reason is returned, so a wasm-bindgen whose output looks different makes
// a bigger build, never a broken one.

const HASHED = /__wbg_[A-Za-z0-9_$]+_[0-9a-f]{16}\b/g;

function readLeb(b, i) {
  let r = 0;
  let shift = 0;
  let x;
  do {
    x = b[i++];
    r += (x & 0x7f) * 2 ** shift;
    shift += 7;
  } while (x & 0x80);
  return [r, i];
}

function leb(n) {
  const out = [];
  do {
    let x = n % 128;
    n = Math.floor(n / 128);
    if (n) x |= 0x80;
    out.push(x);
  } while (n);
  return Buffer.from(out);
}

/** Where the import section's entries are: [{ field, start, end }] (the
 *  field name's bytes, length included), and the section's bounds. */
function importEntries(wasm) {
  if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  let i = 8;
  while (i < wasm.length) {
    const id = wasm[i];
    const [size, body] = readLeb(wasm, i + 1);
    const end = body + size;
    if (id === 2) {
      let [n, j] = readLeb(wasm, body);
      const entries = [];
      for (let k = 0; k < n; k++) {
        let len;
        [len, j] = readLeb(wasm, j);
        j += len; // module name
        const start = j;
        [len, j] = readLeb(wasm, j);
        const field = wasm.subarray(j, j + len).toString('utf8');
        j += len;
        entries.push({ field, start, end: j });
        const kind = wasm[j++];
        if (kind === 0) [, j] = readLeb(wasm, j); // function: type index
        else if (kind === 1) {
          j += 1; // table: element type, then limits
          const [flags, a] = readLeb(wasm, j);
          [, j] = readLeb(wasm, a);
          if (flags & 1) [, j] = readLeb(wasm, j);
        } else if (kind === 2) {
          const [flags, a] = readLeb(wasm, j); // memory: limits
          [, j] = readLeb(wasm, a);
          if (flags & 1) [, j] = readLeb(wasm, j);
        } else if (kind === 3) j += 2; // global: type, mutability
        else if (kind === 4) [, j] = readLeb(wasm, j + 1); // tag
        else throw new Error(`import kind ${kind} unknown`);
      }
      if (j !== end) throw new Error('import section does not end where it says');
      return { sectionStart: i, bodyStart: body, sectionEnd: end, entries };
    }
    i = end;
  }
  return null;
}

/** `{ js, wasm, renamed }`, or `{ js, wasm, renamed: 0, skipped: reason }`
 *  with the inputs unchanged. `wasm` is a Buffer. */
export function shortenImports(js, wasm) {
  const same = (skipped) => ({ js, wasm, renamed: 0, skipped });
  let section;
  try {
    section = importEntries(wasm);
  } catch (e) {
    return same(`the module could not be read: ${e.message}`);
  }
  if (!section) return same('the module imports nothing');
  const inJs = js.match(HASHED) ?? [];
  const unique = new Set(inJs);
  if (unique.size !== inJs.length) return same('a name appears more than once in the bindings');
  const inWasm = section.entries.map((e) => e.field).filter((f) => new RegExp(`^${HASHED.source}$`).test(f));
  if (inWasm.length !== unique.size || !inWasm.every((f) => unique.has(f))) {
    return same('the bindings and the module name different imports');
  }
  const short = new Map(inWasm.map((f, k) => [f, `$${k.toString(36)}`]));
  // Keys of the import object: `name:function(…)`.
  const newJs = js.replace(HASHED, (m) => short.get(m));
  // The body from its start (the entry count) to each field name, each name,
  // and what follows the last.
  const parts = [];
  let at = section.bodyStart;
  for (const e of section.entries) {
    parts.push(wasm.subarray(at, e.start));
    const name = Buffer.from(short.get(e.field) ?? e.field, 'utf8');
    parts.push(leb(name.length), name);
    at = e.end;
  }
  parts.push(wasm.subarray(at, section.sectionEnd));
  const body = Buffer.concat(parts);
  const newWasm = Buffer.concat([
    wasm.subarray(0, section.sectionStart),
    Buffer.from([2]),
    leb(body.length),
    body,
    wasm.subarray(section.sectionEnd),
  ]);
  return { js: newJs, wasm: newWasm, renamed: short.size };
}
