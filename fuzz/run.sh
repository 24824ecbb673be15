#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, one after the other, at low priority:
#
#   fuzz/run.sh SECONDS [TARGET...]
#
# Targets: detect dxcontainer bitstream dyno cdac llvm1 (all by default). Each is
# seeded with a corpus built from the shared samples ($HEXLENS_SHARED, or
# ../shared beside the repository) and tests/fixtures; new inputs libFuzzer finds
# stay in fuzz/corpus/TARGET for the next run. Prints per target: executions,
# exec/s, coverage (libFuzzer's cov: and ft: from its final stats), corpus size
# (libFuzzer's corpus, and the inputs it saved to fuzz/corpus/TARGET), the slowest
# input in seconds, peak RSS and crashes (new crash, timeout and OOM inputs).
# A crash, timeout or out-of-memory input is minimised and copied to
# tests/fixtures/fuzz-regressions/TARGET-HASH, where tests/fuzz_regressions.rs
# replays it in the normal test command. Exits 1 if any target found one.
#
# cargo-fuzz is installed if missing. It needs nightly compiler features: they are
# enabled on the stable toolchain with RUSTC_BOOTSTRAP=1. The targets are built
# without a sanitizer (the core forbids unsafe code) but with debug assertions and
# overflow checks, and with a counting allocator that checks the allocation bound.
set -euo pipefail

secs=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
all_targets=(detect dxcontainer bitstream dyno cdac llvm1)
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
shared=${HEXLENS_SHARED:-$repo/../shared}
cargo_fuzz_version=0.13.1
# Per-input limits: an input taking longer than this many seconds is a hang, and a
# process using more than this many MiB is out of memory.
timeout_s=10
rss_mb=2048
max_len=65536

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
: >"$summary"
row() { printf '%-12s %7s %11s %7s %6s %7s %7s %7s %8s %7s %8s\n' "$@" | tee -a "$summary"; }
found_any=0

for t in "${targets[@]}"; do
    corpus=$here/corpus/$t
    artifacts=$here/artifacts/$t
    mkdir -p "$corpus" "$artifacts" "$seeds/$t"
    log=$here/logs/$t.log
    echo "fuzzing $t for $secs s (log: $log)"
    before=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    set +e
    nice "$bin/$t" "$corpus" "$seeds/$t" \
        -max_total_time="$secs" -timeout="$timeout_s" -rss_limit_mb="$rss_mb" \
        -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
    status=$?
    set -e
    echo "  libFuzzer exit status $status"
    # Every minimised crash, timeout or OOM becomes a regression fixture.
    for a in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-*; do
        [ -f "$a" ] || continue
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
    crashes=$(($(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l) - before))
    if [ "$crashes" -gt 0 ] || [ "$status" -ne 0 ]; then found_any=1; fi
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
    cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || true)
    ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || true)
    corp=$(echo "$last" | grep -o 'corp: [0-9]*' | grep -o '[0-9]*' || true)
    saved=$(find "$corpus" -type f | wc -l)
    slowest=$(grep -o 'stat::slowest_unit_time_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    [ "$t" = "${targets[0]}" ] && row target seconds executions exec/s cov ft corpus saved slowest_s rss_mb crashes
    row "$t" "$secs" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$saved" "${slowest:-?}" "${rss:-?}" "$crashes"
done

echo "summary in $summary"
exit "$found_any"
