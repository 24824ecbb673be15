#!/usr/bin/env bash
# Installs what building the npm package of the core (crates/js) needs, skipping
# whatever is already present (safe to run every time):
#   - the wasm32-unknown-unknown Rust target (rustup)
#   - wasm-bindgen-cli at exactly the `wasm-bindgen` version in Cargo.lock
#   - wasm-pack $WASM_PACK_VERSION (cargo install --locked, from crates.io;
#     a few minutes on 2 cores)
#   - tests/browser's npm packages, for binaryen's wasm-opt
#   - tests/npm's npm packages (TypeScript, for the declarations' check)
# wasm-pack then runs with `--mode no-install` (scripts/build-npm.sh): it uses
# these from PATH and downloads nothing. Callers put them there with:
#   export PATH="$ROOT/tests/browser/node_modules/.bin:$HOME/.cargo/bin:$PATH"
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WASM_PACK_VERSION="$("$ROOT/scripts/tools.sh" package wasm-pack)"
WASM_PACK_VERSION="${WASM_PACK_VERSION#wasm-pack@}"
export PATH="$ROOT/tests/browser/node_modules/.bin:$HOME/.cargo/bin:$PATH"

say() { printf '\033[1;34m[setup-npm]\033[0m %s\n' "$*"; }

command -v cargo >/dev/null || { echo "cargo is missing: install Rust from https://rustup.rs" >&2; exit 1; }
command -v npm >/dev/null || { echo "npm is missing: install Node.js 20+" >&2; exit 1; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
fi

LOGS="$ROOT/target/setup-npm"
mkdir -p "$LOGS"
# Runs an install, its output in a log shown only if it fails.
run_install() {
    local name="$1"
    shift
    say "installing $name (log: target/setup-npm/$name.log)"
    if ! "$@" >"$LOGS/$name.log" 2>&1; then
        echo "setup-npm: installing $name failed; the end of its log:" >&2
        tail -n 30 "$LOGS/$name.log" >&2
        exit 1
    fi
}

WB_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")"
[ -n "$WB_VERSION" ] || { echo "setup-npm: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WB_VERSION\b"; then
    run_install wasm-bindgen-cli cargo install --force wasm-bindgen-cli --version "$WB_VERSION"
fi

if ! wasm-pack --version 2>/dev/null | grep -q " $WASM_PACK_VERSION\b"; then
    run_install wasm-pack cargo install --locked --force wasm-pack --version "$WASM_PACK_VERSION"
fi

if [ ! -x "$ROOT/tests/browser/node_modules/.bin/wasm-opt" ] \
    || [ "$ROOT/tests/browser/package.json" -nt "$ROOT/tests/browser/node_modules/.package-lock.json" ]; then
    run_install npm-packages bash -c "cd '$ROOT/tests/browser' && npm install --no-audit --no-fund --loglevel=error"
fi

# TypeScript, to check the package's declarations (scripts/test-npm.sh).
if [ ! -x "$ROOT/tests/npm/node_modules/.bin/tsc" ] \
    || [ "$ROOT/tests/npm/package.json" -nt "$ROOT/tests/npm/node_modules/.package-lock.json" ]; then
    run_install npm-test-packages bash -c "cd '$ROOT/tests/npm' && npm install --no-audit --no-fund --loglevel=error"
fi

# wasm-bindgen and the crates the package builds from, fetched now so that
# the build itself needs no network.
(cd "$ROOT" && cargo fetch --quiet)

"$ROOT/scripts/tools.sh" check npm
say "ready: $(wasm-pack --version), $(wasm-bindgen --version), wasm-opt $(wasm-opt --version)"
