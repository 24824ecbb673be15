#!/usr/bin/env bash
# Runs the registry's tests (hexlens-core's `formats::tests`) once for each
# decode-worker module, with the core features that module's worker is built
# with (crates/worker/Cargo.toml: feature NAME, bin hexlens-worker-NAME): the
# builds the web app ships. `cargo test` builds every feature; these builds hold
# one module's formats each, and the registry, its head probes and the routing
# of every sample and fixture must hold in them too.
set -euo pipefail
cd "$(dirname "$0")/.."

manifest=crates/worker/Cargo.toml
# NAME = ["hexlens-core/a", "hexlens-core/b"] lines of the [features] table.
mapfile -t modules < <(awk '
    /^\[features\]/ { on = 1; next }
    /^\[/ { on = 0 }
    on && /^[a-z][a-z0-9_-]* *= *\[/ && $1 != "default" { print $1 }
' "$manifest")
[ "${#modules[@]}" -ge 5 ] || { echo "test-modules: found ${#modules[@]} modules in $manifest" >&2; exit 1; }

for m in "${modules[@]}"; do
    features=$(awk -v m="$m" '
        /^\[features\]/ { on = 1; next }
        /^\[/ { on = 0 }
        on && $1 == m { line = $0; sub(/^[^[]*\[/, "", line); sub(/\].*$/, "", line); print line }
    ' "$manifest" | tr -d '" ' | tr ',' '\n' | sed -n 's#^hexlens-core/##p' | tr '\n' ' ')
    [ -n "$features" ] || { echo "test-modules: module $m has no core features" >&2; exit 1; }
    echo "== module $m: hexlens-core --no-default-features --features '$features'"
    cargo test --quiet -p hexlens-core --lib --no-default-features --features "$features" formats::tests
done
