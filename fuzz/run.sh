#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, FUZZ_JOBS at a time (1 by default),
# at low priority:
#
#   fuzz/run.sh SECONDS [TARGET...]
#
# Targets (all by default): one per format, named after its folder in
# crates/core/src/formats (dxcontainer, msf, chapel_dyno, llvm1_bytecode, bitcode,
# cdac, embedded), and detect (format detection), diff (two inputs compared) and
# search (the query parser and the byte search). Each is
# seeded with a corpus built from the shared samples ($HEXLENS_SHARED, or
# ../shared beside the repository) and tests/fixtures; new inputs libFuzzer finds
# stay in fuzz/corpus/TARGET for the next run. Prints per target: executions,
# exec/s, coverage (libFuzzer's cov: and ft: from its final stats), corpus size
# (libFuzzer's corpus, and the inputs it saved to fuzz/corpus/TARGET), the slowest
# input in seconds, peak RSS, crashes (new crash, timeout and OOM inputs) and slow
# inputs (over $slow_s s). A crash, timeout, out-of-memory or slow input is
# minimised and copied to tests/fixtures/fuzz-regressions/TARGET-HASH, and the
# corpus, minimised by coverage (libFuzzer's -merge=1), gives the seed set kept in
# tests/fixtures/fuzz-regressions/seeds/TARGET (its smallest files, up to
# FUZZ_KEEP_BYTES, 128 KiB, in all);
# crates/core/tests/fuzz_regressions.rs replays both in the normal test command. Exits 1 if
# any target found a crash, timeout or out-of-memory input.
#
# cargo-fuzz is installed if missing. It needs nightly compiler features: they are
# enabled on the stable toolchain with RUSTC_BOOTSTRAP=1. The targets are built
# without a sanitizer (the core forbids unsafe code) but with debug assertions and
# overflow checks, and with a counting allocator that checks the allocation bound.
set -euo pipefail

secs=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
# Every [[bin]] of fuzz/Cargo.toml (a test checks there is one per format).
mapfile -t all_targets < <(awk '/^\[\[bin\]\]/ { b = 1; next } b && /^name = / { gsub(/name = |"/, ""); print; b = 0 }' "$(dirname "$0")/Cargo.toml")
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
shared=${HEXLENS_SHARED:-$repo/../shared}
cargo_fuzz_version=$("$repo/scripts/tools.sh" package cargo-fuzz)
cargo_fuzz_version=${cargo_fuzz_version#cargo-fuzz@}
# Per-input limits: an input taking longer than this many seconds is a hang, and a
# process using more than this many MiB is out of memory.
timeout_s=10
rss_mb=2048
max_len=65536
# An input taking longer than this many seconds is kept as slow.
slow_s=2
# The seed set kept per target in tests/fixtures/fuzz-regressions/seeds/TARGET:
# libFuzzer's minimal corpus (-merge=1: inputs giving every feature reached),
# its smallest files up to this many bytes in all.
keep_bytes=${FUZZ_KEEP_BYTES:-131072}

export RUSTC_BOOTSTRAP=1
cd "$repo"

if ! cargo fuzz --version 2>/dev/null | grep -q "$cargo_fuzz_version"; then
    echo "installing cargo-fuzz $cargo_fuzz_version"
    nice cargo install cargo-fuzz --version "$cargo_fuzz_version" --locked
fi

# Built once, then each target binary runs directly: the targets fuzz one
# snapshot of the sources even if they change during the run.
echo "building the fuzz targets"
nice cargo fuzz build --sanitizer none --debug-assertions
bin=$here/target/$(rustc -vV | sed -n 's/^host: //p')/release

seeds=$here/target/seeds
rm -rf "$seeds"
python3 "$here/seeds.py" "$repo" "$shared" "$seeds"

mkdir -p "$here/logs" "$repo/tests/fixtures/fuzz-regressions"
summary=$here/logs/summary.txt
jobs=${FUZZ_JOBS:-1}

# Fuzzes target $1, then writes its row of figures to logs/$1.row (and exits
# 1 if it found a crash, timeout or out-of-memory input).
fuzz_one() {
    local t=$1
    local corpus=$here/corpus/$t artifacts=$here/artifacts/$t log=$here/logs/$t.log
    mkdir -p "$corpus" "$artifacts" "$seeds/$t"
    echo "fuzzing $t for $secs s (log: $log)"
    local before status
    before=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    set +e
    nice "$bin/$t" "$corpus" "$seeds/$t" \
        -max_total_time="$secs" -timeout="$timeout_s" -rss_limit_mb="$rss_mb" \
        -max_len="$max_len" -report_slow_units="$slow_s" -print_final_stats=1 \
        -artifact_prefix="$artifacts/" >"$log" 2>&1
    status=$?
    set -e
    echo "  $t: libFuzzer exit status $status"
    # Every minimised crash, timeout or OOM, and every slow input, becomes a
    # regression fixture.
    for a in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-* "$artifacts"/slow-unit-*; do
        [ -f "$a" ] || continue
        local hash dest min
        hash=$(sha1sum "$a" | cut -c1-12)
        dest=$repo/tests/fixtures/fuzz-regressions/$t-$hash
        [ -f "$dest" ] && continue
        echo "  minimising $a"
        min=$artifacts/minimized-$hash
        nice "$bin/$t" "$a" -minimize_crash=1 -runs=20000 \
            -exact_artifact_path="$min" -timeout="$timeout_s" -rss_limit_mb="$rss_mb" \
            >"$here/logs/$t-tmin-$hash.log" 2>&1 || true
        if [ -s "$min" ]; then cp "$min" "$dest"; else cp "$a" "$dest"; fi
        echo "  saved $dest"
    done
    # The seed set kept in the repository: the corpus minimised by coverage,
    # then its smallest files, so the test command replays them quickly.
    local merged=$here/target/merged/$t keep=$repo/tests/fixtures/fuzz-regressions/seeds/$t
    rm -rf "$merged" && mkdir -p "$merged"
    nice "$bin/$t" -merge=1 "$merged" "$corpus" "$seeds/$t" -max_len="$max_len" \
        -timeout="$timeout_s" -rss_limit_mb="$rss_mb" >"$here/logs/$t-merge.log" 2>&1 || true
    rm -rf "$keep" && mkdir -p "$keep"
    find "$merged" -type f -printf '%s %p\n' | sort -n |
        awk -v max="$keep_bytes" '{ total += $1; if (total > max) exit; print $2 }' |
        while read -r f; do cp "$f" "$keep/$(sha1sum "$f" | cut -c1-12)"; done
    echo "  $t: $(find "$merged" -type f | wc -l) inputs after merging, $(find "$keep" -type f | wc -l) kept in $keep"
    local crashes execs rate last cov ft corp saved slowest rss
    crashes=$(($(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l) - before))
    local slow
    slow=$(find "$artifacts" -maxdepth 1 -type f -name 'slow-unit-*' | wc -l)
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
    cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || true)
    ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || true)
    corp=$(echo "$last" | grep -o 'corp: [0-9]*' | grep -o '[0-9]*' || true)
    saved=$(find "$corpus" -type f | wc -l)
    slowest=$(grep -o 'stat::slowest_unit_time_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    row "$t" "$secs" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$saved" \
        "${slowest:-?}" "${rss:-?}" "$crashes" "$slow" >"$here/logs/$t.row"
    [ "$crashes" -eq 0 ] && [ "$status" -eq 0 ]
}
row() { printf '%-12s %7s %11s %7s %6s %7s %7s %7s %8s %7s %8s %5s\n' "$@"; }

# Up to $FUZZ_JOBS targets at a time (each one process, one core); each writes
# its exit status (1: it found something) to logs/TARGET.status.
for t in "${targets[@]}"; do
    rm -f "$here/logs/$t.row" "$here/logs/$t.status"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
    (if fuzz_one "$t"; then s=0; else s=1; fi; echo "$s" >"$here/logs/$t.status") &
done
wait
found_any=0
for t in "${targets[@]}"; do
    [ "$(cat "$here/logs/$t.status" 2>/dev/null)" = 0 ] || found_any=1
done

row target seconds executions exec/s cov ft corpus saved slowest_s rss_mb crashes slow >"$summary"
for t in "${targets[@]}"; do cat "$here/logs/$t.row" >>"$summary" 2>/dev/null || echo "$t: no figures" >>"$summary"; done
cat "$summary"
echo "summary in $summary"
exit "$found_any"
