#!/usr/bin/env bash
# bench/compare.sh — build bench/pt2pt.c against skiff, MPICH and Open MPI and
# run them interleaved (skiff, mpich, ompi, skiff, mpich, ompi, ...) with two
# ranks pinned to cores 0 and 1, then print min/best + median per library and
# the ratio skiff / best peer.  See bench/README.md.
# With -m coll: the same for bench/coll.c (Barrier, Bcast, Allreduce, Alltoall
# latency) at several rank counts; rank counts above the core count run
# oversubscribed with each library's oversubscription settings.
# With -m persist: pt2pt.c --persist, the 8-byte ping-pong with Isend/Irecv
# ("ilat") and with persistent requests ("plat"), pinned as in pt2pt mode.
# With -m match: pt2pt.c --match, matching against 16, 256 and 4096 posted
# receives with distinct tags, per message, on a plain communicator ("mlat")
# and on one asserting mpi_assert_no_any_tag ("alat"); pinned as in pt2pt mode.
#
# Usage: bench/compare.sh [-m pt2pt|coll|persist|match] [-r ROUNDS] [-q] [-l LIBS] [-n NPS]
#   -m MODE    pt2pt (default), coll, persist or match
#   -r ROUNDS  interleaved rounds (default 5)
#   -q         pass --quick to the benchmark (short runs, for checking the script)
#   -l LIBS    comma list from skiff,mpich,ompi (default all three)
#   -n NPS     coll mode: comma list of rank counts (default 2,4,8)
# Environment:
#   SKIFF_BUILD   skiff build dir holding bin/mpicc, bin/mpiexec (default <repo>/build)
#   OUT           results root (default /tmp/skiff-bench); each run -> $OUT/<timestamp>/
#   RUN_TIMEOUT   seconds before a single run is killed (default 300; coll mode 150, 60 with -q)
#   COLL_MAX_ITERS  coll mode: cap on timed iterations per measurement when the
#                 ranks outnumber the cores (default 200)
#   COLL_OPS      coll mode: coll.c's --ops list (default its four: barrier,bcast,
#                 allreduce,alltoall); e.g. iallreduce,pallreduce for the persistent
#                 allreduce against the nonblocking one
#   MPICH_ENV     env for MPICH runs (default "UCX_TLS=self,posix", see below)
#   OMPI_MCA      extra mpiexec.openmpi args (default: ob1 + vader, no single-copy)
#                 (set MPICH_ENV= or OMPI_MCA= empty to get the library defaults)
#
# Peer settings (measured on the 2-core KVM dev box, see README):
#   MPICH 4.0.2 (Debian, ch4:ucx; intranode traffic goes through UCX):
#     UCX_TLS=self,posix — UCX's default picks CMA (process_vm_readv) for
#     rendezvous, which managed ~8-9 GB/s here; copy-in/copy-out through POSIX
#     shm gave 16-40 GB/s. Latency unchanged (0.12-0.15 us).
#   Open MPI 4.1.4 (pml ucx unavailable here, so ob1 + btl vader):
#     --mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none
#     Same story: CMA single-copy gave ~6-8 GB/s and 3 us at 8 KiB; "none"
#     gave 19-37 GB/s and 0.8 us.  As root it also needs --allow-run-as-root
#     plus OMPI_ALLOW_RUN_AS_ROOT{,_CONFIRM}=1.
# Binding is verified once per library before the rounds: a tiny MPI program
# built with the same wrapper and launched the same way prints each rank's
# sched_getaffinity() set; the two sets must be single CPUs and disjoint.
set -euo pipefail

readonly ALL_LIBS="skiff mpich ompi"
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly BENCH_DIR
readonly REPO_DIR="${BENCH_DIR%/bench}"
readonly SKIFF_BUILD="${SKIFF_BUILD:-$REPO_DIR/build}"
RUN_TIMEOUT_SET="${RUN_TIMEOUT:-}"
RUN_TIMEOUT="${RUN_TIMEOUT:-300}"
readonly COLL_MAX_ITERS="${COLL_MAX_ITERS:-200}"
readonly MPICH_ENV="${MPICH_ENV-UCX_TLS=self,posix}"
readonly OMPI_MCA="${OMPI_MCA---mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none}"
readonly CFLAGS_BENCH="-O2 -std=c11 -Wall -Wextra"

ROUNDS=5
QUICK=""
LIBS="$ALL_LIBS"
MODE=pt2pt
NPS="2 4 8"

log() { printf '%s\n' "$*" >&2; }
die() { log "compare.sh: $*"; exit 1; }

usage() { sed -n '2,/^# Peer settings/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit "${1:-0}"; }

parse_args() {
    while getopts "r:ql:m:n:h" opt; do
        case "$opt" in
            r) ROUNDS="$OPTARG" ;;
            q) QUICK="--quick" ;;
            l) LIBS="${OPTARG//,/ }" ;;
            m) MODE="$OPTARG" ;;
            n) NPS="${OPTARG//,/ }" ;;
            h) usage 0 ;;
            *) usage 1 ;;
        esac
    done
    [[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "-r wants a positive integer"
    local l n
    for l in $LIBS; do [[ " $ALL_LIBS " == *" $l "* ]] || die "unknown library '$l'"; done
    [[ "$MODE" == pt2pt || "$MODE" == coll || "$MODE" == persist || "$MODE" == match ]] ||
        die "-m wants pt2pt, coll, persist or match"
    for n in $NPS; do [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "-n wants positive rank counts"; done
    if [[ "$MODE" == coll && -z "$RUN_TIMEOUT_SET" ]]; then
        if [[ -n "$QUICK" ]]; then RUN_TIMEOUT=60; else RUN_TIMEOUT=150; fi
    fi
}

# ---- per-library knobs ----------------------------------------------------

mpicc_for() {
    case "$1" in
        skiff) echo "$SKIFF_BUILD/bin/mpicc" ;;
        mpich) echo mpicc.mpich ;;
        ompi)  echo mpicc.openmpi ;;
    esac
}

# shellcheck source=bench/peers.sh
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"


# Runs "$@" (the program and its args) under library $1's launcher.
launch() {
    local lib="$1"; shift
    local -a cmd
    mapfile -t cmd < <(launcher_for "$lib")
    timeout "$RUN_TIMEOUT" "${cmd[@]}" "$@"
}

# ---- build -----------------------------------------------------------------

write_bindcheck_src() {
    cat >"$1" <<'EOF'
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, n = 0;
    cpu_set_t set;
    char buf[1024];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int c = 0; c < CPU_SETSIZE && n < (int)sizeof buf - 8; c++)
        if (CPU_ISSET(c, &set))
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%d", n ? "," : "", c);
    printf("bind %d %s\n", rank, n ? buf : "-");
    MPI_Finalize();
    return 0;
}
EOF
}

# Builds pt2pt and bindcheck for $1 into $BUILD; returns 1 (with reason) if not possible.
build_lib() {
    local lib="$1" cc
    cc="$(mpicc_for "$lib")"
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "no compiler wrapper $cc" >"$RUN_DIR/build-$lib.log"
        return 1
    fi
    # shellcheck disable=SC2086
    { "$cc" $CFLAGS_BENCH "$BENCH_DIR/pt2pt.c" -o "$BUILD/pt2pt-$lib" &&
      "$cc" -O2 -std=c11 "$BUILD/bindcheck.c" -o "$BUILD/bindcheck-$lib"; } \
        >"$RUN_DIR/build-$lib.log" 2>&1
}

# ---- binding check -------------------------------------------------------------

# Launches bindcheck for $1; ok if both ranks have one CPU each and they differ.
check_binding() {
    local lib="$1"
    local out="$RUN_DIR/bind-$lib.txt"
    if ! launch "$lib" "$BUILD/bindcheck-$lib" >"$out" 2>&1; then
        log "  $lib: binding check run FAILED (see $out)"
        return 1
    fi
    local s0 s1
    s0="$(awk '$1=="bind" && $2==0 {print $3}' "$out")"
    s1="$(awk '$1=="bind" && $2==1 {print $3}' "$out")"
    if [[ -n "$s0" && -n "$s1" && "$s0" != *,* && "$s1" != *,* && "$s0" != "$s1" ]]; then
        log "  $lib: binding OK (rank0 -> cpu $s0, rank1 -> cpu $s1)"
        return 0
    fi
    log "  $lib: WARNING binding NOT as expected: rank0='$s0' rank1='$s1' (see $out)"
    return 1
}

# ---- runs ----------------------------------------------------------------------

# One run of library $1, round $2: raw output kept, parsed lines -> results.tsv.
run_one() {
    local lib="$1" round="$2"
    local raw="$RUN_DIR/raw/$lib-r$round.txt"
    # shellcheck disable=SC2086
    local persist=""
    [[ "$MODE" == persist ]] && persist="--persist"
    [[ "$MODE" == match ]] && persist="--match"
    # shellcheck disable=SC2086
    if launch "$lib" "$BUILD/pt2pt-$lib" $QUICK $persist >"$raw" 2>"$raw.err"; then
        awk -v lib="$lib" -v r="$round" '($1=="lat"||$1=="bw"||$1=="ilat"||$1=="plat"||$1=="mlat"||$1=="alat") && NF==3 {
            print lib "\t" r "\t" $1 "\t" $2 "\t" $3 }' "$raw" >>"$RUN_DIR/results.tsv"
        log "  round $round $lib: ok"
    else
        log "  round $round $lib: FAILED rc=$? (see $raw.err)"
    fi
}

record_env() {
    {
        echo "date: $(date -Is)"
        echo "host: $(uname -a)"
        echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "cpus: $(nproc) ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p'))"
        echo "rounds: $ROUNDS quick: ${QUICK:-no} libs: $LIBS"
        echo "skiff: $SKIFF_BUILD ($(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo no-commit))"
        echo "mpich: $(mpichversion 2>/dev/null | head -1 | tr -s ' \t' ' ') env: $MPICH_ENV"
        echo "ompi: $(mpiexec.openmpi --version 2>/dev/null | head -1) args: $OMPI_MCA"
    } >"$RUN_DIR/env.txt"
}

# ---- report --------------------------------------------------------------------

print_table() {
    python3 - "$RUN_DIR/results.tsv" "$LIBS" "$RUN_DIR/binding.txt" <<'EOF'
import sys, statistics
from collections import defaultdict
path, libs, bindf = sys.argv[1], sys.argv[2].split(), sys.argv[3]
peers = [l for l in libs if l != "skiff"]
bound = dict(line.split() for line in open(bindf))
vals = defaultdict(list)  # (metric, bytes, lib) -> [values]
for line in open(path):
    lib, _, metric, size, v = line.split("\t")
    vals[(metric, int(size), lib)].append(float(v))
keys = sorted({(m, s) for (m, s, _) in vals}, key=lambda k: (not k[0].endswith("lat"), k[0], k[1]))

def human(n):
    for unit, f in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= f and n % f == 0:
            return f"{n // f} {unit}"
    return f"{n} B"

def stats(metric, xs):
    best = min(xs) if metric.endswith("lat") else max(xs)
    return best, statistics.median(xs)

w = 16
print("lat = half round trip, usec (lower is better); bw = GB/s, 1e9 B/s (higher is better)")
print("ilat/plat = half round trip with Isend/Irecv / with persistent requests (-m persist)")
print("mlat/alat = usec per message matched among <size> posted receives, plain / mpi_assert_no_any_tag (-m match)")
print("cells = best/median over rounds (best = min latency, max bandwidth)")
print("ratio = skiff median / best peer median:  lat <1 => skiff faster;  bw >1 => skiff faster")
hdr = f"{'metric':<6} {'size':>8}  " + "".join(
    f"{l + ('*' if bound.get(l) == 'unverified' else ''):>{w}}" for l in libs)
print(hdr + f"  {'skiff/best':>10} {'(peer)':<7}")
for metric, size in keys:
    label = str(size) if metric in ("mlat", "alat") else human(size)  # a queue depth, not bytes
    row, med = f"{metric:<6} {label:>8}  ", {}
    for l in libs:
        xs = vals.get((metric, size, l))
        if not xs:
            row += f"{'n/a':>{w}}"
            continue
        b, m = stats(metric, xs)
        med[l] = m
        row += f"{f'{b:.3f}/{m:.3f}':>{w}}"
    have = [p for p in peers if p in med]
    if "skiff" in med and have:
        pick = min if metric.endswith("lat") else max
        bp = pick(have, key=lambda p: med[p])
        row += f"  {med['skiff'] / med[bp]:>10.3f} ({bp})"
    else:
        row += f"  {'n/a':>10}"
    print(row)
n = {l: max((len(v) for (m, s, x), v in vals.items() if x == l), default=0) for l in libs}
print("runs: " + ", ".join(f"{l} {n[l]}" if l in bound else f"{l} not built" for l in libs))
unb = [l for l in libs if bound.get(l) == "unverified"]
if unb:
    print("* binding not verified for: " + ", ".join(unb) + " (see bind-*.txt)")
EOF
}

# ---- collectives mode (-m coll) ---------------------------------------------------

# NCORES, oversubscribed and launcher_np_for (one rank pinned per core while the ranks fit, each
# library's oversubscription settings beyond) are bench/peers.sh's, shared with cg-compare.sh.

# Builds coll and bindcheck for $1 into $BUILD; returns 1 (with reason) if not possible.
build_lib_coll() {
    local lib="$1" cc
    cc="$(mpicc_for "$lib")"
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "no compiler wrapper $cc" >"$RUN_DIR/build-$lib.log"
        return 1
    fi
    # shellcheck disable=SC2086
    { "$cc" $CFLAGS_BENCH "$BENCH_DIR/coll.c" -o "$BUILD/coll-$lib" &&
      "$cc" -O2 -std=c11 "$BUILD/bindcheck.c" -o "$BUILD/bindcheck-$lib"; } \
        >"$RUN_DIR/build-$lib.log" 2>&1
}

# One run of library $1 with $2 ranks, round $3. The lines printed before a failure or a
# timeout are kept (the benchmark flushes each one), so a stalled size costs only itself.
run_one_coll() {
    local lib="$1" np="$2" round="$3" rc=0 got
    local raw="$RUN_DIR/raw/$lib-np$np-r$round.txt"
    local -a cmd args=()
    mapfile -t cmd < <(launcher_np_for "$lib" "$np")
    if [[ -n "$QUICK" ]]; then args+=("$QUICK"); fi
    if [[ -n "${COLL_OPS:-}" ]]; then args+=(--ops "$COLL_OPS"); fi
    if oversubscribed "$np"; then args+=(--max-iters "$COLL_MAX_ITERS"); fi
    timeout --kill-after=10 "$RUN_TIMEOUT" "${cmd[@]}" "$BUILD/coll-$lib" "${args[@]}" \
        >"$raw" 2>"$raw.err" || rc=$?
    awk -v lib="$lib" -v r="$round" '$1=="coll" && NF==5 {
        print lib "\t" r "\t" $2 "\t" $3 "\t" $4 "\t" $5 }' "$raw" >>"$RUN_DIR/results.tsv"
    got=$(grep -c '^coll ' "$raw" || true)
    case "$rc" in
        0) log "  round $round np $np $lib: ok ($got lines)" ;;
        124 | 137) log "  round $round np $np $lib: TIMEOUT after ${RUN_TIMEOUT}s, kept $got lines (see $raw.err)" ;;
        *) log "  round $round np $np $lib: FAILED rc=$rc, kept $got lines (see $raw.err)" ;;
    esac
}

print_table_coll() {
    python3 - "$RUN_DIR/results.tsv" "$LIBS" "$RUN_DIR/binding.txt" "$NCORES" <<'EOF'
import sys, statistics
from collections import defaultdict
path, libs, bindf, ncores = sys.argv[1], sys.argv[2].split(), sys.argv[3], int(sys.argv[4])
peers = [l for l in libs if l != "skiff"]
bound = dict(line.split() for line in open(bindf))
order = {"barrier": 0, "bcast": 1, "allreduce": 2, "alltoall": 3, "iallreduce": 4, "pallreduce": 5}
vals = defaultdict(list)  # (op, np, bytes, lib) -> [usec]
for line in open(path):
    lib, _, op, np, size, v = line.split("\t")
    vals[(op, int(np), int(size), lib)].append(float(v))
keys = sorted({k[:3] for k in vals}, key=lambda k: (k[1], order.get(k[0], 9), k[2]))

def human(n):
    for unit, f in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= f and n % f == 0:
            return f"{n // f} {unit}"
    return f"{n} B" if n else "-"

w = 20
print("usec per call = max over ranks of each rank's mean (lower is better); alltoall size is per pair")
print("cells = best/median over rounds; ratio = skiff median / best peer median (<1 => skiff faster)")
print(f"np > {ncores} (cores here) = oversubscribed: unpinned, idle ranks yield; np <= {ncores}: pinned")
hdr = f"{'op':<10} {'np':>3} {'size':>8}  " + "".join(
    f"{l + ('*' if bound.get(l) == 'unverified' else ''):>{w}}" for l in libs)
print(hdr + f"  {'skiff/best':>10} {'(peer)':<7}")
for op, np, size in keys:
    row, med = f"{op:<10} {np:>3} {human(size):>8}  ", {}
    for l in libs:
        xs = vals.get((op, np, size, l))
        if not xs:
            row += f"{'n/a':>{w}}"
            continue
        b, m = min(xs), statistics.median(xs)
        med[l] = m
        row += f"{f'{b:.2f}/{m:.2f}':>{w}}"
    have = [p for p in peers if p in med]
    if "skiff" in med and have:
        bp = min(have, key=lambda p: med[p])
        row += f"  {med['skiff'] / med[bp]:>10.3f} ({bp})"
    else:
        row += f"  {'n/a':>10}"
    print(row)
nps = sorted({k[1] for k in vals})
count = {(l, n): len(vals.get(("barrier", n, 0, l), [])) for l in libs for n in nps}
print("runs with results (barrier lines): " + ", ".join(
    (f"{l} " + " ".join(f"np{n}:{count[(l, n)]}" for n in nps)) if l in bound else f"{l} not built"
    for l in libs))
unb = [l for l in libs if bound.get(l) == "unverified"]
if unb:
    print("* binding of the pinned np=2 runs not verified for: " + ", ".join(unb) + " (see bind-*.txt)")
EOF
}

main_coll() {
    local lib r np
    local -a ready=()
    for lib in $LIBS; do
        if build_lib_coll "$lib"; then
            ready+=("$lib")
        else
            log "  $lib: not built, reported as n/a ($(head -c 200 "$RUN_DIR/build-$lib.log"))"
        fi
    done
    # The pinned 2-rank launch is the pt2pt one: verify it the same way.
    for lib in "${ready[@]}"; do
        if [[ " $NPS " == *" 2 "* ]] && ! oversubscribed 2; then
            if check_binding "$lib"; then echo "$lib ok"; else echo "$lib unverified"; fi
        else
            echo "$lib n/a"
        fi >>"$RUN_DIR/binding.txt"
    done
    {
        echo "mode: coll, nps: $NPS, cores: $NCORES, run timeout: ${RUN_TIMEOUT}s," \
            "max iters when oversubscribed: $COLL_MAX_ITERS"
        for np in $NPS; do
            for lib in "${ready[@]}"; do
                echo "launch np=$np $lib: $(launcher_np_for "$lib" "$np" | tr '\n' ' ')"
            done
        done
    } >>"$RUN_DIR/env.txt"

    for ((r = 1; r <= ROUNDS; r++)); do
        for np in $NPS; do
            for lib in "${ready[@]}"; do run_one_coll "$lib" "$np" "$r"; done
        done
    done

    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RUN_DIR/env.txt"
    print_table_coll | tee "$RUN_DIR/table.txt"
}

# ---- main ----------------------------------------------------------------------

main() {
    parse_args "$@"
    local out_root="${OUT:-/tmp/skiff-bench}" lib r
    RUN_DIR="$out_root/$(date +%Y%m%d-%H%M%S)"
    BUILD="$RUN_DIR/build"
    mkdir -p "$BUILD" "$RUN_DIR/raw"
    : >"$RUN_DIR/results.tsv"
    : >"$RUN_DIR/binding.txt"
    ln -sfn "$RUN_DIR" "$out_root/latest"
    record_env
    write_bindcheck_src "$BUILD/bindcheck.c"
    log "results -> $RUN_DIR"
    if [[ "$MODE" == coll ]]; then
        main_coll
        return
    fi

    local -a ready=()
    for lib in $LIBS; do
        if build_lib "$lib"; then
            ready+=("$lib")
        else
            log "  $lib: not built, reported as n/a ($(head -c 200 "$RUN_DIR/build-$lib.log"))"
        fi
    done
    for lib in "${ready[@]}"; do
        if check_binding "$lib"; then echo "$lib ok"; else echo "$lib unverified"; fi \
            >>"$RUN_DIR/binding.txt"
    done

    for ((r = 1; r <= ROUNDS; r++)); do
        for lib in "${ready[@]}"; do run_one "$lib" "$r"; done
    done

    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RUN_DIR/env.txt"
    print_table | tee "$RUN_DIR/table.txt"
}

main "$@"
