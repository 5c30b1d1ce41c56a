#!/usr/bin/env bash
# bench/rma-compare.sh — issue 17's one-sided table in one command: skiff-pipe's one-sided modes over
# skiff, MPICH and Open MPI through bench/pipe-compare.sh (the same source built with each mpicc, two
# ranks pinned to cores 0 and 1, each library's shared-memory settings), then one Markdown table of
# min/median over the rounds. See docs/skiff-pipe.md ("One-sided") and docs/performance.md.
#
# Usage: bench/rma-compare.sh [-q] [-r ROUNDS] [-o DIR] [-c [-R RATE]]
#   -q         quick runs (skiff-pipe --quick: ~0.01 s per size instead of ~0.1 s): a smoke test
#   -c         on the emulated cluster instead (tests/cluster/cluster.sh, root): one rank on each of two
#              network namespaces joined by one network shaped to RATE Mbit/s (-R, default 400), so
#              every operation crosses tcp; the launchers are bench/cg-compare.sh's (skiff's mpiexec
#              --hosts, MPICH's Hydra and Open MPI's mpirun through bench/netns-ssh, both over tcp);
#              no --cacheline there (the ranks share no memory)
#   -r ROUNDS  rounds per mode, each running the three libraries in turn (default 5)
#   -o DIR     output directory (default /tmp/skiff-rma-compare/<timestamp>); one pipe-compare.sh
#              directory per mode under it, and table.md
# Rows: put and get with fences and with lock_all + flush (--nofence): the time at 8 B, the throughput
# at 64 KiB and 4 MiB; fetch_and_op and compare_and_swap round trips; the cache-line ping-pong floor
# (--cacheline). The sweep runs 8 B .. 4 MiB without perturbation (pipe-compare.sh's SIZES picks the
# three sizes out of the data files). SKIFF_BUILD, RUN_TIMEOUT, MPICH_ENV and OMPI_MCA go through to
# pipe-compare.sh.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly BENCH_DIR
readonly LIBS="skiff mpich ompi"

QUICK=()
ROUNDS=5
OUT_DIR=""
CLUSTER=""
RATE=400
readonly CLUSTER_NAME=skrma # namespaces skrma-h0, skrma-h1

die() { printf 'rma-compare.sh: %s\n' "$*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit "${1:-0}"; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        -q) QUICK=(-q) ;;
        -r) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "-r needs a round count"; ROUNDS="$2"; shift ;;
        -o) [[ $# -ge 2 ]] || die "-o needs a directory"; OUT_DIR="$2"; shift ;;
        -c) CLUSTER=1 ;;
        -R) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "-R needs a rate in Mbit/s"; RATE="$2"; shift ;;
        -h | --help) usage 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
    shift
done
OUT_DIR="${OUT_DIR:-/tmp/skiff-rma-compare/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$OUT_DIR"

# mode name | skiff-pipe arguments | sizes quoted
readonly MODES=(
    "put-fence|--put --start 8 --end 4m --pert 0|8 65536 4194304"
    "put-flush|--put --nofence --start 8 --end 4m --pert 0|8 65536 4194304"
    "get-fence|--get --start 8 --end 4m --pert 0|8 65536 4194304"
    "get-flush|--get --nofence --start 8 --end 4m --pert 0|8 65536 4194304"
    "fop|--fop|8"
    "cas|--cas|8"
    "cacheline|--cacheline|8"
)

REPO_DIR="${BENCH_DIR%/bench}"
SKIFF_BUILD="${SKIFF_BUILD:-$REPO_DIR/build}"

# The cluster's launcher argv (one word per line) for library $1: one rank on each host of $HOSTS.
cluster_launcher_for() {
    local h0=${HOSTS%%,*}
    case "$1" in
        skiff) printf '%s\n' "$SKIFF_BUILD/bin/mpiexec" --hosts "$HOSTS" --launcher-template 'ip netns exec {host}' \
            -n 2 -x SKIFF_TCP_NETS=198.18.1.0/24 ;;
        mpich) printf '%s\n' ip netns exec "$h0" mpiexec.mpich -hosts "${HOSTS//,/:1,}:1" -n 2 -launcher ssh \
            -launcher-exec "$BENCH_DIR/netns-ssh" -iface eth1 -bind-to none -genv UCX_TLS tcp,self \
            -genv UCX_NET_DEVICES eth1 ;;
        ompi) printf '%s\n' env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ip netns exec "$h0" \
            mpirun.openmpi --allow-run-as-root --host "${HOSTS//,/:1,}:1" -np 2 --bind-to none \
            --mca plm_rsh_agent "$BENCH_DIR/netns-ssh" --mca pml ob1 --mca btl self,vader,tcp \
            --mca btl_vader_single_copy_mechanism none --mca btl_tcp_if_include 198.18.1.0/24 \
            --mca oob_tcp_if_include 198.18.1.0/24 ;;
    esac
}

# Inside the cluster (this script again, with HOSTS set by cluster.sh): every mode, round and library
# in turn, the same data files pipe-compare.sh writes (DIR/<mode>/<lib>[-rN].out).
cluster_rounds() {
    local lib m name args sizes r out rc=0
    local -a cmd
    declare -A bin=([skiff]="$SKIFF_BUILD/bin/skiff-pipe")
    for lib in mpich ompi; do
        local cc=mpicc.mpich
        [[ $lib == ompi ]] && cc=mpicc.openmpi
        "$cc" -std=c11 -O2 -I"$REPO_DIR/tools/lib" "$REPO_DIR"/tools/skiff_pipe*.c "$REPO_DIR"/tools/lib/*.c \
            -o "$OUT_DIR/skiff-pipe-$lib" >"$OUT_DIR/build-$lib.log" 2>&1 && bin[$lib]="$OUT_DIR/skiff-pipe-$lib"
    done
    for lib in $LIBS; do echo "launch $lib: $(cluster_launcher_for "$lib" | tr '\n' ' ')"; done >>"$OUT_DIR/env.txt"
    for m in "${MODES[@]}"; do
        IFS='|' read -r name args sizes <<<"$m"
        [[ $name == cacheline ]] && continue
        mkdir -p "$OUT_DIR/$name"
        printf '%s: skiff-pipe %s (cluster, %s Mbit/s)\n' "$name" "$args" "$RATE" >&2
        for ((r = 1; r <= ROUNDS; r++)); do
            for lib in $LIBS; do
                [[ -n "${bin[$lib]:-}" ]] || continue
                out="$OUT_DIR/$name/$lib"; [[ $r -gt 1 ]] && out+="-r$r"
                mapfile -t cmd < <(cluster_launcher_for "$lib")
                # shellcheck disable=SC2086  # the mode's arguments, one per word
                timeout --kill-after=10 "${RUN_TIMEOUT:-900}" "${cmd[@]}" "${bin[$lib]}" "${QUICK[@]/-q/--quick}" \
                    $args -o "$out.out" >"$out.txt" 2>"$out.err" || { rc=1; printf '  %s: FAILED (%s)\n' \
                    "$lib" "$out.err" >&2; }
            done
        done
    done
    return "$rc"
}

if [[ -n "$CLUSTER" && -n "${RMA_INNER:-}" ]]; then
    cluster_rounds
    exit
fi

{
    echo "date: $(date -Is)"
    echo "command: $0 ${QUICK[*]} -r $ROUNDS -o $OUT_DIR${CLUSTER:+ -c -R $RATE}"
    echo "load before: $(uptime)"
} >"$OUT_DIR/env.txt"
failed=0
if [[ -n "$CLUSTER" ]]; then
    rc=0
    RMA_INNER=1 bash "$REPO_DIR/tests/cluster/cluster.sh" -l 1 -r "${RATE}mbit" "$CLUSTER_NAME" \
        bash "$0" "${QUICK[@]}" -r "$ROUNDS" -o "$OUT_DIR" -c -R "$RATE" || rc=$?
    for h in 0 1; do
        rmdir "/dev/shm/netns-$CLUSTER_NAME-h$h" 2>/dev/null || true
        rm -rf "/tmp/netns-$CLUSTER_NAME-h$h"
    done
    [[ $rc -eq 77 ]] && die "-c skipped: the emulated cluster needs root and network namespaces"
    [[ $rc -eq 0 ]] || failed=1
fi
for m in "${MODES[@]}"; do
    [[ -z "$CLUSTER" ]] || break
    IFS='|' read -r name args sizes <<<"$m"
    printf '%s: skiff-pipe %s\n' "$name" "$args" >&2
    # shellcheck disable=SC2086  # the mode's arguments, one per word
    SIZES="$sizes" "$BENCH_DIR/pipe-compare.sh" "${QUICK[@]}" -r "$ROUNDS" -o "$OUT_DIR/$name" $args \
        >"$OUT_DIR/$name.log" 2>&1 || { failed=1; printf '  %s: pipe-compare.sh failed (%s)\n' "$name" \
        "$OUT_DIR/$name.log" >&2; }
done
echo "load after: $(uptime)" >>"$OUT_DIR/env.txt"

# One row per quantity, one column per library: min / median over the rounds of the data files.
# shellcheck disable=SC2086  # one library per word
python3 - "$OUT_DIR" "$ROUNDS" $LIBS <<'PY' | tee "$OUT_DIR/table.md"
import os, statistics, sys
out, rounds, libs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
ROWS = [  # (label, mode dir, size, column index in the data file, unit)
    ("put + fence, 8 B", "put-fence", 8, 4, "us"),
    ("put + fence, 64 KiB", "put-fence", 65536, 1, "Gbit/s"),
    ("put + fence, 4 MiB", "put-fence", 4194304, 1, "Gbit/s"),
    ("put + flush + flag (lock_all), 8 B, one-way", "put-flush", 8, 4, "us"),
    ("put + flush + flag (lock_all), 64 KiB", "put-flush", 65536, 1, "Gbit/s"),
    ("put + flush + flag (lock_all), 4 MiB", "put-flush", 4194304, 1, "Gbit/s"),
    ("get + fence, 8 B", "get-fence", 8, 4, "us"),
    ("get + fence, 64 KiB", "get-fence", 65536, 1, "Gbit/s"),
    ("get + fence, 4 MiB", "get-fence", 4194304, 1, "Gbit/s"),
    ("get + flush (lock_all), 8 B", "get-flush", 8, 4, "us"),
    ("get + flush (lock_all), 64 KiB", "get-flush", 65536, 1, "Gbit/s"),
    ("get + flush (lock_all), 4 MiB", "get-flush", 4194304, 1, "Gbit/s"),
    ("fetch_and_op + flush, 8 B", "fop", 8, 4, "us"),
    ("compare_and_swap + flush, 8 B", "cas", 8, 4, "us"),
    ("cache-line ping-pong floor, one-way", "cacheline", 8, 4, "us"),
]
def values(mode, lib, size, col):
    got = []
    for r in range(1, rounds + 1):
        path = os.path.join(out, mode, (lib if r == 1 else f"{lib}-r{r}") + ".out")
        if not os.path.exists(path):
            continue
        for line in open(path):
            f = line.split()
            if f and int(f[0]) == size:
                got.append(float(f[col]))
    return got
def cell(xs, unit):
    if not xs:
        return "n/a"
    lo, med = (min(xs), statistics.median(xs)) if unit == "us" else (max(xs), statistics.median(xs))
    fmt = (lambda x: f"{x:.3f}") if unit == "us" else (lambda x: f"{x:.1f}")
    return f"{fmt(lo)} / {fmt(med)}"
print(f"| {'':44} | unit | " + " | ".join(libs) + " |")
print("|---|---|" + "---|" * len(libs))
for label, mode, size, col, unit in ROWS:
    print(f"| {label:44} | {unit} | " + " | ".join(cell(values(mode, l, size, col), unit) for l in libs) + " |")
print()
print(f"best / median of {rounds} rounds (us: the minimum is the best; Gbit/s: the maximum)")
PY
cat "$OUT_DIR/env.txt"
exit "$failed"
