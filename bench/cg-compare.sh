#!/usr/bin/env bash
# bench/cg-compare.sh — skiff-cg (apps/cg, docs/cg.md) over skiff, MPICH and Open MPI: the same source
# built with each library's mpicc, run interleaved (skiff, mpich, ompi, skiff, ...) ROUNDS times at each
# rank count, on this host or (-c) across the two "hosts" of the emulated cluster. The summary gives per
# library the iterations (which must agree), the final true residual, the solve time min/median (slowest
# rank), its split into SpMV, halo exchange, reductions and vector updates (median over rounds of the
# mean over ranks, and its share of the solve), GFLOP/s, and skiff's median solve time / the best peer's.
#
# Usage: bench/cg-compare.sh [-r ROUNDS] [-q] [-l LIBS] [-n NPS] [-p 'CG ARGS'] [-c] [-R RATE] [-o DIR]
#   -r ROUNDS  interleaved rounds (default 5)
#   -q         quick: a tiny problem (--gen poisson3d --size 16), for checking the script
#   -l LIBS    comma list from skiff,mpich,ompi (default all three)
#   -n NPS     comma list of rank counts (default 1,2,4,8 on one host; 2,4 with -c)
#   -p ARGS    skiff-cg's problem arguments, one string (default '--gen poisson3d --size 60')
#   -c         on the emulated cluster (tests/cluster/cluster.sh: two network namespaces joined by two
#              networks shaped to RATE, as bench/cluster.sh): ranks in blocks over the two hosts, each
#              library on 1 rail and on 2 rails. Needs root and network namespaces: exits 77 without
#   -R RATE    with -c: link rate in Mbit/s (default 400)
#   -o DIR     output directory (default $OUT/<timestamp>, OUT=/tmp/skiff-cg-compare; latest -> it)
# Writes to DIR: env.txt (load before/after, versions, every launch line), build-<lib>.log,
# raw/<case>-<lib>-r<N>.txt (+ .err), results.tsv (case lib round key value), table.txt, table.md.
# Environment:
#   SKIFF_BUILD  skiff build dir holding bin/skiff-cg and bin/mpiexec (default <repo>/build)
#   RUN_TIMEOUT  seconds before one run is killed (default 300)
#   FINALIZE_GRACE  seconds a run may stay after its report before it is ended, the report kept
#                (default 10; MPICH in the cluster's namespaces sometimes never leaves MPI_Finalize)
#   MPICH_ENV    env for MPICH runs on one host (default "UCX_TLS=self,posix", as compare.sh)
#   OMPI_MCA     extra mpiexec.openmpi args on one host (default: ob1 + vader, no single copy)
#
# On one host (bench/peers.sh's launcher_np_for, as compare.sh -m coll): while the ranks fit on the
# cores (np 1 and 2 here) one rank is pinned per core, from core 0; beyond, nothing is pinned and each
# library runs oversubscribed its own way: skiff's waiting ranks yield by themselves, MPICH gets
# -bind-to none, Open MPI --bind-to none --oversubscribe and mpi_yield_when_idle=1.
# On the cluster, nothing is pinned (each host's launcher would pin its own ranks from core 0, so two
# hosts' ranks would share cores) and the ranks go in blocks (np 4: ranks 0,1 on host 0, 2,3 on host 1):
#   skiff  mpiexec --hosts, SKIFF_TCP_NETS = one or both networks; shared memory inside a host
#   MPICH  Hydra through bench/netns-ssh, UCX_TLS=tcp,self, UCX_NET_DEVICES=eth1 or eth1,eth2. Not posix:
#          UCX takes both namespaces for one machine (one boot id and host name) and would carry the
#          traffic between "hosts" through /dev/shm, so MPICH's pairs inside a host use tcp too
#          In these namespaces MPICH's runs now and then stay in MPI_Finalize after their report (on
#          2 rails nearly always): FINALIZE_GRACE ends them and keeps the report
#   Open MPI  mpirun through bench/netns-ssh, ob1 with self,vader,tcp (vader without single copy),
#          btl_tcp_if_include = one or both networks; mpi_yield_when_idle=1 when np > cores
set -euo pipefail

readonly ALL_LIBS="skiff mpich ompi"
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly BENCH_DIR
readonly REPO_DIR="${BENCH_DIR%/bench}"
readonly SKIFF_BUILD="${SKIFF_BUILD:-$REPO_DIR/build}"
readonly RUN_TIMEOUT="${RUN_TIMEOUT:-300}"
readonly FINALIZE_GRACE="${FINALIZE_GRACE:-10}"
readonly MPICH_ENV="${MPICH_ENV-UCX_TLS=self,posix}"
readonly OMPI_MCA="${OMPI_MCA---mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none}"
# skiff-cg's own flags in the CMake build: -O3 (apps/cg/CMakeLists.txt), plus Release's -DNDEBUG.
readonly CFLAGS_CG="-std=c11 -O3 -DNDEBUG"
readonly CLUSTER_NAME=skcg # namespaces skcg-h0, skcg-h1 (interface names stay under 15 bytes)

ROUNDS=5
LIBS="$ALL_LIBS"
NPS=""
PROBLEM="--gen poisson3d --size 60"
PROBLEM_SET=""
QUICK=""
CLUSTER=""
RATE=400
RUN_DIR=""
ARGS=("$@")

log() { printf '%s\n' "$*" >&2; }
die() { log "cg-compare.sh: $*"; exit 2; }
usage() { sed -n '2,/^# Environment/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit "${1:-0}"; }

parse_args() {
    local opt l n
    while getopts "r:ql:n:p:cR:o:h" opt; do
        case "$opt" in
            r) ROUNDS="$OPTARG" ;;
            q) QUICK=1 ;;
            l) LIBS="${OPTARG//,/ }" ;;
            n) NPS="${OPTARG//,/ }" ;;
            p) PROBLEM="$OPTARG"; PROBLEM_SET=1 ;;
            c) CLUSTER=1 ;;
            R) RATE="$OPTARG" ;;
            o) RUN_DIR="$OPTARG" ;;
            h) usage 0 ;;
            *) usage 2 ;;
        esac
    done
    [[ $OPTIND -gt $# ]] || die "unexpected argument '${!OPTIND}' (skiff-cg's arguments go in -p '...')"
    [[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "-r wants a positive integer"
    [[ "$RATE" =~ ^[1-9][0-9]*$ ]] || die "-R wants a rate in Mbit/s"
    for l in $LIBS; do [[ " $ALL_LIBS " == *" $l "* ]] || die "unknown library '$l'"; done
    if [[ -z "$NPS" ]]; then
        if [[ -n "$CLUSTER" ]]; then NPS="2 4"; else NPS="1 2 4 8"; fi
    fi
    for n in $NPS; do [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "-n wants positive rank counts"; done
    if [[ -n "$QUICK" && -z "$PROBLEM_SET" ]]; then PROBLEM="--gen poisson3d --size 16"; fi
    if [[ -n "$CLUSTER" ]]; then
        for n in $NPS; do [[ "$n" -ge 2 ]] || die "-c wants rank counts of 2 or more (two hosts)"; done
    fi
}

# shellcheck source=bench/peers.sh
source "$BENCH_DIR/peers.sh"

# ---- build ---------------------------------------------------------------------

# The skiff-cg binary of library $1 (skiff's from the CMake build, the peers' built here from the same
# source); returns 1 (reason in build-$1.log) if there is none.
binary_for() {
    local lib="$1" cc=mpicc.mpich
    if [[ "$lib" == skiff ]]; then
        if [[ ! -x "$SKIFF_BUILD/bin/skiff-cg" || ! -x "$SKIFF_BUILD/bin/mpiexec" ]]; then
            echo "no $SKIFF_BUILD/bin/skiff-cg or mpiexec (build skiff first)" >"$RUN_DIR/build-$lib.log"
            return 1
        fi
        echo "$SKIFF_BUILD/bin/skiff-cg"
        return 0
    fi
    [[ "$lib" == ompi ]] && cc=mpicc.openmpi
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "no compiler wrapper $cc" >"$RUN_DIR/build-$lib.log"
        return 1
    fi
    # shellcheck disable=SC2086  # word-split on purpose
    "$cc" $CFLAGS_CG "$REPO_DIR"/apps/cg/*.c -o "$RUN_DIR/build/skiff-cg-$lib" -lm \
        >"$RUN_DIR/build-$lib.log" 2>&1 || return 1
    echo "$RUN_DIR/build/skiff-cg-$lib"
}

# ---- launchers -----------------------------------------------------------------

# Cases: "np<N>" on one host, "tcp-np<N>-<R>rail" on the cluster.
cases() {
    local np r
    for np in $NPS; do
        if [[ -n "$CLUSTER" ]]; then
            for r in 1 2; do echo "tcp-np$np-${r}rail"; done
        else
            echo "np$np"
        fi
    done
}

# The launcher argv (one word per line) of library $1 on the cluster ($HOSTS: two namespaces) with $2
# ranks in blocks over the hosts and $3 rails.
cluster_launcher_for() {
    local lib="$1" np="$2" rails="$3" h0=${HOSTS%%,*}
    local ppn=$(((np + 1) / 2)) nets=198.18.1.0/24 devs=eth1
    local slots="${HOSTS//,/:$ppn,}:$ppn"
    if [[ "$rails" == 2 ]]; then nets=198.18.1.0/24,198.18.2.0/24 devs=eth1,eth2; fi
    case "$lib" in
        skiff)
            printf '%s\n' "$SKIFF_BUILD/bin/mpiexec" --hosts "$HOSTS" --launcher-template 'ip netns exec {host}' \
                -n "$np" -x SKIFF_TCP_NETS="$nets" ;;
        mpich)
            printf '%s\n' ip netns exec "$h0" mpiexec.mpich -hosts "$slots" -n "$np" -launcher ssh \
                -launcher-exec "$BENCH_DIR/netns-ssh" -iface eth1 -bind-to none \
                -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES "$devs" ;;
        ompi)
            printf '%s\n' env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ip netns exec "$h0" \
                mpirun.openmpi --host "$slots" -np "$np" --bind-to none
            if oversubscribed "$np"; then printf '%s\n' --mca mpi_yield_when_idle 1; fi
            printf '%s\n' --mca plm_rsh_agent "$BENCH_DIR/netns-ssh" --mca pml ob1 --mca btl self,vader,tcp \
                --mca btl_vader_single_copy_mechanism none --mca btl_tcp_if_include "$nets" \
                --mca oob_tcp_if_include 198.18.1.0/24 ;;
    esac
}

# The launcher argv for case $1 and library $2.
launcher_for_case() {
    local c="$1" lib="$2" np rails
    if [[ "$c" == tcp-* ]]; then
        np=${c#tcp-np}; np=${np%%-*}
        rails=${c##*-}; rails=${rails%rail}
        cluster_launcher_for "$lib" "$np" "$rails"
    else
        launcher_np_for "$lib" "${c#np}"
    fi
}

# ---- runs ----------------------------------------------------------------------

# One run of library $2 in case $1, round $3: raw output kept, parsed values -> results.tsv.
run_one() {
    local c="$1" lib="$2" round="$3" rc=0
    local raw="$RUN_DIR/raw/$c-$lib-r$round.txt"
    local -a cmd cg_args
    mapfile -t cmd < <(launcher_for_case "$c" "$lib")
    read -r -a cg_args <<<"$PROBLEM"
    # In its own session, so that a run can be ended with everything it started; polled, so that a run
    # still there FINALIZE_GRACE s after its report (MPICH in the namespaces, now and then) is ended.
    setsid timeout --kill-after=10 "$RUN_TIMEOUT" "${cmd[@]}" "${BIN[$lib]}" "${cg_args[@]}" \
        >"$raw" 2>"$raw.err" &
    local pid=$! ticks=0 done_at=-1 hung=""
    while kill -0 "$pid" 2>/dev/null; do
        sleep 0.2
        ticks=$((ticks + 1))
        if [[ $done_at -lt 0 ]] && grep -q '^bytes moved:' "$raw"; then done_at=$ticks; fi
        if [[ $done_at -ge 0 && $((ticks - done_at)) -ge $((FINALIZE_GRACE * 5)) ]]; then
            hung=1
            kill -TERM -- "-$pid" 2>/dev/null || true
            sleep 2
            kill -KILL -- "-$pid" 2>/dev/null || true
            break
        fi
    done
    wait "$pid" || rc=$?
    if [[ -n "$hung" || $rc -ne 0 ]]; then kill_leftovers "$lib"; fi
    # skiff-cg's report (docs/cg.md): the times are "max-rank mean share" per part.
    awk -v c="$c" -v lib="$lib" -v r="$round" '
        function out(k, v) { print c "\t" lib "\t" r "\t" k "\t" v }
        $1 == "iterations:" { out("iters", $2); out("converged", $3 == "(converged)" ? 1 : 0) }
        $1 == "true" && $2 == "residual" { out("resid", $NF) }
        $1 == "solve" { out("solve", $2); out("solve_mean", $3) }
        $1 == "spmv" { out("spmv", $3) }
        $1 == "halo" && $2 == "exchange" { out("halo", $4) }
        $1 == "reductions" { out("red", $3) }
        $1 == "vector" && $2 == "updates" { out("upd", $4) }
        $1 == "GFLOP/s:" { out("gflops", $2) }
        $1 == "bytes" && $3 == "halo" { out("halo_bytes", $4) }
    ' "$raw" >>"$RUN_DIR/results.tsv"
    if [[ -n "$hung" ]]; then
        printf '%s\t%s\t%s\thung\t1\n' "$c" "$lib" "$round" >>"$RUN_DIR/results.tsv"
        log "  round $round $c $lib: $(awk '$1 == "solve" { print $2 " s" }' "$raw")," \
            "then hung after its report: ended after ${FINALIZE_GRACE}s (report kept)"
    elif [[ $rc -eq 0 ]] && grep -q '^iterations: .*(converged)' "$raw"; then
        log "  round $round $c $lib: $(awk '$1 == "solve" { print $2 " s" }' "$raw")"
    elif [[ $rc -eq 124 || $rc -eq 137 ]]; then
        log "  round $round $c $lib: TIMEOUT after ${RUN_TIMEOUT}s (see $raw.err)"
    else
        log "  round $round $c $lib: FAILED rc=$rc (see $raw.err)"
    fi
}

# Kills what is left of a peer's run that was ended: ranks whose launcher died without them (in a
# namespace, or after Hydra's proxies lost their mpiexec). Only processes running this script's own
# build of skiff-cg for library $1, by process id.
kill_leftovers() {
    local exe="${BIN[$1]}" p
    [[ "$exe" == "$RUN_DIR"/* ]] || return 0
    for p in /proc/[0-9]*; do
        if [[ "$(readlink "$p/exe" 2>/dev/null)" == "$exe" ]]; then kill -KILL "${p#/proc/}" 2>/dev/null || true; fi
    done
}

# All rounds of every case, libraries interleaved within each case.
run_rounds() {
    local r c lib
    for ((r = 1; r <= ROUNDS; r++)); do
        for c in $(cases); do
            for lib in "${READY[@]}"; do
                run_one "$c" "$lib" "$r"
            done
        done
    done
}

# ---- report --------------------------------------------------------------------

print_tables() {
    python3 - "$RUN_DIR" "${READY[*]}" "$NCORES" "$PROBLEM" "$(cases | tr '\n' ' ')" <<'EOF'
import sys, statistics
from collections import defaultdict
run_dir, libs, ncores, problem, cases = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), sys.argv[4], sys.argv[5].split()
peers = [l for l in libs if l != "skiff"]
vals = defaultdict(list)  # (case, lib, key) -> [value per round]
for line in open(f"{run_dir}/results.tsv"):
    c, lib, _, k, v = line.rstrip("\n").split("\t")
    vals[(c, lib, k)].append(float(v))
med = lambda c, l, k: statistics.median(vals[(c, l, k)]) if vals.get((c, l, k)) else None
names = {"skiff": "skiff", "mpich": "MPICH", "ompi": "Open MPI"}

def label(c):
    if c.startswith("tcp-"):
        np, rails = c[len("tcp-np"):].split("-")
        rails = rails[:-len("rail")]
        return f"np {np}, tcp {rails} rail{'s' if rails != '1' else ''}"
    np = int(c[2:])
    return f"np {np} {'pinned' if np <= ncores else 'oversub'}"

def part(c, l, k):
    m, s = med(c, l, k), med(c, l, "solve_mean")
    return f"{m * 1e3:.3g} ({100 * m / s:.0f}%)" if m is not None and s else "n/a"

txt, md, warn = [], [], []
txt.append(f"skiff-cg {problem}: solve = slowest rank's time [s], min/median over rounds; parts = median of the")
txt.append("mean over ranks [ms] (share of the mean solve time); ratio = skiff median solve / best peer's (<1: skiff faster)")
hdr = f"{'case':<20} {'library':<9} {'iters':>5} {'residual':>9} {'solve min/med':>15} {'spmv':>14} {'halo':>14} {'reductions':>14} {'updates':>14} {'GFLOP/s':>8}  skiff/best"
txt.append(hdr)
md.append("| case | library | iterations | residual | solve min / median (s) | SpMV ms (share) | halo ms | reductions ms | updates ms | GFLOP/s | skiff / best peer |")
md.append("|---|---|---|---|---|---|---|---|---|---|---|")
for c in cases:
    have = [l for l in libs if vals.get((c, l, "solve"))]
    ratio, bp = None, None
    hp = [p for p in peers if p in have]
    if "skiff" in have and hp:
        bp = min(hp, key=lambda p: med(c, p, "solve"))
        ratio = med(c, "skiff", "solve") / med(c, bp, "solve")
    its = {int(i) for l in have for i in vals[(c, l, "iters")]}
    if len(its) > 1:
        warn.append(f"WARNING {label(c)}: iterations differ: " + ", ".join(
            f"{l} {sorted({int(i) for i in vals[(c, l, 'iters')]})}" for l in have))
    for l in have:
        if min(vals.get((c, l, "converged"), [0])) < 1:
            warn.append(f"WARNING {label(c)}: {l} did not converge in every run")
    for l in libs:
        xs = vals.get((c, l, "solve"))
        if not xs:
            txt.append(f"{label(c):<20} {l:<9} {'n/a':>5}")
            md.append(f"| {label(c)} | {names[l]} | n/a | | | | | | | | |")
            continue
        it = "/".join(str(i) for i in sorted({int(i) for i in vals[(c, l, 'iters')]}))
        res = f"{med(c, l, 'resid'):.2e}"
        sol = f"{min(xs):.4g}/{statistics.median(xs):.4g}"
        gf = f"{med(c, l, 'gflops'):.2f}"
        rt = f"{ratio:.2f} ({bp})" if (l == "skiff" and ratio) else ""
        parts = [part(c, l, k) for k in ("spmv", "halo", "red", "upd")]
        txt.append(f"{label(c):<20} {l:<9} {it:>5} {res:>9} {sol:>15} " + " ".join(f"{p:>14}" for p in parts) + f" {gf:>8}  {rt}")
        rtm = f"**{ratio:.2f}** ({names[bp]})" if rt else ""
        md.append(f"| {label(c)} | {names[l]} | {it} | {res} | {min(xs):.4g} / {statistics.median(xs):.4g} | "
                  + " | ".join(parts) + f" | {gf} | {rtm} |")
for l in libs:
    h = sum(len(vals.get((c, l, "hung"), [])) for c in cases)
    if h:
        warn.append(f"{l}: {h} run(s) hung after the report (in MPI_Finalize) and were ended; their reports count")
# The fastest run's own split: on a shared machine the run least disturbed by other work.
rounds = defaultdict(dict)  # (case, lib) -> round -> {key: value}
for line in open(f"{run_dir}/results.tsv"):
    c, lib, r, k, v = line.rstrip("\n").split("\t")
    rounds[(c, lib)].setdefault(r, {})[k] = float(v)
btxt = ["fastest run of each: solve [s], parts = mean over ranks [ms] (share)",
        f"{'case':<20} {'library':<9} {'solve':>8} {'spmv':>14} {'halo':>14} {'reductions':>14} {'updates':>14} {'GFLOP/s':>8}"]
bmd = ["| case | library | fastest solve (s) | SpMV ms (share) | halo ms | reductions ms | updates ms | GFLOP/s |",
       "|---|---|---|---|---|---|---|---|"]
for c in cases:
    for l in libs:
        rs = [d for d in rounds.get((c, l), {}).values() if "solve" in d and "solve_mean" in d]
        if not rs:
            continue
        d = min(rs, key=lambda d: d["solve"])
        parts = [f"{d[k] * 1e3:.3g} ({100 * d[k] / d['solve_mean']:.0f}%)" if k in d else "n/a"
                 for k in ("spmv", "halo", "red", "upd")]
        btxt.append(f"{label(c):<20} {l:<9} {d['solve']:>8.4g} " + " ".join(f"{p:>14}" for p in parts)
                    + f" {d.get('gflops', 0):>8.2f}")
        bmd.append(f"| {label(c)} | {names[l]} | {d['solve']:.4g} | " + " | ".join(parts) + f" | {d.get('gflops', 0):.2f} |")
txt += [""] + btxt
md += [""] + bmd
runs = {l: sum(len(vals.get((c, l, "solve"), [])) for c in cases) for l in libs}
txt.append("runs with results: " + ", ".join(f"{l} {runs[l]}" for l in libs))
txt += warn
print("\n".join(txt))
open(f"{run_dir}/table.md", "w").write("\n".join(md + [""] + warn) + "\n")
EOF
}

record_env() {
    local lib c
    {
        echo "date: $(date -Is)"
        echo "host: $(uname -a)"
        echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "cpus: $(nproc) ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p'))"
        echo "command: bench/cg-compare.sh ${ARGS[*]}"
        echo "rounds: $ROUNDS, libs: $LIBS, nps: $NPS, problem: $PROBLEM${CLUSTER:+, cluster: 2 hosts, 2 x $RATE Mbit/s}"
        echo "skiff: $SKIFF_BUILD ($(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo no-commit))"
        echo "mpich: $(mpichversion 2>/dev/null | head -1 | tr -s ' \t' ' ') env: $MPICH_ENV"
        echo "ompi: $(mpiexec.openmpi --version 2>/dev/null | head -1) args: $OMPI_MCA"
        echo "peers built with: $CFLAGS_CG apps/cg/*.c -lm"
        if [[ -z "$CLUSTER" ]]; then
            for c in $(cases); do
                for lib in "${READY[@]}"; do
                    echo "launch $c $lib: $(launcher_for_case "$c" "$lib" | tr '\n' ' ')"
                done
            done
        fi
    } >>"$RUN_DIR/env.txt"
}

# ---- main ----------------------------------------------------------------------

declare -A BIN=()
READY=()

# Inside the cluster (cluster.sh runs this script again with CG_INNER_DIR and HOSTS set): the rounds.
inner() {
    local lib c
    RUN_DIR="$CG_INNER_DIR"
    for lib in $LIBS; do
        if [[ -s "$RUN_DIR/bin-$lib" ]]; then
            BIN[$lib]="$(cat "$RUN_DIR/bin-$lib")"
            READY+=("$lib")
        fi
    done
    for c in $(cases); do
        for lib in "${READY[@]}"; do
            echo "launch $c $lib: $(launcher_for_case "$c" "$lib" | tr '\n' ' ')"
        done
    done >>"$RUN_DIR/env.txt"
    run_rounds
}

main() {
    parse_args "$@"
    if [[ -n "${CG_INNER_DIR:-}" ]]; then
        inner
        return
    fi
    local lib rc=0 h
    RUN_DIR="${RUN_DIR:-${OUT:-/tmp/skiff-cg-compare}/$(date +%Y%m%d-%H%M%S)}"
    mkdir -p "$RUN_DIR/build" "$RUN_DIR/raw"
    if [[ -z "${RUN_DIR##"${OUT:-/tmp/skiff-cg-compare}"/*}" ]]; then
        ln -sfn "$RUN_DIR" "${OUT:-/tmp/skiff-cg-compare}/latest"
    fi
    : >"$RUN_DIR/results.tsv"
    : >"$RUN_DIR/env.txt"
    log "results -> $RUN_DIR (skiff-cg $PROBLEM)"
    for lib in $LIBS; do
        if BIN[$lib]="$(binary_for "$lib")"; then
            READY+=("$lib")
            echo "${BIN[$lib]}" >"$RUN_DIR/bin-$lib"
        else
            log "  $lib: not built, reported as n/a ($(head -c 200 "$RUN_DIR/build-$lib.log"))"
        fi
    done
    [[ ${#READY[@]} -gt 0 ]] || die "no library to run"
    record_env

    if [[ -n "$CLUSTER" ]]; then
        CG_INNER_DIR="$RUN_DIR" bash "$REPO_DIR/tests/cluster/cluster.sh" -r "${RATE}mbit" "$CLUSTER_NAME" \
            bash "$0" "${ARGS[@]}" || rc=$?
        for h in 0 1; do
            rmdir "/dev/shm/netns-$CLUSTER_NAME-h$h" 2>/dev/null || true
            rm -rf "/tmp/netns-$CLUSTER_NAME-h$h"
        done
        if [[ $rc -eq 77 ]]; then
            log "cg-compare.sh: -c skipped: the emulated cluster needs root and network namespaces"
            exit 77
        fi
        [[ $rc -eq 0 ]] || die "the emulated cluster failed (exit $rc)"
    else
        run_rounds
    fi

    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RUN_DIR/env.txt"
    print_tables | tee "$RUN_DIR/table.txt"
    grep -q $'\tsolve\t' "$RUN_DIR/results.tsv"
}

main "$@"
