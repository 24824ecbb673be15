// Self-test of the Kaitai Struct oracle: node --test tests/ksy/oracle/selftest.mjs
// (needs scripts/setup-ksy-oracle.sh first). The inputs come from
// selftest/make.mjs, written afresh into a temporary folder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { make } from './selftest/make.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const oracle = path.join(here, 'oracle.mjs');
const ksy = (name) => path.join(here, 'selftest', name);
let tmp;
const bin = (name) => path.join(tmp, name);

before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ksy-oracle-selftest-'));
    make(tmp);
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function run(...args) {
    const r = spawnSync(process.execPath, [oracle, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
    return r;
}
function decode(...args) {
    const r = run(...args);
    assert.equal(r.status, 0, `oracle exited ${r.status}: ${r.stderr}`);
    return JSON.parse(r.stdout);
}
function byPath(out) {
    const m = new Map();
    for (const f of out.fields) m.set(f.path.join('/'), f);
    return m;
}
// Checks the given keys of the entry at path p.
function expectEntry(m, p, want) {
    const e = m.get(p);
    assert.ok(e, `no entry ${p}`);
    for (const [k, v] of Object.entries(want)) assert.deepEqual(e[k], v, `${p}: ${k}`);
    return e;
}

test('basic: spans and values of seq fields, substreams, arrays, instances', () => {
    const out = decode(ksy('basic.ksy'), bin('basic.bin'));
    assert.equal(out.ok, true, out.error);
    assert.equal(out.root, 'Basic');
    const m = byPath(out);
    expectEntry(m, 'magic', { start: 0, end: 2, value: { hex: '4858' } });
    expectEntry(m, 'a_u1', { start: 2, end: 3, value: 7, instance: false, decoded: false });
    expectEntry(m, 'b_u2le', { start: 3, end: 5, value: 0x1234 });
    expectEntry(m, 'c_u4be', { start: 5, end: 9, value: 0xdeadbeef });
    expectEntry(m, 'd_s2', { start: 9, end: 11, value: -2 });
    expectEntry(m, 'e_f4', { start: 11, end: 15, value: 1.5 });
    // Bit fields: byte positions as the runtime keeps them, plus exact bits.
    expectEntry(m, 'hi_bits', { value: 5, bit_start: 120, bit_end: 123 });
    expectEntry(m, 'lo_bits', { value: 0x13, bit_start: 123, bit_end: 128 });
    // A sized substream at 17, and a user type nested in it at 17 + 2.
    expectEntry(m, 'body', { start: 17, end: 27, value: { struct: true, type: 'Body' } });
    expectEntry(m, 'body/tag', { start: 17, end: 19, value: 0xbeef });
    expectEntry(m, 'body/inner', { start: 19, end: 23 });
    expectEntry(m, 'body/inner/x', { start: 19, end: 21, value: 0x0102, decoded: false });
    expectEntry(m, 'body/inner/y', { start: 21, end: 23, value: -3 });
    expectEntry(m, 'body/pad', { start: 23, end: 27, value: { hex: 'aabbccdd' } });
    // repeat: expr of structs
    expectEntry(m, 'recs', { start: 28, end: 37, value: { array: 3 } });
    expectEntry(m, 'recs/[0]', { start: 28, end: 31, value: { struct: true, type: 'Rec' } });
    expectEntry(m, 'recs/[2]/tag', { start: 34, end: 35, value: 3 });
    expectEntry(m, 'recs/[2]/val', { start: 35, end: 37, value: 0x3000 });
    expectEntry(m, 'kind', { start: 37, end: 38, value: 2 });
    expectEntry(m, 'name', { start: 38, end: 46, value: 'hexlens' });
    const big = expectEntry(m, 'big', { start: 46, end: 54, unsafe: true });
    assert.ok(Math.abs(big.value - 2 ** 53) <= 2, `big: ${big.value}`);
    // repeat: eos in a size-eos substream
    expectEntry(m, 'tail', { start: 54, end: 60 });
    expectEntry(m, 'tail/words', { start: 54, end: 60, value: { array: 3 } });
    expectEntry(m, 'tail/words/[2]', { start: 58, end: 60, value: 0xffff });
    // instances: pos, value, pos through the body's stream (io:), a failing one
    expectEntry(m, 'at_ofs', { start: 3, end: 5, value: 0x1234, instance: true });
    expectEntry(m, 'sum', { start: null, end: null, value: 7 + 0x1234, instance: true });
    expectEntry(m, 'deep', { start: 23, end: 27, instance: true });
    expectEntry(m, 'deep/x', { start: 23, end: 25, value: 0xbbaa });
    expectEntry(m, 'deep/y', { start: 25, end: 27, value: 0xddcc - 0x10000 });
    const bad = expectEntry(m, 'bad_pos', { instance: true, value: null });
    assert.match(bad.error, /EOF|bytes/);
    assert.ok(out.fields.every((f) => f.decoded === false), 'nothing is decoded');
    // Depth first in read order.
    const order = out.fields.map((f) => f.path.join('/'));
    assert.ok(order.indexOf('body/pad') < order.indexOf('num_recs'));
});

test('a truncated input: ok false at stage read, with what was read before', () => {
    const out = decode(ksy('basic.ksy'), bin('basic-truncated.bin'));
    assert.equal(out.ok, false);
    assert.equal(out.stage, 'read');
    assert.match(out.error, /EOF|bytes/);
    const m = byPath(out);
    expectEntry(m, 'a_u1', { start: 2, end: 3, value: 7 });
    expectEntry(m, 'body/inner/x', { start: 19, end: 21, value: 0x0102 });
    expectEntry(m, 'recs/[0]/val', { start: 29, end: 31, value: 0x1000 });
    expectEntry(m, 'recs/[1]/tag', { start: 31, end: 32, value: 2 });
    expectEntry(m, 'recs/[1]/val', { start: 32, end: null, value: null, incomplete: true });
    assert.equal(m.has('kind'), false);
    assert.equal(m.has('name'), false);
});

test('process: xor: fields of the decoded buffer are marked decoded', () => {
    const out = decode(ksy('xored.ksy'), bin('xored.bin'));
    assert.equal(out.ok, true, out.error);
    const m = byPath(out);
    expectEntry(m, 'hdr', { start: 0, end: 1, value: 0x11 });
    expectEntry(m, 'payload', { start: 1, end: 7, decoded: false });
    const from = { start: 1, end: 7 };
    expectEntry(m, 'payload/a', { start: 0, end: 2, value: 0x0102, decoded: true, decoded_from: from });
    expectEntry(m, 'payload/b', { start: 2, end: 6, value: 0x03040506, decoded: true, decoded_from: from });
    expectEntry(m, 'trailer', { start: 7, end: 9, value: 0xcafe, decoded: false });
    // A terminator makes a copy of the raw bytes: still file offsets.
    expectEntry(m, 'padded', { start: 9, end: 15 });
    expectEntry(m, 'padded/c', { start: 9, end: 11, value: 0x4142, decoded: false });
    expectEntry(m, 'padded/d', { start: 11, end: 12, value: 0x43, decoded: false });
});

test('imports: relative beside the .ksy, absolute under --ksy-path', () => {
    const out = decode(ksy('imp_main.ksy'), bin('imp_main.bin'), '--ksy-path', ksy('lib'));
    assert.equal(out.ok, true, out.error);
    const m = byPath(out);
    expectEntry(m, 'r', { start: 0, end: 2, value: { struct: true, type: 'ImpRel' } });
    expectEntry(m, 'r/x', { start: 0, end: 2, value: 0x0201 });
    expectEntry(m, 'a/y/w', { start: 2, end: 3, value: 0x33 });
    expectEntry(m, 'a/z', { start: 3, end: 4, value: 0x44 });

    const missing = decode(ksy('imp_main.ksy'), bin('imp_main.bin'));
    assert.equal(missing.ok, false);
    assert.equal(missing.stage, 'compile');
    assert.match(missing.error, /imp_abs/);
});

test('a compile error', () => {
    const out = decode(ksy('bad.ksy'), bin('imp_main.bin'));
    assert.deepEqual([out.ok, out.stage], [false, 'compile']);
    assert.match(out.error, /no_such_type/);
});

test('a parse that does not end in time', () => {
    const t0 = Date.now();
    const out = decode(ksy('spin.ksy'), bin('spin.bin'), '--timeout-ms', '500');
    assert.deepEqual([out.ok, out.stage], [false, 'timeout']);
    assert.ok(Date.now() - t0 < 15000);
});

test('--time and --repeat report the median parse time', () => {
    const out = decode(ksy('basic.ksy'), bin('basic.bin'), '--repeat', '3');
    assert.equal(out.ok, true);
    assert.equal(out.repeat, 3);
    assert.equal(out.parse_ms_runs.length, 3);
    assert.equal(typeof out.parse_ms, 'number');
    assert.equal(out.parse_ms, [...out.parse_ms_runs].sort((a, b) => a - b)[1]);
});

test('--max-entries truncates', () => {
    const out = decode(ksy('basic.ksy'), bin('basic.bin'), '--max-entries', '3');
    assert.equal(out.truncated, true);
    assert.equal(out.fields.length, 3);
});

test('bad command lines exit 2', () => {
    assert.equal(run().status, 2);
    assert.equal(run(ksy('basic.ksy')).status, 2);
    assert.equal(run(ksy('basic.ksy'), bin('basic.bin'), '--nope').status, 2);
    assert.equal(run(ksy('basic.ksy'), path.join(tmp, 'missing.bin')).status, 2);
});

test('the binaries kept in selftest/ are what make.mjs writes', () => {
    for (const name of fs.readdirSync(tmp)) {
        assert.ok(fs.readFileSync(ksy(name)).equals(fs.readFileSync(bin(name))), `${name} is stale: run node selftest/make.mjs`);
    }
});
