// A minimal LLVM bitstream writer for the npm tests: a module block holding one
// block of `records` unabbreviated records (LLVM 19 BitstreamWriter semantics:
// fields LSB first in little-endian 32-bit words, blocks 32-bit aligned with
// their length in words), enough to make a list long enough to be paged.
/** Raw bitcode: MODULE_BLOCK (8) > block 99 > `records` records of code 1 with one operand (its index). */
export function bitcodeWithLongBlock(records) {
  const bytes = [0x42, 0x43, 0xc0, 0xde];
  let bit = 32;
  const put = (value, width) => {
    for (let i = 0; i < width; i++, bit++) {
      const byte = bit >> 3;
      while (bytes.length <= byte) bytes.push(0);
      if ((value / 2 ** i) % 2 >= 1) bytes[byte] |= 1 << (bit & 7);
    }
  };
  const vbr = (value, width) => {
    const low = 2 ** (width - 1);
    do {
      const chunk = value % low;
      value = Math.floor(value / low);
      put(chunk + (value > 0 ? low : 0), width);
    } while (value > 0);
  };
  const align = () => put(0, (32 - (bit % 32)) % 32);
  const open = [];
  const enter = (width, id) => {
    put(1, width);
    vbr(id, 8);
    vbr(3, 4);
    align();
    open.push(bit);
    put(0, 32);
  };
  const end = () => {
    put(0, 3);
    align();
    const at = open.pop();
    const words = (bit - at - 32) / 32;
    for (let i = 0; i < 4; i++) bytes[at / 8 + i] = (words >>> (8 * i)) & 255;
  };
  enter(2, 8);
  enter(3, 99);
  for (let i = 0; i < records; i++) {
    put(3, 3);
    vbr(1, 6);
    vbr(1, 6);
    vbr(i, 6);
  }
  end();
  end();
  return new Uint8Array(bytes);
}
