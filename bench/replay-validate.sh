#!/usr/bin/env bash
# bench/replay-validate.sh — skiff-replay's validation (docs/trace.md, "Validation"): are its predictions
# for another network right?
#   1. On this host, record traces (SKIFF_TRACE=1) of skiff-cg and of tests/trace/coll_mix at 2 ranks,
#      with SKIFF_NODE_SIZE=1 so that each rank is a node of its own, as on the cluster (skiff then takes
#      the collective algorithms it takes between hosts, and the trace's node map is the cluster's).
#   2. For each link rate: build the emulated two-host cluster (tests/cluster/cluster.sh, tc tbf on every
#      port), measure the pair's LogGP parameters across the hosts with skiff-fan, predict each trace with
#      skiff-replay --params, then run each program there, traced, and take its recorded run time (from the
#      end of MPI_Init to the start of MPI_Finalize, the span the prediction covers).
# Each recording and each cluster run is repeated RUNS times; the table gives the medians and the minima
# (the least disturbed run, on a shared machine), every value, and self_pred: each cluster run's own trace
# replayed with the same parameters (the model's error alone, without the move from one machine to another).
# Needs root (network namespaces). netem is not available on this kernel, so links differ in rate only.
#
# The rates are low enough for the network to dominate each run: on a 2-core machine shared with other
# jobs, CPU contention would otherwise decide the measured time. skiff-fan runs 3 times per rate; the
# parameters used are the least disturbed (minimum) rtt, o_s, o_r and g of the three and the median G,
# with L and o derived from them (each run's own are in fan.<k>.out).
#
# With -p 2, 2 ranks per host (4 in all; recorded with SKIFF_NODE_SIZE=2): pairs within a host use shared
# memory, whose parameters skiff-fan measures with both ranks on one emulated host (fan-intra.out).
#
# Usage: bench/replay-validate.sh [-r RATES] [-n RUNS] [-b BURST] [-p PPN]   (default -r 10mbit,50mbit -n 3 -b 4kb -p 1)
# Environment: SKIFF_BUILD (default <repo>/build), OUT (default /tmp/skiff-replay-validate), SKIFF_SPIN (passed
# to every run when set: SKIFF_SPIN=0 keeps waiting ranks from taking the CPUs the emulated hosts' kernel
# needs to move their packets, which on 2 vCPUs made skiff-cg 5x slower at 10 Mbit/s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${SKIFF_BUILD:-$repo/build}
bin=$build/bin
rates=10mbit,50mbit
runs=3
burst=4kb
ppn=1
if [ "${1:-}" = --inner ]; then
    inner=1
    shift
else
    inner=0
fi
while getopts r:n:b:p: o; do
    case $o in
    p) ppn=$OPTARG ;;
    r) rates=$OPTARG ;;
    n) runs=$OPTARG ;;
    b) burst=$OPTARG ;;
    *) sed -n '2,17p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
out=${OUT:-/tmp/skiff-replay-validate}
coll_mix=$build/tests/trace/coll_mix
# cg: latency-bound (8-byte allreduces, 3200-byte halos); coll_mix: collectives of 8 B to 64 KiB;
# coll_big: the same with 4 x larger messages (bandwidth-bound on these links).
progs=("cg|$bin/skiff-cg --gen poisson2d --size 200" "coll_mix|$coll_mix 40 20" "coll_big|$coll_mix 10 20 4")

# The recorded run time of a trace: max over ranks of the header's wall_ns, in seconds.
wall_of() {
    python3 - "$1" <<'EOF'
import glob, struct, sys
w = 0
for f in glob.glob(sys.argv[1] + ".[0-9]*"):
    d = open(f, "rb").read(152)
    if d[:8] == b"SKTRACE1":
        w = max(w, struct.unpack_from("<7Q", d, 32)[3])
print("%.6f" % (w / 1e9))
EOF
}

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
least() { tr ' ' '\n' | grep . | sort -g | head -1; }

if [ "$inner" = 1 ]; then
    # Inside the cluster shaped to $rate (HOSTS set by cluster.sh).
    rate=$1
    dir=$out/$rate
    mkdir -p "$dir"
    # cluster.sh's token buckets let 256 KB through at the veth's own speed after every pause, so short
    # exchanges would never see the rate: a bucket of $burst makes every message pay for its bytes.
    for h in ${HOSTS//,/ }; do
        ip netns exec "$h" tc qdisc replace dev eth1 root tbf rate "$rate" burst "$burst" latency 50ms
        tc qdisc replace dev "skrv-${h##*-h}-1" root tbf rate "$rate" burst "$burst" latency 50ms
    done
    run=("$bin/mpiexec" --hosts "$HOSTS" --launcher-template 'ip netns exec {host}' --timeout 600)
    [ -z "${SKIFF_SPIN:-}" ] || run+=(-x SKIFF_SPIN="$SKIFF_SPIN")
    if [ "$ppn" -gt 1 ]; then
        intra=("$bin/mpiexec" --hosts "${HOSTS%%,*}:2" --launcher-template 'ip netns exec {host}' -n 2 --timeout 600)
        [ -z "${SKIFF_SPIN:-}" ] || intra+=(-x SKIFF_SPIN="$SKIFF_SPIN")
        "${intra[@]}" "$bin/skiff-fan" --quick -q -o "$dir/fan-intra.out"
    fi
    for k in 1 2 3; do
        "${run[@]}" -ppn 1 -n 2 "$bin/skiff-fan" --quick -q -o "$dir/fan.$k.out"
    done
    python3 - "$dir" <<'EOF'
import statistics, sys
d = sys.argv[1]
vals = {}
for k in (1, 2, 3):
    for line in open("%s/fan.%d.out" % (d, k)):
        f = line.split()
        if len(f) >= 4 and f[0] == "#" and f[1] in ("L", "o", "g", "G", "rtt", "o_s", "o_r"):
            vals.setdefault(f[1], []).append((float(f[2]), f[3]))
# On a shared machine a sample is disturbed more often than not: the times of single calls (rtt, o_s,
# o_r) and the gap take the least disturbed run's value (the minimum), G (a slope) the median; L and o
# follow from them as skiff-fan computes them.
best = {k: (min(x for x, _ in v) if k in ("rtt", "o_s", "o_r", "g") else statistics.median(x for x, _ in v))
        for k, v in vals.items()}
best["o"] = (best["o_s"] + best["o_r"]) / 2
best["L"] = max(0.0, best["rtt"] / 2 - best["o_s"] - best["o_r"])
with open("%s/fan.out" % d, "w") as out:
    for name, v in vals.items():
        out.write("# %s %.4f %s (of 3 skiff-fan runs: %s)\n" % (name, best[name], v[0][1],
                                                              " ".join("%.4f" % x for x, _ in v)))
EOF
    for p in "${progs[@]}"; do
        name=${p%%|*}
        cmd=${p#*|}
        for i in $(seq 1 "$runs"); do
            # shellcheck disable=SC2086
            "${run[@]}" -ppn "$ppn" -n $((2 * ppn)) -x SKIFF_TRACE=1 -x SKIFF_TRACE_FILE="$dir/$name.run$i" $cmd >"$dir/$name.run$i.out" 2>&1
        done
    done
    exit 0
fi

[ "$(id -u)" = 0 ] || { echo "bench/replay-validate.sh: needs root (network namespaces)" >&2; exit 77; }
[ -x "$coll_mix" ] || { echo "bench/replay-validate.sh: $coll_mix missing (build the tests)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/local"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for p in "${progs[@]}"; do
    name=${p%%|*}
    cmd=${p#*|}
    for i in $(seq 1 "$runs"); do
        # shellcheck disable=SC2086
        SKIFF_NODE_SIZE=$ppn SKIFF_TRACE=1 SKIFF_TRACE_FILE="$out/local/$name.rec$i" "$bin/mpiexec" -n $((2 * ppn)) $cmd \
            >"$out/local/$name.rec$i.out" 2>&1
    done
done
for rate in ${rates//,/ }; do
    "$repo/tests/cluster/cluster.sh" -r "$rate" -l 1 skrv "$0" --inner -n "$runs" -b "$burst" -p "$ppn" "$rate" >/dev/null ||
        { echo "cluster run at $rate failed" >&2; exit 1; }
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

printf "%-9s %-7s %11s %11s %8s %11s %11s %8s %11s %8s\n" program link pred_median meas_median error \
    pred_min meas_min error self_pred error
for rate in ${rates//,/ }; do
    dir=$out/$rate
    params=(--params "$dir/fan.out")
    [ "$ppn" -le 1 ] || params+=(--params "intra=$dir/fan-intra.out")
    for p in "${progs[@]}"; do
        name=${p%%|*}
        pred="" meas="" self=""
        for i in $(seq 1 "$runs"); do
            pred+=" $("$bin/skiff-replay" "$out/local/$name.rec$i" "${params[@]}" -q |
                awk '/^predicted/ {print $2}')"
            meas+=" $(wall_of "$dir/$name.run$i")"
            # The cluster run's own trace replayed: the model's error without the move between machines.
            self+=" $("$bin/skiff-replay" "$dir/$name.run$i" "${params[@]}" -q | awk '/^predicted/ {print $2}')"
        done
        pm=$(echo "$pred" | median)
        mm=$(echo "$meas" | median)
        pl=$(echo "$pred" | least)
        ml=$(echo "$meas" | least)
        sm=$(echo "$self" | median)
        printf "%-9s %-7s %11.4f %11.4f %+7.1f%% %11.4f %11.4f %+7.1f%% %11.4f %+7.1f%%\n" "$name" "$rate" "$pm" "$mm" \
            "$(echo "$pm $mm" | awk '{print 100 * ($1 - $2) / $2}')" "$pl" "$ml" \
            "$(echo "$pl $ml" | awk '{print 100 * ($1 - $2) / $2}')" "$sm" \
            "$(echo "$sm $mm" | awk '{print 100 * ($1 - $2) / $2}')"
        echo "    predicted:$pred    measured:$meas    self:$self"
    done
    grep -E '^# (L|o|g|G) ' "$dir/fan.out" | tr '\n' ' ' | sed "s/^/  $rate skiff-fan: /"
    echo
done
echo "traces, skiff-fan files and outputs in $out"
