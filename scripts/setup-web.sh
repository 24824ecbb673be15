#!/usr/bin/env bash
# Installs what building, serving and testing the web app needs, skipping
# whatever is already present (safe to run every time):
#   - the wasm32-unknown-unknown Rust target (rustup)
#   - trunk 0.21.14 (cargo install --locked; 10-15 minutes on 2 cores, while the
#     other installs run beside it)
#   - wasm-bindgen-cli at exactly the `wasm-bindgen` version in Cargo.lock
#   - with --npm or --browser: tests/browser's npm packages (binaryen's wasm-opt
#     for release builds, playwright-core for the browser tests)
#   - with --browser: Debian's chromium and chromium-driver (apt)
# Trunk never downloads tools (Trunk.toml sets offline = true): it uses these
# from PATH. Callers put them there with:
#   export PATH="$ROOT/tests/browser/node_modules/.bin:$HOME/.cargo/bin:$PATH"
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION="$("$ROOT/scripts/tools.sh" package trunk)"
TRUNK_VERSION="${TRUNK_VERSION#trunk@}"
export PATH="$ROOT/tests/browser/node_modules/.bin:$HOME/.cargo/bin:$PATH"

want_npm=0
want_browser=0
for a in "$@"; do
    case "$a" in
        --npm) want_npm=1 ;;
        --browser) want_npm=1; want_browser=1 ;;
        *) echo "usage: $0 [--npm] [--browser]" >&2; exit 2 ;;
    esac
done

say() { printf '\033[1;34m[setup-web]\033[0m %s\n' "$*"; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

command -v cargo >/dev/null || { echo "cargo is missing: install Rust from https://rustup.rs" >&2; exit 1; }

# 1. wasm target
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
fi

# The slow installs run side by side (trunk's last crate alone keeps one core busy
# for minutes); each logs to target/setup-web/<name>.log, shown if it fails.
LOGS="$ROOT/target/setup-web"
mkdir -p "$LOGS"
jobs_pids=()
jobs_names=()
start_job() {
    local name="$1"
    shift
    say "installing $name in the background (log: target/setup-web/$name.log)"
    "$@" >"$LOGS/$name.log" 2>&1 &
    jobs_pids+=("$!")
    jobs_names+=("$name")
}

# 2. trunk (without default features: no TLS stack, no update check; it never
#    downloads anything here anyway)
if ! trunk --version 2>/dev/null | grep -q "trunk $TRUNK_VERSION\b"; then
    start_job trunk cargo install --locked --no-default-features trunk --version "$TRUNK_VERSION"
fi

# 3. wasm-bindgen-cli matching Cargo.lock
WB_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")"
if [ -z "$WB_VERSION" ]; then
    (cd "$ROOT" && cargo generate-lockfile >/dev/null 2>&1 || true)
    WB_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")"
fi
if ! grep -q "wasm_bindgen = \"$WB_VERSION\"" "$ROOT/Trunk.toml"; then
    echo "Trunk.toml [tools] wasm_bindgen must be \"$WB_VERSION\" (the version in Cargo.lock)" >&2
    exit 1
fi
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WB_VERSION\b"; then
    start_job wasm-bindgen-cli cargo install --force wasm-bindgen-cli --version "$WB_VERSION"
fi

# 4. npm packages (wasm-opt from binaryen, playwright-core)
if [ "$want_npm" = 1 ]; then
    command -v npm >/dev/null || { echo "npm is missing: install Node.js 20+" >&2; exit 1; }
    if [ ! -x "$ROOT/tests/browser/node_modules/.bin/wasm-opt" ] \
        || [ ! -d "$ROOT/tests/browser/node_modules/playwright-core" ] \
        || [ "$ROOT/tests/browser/package.json" -nt "$ROOT/tests/browser/node_modules/.package-lock.json" ]; then
        start_job npm-packages bash -c "cd '$ROOT/tests/browser' && npm install --no-audit --no-fund --loglevel=error"
    fi
fi

# 5. Chromium and its WebDriver (the `browser` stage of scripts/tools.tsv)
if [ "$want_browser" = 1 ] && ! "$ROOT/scripts/tools.sh" check browser 2>/dev/null; then
    start_job chromium "$ROOT/scripts/tools.sh" install browser
fi

# Trunk runs cargo with --offline (Trunk.toml offline = true), so fetch crates now.
(cd "$ROOT" && cargo fetch --quiet)

failed=0
for i in "${!jobs_pids[@]}"; do
    if wait "${jobs_pids[$i]}"; then
        say "${jobs_names[$i]}: done"
    else
        echo "setup-web: installing ${jobs_names[$i]} failed; the end of its log:" >&2
        tail -n 30 "$LOGS/${jobs_names[$i]}.log" >&2
        failed=1
    fi
done
[ "$failed" = 0 ] || exit 1

stages=(web)
[ "$want_browser" = 1 ] && stages+=(browser)
"$ROOT/scripts/tools.sh" check "${stages[@]}"
say "ready: $(trunk --version), $(wasm-bindgen --version)"
