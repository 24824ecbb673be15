#!/usr/bin/env bash
# Installs what is missing, then serves the hexlens web app with a sample open:
#   scripts/run.sh            -> http://127.0.0.1:8080/?sample=hs_mismatch_2_code_dxil.dxil.dxbc
#   scripts/run.sh --release  -> the optimised build (needs npm for wasm-opt)
# Set PORT to use another port. Drag any file onto the page to read its structure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${PORT:-8080}"
SAMPLE="${SAMPLE:-hs_mismatch_2_code_dxil.dxil.dxbc}"
release=()
setup=()
for a in "$@"; do
    case "$a" in
        --release) release=(--release); setup=(--npm) ;;
        *) echo "usage: $0 [--release]" >&2; exit 2 ;;
    esac
done

"$ROOT/scripts/setup-web.sh" "${setup[@]}"
export PATH="$ROOT/tests/browser/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# No update check against crates.io: the only requests are to 127.0.0.1.
export TRUNK_SKIP_VERSION_CHECK=true

URL="http://127.0.0.1:$PORT/?sample=$SAMPLE"
printf '\n\033[1;32mhexlens\033[0m will be at \033[1m%s\033[0m once built (Ctrl+C stops).\n\n' "$URL"
cd "$ROOT"
exec trunk serve "${release[@]}" --port "$PORT" --address 127.0.0.1
