#!/bin/sh
# fault.sh MODE MPIEXEC PROGRAM NP
# Runs a job that fails on purpose (see faulty.c) and checks what a user must be able to rely on:
# the failure ends the job (not mpiexec's --timeout), mpiexec names the failing rank and how it
# failed, the exit code says so, no process of the job survives, no process holds a socket the ranks
# had (faulty.c lists them), and nothing new appears in /dev/shm.
#
# No check depends on timing, so a busy machine cannot fail it: a job that the failure did not end
# runs into --timeout, which mpiexec reports; the waits below are polls with generous bounds. The
# seconds the job took are printed, not judged.
set -u
mode=$1 mpiexec=$2 prog=$3 np=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-fault.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
shm_list() { find /dev/shm -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort; }
shm_list >"$tmp/shm.before"

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
    ! grep -q "mpiexec: timeout" "$tmp/err" || fail "the failure did not end the job: mpiexec's --timeout did"
fi
pids=$(sed -n 's/^rank [0-9]* pid \([0-9]*\) ready$/\1/p' "$tmp/out")
[ -n "$pids" ] || fail "no rank reported its pid"
alive() { # a zombie waiting for init to reap it is dead
    [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]
}
# The ranks must be gone. A loaded machine may take a moment to deliver the parent-death signal and
# tear a process down: poll for up to 20 s.
i=0
while [ $i -lt 200 ]; do
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
# A socket lives while some process holds it: search every process's descriptors for the ranks'.
inodes=$(sed -n 's/^rank [0-9]* sockets//p' "$tmp/out" | tr ' ' '\n' | grep . | sort -u)
grep -q "^rank [0-9]* sockets" "$tmp/out" || fail "no rank listed its sockets"
held=$(for i in $inodes; do ls -l /proc/[0-9]*/fd 2>/dev/null | grep -F "socket:[$i]" | head -1; done)
[ -z "$held" ] || fail "sockets of the job are still held: $held"
# Other jobs on the machine (a test beside this one, another MPI) come and go in /dev/shm meanwhile:
# a new entry is the job's leftover only if it is still there and no live process holds or maps it.
shm_list >"$tmp/shm.after"
left=$(comm -13 "$tmp/shm.before" "$tmp/shm.after" | while IFS= read -r f; do
    [ -e "/dev/shm/$f" ] || continue
    [ -z "$(find /proc/[0-9]*/fd -lname "/dev/shm/$f" 2>/dev/null | head -1)" ] || continue
    if cat /proc/[0-9]*/maps 2>/dev/null | grep -qF -- "/dev/shm/$f"; then continue; fi
    echo "$f"
done)
[ -z "$left" ] || fail "new in /dev/shm and held by no process: $left"

case $mode in
kill|win_fence|win_lock|win_epoch)
        [ "$rc" -eq 137 ] || fail "exit code $rc, expected 137 (128 + SIGKILL)"
        grep -q "rank 1 .*SIGKILL" "$tmp/err" || fail "mpiexec did not name rank 1 and SIGKILL" ;;
abort)  [ "$rc" -eq 7 ] || fail "exit code $rc, expected the abort code 7"
        grep -q "rank 1 .*code 7" "$tmp/err" || fail "mpiexec did not name rank 1 and code 7" ;;
noexit|win_noexit)
        [ "$rc" -ne 0 ] || fail "exit code 0 for a rank that skipped MPI_Finalize"
        grep -q "rank 1 .*without calling MPI_Finalize" "$tmp/err" || fail "mpiexec did not name rank 1" ;;
mpiexec-killed) ;;
*) fail "unknown mode" ;;
esac
echo "OK fault $mode: exit $rc after ${elapsed}s, no survivors, no socket held ($(echo $inodes | wc -w) checked), nothing left in /dev/shm"
