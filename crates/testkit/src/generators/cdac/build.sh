#!/usr/bin/env bash
# Compiles the hexlens cDAC test descriptor (hexlens_blob.c + hexlens_descriptor.h, both
# written by the hexlens project) into object files for several targets and writes them,
# with the blob bytes extracted alone, into tests/fixtures/cdac/.
#
#   bash crates/testkit/src/generators/cdac/build.sh
#
# Needs gcc (x86_64 ELF) and clang-19 (every other target: `apt-get install clang-19`);
# llvm-objcopy-19 (or objcopy) extracts the standalone blobs. Compiles only (-c): no
# linker and no target libraries are needed (-ffreestanding uses the compiler's own
# stdint.h/stddef.h). The damaged variants are made from these files by
# crates/testkit/src/generators/cdac.rs (`HEXLENS_BLESS=1 cargo test -p hexlens-core --test cdac_fixtures`).
# Afterwards rerun the golden dumps: `HEXLENS_BLESS=1 cargo test -p hexlens-cli --test cdac_golden`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# This folder is crates/testkit/src/generators/cdac; the fixtures are the repository's tests/fixtures.
fixtures="$(cd "$here/../../../../../tests/fixtures" && pwd)"
out="$fixtures/cdac"
src="$here/hexlens_blob.c"
# Same bytes whatever the checkout path: no debug info, no file names in the objects.
common=(-c -O2 -g0 -ffreestanding -fno-ident -fno-common -I"$here")

clang=""
for c in clang-19 clang; do
    if command -v "$c" >/dev/null; then clang="$c"; break; fi
done
objcopy=""
for c in llvm-objcopy-19 llvm-objcopy objcopy; do
    if command -v "$c" >/dev/null; then objcopy="$c"; break; fi
done

build_gcc() { # output, extra flags...
    local o="$1"; shift
    gcc "${common[@]}" -fPIC "$@" "$src" -o "$out/$o"
    echo "gcc      $* -> $o"
}

build_clang() { # output, target, extra flags...
    local o="$1" target="$2"; shift 2
    if [ -z "$clang" ]; then
        echo "clang-19 not found: keeping the checked-in $o" >&2
        return 0
    fi
    "$clang" --target="$target" "${common[@]}" "$@" "$src" -o "$out/$o"
    echo "$clang --target=$target $* -> $o"
}

# x86_64 Linux ELF, little-endian, 64-bit: the runtime's layout and the sample's.
build_gcc x86_64-linux.o
build_gcc x86_64-linux-sample-layout.o -DHX_SAMPLE_LAYOUT
# Big-endian 64-bit: s390x with the magic written as a uint64 (reads 00 42 4F 4C ...),
# powerpc64 with the magic written as a string (still "DACBLOB\0", values big-endian).
build_clang s390x-linux.o s390x-linux-gnu -fPIC
build_clang powerpc64-linux-sample-layout.o powerpc64-linux-gnu -fPIC -DHX_SAMPLE_LAYOUT
# 32-bit little-endian ELF.
build_clang i386-linux.o i386-linux-gnu -fPIC
# Windows COFF, macOS Mach-O, WebAssembly object.
# (no timestamp in the COFF header, so rebuilding gives the same bytes)
build_clang x86_64-windows.obj x86_64-pc-windows-msvc -mno-incremental-linker-compatible
# A PE image: the COFF object linked into a DLL (no entry point, no libraries;
# /brepro for a reproducible timestamp).
lld_link=""
for c in lld-link-19 lld-link; do
    if command -v "$c" >/dev/null; then lld_link="$c"; break; fi
done
if [ -n "$lld_link" ]; then
    "$lld_link" /dll /noentry /nodefaultlib /brepro /export:HexlensDataDescriptor \
        /out:"$out/x86_64-windows.dll" "$out/x86_64-windows.obj" >/dev/null
    rm -f "$out/x86_64-windows.lib"
    echo "$lld_link /dll /noentry /nodefaultlib /brepro x86_64-windows.obj -> x86_64-windows.dll"
else
    echo "lld-link-19 not found: keeping the checked-in x86_64-windows.dll" >&2
fi
build_clang x86_64-macos.o x86_64-apple-darwin
build_clang wasm32.o wasm32-unknown-unknown

# Standalone blobs: the section that holds the blob, alone. With -fPIC the pointer data
# (which needs relocations) goes to .data.rel.ro, so .rodata holds only the blob.
"$objcopy" -O binary --only-section=.rodata "$out/x86_64-linux.o" "$out/x86_64-blob.bin"
echo "$objcopy -O binary --only-section=.rodata x86_64-linux.o -> x86_64-blob.bin"
if [ -n "$clang" ]; then
    "$objcopy" -O binary --only-section=.rodata "$out/s390x-linux.o" "$out/s390x-blob.bin"
    echo "$objcopy -O binary --only-section=.rodata s390x-linux.o -> s390x-blob.bin"
fi

{
    echo "gcc: $(gcc --version | head -n1)"
    if [ -n "$clang" ]; then echo "clang: $("$clang" --version | head -n1)"; fi
    echo "objcopy: $("$objcopy" --version | head -n1)"
    if [ -n "$lld_link" ]; then echo "lld-link: $("$lld_link" --version | head -n1)"; fi
} >"$out/TOOLS.txt"
echo "tool versions -> TOOLS.txt"
