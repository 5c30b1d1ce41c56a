#!/usr/bin/env bash
# bench/pipe-compare.sh — skiff-pipe over skiff, MPICH and Open MPI: the same source
# (tools/skiff_pipe*.c + tools/lib/*.c) built with each library's mpicc, run with two
# ranks pinned to cores 0 and 1, one data file each, the three summaries side by side
# and one chart with the three curves. See docs/skiff-pipe.md.
#
# Usage: bench/pipe-compare.sh [-q] [-o DIR] [skiff-pipe args...]
#   -q         quick runs (skiff-pipe --quick: sizes up to 1 MiB, ~0.01 s per size)
#   -o DIR     output directory (default /tmp/skiff-pipe-compare/<timestamp>)
#   other arguments go to every skiff-pipe run, e.g. --stream, --bidir, --nocache, --end 64m
#   (not -o or --plot: the script names the files)
# Writes to DIR: skiff.out mpich.out ompi.out (data files), <lib>.txt (stdout with the
# summary), <lib>.err (progress and errors), build-<lib>.log, summary.txt, compare.png.
# Environment:
#   SKIFF_BUILD   skiff build dir holding bin/skiff-pipe and bin/mpiexec (default <repo>/build)
#   RUN_TIMEOUT   seconds before one run is killed (default 900)
#   MPICH_ENV     env for MPICH runs (default "UCX_TLS=self,posix")
#   OMPI_MCA      extra mpiexec.openmpi args (default: ob1 + vader, no single copy)
# The peer settings are bench/compare.sh's (its header explains them): UCX's and vader's
# process_vm_readv single copy is slow on the VM these were chosen on.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly BENCH_DIR
readonly REPO_DIR="${BENCH_DIR%/bench}"
readonly SKIFF_BUILD="${SKIFF_BUILD:-$REPO_DIR/build}"
readonly RUN_TIMEOUT="${RUN_TIMEOUT:-900}"
readonly MPICH_ENV="${MPICH_ENV-UCX_TLS=self,posix}"
readonly OMPI_MCA="${OMPI_MCA---mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none}"
readonly LIBS="skiff mpich ompi"

OUT_DIR=""
QUICK=()
PIPE_ARGS=()

log() { printf '%s\n' "$*" >&2; }
die() { log "pipe-compare.sh: $*"; exit 2; }
usage() { sed -n '2,/^# Environment/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit "${1:-0}"; }

# Our own options first; everything else is skiff-pipe's (its own parser reports mistakes).
parse_args() {
    while [[ $# -gt 0 ]]; do
        case "$1" in
            -q) QUICK=(--quick) ;;
            -o) [[ $# -ge 2 ]] || die "-o needs a directory"; OUT_DIR="$2"; shift ;;
            -h | --help) usage 0 ;;
            -o* | --plot | --plot=* | --plot-files*) die "$1: the script names the output files itself" ;;
            *) PIPE_ARGS+=("$1") ;;
        esac
        shift
    done
    OUT_DIR="${OUT_DIR:-/tmp/skiff-pipe-compare/$(date +%Y%m%d-%H%M%S)}"
}

# shellcheck source=bench/peers.sh
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"


# The skiff-pipe binary of library $1, built here for the peers; returns 1 if there is none.
binary_for() {
    local lib="$1" cc
    if [[ "$lib" == skiff ]]; then
        [[ -x "$SKIFF_BUILD/bin/skiff-pipe" ]] || { echo "no $SKIFF_BUILD/bin/skiff-pipe (build it first)" \
            >"$OUT_DIR/build-$lib.log"; return 1; }
        echo "$SKIFF_BUILD/bin/skiff-pipe"
        return 0
    fi
    cc=mpicc.mpich
    [[ "$lib" == ompi ]] && cc=mpicc.openmpi
    command -v "$cc" >/dev/null 2>&1 || { echo "no compiler wrapper $cc" >"$OUT_DIR/build-$lib.log"; return 1; }
    "$cc" -std=c11 -O2 -Wall -Wextra -I"$REPO_DIR/tools/lib" "$REPO_DIR"/tools/skiff_pipe*.c \
        "$REPO_DIR"/tools/lib/*.c -o "$OUT_DIR/skiff-pipe-$lib" >"$OUT_DIR/build-$lib.log" 2>&1 || return 1
    echo "$OUT_DIR/skiff-pipe-$lib"
}

# One run of library $1: data file $OUT_DIR/$1.out, stdout $1.txt, stderr $1.err.
run_lib() {
    local lib="$1" bin rc=0
    local -a cmd
    if ! bin="$(binary_for "$lib")"; then
        log "  $lib: not built ($(head -c 200 "$OUT_DIR/build-$lib.log"))"
        return 1
    fi
    mapfile -t cmd < <(launcher_for "$lib")
    log "  $lib: running"
    timeout --kill-after=10 "$RUN_TIMEOUT" "${cmd[@]}" "$bin" "${QUICK[@]}" "${PIPE_ARGS[@]}" \
        -o "$OUT_DIR/$lib.out" >"$OUT_DIR/$lib.txt" 2>"$OUT_DIR/$lib.err" || rc=$?
    if [[ $rc -ne 0 ]]; then
        log "  $lib: FAILED rc=$rc (see $OUT_DIR/$lib.err)"
        return 1
    fi
}

# The three summaries side by side (n/a where a library did not run).
print_summaries() {
    local lib
    printf '%-16s' ""
    for lib in $LIBS; do printf '%16s' "$lib"; done
    printf '\n'
    print_row "latency (us)" latency 2
    print_row "peak (Gbit/s)" peak 2
    print_row "peak at (B)" peak 5
    print_row "N1/2 (B)" N1/2 2
    for lib in $LIBS; do
        if [[ -s "$OUT_DIR/$lib.txt" ]]; then printf '%-6s %s\n' "$lib:" "$(head -1 "$OUT_DIR/$lib.txt")"; fi
    done
}

# Row $1: field $3 of the summary line starting with $2, per library.
print_row() {
    local label="$1" key="$2" field="$3" lib v
    printf '%-16s' "$label"
    for lib in $LIBS; do
        v=""
        if [[ -s "$OUT_DIR/$lib.txt" ]]; then
            v="$(awk -v k="$key" -v f="$field" '$1 == k { print $f; exit }' "$OUT_DIR/$lib.txt")"
        fi
        printf '%16s' "${v:-n/a}"
    done
    printf '\n'
}

# compare.png through skiff-pipe's overlay mode (no MPI), with the data files that exist.
plot_all() {
    local lib files="" labels=""
    for lib in $LIBS; do
        if [[ -s "$OUT_DIR/$lib.out" ]]; then
            files+="${files:+,}$OUT_DIR/$lib.out"
            labels+="${labels:+,}$lib"
        fi
    done
    if [[ -z "$files" || ! -x "$SKIFF_BUILD/bin/skiff-pipe" ]]; then
        log "  no chart (no data, or no $SKIFF_BUILD/bin/skiff-pipe)"
        return 0
    fi
    if "$SKIFF_BUILD/bin/skiff-pipe" --plot "$OUT_DIR/compare.png" --plot-files "$files" --labels "$labels"; then
        log "  chart: $OUT_DIR/compare.png"
    else
        log "  chart failed (gnuplot missing?)"
    fi
}

main() {
    parse_args "$@"
    mkdir -p "$OUT_DIR"
    log "results -> $OUT_DIR (skiff-pipe ${QUICK[*]} ${PIPE_ARGS[*]})"
    {
        echo "date: $(date -Is)"
        echo "host: $(uname -a)"
        echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "skiff: $SKIFF_BUILD ($(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo no-commit))"
        echo "mpich env: $MPICH_ENV; ompi args: $OMPI_MCA"
    } >"$OUT_DIR/env.txt"
    local lib ok=0
    for lib in $LIBS; do
        if run_lib "$lib"; then ok=$((ok + 1)); fi
    done
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT_DIR/env.txt"
    print_summaries | tee "$OUT_DIR/summary.txt"
    plot_all
    [[ $ok -gt 0 ]]
}

main "$@"
