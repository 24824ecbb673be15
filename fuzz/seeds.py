#!/usr/bin/env python3
"""Builds the seed corpus of every fuzz target from the shared samples and the
test fixtures: fuzz/seeds.py REPO SHARED OUT. Writes OUT/<target>/<sha1> files.

- dxcontainer: every DXContainer sample and fixture;
- bitstream: the LLVM bitcode of every DXIL/ILDB part of those containers;
- dyno, cdac, llvm1: their fixtures;
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
        return
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
dx += [p for p in files_under(os.path.join(fx, "generated"))]
per_target = {
    "dxcontainer": dx,
    "dyno": list(files_under(os.path.join(fx, "dyno"))),
    "cdac": list(files_under(os.path.join(fx, "cdac"))),
    "llvm1": list(files_under(os.path.join(fx, "llvm1"))),
}
for target, paths in per_target.items():
    for p in paths:
        with open(p, "rb") as f:
            data = f.read()
        add(target, data)
        add("detect", data)
        if target == "dxcontainer":
            for bc in bitcode_of(data):
                add("bitstream", bc)

# Inputs that once failed, and the hostile files, seed the target they are named for.
targets = ["detect", "dxcontainer", "bitstream", "dyno", "cdac", "llvm1"]
for sub in ("fuzz-regressions", "hostile"):
    for p in files_under(os.path.join(fx, sub)):
        name = os.path.basename(p)
        with open(p, "rb") as f:
            data = f.read()
        for t in targets:
            if name.startswith(t + "-") or name.startswith(t + "_"):
                add(t, data)
        add("detect", data)

for t in targets:
    print(f"seeds {t}: {counts.get(t, 0)} new files")
