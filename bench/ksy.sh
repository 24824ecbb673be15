#!/usr/bin/env bash
# hexlens's .ksy interpreter against Kaitai Struct's own parser compiled to
# JavaScript and run in node, on the same .ksy and file: the time to read the
# whole tree with every instance, after the program has started, the format
# is compiled and the file is in memory (crates/core/examples/ksy_cost.rs,
# bench/ksy-node.mjs). Five alternating runs of each program, each reading
# the file 5 times; printed: the median over the runs of each program's
# median read and of its first (cold) read, and the tree hexlens built.
#
# Two warm figures for hexlens: as it runs by default, where glibc hands the
# freed tree back to the kernel after each read and the next read faults its
# pages in again, and with glibc told to keep freed memory ("kept"), as node
# keeps its heap between reads and as the viewer's worker keeps its wasm
# memory. The cold read is what one `hexlens dump --ksy` pays.
#
# Inputs are made here by programs on the machine (Python's zipfile, sqlite3
# and wave), dense (a ZIP of 20,000 members, a SQLite database of 2,000 pages)
# and sparse (a 64 MB WAV). Needs scripts/setup-ksy-oracle.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=target/ksy-bench
mkdir -p "$OUT"
ALTERNATIONS=${ALTERNATIONS:-5}

cargo build --release -q -p hexlens-core --example ksy_cost
COST=target/release/examples/ksy_cost
scripts/setup-ksy-oracle.sh >/dev/null

[ -f "$OUT/many.zip" ] || python3 - "$OUT/many.zip" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    for i in range(20000):
        z.writestr('dir%d/file%05d.txt' % (i % 50, i), ('line %d\n' % i) * (i % 7 + 1),
                   compress_type=zipfile.ZIP_DEFLATED if i % 3 else zipfile.ZIP_STORED)
PY
[ -f "$OUT/rows.sqlite" ] || python3 - "$OUT/rows.sqlite" <<'PY'
import sys, sqlite3
c = sqlite3.connect(sys.argv[1]); c.execute('pragma page_size=1024')
c.execute('create table t(a integer, b text)')
c.executemany('insert into t values (?, ?)', [(i, 'row %d' % i) for i in range(60000)]); c.commit(); c.close()
PY
[ -f "$OUT/long.wav" ] || python3 - "$OUT/long.wav" <<'PY'
import sys, wave
w = wave.open(sys.argv[1], 'wb'); w.setnchannels(2); w.setsampwidth(2); w.setframerate(44100)
w.writeframes(bytes(64 << 20)); w.close()
PY

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { node -e "process.stdout.write(String(JSON.parse(require('fs').readFileSync(0,'utf8'))['$1']))"; }

printf '%-12s %10s %10s %10s %10s %10s %10s %9s\n' file size hexlens 'h-kept' node 'hexlens1st' 'node1st' nodes
for pair in "zip many.zip" "sqlite rows.sqlite" "wav long.wav"; do
    set -- $pair
    ksy=tests/ksy/formats/$1.ksy
    f=$OUT/$2
    : >"$OUT/h.txt"; : >"$OUT/k.txt"; : >"$OUT/n.txt"; : >"$OUT/h1.txt"; : >"$OUT/n1.txt"
    for _ in $(seq "$ALTERNATIONS"); do
        h=$("$COST" "$ksy" "$f" 5)
        k=$(MALLOC_TRIM_THRESHOLD_=4294967295 MALLOC_MMAP_THRESHOLD_=1073741824 MALLOC_TOP_PAD_=268435456 "$COST" "$ksy" "$f" 5)
        n=$(node bench/ksy-node.mjs "$ksy" "$f" 5)
        echo "$k" | field parse_ms >>"$OUT/k.txt"; echo >>"$OUT/k.txt"
        echo "$h" | field parse_ms >>"$OUT/h.txt"; echo >>"$OUT/h.txt"
        echo "$h" | field first_ms >>"$OUT/h1.txt"; echo >>"$OUT/h1.txt"
        echo "$n" | field parse_ms >>"$OUT/n.txt"; echo >>"$OUT/n.txt"
        echo "$n" | field first_ms >>"$OUT/n1.txt"; echo >>"$OUT/n1.txt"
        nodes=$(echo "$h" | field nodes)
    done
    printf '%-12s %10s %9sms %9sms %9sms %9sms %9sms %9s\n' "$2" "$(stat -c %s "$f")" \
        "$(median <"$OUT/h.txt")" "$(median <"$OUT/k.txt")" "$(median <"$OUT/n.txt")" "$(median <"$OUT/h1.txt")" "$(median <"$OUT/n1.txt")" "$nodes"
done
