#!/usr/bin/env bash
# Dense inputs: hexlens against llvm-bcanalyzer-19 on real bitcode of a large C
# code base, and on the generators' dense DXContainer, .dyno and cDAC files.
#
#   bench/dense.sh            # all inputs, fastest of 3 runs each
#   ROUNDS=1 bench/dense.sh   # one run each
#
# Inputs (made once into target/dense/, or $HEXLENS_DENSE_DIR):
#   - sqlite3.c, the SQLite amalgamation (about 9 MB of C), taken from the npm
#     package better-sqlite3 (pinned below), compiled by clang-19 -emit-llvm at
#     -O2 and at -O1 -g;
#   - a signed DirectX Container whose DXIL part holds the -O1 -g bitcode, a .dyno
#     library of 1,000,000 symbols and a cDAC blob of 100,000 types
#     (crates/core/examples/dense_inputs.rs, from the benchmark generators).
# Figures: wall time and peak RSS of `hexlens dump --json` and of the text dump
# (output to /dev/null), of `hexlens dump --max-depth 1` (opening: root and its
# children), and of `llvm-bcanalyzer-19 -dump` for the bitcode; the ratio is
# hexlens --json over bcanalyzer.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIR="${HEXLENS_DENSE_DIR:-$ROOT/target/dense}"
ROUNDS="${ROUNDS:-3}"
SQLITE_PKG=better-sqlite3@12.11.1
mkdir -p "$DIR"

# clang-19, llvm-bcanalyzer-19 and /usr/bin/time (scripts/tools.tsv).
scripts/tools.sh install native bench
scripts/tools.sh check base native bench

if [ ! -f "$DIR/sqlite3.c" ]; then
    echo "dense: fetching $SQLITE_PKG (for its sqlite3.c)"
    (cd "$DIR" && npm pack --silent "$SQLITE_PKG" >/dev/null &&
        tar xzf better-sqlite3-*.tgz package/deps/sqlite3/sqlite3.c &&
        mv package/deps/sqlite3/sqlite3.c . && rm -rf package better-sqlite3-*.tgz)
fi
[ -f "$DIR/sqlite-O2.bc" ] || clang-19 -c -emit-llvm -O2 "$DIR/sqlite3.c" -o "$DIR/sqlite-O2.bc"
[ -f "$DIR/sqlite-O1g.bc" ] || clang-19 -c -emit-llvm -O1 -g "$DIR/sqlite3.c" -o "$DIR/sqlite-O1g.bc"

cargo build -q --release -p hexlens-cli
cargo build -q --release -p hexlens-core --example dense_inputs
[ -f "$DIR/cdac-100k-types.bin" ] || "${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/dense_inputs" "$DIR" "$DIR/sqlite-O1g.bc"
# PREPARE_ONLY=1: make the inputs and stop (bench/dis.sh uses them).
[ "${PREPARE_ONLY:-}" = 1 ] && exit 0
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
HEXLENS="$TARGET/release/hexlens"

# Fastest of $ROUNDS runs of a command: "seconds peak_KiB".
best() {
    local best_t="" best_m=""
    for _ in $(seq "$ROUNDS"); do
        local out tmp
        tmp=$(mktemp)
        # Exit status 1 (decoded with errors) is still a measurement.
        /usr/bin/time -o "$tmp" -f "%e %M" "$@" >/dev/null 2>/dev/null || true
        out=$(tail -1 "$tmp")
        rm -f "$tmp"
        local t="${out% *}" m="${out#* }"
        if [ -z "$best_t" ] || awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t; best_m=$m; fi
    done
    echo "$best_t $best_m"
}

printf '%s, %s, load %s\n' "$(date -u +%FT%TZ)" "$(nproc) cores" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '| input | bytes | dump --json | text dump | open (--max-depth 1) | bcanalyzer -dump | json / bcanalyzer |\n'
printf '|---|---:|---|---|---|---|---:|\n'
for f in sqlite-O2.bc sqlite-O1g.bc dxil-container.dxbc dyno-1m-symbols.dyno cdac-100k-types.bin; do
    p="$DIR/$f"
    read -r jt jm < <(best "$HEXLENS" dump --json "$p")
    read -r tt tm < <(best "$HEXLENS" dump "$p")
    read -r ot om < <(best "$HEXLENS" dump --max-depth 1 "$p")
    bc="-" ratio="-"
    if [[ "$f" == *.bc ]]; then
        read -r bt bm < <(best llvm-bcanalyzer-19 -dump "$p")
        bc="$bt s, $((bm / 1024)) MiB"
        ratio=$(awk "BEGIN{printf \"%.1f\", $jt / $bt}")
    fi
    printf '| %s | %d | %s s, %d MiB | %s s, %d MiB | %s s, %d MiB | %s | %s |\n' \
        "$f" "$(stat -c %s "$p")" "$jt" $((jm / 1024)) "$tt" $((tm / 1024)) "$ot" $((om / 1024)) "$bc" "$ratio"
done
