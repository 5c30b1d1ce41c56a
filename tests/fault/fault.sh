#!/bin/sh
# fault.sh MODE MPIEXEC PROGRAM NP
# Runs a job that fails on purpose (see faulty.c) and checks what a user must be able to rely on:
# the job ends within 5 s, mpiexec names the failing rank and how it failed, the exit code says so,
# no process of the job survives, no process holds a socket the ranks had (faulty.c lists them), and
# nothing new appears in /dev/shm.
set -u
mode=$1 mpiexec=$2 prog=$3 np=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-fault.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ls /dev/shm >"$tmp/shm.before" 2>/dev/null

fail() {
    echo "FAIL ($mode): $*"
    echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"
    exit 1
}

start=$(date +%s)
if [ "$mode" = mpiexec-killed ]; then
    : >"$tmp/out" # exists before the launcher's redirection does: the wait below reads it at once
    "$mpiexec" -n "$np" "$prog" hang >"$tmp/out" 2>"$tmp/err" &
    launcher=$!
    i=0 # wait until every rank has said it is ready, then kill the launcher
    while [ "$(grep -c ready "$tmp/out" 2>/dev/null || true)" -lt "$np" ] && [ $i -lt 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    start=$(date +%s) # the clock that matters starts when the launcher dies
    kill -9 "$launcher"
    wait "$launcher"
    rc=$?
else
    "$mpiexec" -n "$np" --timeout 30 "$prog" "$mode" >"$tmp/out" 2>"$tmp/err"
    rc=$?
fi
pids=$(sed -n 's/^rank [0-9]* pid \([0-9]*\) ready$/\1/p' "$tmp/out")
[ -n "$pids" ] || fail "no rank reported its pid"
alive() { # a zombie waiting for init to reap it is dead
    [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]
}
# The ranks must be gone within the 5 s the job has; give them until then (a loaded machine may
# take a moment to deliver the parent-death signal and tear a process down).
i=0
while [ $i -lt 50 ]; do
    survivors=""
    for p in $pids; do
        if alive "$p"; then survivors="$survivors $p($(awk '{print "state " $3 ", parent " $4}' "/proc/$p/stat" 2>/dev/null))"; fi
    done
    [ -z "$survivors" ] && break
    sleep 0.1
    i=$((i + 1))
done
[ -z "$survivors" ] || fail "rank processes$survivors survived"
elapsed=$(( $(date +%s) - start ))
[ "$elapsed" -le 6 ] || fail "the job took ${elapsed}s to end (limit 5 s + 1 s slack)"
# A socket lives while some process holds it: search every process's descriptors for the ranks'.
inodes=$(sed -n 's/^rank [0-9]* sockets//p' "$tmp/out" | tr ' ' '\n' | grep . | sort -u)
grep -q "^rank [0-9]* sockets" "$tmp/out" || fail "no rank listed its sockets"
held=$(for i in $inodes; do ls -l /proc/[0-9]*/fd 2>/dev/null | grep -F "socket:[$i]" | head -1; done)
[ -z "$held" ] || fail "sockets of the job are still held: $held"
ls /dev/shm >"$tmp/shm.after" 2>/dev/null
cmp -s "$tmp/shm.before" "$tmp/shm.after" || fail "/dev/shm changed: $(diff "$tmp/shm.before" "$tmp/shm.after")"

case $mode in
kill)   [ "$rc" -eq 137 ] || fail "exit code $rc, expected 137 (128 + SIGKILL)"
        grep -q "rank 1 .*SIGKILL" "$tmp/err" || fail "mpiexec did not name rank 1 and SIGKILL" ;;
abort)  [ "$rc" -eq 7 ] || fail "exit code $rc, expected the abort code 7"
        grep -q "rank 1 .*code 7" "$tmp/err" || fail "mpiexec did not name rank 1 and code 7" ;;
noexit) [ "$rc" -ne 0 ] || fail "exit code 0 for a rank that skipped MPI_Finalize"
        grep -q "rank 1 .*without calling MPI_Finalize" "$tmp/err" || fail "mpiexec did not name rank 1" ;;
mpiexec-killed) ;;
*) fail "unknown mode" ;;
esac
echo "OK fault $mode: exit $rc after ${elapsed}s, no survivors, no socket held ($(echo $inodes | wc -w) checked), /dev/shm unchanged"
