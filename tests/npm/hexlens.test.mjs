// Tests of the npm package's Node.js build (target/npm/node, made by
// scripts/build-npm.sh) against the CLI (HEXLENS_BIN, the `hexlens` binary):
// run by scripts/test-npm.sh, which builds both first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { readFileSync, existsSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bitcodeWithLongBlock } from "./bitstream.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const PKG = process.env.HEXLENS_NPM_NODE ?? join(ROOT, "target/npm/node");
const BIN = process.env.HEXLENS_BIN ?? join(ROOT, "target/debug/hexlens");
const SHARED = process.env.HEXLENS_SHARED ?? join(ROOT, "../shared");

for (const [what, path, how] of [
  ["the package's Node.js build", join(PKG, "hexlens.js"), "scripts/build-npm.sh node"],
  ["the CLI", BIN, "cargo build -p hexlens-cli"],
]) {
  if (!existsSync(path)) throw new Error(`${what} is missing at ${path}: run ${how}`);
}

const hexlens = createRequire(import.meta.url)(join(PKG, "hexlens.js"));

/** One file of every format, and the decoder that must recognise it. */
const EVERY_FORMAT = [
  ["dxcontainer", join(SHARED, "samples/dxcontainer/curated/basic_code_dxil.dxil.dxbc")],
  ["dxcontainer", join(SHARED, "samples/dxcontainer/curated/d3d12_shaders_L2434_ps_dmax_code.dxbc")],
  ["bitcode", join(ROOT, "tests/fixtures/bitcode/gen_code.bc")],
  ["chapel-dyno", join(ROOT, "tests/fixtures/chapel-dyno/writer_le.dyno")],
  ["chapel-dyno", join(ROOT, "tests/fixtures/chapel-dyno/spec_be.dyno")],
  ["cdac", join(ROOT, "tests/fixtures/cdac/x86_64-linux.o")],
  ["cdac", join(ROOT, "tests/fixtures/cdac/s390x-blob.bin")],
  ["llvm1-bytecode", join(ROOT, "tests/fixtures/llvm1-bytecode/rev3_llvm13.bc")],
  ["msf", join(ROOT, "tests/fixtures/msf/llvm_modules.pdb")],
  ["msf", join(ROOT, "tests/fixtures/msf/dxc_dxil_shader.pdb")],
];

/** Damaged files: a partial tree with errors, as the CLI prints it. */
const DAMAGED = [
  join(ROOT, "tests/fixtures/chapel-dyno/truncated.dyno"),
  join(ROOT, "tests/fixtures/msf/damaged_truncated.pdb"),
  join(ROOT, "tests/fixtures/llvm1-bytecode/truncated.bc"),
  join(ROOT, "tests/fixtures/dxcontainer/generated/bad_signature_and_psv.dxbc"),
  join(ROOT, "tests/fixtures/cdac/damaged-truncated-blob.bin"),
];

/** `hexlens dump FILE --json [--select PATH]`: its exit status and output. */
function cli(file, ...args) {
  const r = spawnSync(BIN, ["dump", file, "--json", ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  assert.ok(r.status === 0 || r.status === 1, `hexlens dump ${file}: ${r.stderr}`);
  return { status: r.status, text: r.stdout };
}

const bytes = (path) => new Uint8Array(readFileSync(path));

/** Every node's path in a contract tree, depth first. */
function paths(node, prefix = null, out = []) {
  const path = prefix === null ? "" : prefix === "" ? node.name : `${prefix}/${node.name}`;
  out.push([path, node]);
  for (const c of node.children ?? []) paths(c, path, out);
  return out;
}

test("every format is detected and decoded, and toJSON() is the CLI's JSON", () => {
  const seen = new Set();
  for (const [format, file] of EVERY_FORMAT) {
    const data = bytes(file);
    assert.equal(hexlens.detect(data), format, file);
    const t = hexlens.decode(data);
    assert.equal(t.format, format, file);
    assert.equal(t.fileSize, data.length);
    const root = t.root();
    assert.equal(root.id, 0);
    assert.equal(root.parent, undefined);
    assert.equal(root.path, "");
    assert.equal(root.start, 0);
    assert.ok(root.childCount > 0, file);
    const { status, text } = cli(file);
    assert.deepEqual(t.toJSON(), JSON.parse(text), file);
    assert.equal(t.dumpJSON() + "\n", text, file);
    // JSON.stringify uses toJSON(): the contract again (integers beyond 2^53
    // as JS numbers hold them, as JSON.parse reads the CLI's).
    assert.equal(JSON.stringify(t), JSON.stringify(JSON.parse(text)), file);
    // The exit status says whether the file decoded with errors.
    assert.equal(status === 1, root.damaged === true, file);
    t.free();
    seen.add(format);
  }
  const names = hexlens.formats().map((f) => f.name);
  for (const f of names.filter((n) => n !== "embedded")) assert.ok(seen.has(f), `no ${f} file tested`);
});

test("a Buffer, an ArrayBuffer and a Blob read through open() give the same tree", async () => {
  const file = EVERY_FORMAT[0][1];
  const buf = readFileSync(file);
  const want = hexlens.decode(buf).dumpJSON();
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
  assert.equal(hexlens.decode(ab).dumpJSON(), want);
  const fromBlob = await hexlens.open(new Blob([buf]));
  assert.equal(fromBlob.format, "dxcontainer");
  assert.equal(fromBlob.dumpJSON(), want);
  assert.equal((await hexlens.open(buf)).dumpJSON(), want);
  // A Uint8Array in the middle of a bigger buffer is read from its own offset.
  const padded = new Uint8Array(buf.length + 16);
  padded.set(buf, 7);
  assert.equal(hexlens.decode(padded.subarray(7, 7 + buf.length)).dumpJSON(), want);
});

test("a lazy group's children come back once asked for, and ids stay put", () => {
  const file = EVERY_FORMAT[0][1];
  const t = hexlens.decode(bytes(file), { prefetch: 0 });
  // Walk what is decoded (without opening anything) to a lazy group.
  let lazy;
  const queue = [t.root()];
  while (queue.length && !lazy) {
    const n = queue.shift();
    if (n.lazy) lazy = n;
    else if (n.childCount > 0) queue.push(...t.children(n.id));
  }
  assert.ok(lazy, "prefetch 0 leaves lazy groups");
  assert.equal(lazy.childCount, 0);
  const before = t.node(lazy.id);
  assert.deepEqual(before, lazy);
  const kids = t.children(lazy.id);
  assert.ok(kids.length > 0);
  const after = t.node(lazy.id);
  assert.equal(after.lazy, undefined);
  assert.equal(after.childCount, kids.length);
  assert.equal(after.path, lazy.path);
  for (const k of kids) {
    assert.equal(k.parent, lazy.id);
    assert.equal(k.path, lazy.path === "" ? k.name : `${lazy.path}/${k.name}`);
    assert.ok(k.start >= lazy.start && k.end <= lazy.end, k.path);
    assert.deepEqual(t.node(k.id), k);
  }
  // Asking again gives the same nodes (nothing decoded twice).
  assert.deepEqual(t.children(lazy.id), kids);
  // The contract's nodes, each found by its path in a fresh lazy tree.
  const full = JSON.parse(cli(file).text);
  const fresh = hexlens.decode(bytes(file), { prefetch: 0 });
  const all = paths(full.tree);
  assert.ok(all.length > 100);
  for (const [path, want] of all.filter((_, i) => i % 13 === 0)) {
    const got = fresh.find(path);
    assert.ok(got, `no node at ${path}`);
    assert.equal(got.path, path);
    assert.equal(got.name, want.name);
    assert.equal(got.kind, want.kind);
    assert.equal(got.start, want.start, path);
    assert.equal(got.end, want.end, path);
    assert.equal(got.display, want.display, path);
    if (typeof want.value === "number" || typeof want.value === "string") {
      assert.equal(got.value, want.value, path);
    }
    assert.deepEqual(fresh.node(got.id), got);
  }
  assert.equal(fresh.find("Header/NoSuchField"), undefined);
  assert.equal(fresh.find("Parts/[99999]"), undefined);
  assert.equal(fresh.find("").id, 0);
});

test("a long list comes in pages, each decoded when asked for", () => {
  const data = bitcodeWithLongBlock(2500);
  const dir = mkdtempSync(join(tmpdir(), "hexlens-npm-"));
  try {
    const file = join(dir, "long.bc");
    writeFileSync(file, data);
    const t = hexlens.decode(data, { prefetch: 0 });
    assert.equal(t.format, "bitcode");
    const block = t.find("Blocks/[0]/Body/[0]");
    const body = t.children(block.id).find((k) => k.name === "Body");
    const pages = t.children(body.id);
    assert.deepEqual(
      pages.map((p) => [p.name, p.page, p.lazy, p.childCount]),
      [
        ["[0…999]", true, true, 0],
        ["[1000…1999]", true, true, 0],
        ["[2000…2499]", true, true, 0],
      ],
    );
    // A page's entries are named and found as entries of the list.
    const second = t.children(pages[1].id);
    assert.equal(second.length, 1000);
    assert.equal(second[0].name, "[1000]");
    assert.equal(second[0].path, `${body.path}/[1000]`);
    assert.equal(second[0].parent, pages[1].id);
    // Record 1000's one operand is its index.
    assert.equal(t.find(`${body.path}/[1000]/[0]`).value, 1000);
    assert.equal(t.find(`${body.path}/[1999]/[0]`).value, 1999);
    // Finding an entry decodes only its page.
    assert.equal(t.node(pages[2].id).lazy, true);
    const far = t.find(`${body.path}/[2400]`);
    assert.equal(t.node(far.parent).name, "[2000…2499]");
    assert.equal(t.node(pages[2].id).lazy, undefined);
    assert.equal(t.node(pages[0].id).lazy, true);
    // The contract looks through pages, as the CLI's does.
    assert.deepEqual(t.toJSON(), JSON.parse(cli(file).text));
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test("a subtree dump is the CLI's --select, and the text dump its text", () => {
  const file = EVERY_FORMAT[0][1];
  const t = hexlens.decode(bytes(file));
  assert.equal(t.dumpJSON("Header") + "\n", cli(file, "--select", "Header").text);
  const text = spawnSync(BIN, ["dump", file], { encoding: "utf8" }).stdout;
  assert.equal(t.dumpText(), text);
  assert.throws(() => t.dumpJSON("No/Such/Path"), { name: "Error", message: /no node at 'No\/Such\/Path'/ });
});

test("damaged files give a partial tree with errors, as the CLI does", () => {
  for (const file of DAMAGED) {
    const t = hexlens.decode(bytes(file));
    const { status, text } = cli(file);
    assert.equal(status, 1, file);
    const dump = t.toJSON();
    assert.deepEqual(dump, JSON.parse(text), file);
    assert.ok(dump.errors.length > 0, file);
    assert.equal(t.root().damaged, true, file);
    // Each error's node is found by its path and carries the message.
    const e = dump.errors[0];
    const n = t.find(e.path);
    assert.ok(n, `${file}: no node at ${e.path}`);
    assert.equal(n.error, e.message);
  }
});

test("a file no decoder knows is raw bytes with an error on the root", () => {
  const junk = new TextEncoder().encode("just some text, no format at all");
  assert.equal(hexlens.detect(junk), undefined);
  const t = hexlens.decode(junk);
  assert.equal(t.format, "raw");
  const root = t.root();
  assert.equal(root.damaged, true);
  assert.match(root.error, /no decoder recognises this file/);
  const empty = hexlens.decode(new Uint8Array(0));
  assert.equal(empty.fileSize, 0);
  assert.match(empty.root().error, /empty/);
});

test("bad arguments throw Errors that say what is wrong", async () => {
  const t = hexlens.decode(bytes(EVERY_FORMAT[0][1]));
  const last = t.toJSON() && t.root().childCount;
  assert.ok(last > 0);
  for (const bad of [42, "file.dxbc", null, undefined, {}, [1, 2, 3]]) {
    assert.throws(() => hexlens.decode(bad), { name: "Error", message: /expected a Uint8Array/ });
    assert.throws(() => hexlens.detect(bad), { name: "Error", message: /expected a Uint8Array/ });
    await assert.rejects(hexlens.open(bad), { name: "Error", message: /expected a Uint8Array/ });
  }
  // No FileReaderSync in Node.js: a Blob is read by open() only.
  assert.throws(() => hexlens.decode(new Blob([new Uint8Array(4)])), {
    name: "Error",
    message: /only in a Web Worker.*open\(blob\)/,
  });
  assert.throws(() => hexlens.decode(new Uint8Array(4), { scna: true }), {
    name: "Error",
    message: /bad options: .*scna/,
  });
  assert.throws(() => hexlens.decode(new Uint8Array(4), { scan: "yes" }), { message: /bad options/ });
  assert.throws(() => hexlens.decode(new Uint8Array(4), 7), { message: /bad options: expected an object/ });
  for (const id of [-1, 1e9, 0.5, NaN]) {
    assert.throws(() => t.node(id), { name: "Error", message: /no node/ });
    assert.throws(() => t.children(id), { name: "Error", message: /no node/ });
  }
  // The tree is still usable after the errors.
  assert.equal(t.root().childCount, last);
});

test("scan: containers inside another file are decoded where they lie", () => {
  const file = join(ROOT, "tests/fixtures/embedded/every_format.bin");
  const t = hexlens.decode(bytes(file), { scan: true });
  assert.equal(t.format, "embedded");
  const kids = t.children(0).map((k) => k.name);
  assert.ok(kids.some((n) => n.startsWith("DXContainer@")), kids.join(", "));
  const r = spawnSync(BIN, ["dump", file, "--json", "--scan"], { encoding: "utf8" });
  assert.deepEqual(t.toJSON(), JSON.parse(r.stdout));
});

test("integers beyond 2^53 are BigInts in nodes", () => {
  // A .dyno file's header holds 64-bit fields; look for any value over 2^53
  // in every format's files and check it comes as a bigint equal to the CLI's text.
  let checked = 0;
  for (const [, file] of EVERY_FORMAT) {
    const t = hexlens.decode(bytes(file));
    const text = cli(file).text;
    for (const [path, n] of paths(JSON.parse(text).tree)) {
      if (typeof n.value !== "number" || Number.isSafeInteger(n.value)) continue;
      const got = t.find(path);
      assert.equal(typeof got.value, "bigint", path);
      // The exact digits the CLI wrote.
      assert.ok(text.includes(`"value":${got.value}`), `${path}: ${got.value}`);
      checked++;
    }
  }
  assert.ok(checked > 0, "no 64-bit value over 2^53 in the samples");
});

/** `hexlens dis FILE --json ARGS…`: its records. */
function disJson(file, ...args) {
  const r = spawnSync(BIN, ["dis", file, "--json", ...args], { encoding: "utf8", maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, `hexlens dis ${file}: ${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

test("listing() is the CLI's dis --json: SM4/5 and DXIL programs, bitcode modules", () => {
  const files = [
    join(SHARED, "samples/dxcontainer/curated/basic_code_dxil.dxil.dxbc"),
    join(SHARED, "samples/dxcontainer/curated/d3d12_shaders_L2434_ps_dmax_code.dxbc"),
    join(ROOT, "tests/fixtures/bitcode/gen_code.bc"),
  ];
  for (const file of files) {
    const t = hexlens.decode(bytes(file));
    const want = disJson(file);
    assert.ok(want.length > 10, file);
    // A bare module names itself as the CLI names it: by the file's path.
    assert.deepEqual(t.listing(undefined, { name: file }), want, file);
  }
  // One program by a node inside it; one function; a dialect.
  const dxil = files[0];
  const t = hexlens.decode(bytes(dxil));
  const program = disJson(dxil)[0].program;
  assert.deepEqual(t.listing(program), disJson(dxil, "--select", program));
  const define = t.listing(program).find((l) => l.text.startsWith("define "));
  const fn = define.text.split("@")[1].split("(")[0];
  assert.deepEqual(
    t.listing(program, { function: fn, dialect: 19 }),
    disJson(dxil, "--select", program, "--function", fn, "--dialect", "19"),
  );
  assert.throws(() => t.listing("Header"), /in no program/);
  assert.throws(() => t.listing("Nope"), /no node at 'Nope'/);
  assert.throws(() => t.listing(program, { function: "none_such" }), /none_such/);
  assert.throws(() => t.listing(program, { dialect: 15 }), /dialect 15/);
  assert.throws(() => t.listing(program, { colour: true }), /unknown option 'colour'/);
});

test("ksy: a file decoded with a .ksy is the CLI's dump --ksy; imports by name; errors say where", () => {
  const ksyDir = join(ROOT, "tests/ksy");
  const png = join(ksyDir, "files/debian-nodejs-logo.png");
  const pngKsy = join(ksyDir, "formats/png.ksy");
  const t = hexlens.decode(bytes(png), { ksy: readFileSync(pngKsy, "utf8") });
  assert.equal(t.format, "ksy:png");
  assert.equal(t.root().name, "png");
  const r = spawnSync(BIN, ["dump", png, "--ksy", pngKsy, "--json"], { encoding: "utf8", maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(t.dumpJSON() + "\n", r.stdout);
  // Asked for node by node, the tree is the dump's: every path, span and value.
  const want = paths(JSON.parse(r.stdout).tree);
  for (const [path, node] of want) {
    const got = t.find(path);
    assert.ok(got, `no ${path}`);
    assert.equal(got.start, node.start, path);
    assert.equal(got.end, node.end, path);
    assert.equal(got.value, node.value, path);
  }
  // Imports given by name: a relative one and an absolute one.
  const self = join(ksyDir, "oracle/selftest");
  const imports = {
    imp_rel: readFileSync(join(self, "imp_rel.ksy"), "utf8"),
    "imp_abs.ksy": readFileSync(join(self, "lib/common/imp_abs.ksy"), "utf8"),
    imp_leaf: readFileSync(join(self, "lib/common/imp_leaf.ksy"), "utf8"),
  };
  const main = readFileSync(join(self, "imp_main.ksy"), "utf8");
  const m = hexlens.decode(bytes(join(self, "imp_main.bin")), { ksy: main, imports });
  const cliImp = spawnSync(
    BIN,
    ["dump", join(self, "imp_main.bin"), "--ksy", join(self, "imp_main.ksy"), "--ksy-path", join(self, "lib"), "--json"],
    { encoding: "utf8" },
  );
  assert.equal(cliImp.status, 0, cliImp.stderr);
  assert.equal(m.dumpJSON() + "\n", cliImp.stdout);
  // A missing import, a bad .ksy: thrown, naming the import, the line and the key.
  assert.throws(() => hexlens.decode(bytes(png), { ksy: main, imports: { imp_rel: imports.imp_rel } }), {
    message: /imp_abs/,
  });
  assert.throws(() => hexlens.decode(bytes(png), { ksy: "meta:\n  id: t\nseq:\n  - id: a\n    type: u9\n" }), {
    message: /the \.ksy is refused: format\.ksy: line 5, column \d+: \/seq\/0\/type: unknown type/,
  });
  assert.throws(() => hexlens.decode(bytes(png), { at: 4 }), { message: /go with `ksy`/ });
  // At an offset: the PNG inside a bigger file.
  const padded = new Uint8Array(bytes(png).length + 10);
  padded.set(bytes(png), 10);
  const at = hexlens.decode(padded, { ksy: readFileSync(pngKsy, "utf8"), at: 10 });
  assert.equal(at.find("png").start, 10);
  // At an offset, over a part: the format's stream ends where the part does,
  // as `hexlens dump --at --size` gives it; the bytes after it are unclaimed.
  const tail = new Uint8Array(padded.length + 7).fill(0xee);
  tail.set(padded);
  const part = hexlens.decode(tail, { ksy: readFileSync(pngKsy, "utf8"), at: 10, size: bytes(png).length });
  assert.equal(part.find("png").end, 10 + bytes(png).length);
  const tailFile = join(tmpdir(), `hexlens-npm-tail-${process.pid}.bin`);
  writeFileSync(tailFile, tail);
  const cliPart = spawnSync(BIN, ["dump", tailFile, "--ksy", pngKsy, "--at", "10", "--size", String(bytes(png).length), "--json"], { encoding: "utf8" });
  assert.equal(cliPart.status, 0, cliPart.stderr);
  assert.equal(part.dumpJSON() + "\n", cliPart.stdout);
  // A part too short for the format: the error is the part's end, not the file's.
  const short = hexlens.decode(tail, { ksy: readFileSync(pngKsy, "utf8"), at: 10, size: 40 });
  assert.ok(short.find("png").end <= 50);
  assert.throws(() => hexlens.decode(tail, { ksy: readFileSync(pngKsy, "utf8"), size: -1 }), { message: /size -1 is not a byte count/ });
});
