#!/usr/bin/env python3
"""Builds the seed corpus of every fuzz target from the shared samples and the
test fixtures: fuzz/seeds.py REPO SHARED OUT. Writes OUT/<target>/<sha1> files.

- dxcontainer: every DXContainer sample and fixture;
- bitcode: the LLVM bitcode of every DXIL/ILDB part of those containers;
- chapel_dyno, cdac, llvm1_bytecode, msf, embedded, bitcode: their fixtures;
- diff: pairs of fixtures (a file and itself, a changed copy, the next file);
- search: queries of every mode over fixtures;
- detect: all of the above;
- every target also gets the fuzz regressions and hostile fixtures named for it.
"""
import hashlib
import os
import struct
import sys

repo, shared, out = sys.argv[1], sys.argv[2], sys.argv[3]
SKIP_EXT = {".md", ".txt", ".json", ".yaml", ".yml", ".toml"}
counts = {}


def files_under(d):
    if not os.path.isdir(d):
        sys.exit(f"seeds.py: no folder {d}")
    for root, _, names in os.walk(d):
        for n in sorted(names):
            if os.path.splitext(n)[1].lower() not in SKIP_EXT:
                yield os.path.join(root, n)


def add(target, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, hashlib.sha1(data).hexdigest())
    if not os.path.exists(p):
        with open(p, "wb") as f:
            f.write(data)
        counts[target] = counts.get(target, 0) + 1


def bitcode_of(data):
    """The bitcode runs of the DXIL and ILDB parts of a DXContainer."""
    if len(data) < 32 or data[:4] != b"DXBC":
        return
    count = struct.unpack_from("<I", data, 28)[0]
    for i in range(min(count, (len(data) - 32) // 4)):
        off = struct.unpack_from("<I", data, 32 + 4 * i)[0]
        if off + 8 > len(data):
            continue
        fourcc = data[off:off + 4]
        size = struct.unpack_from("<I", data, off + 4)[0]
        part = data[off + 8:off + 8 + size]
        if fourcc not in (b"DXIL", b"ILDB") or len(part) < 24:
            continue
        bc_off, bc_size = struct.unpack_from("<II", part, 16)
        start = 8 + bc_off
        bc = part[start:start + bc_size]
        if bc[:4] in (b"BC\xc0\xde", b"\xde\xc0\x17\x0b"):
            yield bc


fx = os.path.join(repo, "tests", "fixtures")
dx = list(files_under(os.path.join(shared, "samples", "dxcontainer")))
dx += list(files_under(os.path.join(fx, "dxcontainer")))
per_target = {"dxcontainer": dx}
# Each other format's fixtures are in the folder named after it (the target's
# name with "-" for "_").
for target in ("chapel_dyno", "cdac", "llvm1_bytecode", "msf", "embedded", "bitcode"):
    per_target[target] = list(files_under(os.path.join(fx, target.replace("_", "-"))))
for target, paths in per_target.items():
    for p in paths:
        with open(p, "rb") as f:
            data = f.read()
        add(target, data)
        add("detect", data)
        if target == "dxcontainer":
            for bc in bitcode_of(data):
                add("bitcode", bc)

# Inputs that once failed, and the hostile files, seed the target they are named for.
targets = ["detect", "dxcontainer", "bitcode", "chapel_dyno", "cdac", "llvm1_bytecode",
           "msf", "embedded", "diff", "search"]
for sub in ("fuzz-regressions", "hostile"):
    for p in files_under(os.path.join(fx, sub)):
        name = os.path.basename(p)
        with open(p, "rb") as f:
            data = f.read()
        if name.startswith("bitstream-"):
            add("bitcode", data)
        for t in targets:
            if name.startswith(t + "-") or name.startswith(t + "_"):
                add(t, data)
        add("detect", data)

# diff: two inputs in one (a little-endian u16 giving the first one's length):
# a fixture against itself, against a copy with bytes changed, inserted and
# removed, and against the next fixture of its format.
def pair(a, b):
    if len(a) <= 0xFFFF and len(a) + len(b) + 2 <= 65536:
        add("diff", struct.pack("<H", len(a)) + a + b)


small = {}
for target, paths in per_target.items():
    small[target] = []
    for p in sorted(paths):
        with open(p, "rb") as f:
            data = f.read()
        if len(data) <= 16384:
            small[target].append(data)
for target, datas in small.items():
    datas = datas[:40]
    for i, a in enumerate(datas):
        pair(a, a)
        k = len(a) // 2
        pair(a, a[:k] + bytes([(a[k] ^ 0x5A) if k < len(a) else 0]) + a[k + 1:])
        pair(a, a[:k] + b"\0\0\0\0" + a[k:])
        pair(a, a[:k] + a[k + 8:])
        if i + 1 < len(datas):
            pair(a, datas[i + 1])

# search: a query (mode byte, number type and order byte, length, text) and a
# file to search, for each mode with typical queries.
queries = [
    (0, 0, "44 58 42 43"), (0, 0, "DE ?? BE EF"), (0, 0, "4? 5?"), (0, 0, "B C"),
    (1, 0, "DXBC"), (1 | 4, 0, "main"), (1 | 8, 0, "POSITION"), (1 | 12, 0, "sv_target"),
    (2, 0, "68"), (2, 0, "-1"), (2, 3, "0x44584243"), (2, 11 + 4, "1.5"),
    (2, 22 + 10, "3.25"), (2, 7, "-2147483648"),
    (3, 0, "PartCount"), (3, 0, "Parts/*/PSVInfo"), (3, 0, "POSITION"),
]
hays = [d for datas in small.values() for d in datas[:3]]
for k, (mode, num, text) in enumerate(queries):
    q = text.encode()
    hay = hays[k % len(hays)] if hays else b""
    add("search", bytes([mode, num, len(q)]) + q + hay[:60000])

for t in targets:
    print(f"seeds {t}: {counts.get(t, 0)} new files")
