#!/usr/bin/env bash
# Tests the npm package of the core: builds its Node.js build
# (scripts/build-npm.sh node, installing wasm-pack and friends if missing) and
# the CLI, then runs tests/npm/*.test.mjs with node's test runner, which load
# the package and compare it with `hexlens dump`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

scripts/build-npm.sh node
echo "== cargo build -p hexlens-cli"
cargo build --quiet -p hexlens-cli
echo "== node --test tests/npm"
HEXLENS_BIN="$ROOT/target/debug/hexlens" HEXLENS_NPM_NODE="$ROOT/target/npm/node" \
    node --test tests/npm/
