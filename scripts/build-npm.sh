#!/usr/bin/env bash
# Builds the npm package of the core (crates/js, npm name `hexlens`) with
# wasm-pack, for both of its targets:
#   target/npm/web   ES module for browsers: `await init()` first
#   target/npm/node  CommonJS for Node.js: ready on `require`/`import`
# Installs what is missing first (scripts/setup-npm.sh). The build downloads
# nothing: wasm-pack runs with `--mode no-install` (wasm-bindgen and binaryen's
# wasm-opt come from PATH; without them it fails instead of fetching them).
#
#   scripts/build-npm.sh            both targets
#   scripts/build-npm.sh node       one (web | node)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/tests/browser/node_modules/.bin:$HOME/.cargo/bin:$PATH"

targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(web node)
for t in "${targets[@]}"; do
    case "$t" in
        web | node) ;;
        *) echo "usage: $0 [web] [node]" >&2; exit 2 ;;
    esac
done

scripts/setup-npm.sh

# wasm-pack asks crates.io for its latest version once a day (in the
# background; the build does not wait for it), unless the stamp file beside its
# binary says it asked less than 24 hours ago: say so, so that a build makes no
# request at all. Where that directory is not writable the check is left as is.
stamp="$(dirname "$(command -v wasm-pack)")/wasm-pack.stamp"
printf 'created %s\nversion %s' "$(date +%Y-%m-%dT%H:%M:%S.%N%:z)" \
    "$(wasm-pack --version | awk '{print $2}')" 2>/dev/null >"$stamp" || true

# wasm-pack's own download cache, kept inside target/ and expected to stay
# empty (checked below).
export WASM_PACK_CACHE="$ROOT/target/npm/wasm-pack-cache"
mkdir -p "$WASM_PACK_CACHE"

for t in "${targets[@]}"; do
    case "$t" in
        web) wp_target=web ;;
        node) wp_target=nodejs ;;
    esac
    out="$ROOT/target/npm/$t"
    rm -rf "$out"
    echo "== wasm-pack build --target $wp_target -> target/npm/$t"
    # --profile wasm-release: the workspace's size-first profile (the web
    # viewer's too); wasm-opt's arguments are in crates/js/Cargo.toml.
    wasm-pack --quiet build crates/js --mode no-install --target "$wp_target" \
        --out-dir "$out" --out-name hexlens --profile wasm-release
    # The package's name says which build it is (the web build and the Node.js
    # build are two packages); npm users install one of them.
    node -e '
        const fs = require("fs");
        const [file, target] = process.argv.slice(1);
        const p = JSON.parse(fs.readFileSync(file, "utf8"));
        p.name = "hexlens";
        p.description = p.description + (target === "node" ? " (Node.js build)" : " (browser build)");
        if (!p.files.includes("hexlens.d.ts")) throw new Error("the .d.ts is not in the package");
        fs.writeFileSync(file, JSON.stringify(p, null, 2) + "\n");
    ' "$out/package.json" "$t"
done

if [ -n "$(ls -A "$WASM_PACK_CACHE")" ]; then
    echo "build-npm: wasm-pack downloaded something into $WASM_PACK_CACHE" >&2
    exit 1
fi

for t in "${targets[@]}"; do
    out="target/npm/$t"
    for f in "$out/hexlens_bg.wasm" "$out/hexlens.js"; do
        printf '%-32s %9d bytes, %8d gzip\n' "$f" "$(stat -c %s "$f")" "$(gzip -9c "$f" | wc -c)"
    done
done
