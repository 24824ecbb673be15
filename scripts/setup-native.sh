#!/usr/bin/env bash
# Installs what the native test suite needs and a fresh machine may lack:
# rustfmt/clippy, and LLVM 19's obj2yaml and yaml2obj (the oracles the DirectX
# Container corpus tests compare against; both come in Debian's llvm-19).
# Idempotent: skips whatever is already there.
set -euo pipefail

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "setup: need root to run: $*" >&2; return 1; fi
}

for comp in rustfmt clippy; do
    if ! rustup component list --installed 2>/dev/null | grep -q "^$comp"; then
        rustup component add "$comp"
    fi
done

has_llvm19() { command -v "$1-19" >/dev/null || [ -x "/usr/lib/llvm-19/bin/$1" ]; }
if ! has_llvm19 obj2yaml || ! has_llvm19 yaml2obj; then
    echo "setup: installing llvm-19 (obj2yaml-19, yaml2obj-19)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq llvm-19 >/dev/null
fi

# `script` (util-linux, Debian's bsdutils) runs the CLI on a pseudo-terminal in
# the test of `hexlens dump --color auto`. Essential on Debian, so rarely missing.
if ! command -v script >/dev/null; then
    echo "setup: installing bsdutils (script)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bsdutils >/dev/null
fi
