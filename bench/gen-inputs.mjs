// Writes the browser benchmark's input files (see bench/browser.mjs):
//   dxil-<size>.dxbc  a DirectX container of <size> bytes whose DXIL part is an
//                     LLVM bitstream with one huge function block (sparse: only
//                     the headers are written, the rest of the file is zeros)
//   parts-1m.dxbc     a container with 250,000 small parts: about 1,000,000 tree nodes
// Usage: node bench/gen-inputs.mjs DIR
import fs from 'node:fs';
import path from 'node:path';

export const SIZES = { '1MiB': 1 << 20, '64MiB': 64 << 20, '1GiB': 1 << 30, '4GiB': 2 ** 32 - 4 };

/** Little bit writer for the LLVM bitstream (bits fill bytes from the low end). */
class Bits {
  constructor() { this.bytes = []; this.cur = 0; this.n = 0; }
  put(v, w) {
    for (let i = 0; i < w; i++) {
      this.cur |= ((Math.floor(v / 2 ** i) & 1) << this.n);
      if (++this.n === 8) { this.bytes.push(this.cur); this.cur = 0; this.n = 0; }
    }
  }
  vbr(v, w) {
    const lim = 2 ** (w - 1);
    while (v >= lim) { this.put((v % lim) + lim, w); v = Math.floor(v / lim); }
    this.put(v, w);
  }
  align32() { while (this.n !== 0 || this.bytes.length % 4) this.put(0, 1); }
}

/** DXIL bitcode of exactly `len` bytes (a multiple of 4): MODULE_BLOCK holding an
 * IDENTIFICATION-like record and one FUNCTION_BLOCK that fills the rest. Only the
 * first bytes are returned; the caller leaves the rest of the file zero, which
 * inside the function block reads as END_BLOCK followed by unclaimed bytes. */
function bitcodeHead(len) {
  const b = new Bits();
  for (const c of [0x42, 0x43, 0xc0, 0xde]) b.put(c, 8);
  // ENTER_SUBBLOCK (abbrev id 1, width 2) MODULE_BLOCK = 8, new width 3.
  b.put(1, 2); b.vbr(8, 8); b.vbr(3, 4); b.align32();
  const moduleLenAt = b.bytes.length; b.put(0, 32);
  const moduleBody = b.bytes.length;
  // UNABBREV_RECORD (id 3): MODULE_CODE_VERSION (1), 1 operand: 1.
  b.put(3, 3); b.vbr(1, 6); b.vbr(1, 6); b.vbr(1, 6);
  // ENTER_SUBBLOCK FUNCTION_BLOCK = 12, width 4.
  b.put(1, 3); b.vbr(12, 8); b.vbr(4, 4); b.align32();
  const fnLenAt = b.bytes.length; b.put(0, 32);
  const fnBody = b.bytes.length;
  // The function block runs to the last word, which holds the module's END_BLOCK.
  const fnWords = (len - 4 - fnBody) / 4;
  const head = Buffer.from(b.bytes);
  head.writeUInt32LE(fnWords, fnLenAt);
  head.writeUInt32LE((len - moduleBody) / 4, moduleLenAt);
  // The tail: the function block's END_BLOCK (id 0 at width 4, then align) sits at the
  // start of its body (zeros); the module's END_BLOCK (id 0, width 3) is in the last word.
  return head;
}

/** Writes a sparse DXBC of `size` bytes with one DXIL part filling it. */
export function writeDxil(file, size) {
  const partStart = 32 + 4 + 8; // header, one offset, part header
  const progHeader = 24;
  const bcLen = Math.floor((size - partStart - progHeader) / 4) * 4;
  const total = partStart + progHeader + bcLen;
  const h = Buffer.alloc(partStart + progHeader);
  h.write('DXBC', 0, 'latin1');
  h.writeUInt16LE(1, 20); h.writeUInt16LE(0, 22); // version 1.0
  h.writeUInt32LE(total >>> 0, 24); h.writeUInt32LE(1, 28);
  h.writeUInt32LE(36, 32);
  h.write('DXIL', 36, 'latin1'); h.writeUInt32LE(total - partStart, 40);
  // Program header: version (6.0, compute = 5), size in dwords, DXIL magic, version, offset, size.
  h.writeUInt32LE((5 << 16) | 0x60, 44);
  h.writeUInt32LE((total - partStart) / 4, 48);
  h.write('DXIL', 52, 'latin1'); h.writeUInt32LE(0x100, 56);
  h.writeUInt32LE(16, 60); h.writeUInt32LE(bcLen, 64);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, h, 0, h.length, 0);
  fs.writeSync(fd, bitcodeHead(bcLen), 0, undefined, partStart + progHeader);
  fs.ftruncateSync(fd, total);
  fs.closeSync(fd);
  return total;
}

/** A container with `n` small parts (about four tree nodes each, plus its offset). */
export function writeParts(file, n) {
  const head = 32 + 4 * n;
  const partSize = 8 + 4;
  const total = head + n * partSize;
  const b = Buffer.alloc(total);
  b.write('DXBC', 0, 'latin1');
  b.writeUInt16LE(1, 20); b.writeUInt32LE(total, 24); b.writeUInt32LE(n, 28);
  for (let i = 0; i < n; i++) {
    const at = head + i * partSize;
    b.writeUInt32LE(at, 32 + 4 * i);
    b.write('XTRA', at, 'latin1'); b.writeUInt32LE(4, at + 4); b.writeUInt32LE(i, at + 8);
  }
  fs.writeFileSync(file, b);
  return total;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] || '.';
  fs.mkdirSync(dir, { recursive: true });
  for (const [k, v] of Object.entries(SIZES)) writeDxil(path.join(dir, `dxil-${k}.dxbc`), v);
  writeParts(path.join(dir, 'parts-1m.dxbc'), 250000);
  console.log(fs.readdirSync(dir).join('\n'));
}
