#!/usr/bin/env bash
# bench/cluster.sh — skiff's tcp transport on an emulated two-host cluster: two network namespaces
# joined by two networks (198.18.1.0/24 and 198.18.2.0/24), every port shaped to RATE by tc tbf
# (tests/cluster/cluster.sh builds it; needs root). One rank per host, bench/pt2pt.c between them:
#   - one rail   (SKIFF_TCP_NETS=198.18.1.0/24)
#   - two rails  (SKIFF_TCP_NETS=198.18.1.0/24,198.18.2.0/24: large messages striped)
#   - raw TCP latency on the same link from NetPIPE's NPtcp (Debian package netpipe-tcp)
#   - the same benchmark built with MPICH (Hydra + UCX over tcp, UCX_NET_DEVICES=eth1 or eth1,eth2)
#     and Open MPI (mpirun + ob1/tcp BTL, btl_tcp_if_include one or both networks), whose launchers
#     reach the namespaces through bench/netns-ssh
# Runs are interleaved ROUNDS times; the summary gives min and median per case, the ratio two/one
# rails for 16 MiB streaming, that bandwidth as a share of the aggregate line rate (payload bytes
# over 2 x RATE), and skiff's 8-byte latency over one rail against NPtcp's.
#
# Usage: bench/cluster.sh [-r RATE_MBIT] [-n ROUNDS] [-q] [-l LIBS]
#   -r  link rate in Mbit/s (default 400)   -n  rounds (default 3)   -q  --quick runs
#   -l  comma list from skiff,mpich,ompi (default all three)
# Environment: SKIFF_BUILD (default <repo>/build), OUT (default /tmp/skiff-cluster)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
rate=400
rounds=3
quick=""
libs=skiff,mpich,ompi
while getopts r:n:ql: o; do
    case $o in
    r) rate=$OPTARG ;;
    n) rounds=$OPTARG ;;
    q) quick=--quick ;;
    l) libs=$OPTARG ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
    esac
done
build=${SKIFF_BUILD:-$repo/build}
out=${OUT:-/tmp/skiff-cluster}/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
command -v NPtcp >/dev/null || { echo "bench/cluster.sh: NPtcp missing (apt-get install netpipe-tcp)" >&2; exit 1; }

# One run of the benchmark between the two hosts: LIB with RAILS networks, output to $3.
run_one() {
    local lib=$1 rails=$2 dest=$3 h0=${HOSTS%%,*} h1=${HOSTS##*,}
    local nets=198.18.1.0/24 devs=eth1
    [ "$rails" = 2 ] && nets=198.18.1.0/24,198.18.2.0/24 && devs=eth1,eth2
    case $lib in
    skiff)
        "$build/bin/mpiexec" --hosts "$HOSTS" --launcher-template 'ip netns exec {host}' -n 2 --timeout 900 \
            -x SKIFF_TCP_NETS="$nets" "$build/bin/skiff-bench-pt2pt" $quick >"$dest" ;;
    mpich)
        timeout 900 ip netns exec "$h0" mpiexec.mpich -hosts "$HOSTS" -n 2 -launcher ssh \
            -launcher-exec "$here/netns-ssh" -iface eth1 -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES "$devs" \
            "$out/pt2pt.mpich" $quick >"$dest" ;;
    ompi)
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 900 ip netns exec "$h0" \
            mpirun.openmpi --host "$HOSTS" -np 2 --mca plm_rsh_agent "$here/netns-ssh" --mca pml ob1 \
            --mca btl self,tcp --mca btl_tcp_if_include "$nets" --mca oob_tcp_if_include 198.18.1.0/24 \
            "$out/pt2pt.ompi" $quick 2>/dev/null >"$dest" ;;
    esac
}

# Runs inside the cluster (HOSTS set by cluster.sh).
inner() {
    local h0=${HOSTS%%,*} h1=${HOSTS##*,}
    for r in $(seq 1 "$rounds"); do
        for lib in ${libs//,/ }; do
            for rails in 1 2; do
                run_one "$lib" "$rails" "$out/$lib-$rails-rail.$r" || echo "$lib $rails rail(s) failed" >&2
            done
        done
        # Both ends need the same options; a fixed repeat count (NPtcp's own calibration stalled on the shaped link).
        ip netns exec "$h1" NPtcp -l 1 -u 64 -p 0 -n 5000 >/dev/null 2>&1 &
        local srv=$!
        sleep 0.5
        ip netns exec "$h0" NPtcp -h 198.18.1.2 -l 1 -u 64 -p 0 -n 5000 -o "$out/nptcp.$r" >/dev/null 2>&1 || true
        wait "$srv" || true
        echo "round $r done" >&2
    done
}
case ,$libs, in *,mpich,*) mpicc.mpich -O2 "$here/pt2pt.c" -o "$out/pt2pt.mpich" ;; esac
case ,$libs, in *,ompi,*) mpicc.openmpi -O2 "$here/pt2pt.c" -o "$out/pt2pt.ompi" ;; esac
export -f inner run_one
export build out rounds quick libs here
bash "$repo/tests/cluster/cluster.sh" -r "${rate}mbit" skb bash -c inner

python3 - "$out" "$rate" "$rounds" "$libs" <<'PY'
import sys, statistics, os
out, rate, rounds, libs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(",")
def rows(path):
    d = {}
    if not os.path.exists(path):
        return d
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0] in ("lat", "bw"):
            d[(f[0], int(f[1]))] = float(f[2])
    return d
def runs(lib, rails):
    return [d for d in (rows(f"{out}/{lib}-{rails}-rail.{r}") for r in range(1, rounds + 1)) if d]
def stat(ds, key):
    xs = [d[key] for d in ds if key in d]
    return f"{min(xs):.3f} / {statistics.median(xs):.3f}" if xs else "-"
def med(ds, key):
    xs = [d[key] for d in ds if key in d]
    return statistics.median(xs) if xs else float("nan")
print(f"links: 2 x {rate:.0f} Mbit/s (tc tbf); min / median of {rounds} runs; lat in us, bw in GB/s; results in {out}")
keys = [("lat", 8), ("lat", 1024), ("bw", 65536), ("bw", 1 << 20), ("bw", 16 << 20)]
print("| library | rails | " + " | ".join(f"{k} {s}" for k, s in keys) + " |")
print("|---|---|" + "---|" * len(keys))
line = 2 * rate * 1e6 / 8 / 1e9
for lib in libs:
    for rails in (1, 2):
        ds = runs(lib, rails)
        print(f"| {lib} | {rails} | " + " | ".join(stat(ds, k) for k in keys) + " |")
for lib in libs:
    b1, b2 = med(runs(lib, 1), ("bw", 16 << 20)), med(runs(lib, 2), ("bw", 16 << 20))
    print(f"{lib}: 16 MiB streaming, two rails / one rail = {b2 / b1:.2f}; two rails = {100 * b2 / line:.1f}% of the aggregate line rate ({line:.3f} GB/s)")
np_lat = []
for r in range(1, rounds + 1):
    p = f"{out}/nptcp.{r}"
    for l in open(p) if os.path.exists(p) else []:
        f = l.split()
        if int(float(f[0])) == 8:
            np_lat.append(float(f[2]) * 1e6)  # NPtcp writes seconds
if np_lat and "skiff" in libs:
    lat = med(runs("skiff", 1), ("lat", 8))
    print(f"8 B latency, one rail: skiff {lat:.1f} us, NPtcp {statistics.median(np_lat):.1f} us (ratio {lat / statistics.median(np_lat):.2f})")
PY
