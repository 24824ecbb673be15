#!/usr/bin/env bash
# Browser tests of the web app, headless Chromium, from a fresh machine:
#   1. installs what is missing (scripts/setup-web.sh --browser)
#   2. component tests: wasm-bindgen-test in headless Chromium (chromedriver)
#   3. trunk build --release --public-url ./ (relative URLs: any host, any sub-path)
#   4. prints the bundle sizes (wasm, js, css; raw and gzip)
#   5. end-to-end, security and offline tests (node --test + playwright-core on /usr/bin/chromium) against
#      that build served from 127.0.0.1 under /hexlens/; screenshots go to
#      target/browser-artifacts/
# Exits non-zero if anything fails; the last lines are node's test summary.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/setup-web.sh --browser
export PATH="$ROOT/tests/browser/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# No update check against crates.io: the only requests are to 127.0.0.1.
export TRUNK_SKIP_VERSION_CHECK=true

ART="$ROOT/target/browser-artifacts"
DIST="$ROOT/target/browser-dist"
rm -rf "$ART"
mkdir -p "$ART"
status=0

echo "== wasm-bindgen-test (component tests in headless Chromium)"
if ! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    CHROMEDRIVER="$(command -v chromedriver)" \
    WASM_BINDGEN_TEST_WEBDRIVER_JSON="$ROOT/tests/browser/webdriver.json" \
    WASM_BINDGEN_TEST_TIMEOUT=120 \
    cargo test --target wasm32-unknown-unknown -p hexlens-web --lib; then
    echo "wasm-bindgen-test FAILED"
    status=1
fi

# A relative public URL: the built site works from any host and any sub-path; the
# tests serve it under /hexlens/ to prove it.
echo "== trunk build --release --public-url ./ (served under /hexlens/ by the tests)"
trunk build --release --public-url ./ --dist "$DIST"

echo "== bundle sizes (bytes)"
printf '%-6s %10s %10s  %s\n' kind raw gzip file
for f in "$DIST"/*.wasm "$DIST"/*.js "$DIST"/*.css; do
    [ -e "$f" ] || continue
    printf '%-6s %10d %10d  %s\n' "${f##*.}" "$(wc -c <"$f")" "$(gzip -9 -c "$f" | wc -c)" "${f##*/}"
done | tee "$ART/bundle-sizes.txt"

echo "== the CLI (the browser tests compare exports with its dumps)"
cargo build --quiet -p hexlens-cli
export HEXLENS_CLI="$ROOT/target/debug/hexlens"

echo "== end-to-end tests (headless Chromium; screenshots in target/browser-artifacts/)"
cd "$ROOT/tests/browser"
if ! HEXLENS_DIST="$DIST" HEXLENS_ARTIFACTS="$ART" \
    node --test --test-concurrency=1 --test-reporter=tap e2e.test.mjs security.test.mjs offline.test.mjs budgets.test.mjs listing.test.mjs ksy.test.mjs glance.test.mjs 2>&1 | tee "$ART/e2e.tap"; then
    status=1
fi
# pipefail carries node's exit status through tee; the TAP summary (one for all
# files; a file that fails to load counts as a failed test) is a second check.
if ! grep -q '^# fail 0$' "$ART/e2e.tap" || ! grep -q '^# cancelled 0$' "$ART/e2e.tap"; then
    status=1
fi
exit "$status"
