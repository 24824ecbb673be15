#!/usr/bin/env bash
# Runs every hexlens test: the programs they need, formatting, lints, the core's unit tests, the CLI and
# golden-dump tests, the DirectX Container corpus test against LLVM's obj2yaml, the
# damage sweeps, the npm package's tests and the browser tests. Installs what it needs first.
#
# The corpus lives in ../shared/samples (beside the repository); set HEXLENS_SHARED
# to point elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every program the tests run is in scripts/tools.tsv. What cannot be installed
# here (the Rust toolchain, Node.js) is checked first, in a second; then the
# native programs are installed and checked before the first test builds, so a
# missing one is named at once rather than by a test minutes later.
echo "== programs the tests need (scripts/tools.tsv)"
scripts/tools.sh check base
scripts/setup-native.sh
# Kaitai Struct's own compiler and runtime, the oracle the .ksy tests compare
# with (crates/core/tests/ksy_oracle.rs; test-only, never shipped).
scripts/setup-ksy-oracle.sh

# The web and npm tools (trunk, wasm-bindgen-cli, wasm-pack, Chromium, npm
# packages: minutes of compiling on a fresh machine) install in the background
# while the Rust tests run; the tests that need them wait for them.
mkdir -p target
( scripts/setup-web.sh --browser && scripts/setup-npm.sh ) >target/setup-tools.log 2>&1 &
setup_pid=$!

echo "== cargo fmt --check"
cargo fmt --all --check
# The decoder modules are declared inside the format registry's macro, out of
# cargo fmt's reach: checked file by file.
find crates/core/src/formats -name '*.rs' -exec rustfmt --check --edition 2021 {} +

echo "== cargo clippy (native, all targets)"
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "== cargo test"
cargo test --workspace

echo "== waiting for the web and npm tools (log: target/setup-tools.log)"
if ! wait "$setup_pid"; then
    tail -n 40 target/setup-tools.log >&2
    echo "installing the web and npm tools failed" >&2
    exit 1
fi
tail -n 3 target/setup-tools.log
scripts/tools.sh check base native web browser npm

echo "== the registry in each decode-worker module's build"
scripts/test-modules.sh

echo "== the .ksy oracle's own self-test (tests/ksy/oracle)"
node --test tests/ksy/oracle/selftest.mjs

echo "== npm package tests"
scripts/test-npm.sh

echo "== browser tests"
scripts/test-browser.sh
