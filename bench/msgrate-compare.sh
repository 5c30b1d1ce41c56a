#!/usr/bin/env bash
# bench/msgrate-compare.sh — bench/msgrate_threads.c built with skiff's, MPICH's and Open MPI's mpicc,
# run interleaved (skiff, mpich, ompi, ...) at 1, 2 and 4 threads per rank, two ranks; prints the
# median message rate of each (messages per second, all threads together).
# Usage: bench/msgrate-compare.sh [ROUNDS] [extra msgrate_threads args, e.g. --shared]
# Environment: SKIFF_BUILD (default <repo>/build), WINDOWS (windows of 64 messages per thread, default 2000).
# Peers run with the settings of bench/compare.sh (MPICH: UCX_TLS=self,posix; Open MPI: ob1 + vader).
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SKIFF_BUILD="${SKIFF_BUILD:-${BENCH_DIR%/bench}/build}"
ROUNDS="${1:-5}"
shift || true
WINDOWS="${WINDOWS:-2000}"
OUT="$(mktemp -d /tmp/skiff-msgrate.XXXXXX)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$SKIFF_BUILD/bin/mpicc" -O2 -std=c11 -o "$OUT/skiff" "$BENCH_DIR/msgrate_threads.c" -lpthread
mpicc.mpich -O2 -std=c11 -o "$OUT/mpich" "$BENCH_DIR/msgrate_threads.c" -lpthread
mpicc.openmpi -O2 -std=c11 -o "$OUT/ompi" "$BENCH_DIR/msgrate_threads.c" -lpthread
run() {
    case "$1" in
        skiff) timeout 300 "$SKIFF_BUILD/bin/mpiexec" -n 2 "$OUT/skiff" "${@:2}" ;;
        mpich) UCX_TLS=self,posix timeout 300 mpiexec.mpich -n 2 "$OUT/mpich" "${@:2}" ;;
        ompi) timeout 300 mpiexec.openmpi --allow-run-as-root --oversubscribe -n 2 --mca pml ob1 \
                  --mca btl self,vader --mca btl_vader_single_copy_mechanism none "$OUT/ompi" "${@:2}" ;;
    esac
}
for t in 1 2 4; do
    for r in $(seq "$ROUNDS"); do
        for lib in skiff mpich ompi; do
            run "$lib" "$t" --windows "$WINDOWS" "$@" | awk -v l="$lib" '/^rate/ {print l, $2, $3}' >> "$OUT/results"
        done
    done
done
echo "threads  skiff  mpich  ompi   (median messages/s over $ROUNDS rounds; raw: $OUT/results)"
for t in 1 2 4; do
    printf '%7d' "$t"
    for lib in skiff mpich ompi; do
        awk -v l="$lib" -v t="$t" '$1 == l && $2 == t {print $3}' "$OUT/results" | sort -n |
            awk '{v[NR] = $1} END {printf "  %.3gM", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1e6}'
    done
    echo
done
