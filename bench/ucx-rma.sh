#!/usr/bin/env bash
# bench/ucx-rma.sh — one-sided over UCX: skiff-pipe's --put and --get, with fences and with lock_all +
# flush (--nofence), two ranks of this host on different nodes for every library, over UCX_TLS (default
# tcp, loopback). Cases: skiff with windows on UCX's RMA (skiff-rdma: SKIFF_TRANSPORTS=ucx and a node per
# rank, SKIFF_NODE_SIZE=1, so Win_allocate memory is registered with UCX), skiff with the same windows
# on its message path (skiff-msg: SKIFF_UCX_RDMA=0), MPICH 4 ch4:ucx (MPIR_CVAR_NOLOCAL=1: its netmod's
# RMA for ranks of one host) and Open MPI (osc ucx, pml ucx); with -H also skiff between two made-up
# hosts (skiff-2h-rdma, skiff-2h-msg: SKIFF_TRANSPORTS=shm,ucx, --hosts ucxa:1,ucxb:1). Runs are
# interleaved ROUNDS times; prints per row the median over rounds of each run's mean time at 8 B (µs)
# and mean throughput at 64 KiB and 4 MiB (Gbit/s), and the load average.
#
# -c "CASES" runs only those cases. A run that fails or outlasts RUN_TIMEOUT (default 120 s) is reported
# and left out (Open MPI's osc ucx spins forever in put + flush over UCX's shared-memory wires here).
#
# Usage: bench/ucx-rma.sh [-n ROUNDS] [-t UCX_TLS] [-H] [-q] [-c CASES]    Environment: SKIFF_BUILD (default <repo>/build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
rounds=5
tls=tcp
hosts=
quick=
only=
while getopts n:t:Hqc: o; do
    case $o in
    n) rounds=$OPTARG ;;
    t) tls=$OPTARG ;;
    H) hosts=1 ;;
    q) quick=--quick ;;
    c) only=$OPTARG ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
    esac
done
build=${SKIFF_BUILD:-$repo/build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-ucxrma.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for lib in mpich openmpi; do
    "mpicc.$lib" -std=c11 -O2 -I"$repo/tools/lib" "$repo"/tools/skiff_pipe*.c "$repo"/tools/lib/*.c -o "$tmp/pipe.$lib"
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

run() { # case, then skiff-pipe's arguments
    local c=$1
    shift
    case $c in
    skiff-rdma) SKIFF_TRANSPORTS=ucx SKIFF_NODE_SIZE=1 UCX_TLS=$tls "$build/bin/mpiexec" -n 2 --bind-to core "$build/bin/skiff-pipe" "$@" ;;
    skiff-msg) SKIFF_UCX_RDMA=0 SKIFF_TRANSPORTS=ucx SKIFF_NODE_SIZE=1 UCX_TLS=$tls "$build/bin/mpiexec" -n 2 --bind-to core \
        "$build/bin/skiff-pipe" "$@" ;;
    skiff-2h-rdma) SKIFF_TRANSPORTS=shm,ucx UCX_TLS=$tls "$build/bin/mpiexec" --hosts ucxa:1,ucxb:1 --launcher local -n 2 \
        --bind-to core "$build/bin/skiff-pipe" "$@" ;;
    skiff-2h-msg) SKIFF_UCX_RDMA=0 SKIFF_TRANSPORTS=shm,ucx UCX_TLS=$tls "$build/bin/mpiexec" --hosts ucxa:1,ucxb:1 \
        --launcher local -n 2 --bind-to core "$build/bin/skiff-pipe" "$@" ;;
    mpich-ucx) UCX_TLS=$tls MPIR_CVAR_NOLOCAL=1 mpiexec.mpich -n 2 -bind-to core "$tmp/pipe.mpich" "$@" ;;
    ompi-ucx) UCX_TLS=$tls mpiexec.openmpi --allow-run-as-root -n 2 --bind-to core --map-by core \
        --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any --mca osc ucx --mca btl self "$tmp/pipe.openmpi" "$@" ;;
    esac
}
cases=${only:-"skiff-rdma skiff-msg${hosts:+ skiff-2h-rdma skiff-2h-msg} mpich-ucx ompi-ucx"}
modes="put-fence:--put put-flush:--put,--nofence get-fence:--get get-flush:--get,--nofence"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq "$rounds"); do
    for m in $modes; do
        args=${m#*:}
        for c in $cases; do
            # shellcheck disable=SC2086  # the mode's arguments, one per word
            timeout --kill-after=5 "${RUN_TIMEOUT:-120}" bash -c "$(declare -f run); tmp=$tmp build=$build tls=$tls; \
                run $c ${args//,/ } $quick --start 8 --end 4m --pert 0 -o $tmp/$c.${m%%:*}.$r" >/dev/null 2>"$tmp/err" ||
                { echo "$c ${m%%:*} round $r failed or timed out (left out):"; tail -3 "$tmp/err"; rm -f "$tmp/$c.${m%%:*}.$r"; }
        done
    done
done
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
printf '%-14s %-10s %12s %14s %14s\n' case mode "8 B (us)" "64 KiB Gbit/s" "4 MiB Gbit/s"
for m in $modes; do
    for c in $cases; do
        t8=$(cat "$tmp/$c.${m%%:*}".* 2>/dev/null | awk '$1 == 8 {print $5}' | median)
        b64=$(cat "$tmp/$c.${m%%:*}".* 2>/dev/null | awk '$1 == 65536 {print $2}' | median)
        b4m=$(cat "$tmp/$c.${m%%:*}".* 2>/dev/null | awk '$1 == 4194304 {print $2}' | median)
        printf '%-14s %-10s %12.2f %14.3f %14.3f\n' "$c" "${m%%:*}" "$t8" "$b64" "$b4m"
    done
done
echo "(UCX_TLS=$tls, $rounds rounds interleaved, median of each run's mean; load average before: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg))"
