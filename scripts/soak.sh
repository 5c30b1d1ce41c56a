#!/bin/sh
# The long soak: tests/soak/soak runs back to back with random seeds, cycling through 2..8 ranks and
# four configurations (shared memory, every pair on tcp, shared memory without single copy, pretend
# nodes so that the node-aware collectives run), until the time is up. Stops at the first failure and prints the command that replays it. Builds nothing.
#
# usage: scripts/soak.sh [--minutes M] [--run-seconds S] [--max-bytes B] [--seed N] [--node-size K]
#                        [BUILD_DIR]
#   --minutes M      total duration (default 10)
#   --run-seconds S  traffic per run (default 20; the last run is shortened to fit)
#   --max-bytes B    largest message, passed to soak (default: soak's, 4m)
#   --seed N         first seed (then N+1, N+2, ...; default: random)
#   --node-size K    ranks per pretend node in the fourth configuration, SKIFF_NODE_SIZE=K
#                    (default 2; 0 leaves that configuration out)
#   BUILD_DIR        a configured and built tree with bin/mpiexec and tests/soak/soak (default ./build)
# Exit status: 0 if every run passed, 1 at the first failure, 2 on a usage error.
set -u

minutes=10
run_seconds=20
max_bytes=
seed=
node_size=2
build=./build
while [ $# -gt 0 ]; do
    case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --run-seconds) run_seconds=$2; shift 2 ;;
    --max-bytes) max_bytes=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --node-size) node_size=$2; shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "soak.sh: unknown option $1" >&2; exit 2 ;;
    *) build=$1; shift ;;
    esac
done

mpiexec=$build/bin/mpiexec
soak=$build/tests/soak/soak
for f in "$mpiexec" "$soak"; do
    if [ ! -x "$f" ]; then
        echo "soak.sh: $f not found; build it first: cmake --build $build --target mpi mpiexec soak" >&2
        exit 2
    fi
done
if [ -z "$seed" ]; then
    seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
fi

logdir=$(mktemp -d "${TMPDIR:-/tmp}/soak.XXXXXX")
start=$(date +%s)
deadline=$((start + minutes * 60))
runs=0
rounds=0
messages=0
bytes=0
echo "soak.sh: $minutes min from $(date '+%F %T'), $run_seconds s per run, first seed $seed, logs in $logdir"

# Run i: 2..8 ranks in turn; each pass of 7 runs shifts the configurations by one, so every pairing
# of rank count and configuration comes up within 7 x (number of configurations) runs.
nconf=3
[ "$node_size" -gt 0 ] 2>/dev/null && nconf=4
transport_env() { # run index -> environment
    case $(( (($1 / 7) + ($1 % 7)) % nconf )) in
    0) echo "" ;;
    1) echo "SKIFF_TRANSPORTS=tcp" ;;
    2) echo "SKIFF_SHM_CMA=0" ;;
    3) echo "SKIFF_NODE_SIZE=$node_size" ;;
    esac
}

field() { # name, "OK soak ..." line -> value
    echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

i=0
while :; do
    now=$(date +%s)
    left=$((deadline - now))
    [ "$left" -lt 5 ] && break
    secs=$run_seconds
    [ "$secs" -gt "$left" ] && secs=$left
    np=$((2 + i % 7))
    env_vars="SKIFF_PROGRESS_TIMEOUT=30 $(transport_env $i)"
    s=$((seed + i))
    log=$logdir/run$i.log
    cmd="$env_vars $mpiexec -n $np --timeout $((secs + 120)) $soak --seed $s --seconds $secs --hang 60"
    cmd="$cmd${max_bytes:+ --max-bytes $max_bytes}"
    printf 'run %3d: np=%d %-22s seed=%-10s %3ds ... ' "$i" "$np" "$(transport_env $i | sed 's/^$/shm/')" "$s" "$secs"
    # shellcheck disable=SC2086 # env_vars and cmd are word lists by design
    env $cmd >"$log" 2>&1
    rc=$?
    ok=$(grep '^OK soak' "$log")
    if [ $rc -ne 0 ] || [ -z "$ok" ]; then
        case $rc in
        124) what="hang: mpiexec's --timeout ended the job" ;;
        0) what="exit status 0 but no OK line" ;;
        *) what="exit status $rc" ;;
        esac
        echo "FAILED ($what)"
        echo "---- last lines of $log:"
        tail -n 40 "$log"
        echo "----"
        echo "replay: $cmd"
        grep -m1 'replay this round: ' "$log" | sed 's/^ *replay this round: /replay the failing round alone: /'
        echo "soak.sh: FAILED after $runs passing runs ($((now - start)) s)"
        exit 1
    fi
    r=$(field rounds "$ok")
    echo "ok: $r rounds, $(field messages "$ok") messages"
    runs=$((runs + 1))
    rounds=$((rounds + r))
    messages=$((messages + $(field messages "$ok")))
    bytes=$((bytes + $(field bytes "$ok")))
    rm -f "$log"
    i=$((i + 1))
done
rmdir "$logdir" 2>/dev/null
echo "soak.sh: OK: $runs runs, $rounds rounds, $messages messages, $((bytes / 1048576)) MiB checked" \
    "in $(($(date +%s) - start)) s (seeds $seed..$((seed + i - 1)))"
