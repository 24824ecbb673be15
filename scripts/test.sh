#!/usr/bin/env bash
# Runs every hexlens test: formatting, lints, the core's unit tests, the CLI and
# golden-dump tests, the DirectX Container corpus test against LLVM's obj2yaml, the
# damage sweeps, the npm package's tests and the browser tests. Installs what it needs first.
#
# The corpus lives in ../shared/samples (beside the repository); set HEXLENS_SHARED
# to point elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-native.sh

echo "== cargo fmt --check"
cargo fmt --all --check

echo "== cargo clippy (native, all targets)"
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "== cargo test"
cargo test --workspace

echo "== npm package tests"
scripts/test-npm.sh

echo "== browser tests"
scripts/test-browser.sh
