#!/usr/bin/env bash
# Writes the LLVM bitcode fixtures in tests/fixtures/bitcode/ made by other programs:
#   - wrapped_darwin.bc: clang-19 bitcode of bitcode_sample.c for a Darwin target,
#     which clang writes inside the bitcode wrapper header (0x0B17C0DE);
#   - plain_linux_O0.bc: the same source for x86_64 Linux at -O0, no wrapper;
#   - dxc_hull_shader.bc: the bitcode DXC wrote in the DXIL part of the curated
#     fixture hs_mismatch_2_code_dxil.dxil.dxbc (LLVM 3.7 dialect), cut out as is.
# gen_code.bc is made from gen_code.ll by llvm-as-19 (see the folder's README).
#
#   bash crates/testkit/src/generators/bitcode/build.sh
#
# Needs clang-19 (`apt-get install clang-19`) and python3. The run from the
# same clang gives the same bytes (the module names the source by its base name).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# This folder is crates/testkit/src/generators/bitcode; the fixtures are the repository's tests/fixtures.
fixtures="$(cd "$here/../../../../../tests/fixtures" && pwd)"
out="$fixtures/bitcode"
cd "$here"
clang-19 --target=x86_64-apple-macosx11.0 -c -emit-llvm -O1 bitcode_sample.c -o "$out/wrapped_darwin.bc"
clang-19 --target=x86_64-linux-gnu -c -emit-llvm -O0 bitcode_sample.c -o "$out/plain_linux_O0.bc"
python3 - "$fixtures/dxcontainer/curated/hs_mismatch_2_code_dxil.dxil.dxbc" "$out/dxc_hull_shader.bc" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
count = struct.unpack_from("<I", data, 28)[0]
for i in range(count):
    off = struct.unpack_from("<I", data, 32 + 4 * i)[0]
    if data[off:off + 4] == b"DXIL":
        part = data[off + 8:]
        # The program header: the bitcode's offset (from the DXIL header at +8) and size.
        bc_off, bc_size = struct.unpack_from("<II", part, 16)
        open(sys.argv[2], "wb").write(part[8 + bc_off:8 + bc_off + bc_size])
        break
else:
    sys.exit("no DXIL part")
PY
