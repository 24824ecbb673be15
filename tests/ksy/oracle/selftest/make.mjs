// Writes the self-test's binary inputs (deterministic). Run directly to
// refresh the copies kept beside the .ksy files; selftest.mjs calls make(dir).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));

function basic() {
    const b = [];
    const u1 = (v) => b.push(v & 0xff);
    const u2le = (v) => b.push(v & 0xff, (v >> 8) & 0xff);
    const u2be = (v) => b.push((v >> 8) & 0xff, v & 0xff);
    const u4be = (v) => b.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
    b.push(0x48, 0x58); // magic "HX"               0..2
    u1(7); //            a_u1                        2
    u2le(0x1234); //     b_u2le                      3..5
    u4be(0xdeadbeef); // c_u4be                      5..9
    u2le(-2); //         d_s2                        9..11
    const f = Buffer.alloc(4);
    f.writeFloatLE(1.5);
    b.push(...f); //     e_f4                        11..15
    u1((5 << 5) | 0x13); // hi_bits b3 = 5, lo_bits b5 = 0x13: 15
    u1(10); //           len_body                    16
    u2le(0xbeef); //     body.tag                    17..19
    u2le(0x0102); //     body.inner.x                19..21
    u2le(-3); //         body.inner.y                21..23
    b.push(0xaa, 0xbb, 0xcc, 0xdd); // body.pad      23..27 (deep.x, deep.y)
    u1(3); //            num_recs                    27
    for (let i = 1; i <= 3; i++) { u1(i); u2be(0x1000 * i); } // recs 28..37
    u1(2); //            kind = two                  37
    b.push(...Buffer.from('hexlens\0', 'ascii')); // name 38..46
    const big = Buffer.alloc(8);
    big.writeBigUInt64LE(2n ** 53n + 1n);
    b.push(...big); //   big                         46..54
    u2le(1); u2le(2); u2le(0xffff); // tail.words   54..60
    return Buffer.from(b);
}

function xored() {
    const plain = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06];
    return Buffer.from([
        0x11, //                                     hdr 0
        ...plain.map((x) => x ^ 0x5a), //            payload 1..7
        0xca, 0xfe, //                               trailer 7..9
        0x41, 0x42, 0x43, 0x00, 0x99, 0x98, //       padded 9..15
    ]);
}

export function make(dir = here) {
    const files = {
        'basic.bin': basic(),
        'basic-truncated.bin': basic().subarray(0, 33), // ends inside recs[1].val
        'xored.bin': xored(),
        'imp_main.bin': Buffer.from([0x01, 0x02, 0x33, 0x44]),
        'spin.bin': Buffer.alloc(0),
    };
    for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), data);
    return Object.keys(files);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    console.log(`wrote ${make().join(', ')} in ${here}`);
}
