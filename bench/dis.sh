#!/usr/bin/env bash
# `hexlens dis` against llvm-dis-19 on the dense clang-19 modules of sqlite3.c
# (-O2, and -O1 -g; bench/dense.sh makes them), and on the DirectX Container
# whose DXIL part holds the -O1 -g module:
#
#   bench/dis.sh             # 5 alternating runs each, medians
#   RUNS=1 bench/dis.sh
#
# Figures: median wall time and median peak RSS of each program (output to
# /dev/null), and whether hexlens's text equals llvm-dis-19's line for line
# (the `; ModuleID` line, which names the input as each was given it, aside);
# one function of the -O1 -g module printed alone (`--function`); and the
# cost of the text in pieces (the module numbered once, then one function
# at a time).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIR="${HEXLENS_DENSE_DIR:-$ROOT/target/dense}"
RUNS="${RUNS:-5}"
PREPARE_ONLY=1 bench/dense.sh
cargo build -q --release -p hexlens-cli
HEXLENS="${CARGO_TARGET_DIR:-$ROOT/target}/release/hexlens"

# One run: "seconds peak_KiB".
run() {
    local tmp out
    tmp=$(mktemp)
    /usr/bin/time -o "$tmp" -f "%e %M" "$@" >/dev/null 2>/dev/null || true
    out=$(tail -1 "$tmp")
    rm -f "$tmp"
    echo "$out"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%s, %s, load %s\n' "$(date -u +%FT%TZ)" "$(nproc) cores" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '| input | bytes | hexlens dis | llvm-dis-19 | time ratio | text |\n'
printf '|---|---:|---|---|---:|---|\n'
for f in sqlite-O2.bc sqlite-O1g.bc dxil-container.dxbc; do
    p="$DIR/$f"
    ht=() hm=() lt=() lm=()
    for _ in $(seq "$RUNS"); do
        read -r t m < <(run "$HEXLENS" dis "$p")
        ht+=("$t") hm+=("$m")
        if [[ "$f" == *.bc ]]; then
            read -r t m < <(run llvm-dis-19 "$p" -o /dev/null)
            lt+=("$t") lm+=("$m")
        fi
    done
    h_t=$(printf '%s\n' "${ht[@]}" | median)
    h_m=$(printf '%s\n' "${hm[@]}" | median)
    ref="-" ratio="-" text="-"
    if [[ "$f" == *.bc ]]; then
        l_t=$(printf '%s\n' "${lt[@]}" | median)
        l_m=$(printf '%s\n' "${lm[@]}" | median)
        ref="$l_t s, $((l_m / 1024)) MiB"
        ratio=$(awk "BEGIN{printf \"%.2f\", $h_t / $l_t}")
        want=$(mktemp) got=$(mktemp)
        llvm-dis-19 "$p" -o - | tail -n +2 >"$want"
        "$HEXLENS" dis "$p" | tail -n +2 >"$got" || true
        n=$(wc -l <"$want")
        if cmp -s "$want" "$got"; then
            text="equal, $n lines"
        else
            text="differs: $(diff "$want" "$got" | grep -c '^>' || true) of $n lines"
        fi
        rm -f "$want" "$got"
    fi
    printf '| %s | %d | %s s, %d MiB | %s | %s | %s |\n' \
        "$f" "$(stat -c %s "$p")" "$h_t" $((h_m / 1024)) "$ref" "$ratio" "$text"
done

# One function of the -O1 -g module (`--function`): the module is read and
# numbered, and only that function's text is made.
p="$DIR/sqlite-O1g.bc"
ft=() fm=()
for _ in $(seq "$RUNS"); do
    read -r t m < <(run "$HEXLENS" dis --function sqlite3_prepare_v2 "$p")
    ft+=("$t") fm+=("$m")
done
printf '| sqlite-O1g.bc --function sqlite3_prepare_v2 | %d | %s s, %d MiB | - | - | %d lines |\n' \
    "$(stat -c %s "$p")" "$(printf '%s\n' "${ft[@]}" | median)" $(($(printf '%s\n' "${fm[@]}" | median) / 1024)) \
    "$("$HEXLENS" dis --function sqlite3_prepare_v2 "$p" | wc -l)"

# The text in pieces, as the viewer's listing asks for it: the module's
# records are read with its bodies left for later; the first screen reads
# the bodies its named types need; a function's piece reads and numbers the
# bodies up to its own (llvm-dis numbers metadata and call attributes in
# function order), then costs that function.
cargo build -q --release -p hexlens-core --example listing_cost
for f in sqlite-O2.bc sqlite-O1g.bc; do
    printf '\n%s\n' "$f"
    "${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/listing_cost" "$DIR/$f" | sed 's/^/    /'
done
