#!/usr/bin/env bash
# Installs what the native test suite needs and a fresh machine may lack:
# rustfmt/clippy, and every program of the `native` stage of scripts/tools.tsv
# from the Debian package the list names for it: llvm-19 (LLVM 19's oracles
# obj2yaml-19, yaml2obj-19, llvm-bcanalyzer-19, llvm-as-19, llvm-dis-19,
# llvm-pdbutil-19), clang-19, llvm-14 (llvm-dis-14), python3, coreutils (base64,
# env), bsdutils (script), bash, gzip. Idempotent: skips whatever is already there. Fails,
# naming them, if any of them is still missing afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

# The toolchain itself is not installed here: say so at once if it is missing.
scripts/tools.sh check base

for comp in rustfmt clippy; do
    if ! rustup component list --installed 2>/dev/null | grep -q "^$comp"; then
        rustup component add "$comp"
    fi
done

scripts/tools.sh install native
scripts/tools.sh check native
