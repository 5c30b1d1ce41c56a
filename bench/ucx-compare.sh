#!/usr/bin/env bash
# bench/ucx-compare.sh — the ucx transport beside skiff's own tcp and beside MPICH and Open MPI over the
# same library and wire: bench/pt2pt.c, two ranks of this host, UCX_TLS=tcp (loopback) for all three
# UCX users. MPICH 4 (ch4:ucx) takes its netmod for ranks of one node with MPIR_CVAR_NOLOCAL=1; Open MPI
# runs pml ucx (pml_ucx_tls/devices any: by default it declines without InfiniBand). Runs are interleaved ROUNDS times; prints the median per case.
# -b DIR adds skiff's ucx from another build (base-ucx), for a before/after comparison in the same run.
#
# Usage: bench/ucx-compare.sh [-n ROUNDS] [-t UCX_TLS] [-b BUILD]     Environment: SKIFF_BUILD (default <repo>/build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
rounds=5
tls=tcp
base=
while getopts n:t:b: o; do
    case $o in
    n) rounds=$OPTARG ;;
    t) tls=$OPTARG ;;
    b) base=$OPTARG ;;
    *) sed -n '2,9p' "$0"; exit 2 ;;
    esac
done
build=${SKIFF_BUILD:-$repo/build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-ucxcmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mpicc.mpich -O2 -std=c11 -o "$tmp/pt2pt.mpich" "$here/pt2pt.c"
mpicc.openmpi -O2 -std=c11 -o "$tmp/pt2pt.ompi" "$here/pt2pt.c"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

run() { # case name -> pt2pt output on stdout
    case $1 in
    skiff-tcp) SKIFF_TRANSPORTS=tcp "$build/bin/mpiexec" -n 2 --bind-to core "$build/bin/skiff-bench-pt2pt" ;;
    skiff-ucx) SKIFF_TRANSPORTS=ucx UCX_TLS=$tls "$build/bin/mpiexec" -n 2 --bind-to core "$build/bin/skiff-bench-pt2pt" ;;
    base-ucx) SKIFF_TRANSPORTS=ucx UCX_TLS=$tls "$base/bin/mpiexec" -n 2 --bind-to core "$base/bin/skiff-bench-pt2pt" ;;
    mpich-ucx) UCX_TLS=$tls MPIR_CVAR_NOLOCAL=1 mpiexec.mpich -n 2 -bind-to core "$tmp/pt2pt.mpich" ;;
    ompi-ucx) UCX_TLS=$tls mpiexec.openmpi --allow-run-as-root -n 2 --bind-to core --map-by core \
        --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any --mca osc ucx --mca btl self "$tmp/pt2pt.ompi" ;;
    esac
}
cases="skiff-tcp skiff-ucx${base:+ base-ucx} mpich-ucx ompi-ucx"
for r in $(seq "$rounds"); do
    for c in $cases; do
        run "$c" >"$tmp/$c.$r" 2>"$tmp/$c.$r.err" || { echo "$c failed:"; cat "$tmp/$c.$r.err"; exit 1; }
    done
done
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
printf '%-10s %12s %12s %12s %12s\n' case "lat 8 (us)" "bw 64K GB/s" "bw 1M GB/s" "bw 16M GB/s"
for c in $cases; do
    row=$(for k in "lat 8" "bw 65536" "bw 1048576" "bw 16777216"; do
        cat "$tmp/$c".[0-9]* | awk -v k="$k" '$1" "$2 == k {print $3}' | median
    done | tr '\n' ' ')
    printf '%-10s %12s %12s %12s %12s\n' "$c" $row
done
echo "(UCX_TLS=$tls, $rounds rounds interleaved, median; load average: $(cut -d' ' -f1-3 /proc/loadavg))"
