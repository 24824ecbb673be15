#!/usr/bin/env bash
# hexlens vs LLVM 19's obj2yaml over the shared DirectX Container corpus, in one run.
#
#   bench/compare-obj2yaml.sh [ROUNDS]
#
# Builds the CLI in release, then times, over every *.dxbc file in
# $HEXLENS_SHARED/samples/dxcontainer/vkd3d-proton (1,143 files; HEXLENS_SHARED
# defaults to ../shared beside the repository):
#   (a) `hexlens dump --json FILE > /dev/null`, one process per file
#   (b) `obj2yaml-19 FILE > /dev/null`, one process per file
# Each round runs (a) then (b) over the whole corpus; with several rounds (default
# 3) the fastest round of each is kept, which is the least disturbed by other load
# on the machine. Prints totals, files/s, MB/s, the ratio, how many files each tool
# rejected (non-zero exit; obj2yaml-19 is known to reject 25), and the machine.
#
# obj2yaml-19 comes from Debian's llvm-19 package: scripts/setup-native.sh installs
# it when missing (this script runs it then).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
ROUNDS="${1:-3}"
SHARED="${HEXLENS_SHARED:-$ROOT/../shared}"
CORPUS="$SHARED/samples/dxcontainer/vkd3d-proton"
[ -d "$CORPUS" ] || { echo "corpus not found: $CORPUS (set HEXLENS_SHARED)" >&2; exit 1; }

find_obj2yaml() {
    if command -v obj2yaml-19 >/dev/null; then
        command -v obj2yaml-19
    elif [ -x /usr/lib/llvm-19/bin/obj2yaml ]; then
        echo /usr/lib/llvm-19/bin/obj2yaml
    fi
}
OBJ2YAML="$(find_obj2yaml)"
if [ -z "$OBJ2YAML" ]; then
    echo "obj2yaml-19 is missing: installing llvm-19 with scripts/setup-native.sh" >&2
    scripts/setup-native.sh
    OBJ2YAML="$(find_obj2yaml)"
    [ -n "$OBJ2YAML" ] || { echo "obj2yaml-19 still missing" >&2; exit 1; }
fi

echo "== cargo build --release -p hexlens-cli"
cargo build --release -p hexlens-cli --quiet
HEXLENS="${CARGO_TARGET_DIR:-$ROOT/target}/release/hexlens"
[ -x "$HEXLENS" ] || { echo "no binary at $HEXLENS" >&2; exit 1; }

mapfile -t FILES < <(find "$CORPUS" -type f -name '*.dxbc' | LC_ALL=C sort)
N=${#FILES[@]}
BYTES=$(cat "${FILES[@]}" | wc -c)
# Read every file once so neither tool pays for the disk.
cat "${FILES[@]}" >/dev/null

# Runs one tool over every file; sets ELAPSED_NS and FAILED.
run_all() {
    local f start
    FAILED=0
    start=$(date +%s%N)
    if [ "$1" = hexlens ]; then
        for f in "${FILES[@]}"; do
            "$HEXLENS" dump --json "$f" >/dev/null 2>&1 || FAILED=$((FAILED + 1))
        done
    else
        for f in "${FILES[@]}"; do
            "$OBJ2YAML" "$f" >/dev/null 2>&1 || FAILED=$((FAILED + 1))
        done
    fi
    ELAPSED_NS=$(($(date +%s%N) - start))
}

best_h=0 best_o=0 fail_h=0 fail_o=0
for r in $(seq 1 "$ROUNDS"); do
    run_all hexlens
    fail_h=$FAILED
    if [ "$best_h" = 0 ] || [ "$ELAPSED_NS" -lt "$best_h" ]; then best_h=$ELAPSED_NS; fi
    h=$ELAPSED_NS
    run_all obj2yaml
    fail_o=$FAILED
    if [ "$best_o" = 0 ] || [ "$ELAPSED_NS" -lt "$best_o" ]; then best_o=$ELAPSED_NS; fi
    awk -v r="$r" -v h="$h" -v o="$ELAPSED_NS" \
        'BEGIN { printf "round %d: hexlens %.3f s, obj2yaml-19 %.3f s\n", r, h / 1e9, o / 1e9 }'
done

summary() {
    awk -v n="$N" -v bytes="$BYTES" -v h="$best_h" -v o="$best_o" \
        -v fh="$fail_h" -v fo="$fail_o" -v rounds="$ROUNDS" 'BEGIN {
        hs = h / 1e9; os = o / 1e9
        printf "%-26s %10s %10s %10s %12s %9s\n", "tool (fastest of " rounds ")", "total s", "files/s", "MB/s", "ms per file", "rejected"
        printf "%-26s %10.3f %10.0f %10.2f %12.2f %9d\n", "hexlens dump --json", hs, n / hs, bytes / 1e6 / hs, 1000 * hs / n, fh
        printf "%-26s %10.3f %10.0f %10.2f %12.2f %9d\n", "obj2yaml-19", os, n / os, bytes / 1e6 / os, 1000 * os / n, fo
        printf "ratio: hexlens is %.2fx as fast as obj2yaml-19 (obj2yaml time / hexlens time)\n", os / hs
    }'
}

echo
echo "== $N DirectX Containers, $BYTES bytes ($CORPUS)"
summary
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(rustc --version)"
echo "obj2yaml: $OBJ2YAML ($("$OBJ2YAML" --version 2>/dev/null | grep -m1 -i version | sed 's/^ *//'))"
echo "load: $(uptime | sed 's/.*load average/load average/')"
