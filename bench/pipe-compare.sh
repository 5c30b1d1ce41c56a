#!/usr/bin/env bash
# bench/pipe-compare.sh — skiff-pipe over skiff, MPICH and Open MPI: the same source
# (tools/skiff_pipe*.c + tools/lib/*.c) built with each library's mpicc, run with two
# ranks pinned to cores 0 and 1, one data file each, the three summaries side by side
# and one chart with the three curves. See docs/skiff-pipe.md.
#
# Usage: bench/pipe-compare.sh [-q] [-o DIR] [-n NP] [-r ROUNDS] [skiff-pipe args...]
#   -q         quick runs (skiff-pipe --quick: sizes up to 1 MiB, ~0.01 s per size)
#   -o DIR     output directory (default /tmp/skiff-pipe-compare/<timestamp>)
#   -n NP      ranks (default 2, pinned to cores 0 and 1); more than the cores are oversubscribed
#              with each library's settings (bench/peers.sh launcher_np_for): for --pairs, --pattern
#   -r ROUNDS  rounds, each running skiff, MPICH and Open MPI in turn (default 1); the table then
#              shows min/median over the rounds
#   -c CPUS    run every rank inside CPU list CPUS (taskset -c CPUS, e.g. 0): with fewer CPUs than
#              ranks, each library's oversubscription settings (2 ranks on one core: -c 0)
#   other arguments go to every skiff-pipe run, e.g. --stream, --bidir, --nocache, --end 64m,
#   --pairs, --pattern ring, --bidir --workload auto, the one-sided --put [--nofence], --get
#   [--nofence], --fop, --cas, --cacheline (bench/rma-compare.sh runs them all and makes one table)
#   (not -o or --plot: the script names the files)
# Writes to DIR: skiff.out mpich.out ompi.out (data files of round 1; later rounds <lib>-rN.out),
# <lib>.txt (stdout with the summary), <lib>.err (progress and errors), build-<lib>.log,
# summary.txt, compare.png (throughput), busy.png (rank 0's CPU busy %), sys.png (rank 0's system
# CPU per message) and, with --workload, overlap.png.
#   SIZES      sizes (bytes) whose data-file lines the table quotes (default "8 65536 1048576")
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
readonly SIZES="${SIZES:-8 65536 1048576}"

OUT_DIR=""
QUICK=()
PIPE_ARGS=()
NP=2
ROUNDS=1
CPUS=""

log() { printf '%s\n' "$*" >&2; }
die() { log "pipe-compare.sh: $*"; exit 2; }
usage() { sed -n '2,/^# Environment/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit "${1:-0}"; }

# Our own options first; everything else is skiff-pipe's (its own parser reports mistakes).
parse_args() {
    while [[ $# -gt 0 ]]; do
        case "$1" in
            -q) QUICK=(--quick) ;;
            -o) [[ $# -ge 2 ]] || die "-o needs a directory"; OUT_DIR="$2"; shift ;;
            -n) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "-n needs a rank count"; NP="$2"; shift ;;
            -r) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "-r needs a round count"; ROUNDS="$2"; shift ;;
            -c) [[ $# -ge 2 ]] || die "-c needs a CPU list"; CPUS="$2"; shift ;;
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

# The launcher of library $1 for $NP ranks: two pinned ranks as always, else bench/peers.sh's
# launcher_np_for (pinned while the ranks fit the cores, oversubscribed beyond).
launcher() {
    if [[ -n "$CPUS" ]]; then
        declare -F launcher_np_for >/dev/null || die "-c needs launcher_np_for from bench/peers.sh"
        # The CPUs of the list are the cores launcher_np_for counts: fewer than NP = oversubscribed.
        # shellcheck disable=SC2034  # read by launcher_np_for (bench/peers.sh)
        NCORES="$(taskset -c "$CPUS" nproc)"
        printf '%s\n' taskset -c "$CPUS"
        launcher_np_for "$1" "$NP"
    elif [[ "$NP" -eq 2 ]]; then
        launcher_for "$1"
    elif declare -F launcher_np_for >/dev/null; then
        launcher_np_for "$1" "$NP"
    else
        die "-n $NP needs launcher_np_for from bench/peers.sh"
    fi
}

# The name of round $2's files of library $1: <lib> for round 1, <lib>-r<N> after.
run_name() { if [[ "$2" -eq 1 ]]; then echo "$1"; else echo "$1-r$2"; fi; }

# One run of library $1 (binary $2) in round $3: data file $OUT_DIR/<name>.out, stdout .txt, stderr .err.
run_lib() {
    local lib="$1" bin="$2" name rc=0
    local -a cmd
    name="$(run_name "$lib" "$3")"
    mapfile -t cmd < <(launcher "$lib")
    log "  $name: running (load $(cut -d' ' -f1 /proc/loadavg))"
    timeout --kill-after=10 "$RUN_TIMEOUT" "${cmd[@]}" "$bin" "${QUICK[@]}" "${PIPE_ARGS[@]}" \
        -o "$OUT_DIR/$name.out" >"$OUT_DIR/$name.txt" 2>"$OUT_DIR/$name.err" || rc=$?
    if [[ $rc -ne 0 ]]; then
        log "  $name: FAILED rc=$rc (see $OUT_DIR/$name.err)"
        return 1
    fi
}

# min/median over the rounds of what each library's summaries and data files say: latency, peak,
# N1/2, then per quoted size (SIZES) the time, throughput and both sides' CPU per message and busy
# share, the flows' and overlap columns where the mode has them.
print_rounds() {
    # shellcheck disable=SC2086  # one library per word
    python3 - "$OUT_DIR" "$ROUNDS" "$SIZES" $LIBS <<'PY'
import os, re, statistics, sys
out, rounds, sizes, libs = sys.argv[1], int(sys.argv[2]), [int(x) for x in sys.argv[3].split()], sys.argv[4:]
def name(lib, r): return lib if r == 1 else f"{lib}-r{r}"
rows, order = {}, []
def put(key, lib, v):
    if key not in rows: rows[key] = {l: [] for l in libs}; order.append(key)
    rows[key][lib].append(v)
for lib in libs:
    for r in range(1, rounds + 1):
        txt, dat = os.path.join(out, name(lib, r) + ".txt"), os.path.join(out, name(lib, r) + ".out")
        if not (os.path.exists(txt) and os.path.getsize(txt)): continue
        t = open(txt).read()
        for key, rx in (("latency (us)", r"^latency\s+([0-9.]+)"), ("peak (Gbit/s)", r"^peak\s+([0-9.]+)"),
                        ("N1/2 (B)", r"^N1/2\s+(\d+)")):
            m = re.search(rx, t, re.M)
            if m: put(key, lib, float(m.group(1)))
        if not os.path.exists(dat): continue
        data = {int(f[0]): [float(x) for x in f] for f in (l.split() for l in open(dat)) if f}
        multi = any(len(v) in (13, 16) for v in data.values())
        side = ("mean", "busiest") if multi else ("r0", "r1")
        for s in sizes:
            v = data.get(s)
            if not v: continue
            put(f"{s} B usec", lib, v[4]); put(f"{s} B Gbit/s", lib, v[1])
            for i, who in enumerate(side):
                put(f"{s} B {who} user us", lib, v[5 + 3 * i]); put(f"{s} B {who} sys us", lib, v[6 + 3 * i])
                put(f"{s} B {who} busy %", lib, v[7 + 3 * i])
            rest = v[11:]
            if multi:
                put(f"{s} B per-flow Gbit/s", lib, rest[0]); put(f"{s} B slowest usec", lib, rest[1]); rest = rest[2:]
            if rest:
                put(f"{s} B t_comm us", lib, rest[0]); put(f"{s} B t_work us", lib, rest[1])
                put(f"{s} B overlap %", lib, rest[2])
def cell(xs):
    if not xs: return "n/a"
    lo, med = min(xs), statistics.median(xs)
    f = (lambda x: f"{x:.3g}") if max(abs(lo), abs(med)) < 100 else (lambda x: f"{x:.0f}")
    return f"{f(lo)}/{f(med)}" if len(xs) > 1 else f(lo)
print(f"{'':24}" + "".join(f"{l:>18}" for l in libs) + ("   (min/median of %d rounds)" % rounds if rounds > 1 else ""))
for k in order:
    print(f"{k:24}" + "".join(f"{cell(rows[k][l]):>18}" for l in libs))
PY
    local lib
    for lib in $LIBS; do
        if [[ -s "$OUT_DIR/$lib.txt" ]]; then printf '%-6s %s\n' "$lib:" "$(head -1 "$OUT_DIR/$lib.txt")"; fi
    done
}

# Chart $1 (file name) of data-file column $2 through skiff-pipe's overlay mode (no MPI), with the
# round-1 data files that exist.
plot_column() {
    local png="$1" col="$2" lib files="" labels=""
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
    if "$SKIFF_BUILD/bin/skiff-pipe" --plot "$OUT_DIR/$png" --plot-y "$col" --plot-files "$files" --labels "$labels"; then
        log "  chart: $OUT_DIR/$png"
    else
        log "  chart $png failed (gnuplot missing?)"
    fi
}

plot_all() {
    plot_column compare.png 2
    plot_column busy.png 8
    plot_column sys.png 7
    local a multi=0 work=0
    for a in "${PIPE_ARGS[@]}"; do
        case "$a" in --pairs | --pattern*) multi=1 ;; --workload*) work=1 ;; esac
    done
    if [[ $work -eq 1 ]]; then plot_column overlap.png $((14 + 2 * multi)); fi
}

main() {
    parse_args "$@"
    mkdir -p "$OUT_DIR"
    log "results -> $OUT_DIR (skiff-pipe ${QUICK[*]} ${PIPE_ARGS[*]}, $NP ranks, $ROUNDS rounds)"
    {
        echo "date: $(date -Is)"
        echo "host: $(uname -a)"
        echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
        # The commit of the tree skiff was built from (not of this script's checkout).
        local src
        src="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$SKIFF_BUILD/CMakeCache.txt" 2>/dev/null)"
        echo "skiff: $SKIFF_BUILD (built from ${src:-?} at" \
            "$(git -C "${src:-/nonexistent}" rev-parse --short HEAD 2>/dev/null || echo 'no git commit')," \
            "uncommitted changes: $(git -C "${src:-/nonexistent}" status --porcelain 2>/dev/null | wc -l))"
        echo "mpich env: $MPICH_ENV; ompi args: $OMPI_MCA"
        echo "ranks: $NP; rounds: $ROUNDS; cpus: ${CPUS:-all}; skiff-pipe ${QUICK[*]} ${PIPE_ARGS[*]}"
        local l
        for l in $LIBS; do echo "launch $l: $(launcher "$l" | tr '\n' ' ')"; done
    } >"$OUT_DIR/env.txt"
    local lib ok=0 r
    declare -A bins=()
    for lib in $LIBS; do
        if bins[$lib]="$(binary_for "$lib")"; then :; else
            log "  $lib: not built ($(head -c 200 "$OUT_DIR/build-$lib.log"))"
            unset "bins[$lib]"
        fi
    done
    for ((r = 1; r <= ROUNDS; r++)); do
        for lib in $LIBS; do
            [[ -n "${bins[$lib]:-}" ]] || continue
            if run_lib "$lib" "${bins[$lib]}" "$r"; then ok=$((ok + 1)); fi
        done
    done
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT_DIR/env.txt"
    print_rounds | tee "$OUT_DIR/summary.txt"
    plot_all
    [[ $ok -gt 0 ]]
}

main "$@"
