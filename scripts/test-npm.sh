#!/usr/bin/env bash
# Tests the npm package of the core (crates/js):
#   1. builds both of its builds (scripts/build-npm.sh: installs wasm-pack and
#      friends if missing) and the CLI
#   2. tsc checks the declarations (tests/npm/types.check.ts uses the API)
#   3. tests/npm/hexlens.test.mjs: the Node.js build against `hexlens dump`
#      (every format, the on-demand tree, damaged and bad input)
#   4. tests/npm/web.test.mjs: the web build through examples/npm-web in
#      headless Chromium (on the page and in a Web Worker), against the
#      Node.js build (Chromium and playwright-core: scripts/setup-web.sh --browser)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

scripts/build-npm.sh web node
if ! command -v chromium >/dev/null || [ ! -d tests/browser/node_modules/playwright-core ]; then
    scripts/setup-web.sh --browser
fi
echo "== tsc: the package's TypeScript declarations (tests/npm/types.check.ts)"
tests/npm/node_modules/.bin/tsc --noEmit --strict --target es2022 --module nodenext \
    --moduleResolution nodenext --lib esnext,dom tests/npm/types.check.ts target/npm/web/hexlens.d.ts
echo "== cargo build -p hexlens-cli"
cargo build --quiet -p hexlens-cli
echo "== node --test tests/npm"
HEXLENS_BIN="$ROOT/target/debug/hexlens" HEXLENS_NPM_NODE="$ROOT/target/npm/node" \
    node --test --test-concurrency=1 tests/npm/
