#!/bin/sh
# scripts/fuzz.sh [--minutes M] [--build DIR] [TARGET...]
# Runs the libFuzzer targets (tests/fuzz) longer than the suite's 15-20 s each: M minutes per target
# (default 5), all targets unless some are named (fuzz_tcp fuzz_shm fuzz_core). Each starts from the
# seed corpus in tests/fuzz/corpus*/ and keeps what it finds in DIR/tests/fuzz/<target>.long/, so a
# second run goes on from there. Stops at the first crash and prints the input that caused it.
set -eu
cd "$(dirname "$0")/.."
minutes=5 build=build
while [ $# -gt 0 ]; do
    case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) break ;;
    esac
done
targets=${*:-fuzz_tcp fuzz_shm fuzz_core}
seconds=$((minutes * 60))
[ "$seconds" -gt 0 ] || { echo "fuzz.sh: --minutes must be at least 1 (libFuzzer reads 0 as forever)"; exit 2; }
for t in $targets; do
    bin=$build/tests/fuzz/$t
    [ -x "$bin" ] || { echo "fuzz.sh: $bin not built (cmake --build $build --target $t)"; exit 2; }
    case $t in
    fuzz_tcp) seeds=tests/fuzz/corpus len=4096 ;;
    fuzz_shm) seeds=tests/fuzz/corpus_shm len=4096 ;;
    fuzz_core) seeds=tests/fuzz/corpus_core len=8192 ;;
    *) echo "fuzz.sh: unknown target $t"; exit 2 ;;
    esac
    work=$build/tests/fuzz/$t.long
    mkdir -p "$work/corpus" "$work/crashes"
    cp -n "$seeds"/* "$work/corpus/" 2>/dev/null || true
    echo "== $t for $minutes min (corpus $work/corpus)"
    # Leaks after a protocol error are the job ending, not a leak (see fuzz_core.c).
    if ! ASAN_OPTIONS=detect_leaks=0 "$bin" -max_total_time="$seconds" -max_len="$len" -rss_limit_mb=4096 \
        -detect_leaks=0 -artifact_prefix="$work/crashes/" -print_final_stats=1 "$work/corpus" 2>"$work/log"; then
        tail -40 "$work/log"
        echo "FAIL: $t found a crash: $(ls "$work/crashes" | head -1) (rerun: $bin $work/crashes/<file>)"
        exit 1
    fi
    grep -E "stat::number_of_executed_units|cov:" "$work/log" | tail -2
done
echo "== all fuzz targets ran clean"
