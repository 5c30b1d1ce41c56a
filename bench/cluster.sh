#!/usr/bin/env bash
# bench/cluster.sh — skiff's tcp transport on an emulated two-host cluster: two network namespaces
# joined by two networks (198.18.1.0/24 and 198.18.2.0/24), every port shaped to RATE by tc tbf
# (tests/cluster/cluster.sh builds it; needs root). One rank per host, bench/pt2pt.c between them:
#   - one rail   (SKIFF_TCP_NETS=198.18.1.0/24)
#   - two rails  (SKIFF_TCP_NETS=198.18.1.0/24,198.18.2.0/24: large messages striped)
#   - raw TCP latency on the same link from NetPIPE's NPtcp (Debian package netpipe-tcp)
# Runs are interleaved ROUNDS times; the summary gives min and median per case, the ratio two/one
# rails for 16 MiB streaming, that bandwidth as a share of the aggregate line rate (payload bytes
# over 2 x RATE), and skiff's 8-byte latency over one rail against NPtcp's.
#
# Usage: bench/cluster.sh [-r RATE_MBIT] [-n ROUNDS] [-q]
#   -r  link rate in Mbit/s (default 400)      -n  rounds (default 3)      -q  --quick runs
# Environment: SKIFF_BUILD (default <repo>/build), OUT (default /tmp/skiff-cluster)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
rate=400
rounds=3
quick=""
while getopts r:n:q o; do
    case $o in
    r) rate=$OPTARG ;;
    n) rounds=$OPTARG ;;
    q) quick=--quick ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
    esac
done
build=${SKIFF_BUILD:-$repo/build}
out=${OUT:-/tmp/skiff-cluster}/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
command -v NPtcp >/dev/null || { echo "bench/cluster.sh: NPtcp missing (apt-get install netpipe-tcp)" >&2; exit 1; }

# Runs inside the cluster (HOSTS set by cluster.sh).
inner() {
    local h0=${HOSTS%%,*} h1=${HOSTS##*,}
    for r in $(seq 1 "$rounds"); do
        for rails in 1 2; do
            local nets=198.18.1.0/24
            [ "$rails" = 2 ] && nets=198.18.1.0/24,198.18.2.0/24
            "$build/bin/mpiexec" --hosts "$HOSTS" --launcher-template 'ip netns exec {host}' -n 2 --timeout 600 \
                -x SKIFF_TCP_NETS="$nets" "$build/bin/skiff-bench-pt2pt" $quick >"$out/skiff-$rails-rail.$r"
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
export -f inner
export build out rounds quick
bash "$repo/tests/cluster/cluster.sh" -r "${rate}mbit" skb bash -c inner

python3 - "$out" "$rate" "$rounds" <<'PY'
import sys, statistics, glob
out, rate, rounds = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
def rows(path):
    d = {}
    for line in open(path):
        k, size, v = line.split()
        d[(k, int(size))] = float(v)
    return d
def stat(xs):
    return f"{min(xs):.3f} / {statistics.median(xs):.3f}"
one = [rows(f"{out}/skiff-1-rail.{r}") for r in range(1, rounds + 1)]
two = [rows(f"{out}/skiff-2-rail.{r}") for r in range(1, rounds + 1)]
np_lat = []
for r in range(1, rounds + 1):
    for line in open(f"{out}/nptcp.{r}"):
        f = line.split()
        if int(float(f[0])) == 8:
            np_lat.append(float(f[2]) * 1e6)  # NPtcp writes seconds
print(f"links: 2 x {rate:.0f} Mbit/s (tc tbf), results in {out}")
print("case                         min / median")
for key in sorted(one[0]):
    print(f"{key[0]} {key[1]:>9}  1 rail: {stat([d[key] for d in one]):>18}   2 rails: {stat([d[key] for d in two]):>18}")
bw1 = statistics.median(d[('bw', 16 << 20)] for d in one)
bw2 = statistics.median(d[('bw', 16 << 20)] for d in two)
line = 2 * rate * 1e6 / 8 / 1e9
print(f"16 MiB streaming: two rails / one rail = {bw2 / bw1:.2f}; two rails = {100 * bw2 / line:.1f}% of the aggregate line rate ({line:.3f} GB/s)")
if np_lat:
    lat = statistics.median(d[('lat', 8)] for d in one)
    print(f"8 B latency, one rail: skiff {lat:.1f} us, NPtcp {statistics.median(np_lat):.1f} us (ratio {lat / statistics.median(np_lat):.3f})")
PY
