#!/bin/sh
# pmix.sh HAVE_PMIX LAUNCHER MODE NP PROGRAM... : skiff programs started by a real PMIx launcher.
#   LAUNCHER  mpirun: Open MPI's mpiexec.openmpi on this host (its own PMIx server)
#             mpirun-netns: the same across the namespaces of tests/cluster/cluster.sh (run mode only)
#             srun:   srun --mpi=pmix (run this inside tests/slurm/slurm.sh)
#   MODE      run:     each PROGRAM must exit 0 and print "OK <name>"
#             abort, kill, noexit: PROGRAM is tests/fault/faulty, whose rank 1 fails that way; the job
#                      must end by itself (not by the 120 s guard), with the exit code and a message
#                      naming rank 1, and no rank may survive
#             launcher-killed (mpirun only): mpirun is SIGKILLed while every rank waits in MPI_Recv;
#                      each rank must notice through PMIx (the server's lost connection) and end itself
# Skips (77) when skiff was built without PMIx (HAVE_PMIX is not 1) or the launcher is missing.
# Nothing is judged by time: the guard only turns a hang into a failure that says so.
set -u
have=$1 launcher=$2 mode=$3 np=$4
shift 4
skip() {
    echo "SKIP: $*"
    exit 77
}
[ "$have" = 1 ] || skip "skiff was built without PMIx (libpmix-dev missing at configure time)"
case $launcher in
mpirun)
    command -v mpiexec.openmpi >/dev/null || skip "needs Open MPI's mpiexec.openmpi (openmpi-bin)"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    launch() { timeout -k 5 120 mpiexec.openmpi --allow-run-as-root --oversubscribe --bind-to none -n "$np" "$@"; } ;;
mpirun-netns) # across the namespaces of tests/cluster/cluster.sh (HOSTS): mpirun in the first, an
    # orted started in each other one through netns_rsh.sh; ranks placed round-robin over the hosts
    command -v mpiexec.openmpi >/dev/null || skip "needs Open MPI's mpiexec.openmpi (openmpi-bin)"
    [ -n "${HOSTS:-}" ] || skip "run inside tests/cluster/cluster.sh"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    here=$(cd "$(dirname "$0")" && pwd)
    launch() {
        timeout -k 5 120 ip netns exec "${HOSTS%%,*}" mpiexec.openmpi --allow-run-as-root --hostfile "$tmp/hosts" \
            --mca plm_rsh_agent "$here/netns_rsh.sh" --mca oob_tcp_if_include 198.18.1.0/24 --bind-to none \
            --map-by node -n "$np" "$@"
    } ;;
srun)
    command -v srun >/dev/null || skip "needs srun (slurm-wlm)"
    [ -n "${SLURM_CONF:-}" ] || skip "run inside tests/slurm/slurm.sh"
    launch() { timeout -k 5 120 srun -O --mpi=pmix -n "$np" "$@"; } ;;
*)
    echo "pmix.sh: unknown launcher $launcher" >&2
    exit 2 ;;
esac

# ASan builds: libpmix's own few bytes kept past PMIx_Finalize are not skiff's leaks.
LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan-pmix.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-pmix.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# mpirun-netns: the first host is mpirun's own (named as this machine, so it starts ranks there
# itself), the others by their namespace's name.
if [ "$launcher" = mpirun-netns ]; then
    echo "$(hostname) slots=$np" >"$tmp/hosts"
    echo "${HOSTS#*,}" | tr , '\n' | sed "s/\$/ slots=$np/" >>"$tmp/hosts"
fi
fail() {
    echo "FAILED: $launcher $mode: $*"
    for f in out err ranks; do [ -s "$tmp/$f" ] && { echo "--- $f"; tail -n 30 "$tmp/$f"; }; done
    exit 1
}
alive() { # a zombie waiting to be reaped is dead
    [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]
}
# The ranks that said "rank N pid P ready" must all be gone (polled, up to 20 s on a loaded machine).
no_survivors() {
    pids=$(sed -n 's/^rank [0-9]* pid \([0-9]*\) ready$/\1/p' "$tmp/out")
    [ "$(echo "$pids" | wc -w)" -eq "$np" ] || fail "not every rank reported its pid"
    i=0
    while [ $i -lt 200 ]; do
        left=""
        for p in $pids; do alive "$p" && left="$left $p"; done
        [ -z "$left" ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "rank processes$left survived"
}
# stderr must name rank 1 with one of the patterns given (extended regular expressions).
names_rank1() {
    for pat in "$@"; do grep -qE -- "$pat" "$tmp/err" && return 0; done
    fail "stderr does not name rank 1 (looked for: $*)"
}

case $mode in
run)
    for prog in "$@"; do
        name=$(basename "$prog")
        launch "$prog" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        [ $rc -ne 124 ] || fail "$name did not end within 120 s"
        [ $rc -eq 0 ] && grep -q "^OK $name" "$tmp/out" || fail "$name (np=$np) exited $rc"
        echo "ok: $name np=$np under $launcher"
    done ;;
abort | kill | noexit)
    launch "$1" "$mode" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -ne 124 ] || fail "the failure did not end the job: the 120 s guard did"
    [ $rc -ne 0 ] || fail "the job exited 0"
    case $mode in
    abort) # PMIx_Abort: the launcher ends the job with the code MPI_Abort was given
        [ $rc -eq 7 ] || fail "exit code $rc, expected MPI_Abort's 7"
        names_rank1 "skiff: rank 1: MPI_Abort\(MPI_COMM_WORLD, 7\)" ;;
    kill)
        names_rank1 "process rank 1 .*signal 9" "task 1: Killed" "rank 1 died without calling MPI_Finalize" ;;
    noexit) # mpirun names the rank; Slurm's pmix plugin names the client whose connection it lost
        names_rank1 "exited due to process rank 1 with PID" "source = \[[^]]*:1\]" \
            "rank 1 died without calling MPI_Finalize" ;;
    esac
    no_survivors
    echo "ok: rank 1 $mode under $launcher ended the job (exit $rc) and named it" ;;
launcher-killed)
    [ "$launcher" = mpirun ] || fail "launcher-killed is for mpirun"
    : >"$tmp/out"
    # The ranks' stderr goes to a file of their own: mpirun's pipes die with it.
    mpiexec.openmpi --allow-run-as-root --oversubscribe --bind-to none -n "$np" \
        sh -c "exec \"\$0\" hang 2>>'$tmp/ranks'" "$1" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    i=0
    while [ "$(grep -c ready "$tmp/out")" -lt "$np" ] && [ $i -lt 600 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ "$(grep -c ready "$tmp/out")" -eq "$np" ] || { kill -9 "$pid"; fail "the ranks never all started"; }
    kill -9 "$pid" # as a crash would
    wait "$pid"
    no_survivors
    n=$(grep -c "the launcher's PMI server closed its connection" "$tmp/ranks")
    [ "$n" -eq "$np" ] || fail "$n of $np ranks said they saw the launcher go"
    echo "ok: every rank ended itself when mpirun was killed" ;;
*)
    echo "pmix.sh: unknown mode $mode" >&2
    exit 2 ;;
esac
exit 0
