#!/bin/sh
# deadlock.sh MPIEXEC PROGRAM NP
# SKIFF_PROGRESS_TIMEOUT=2 on `faulty deadlock` (see faulty.c): every rank must, long before
# mpiexec's --timeout ends the job, say which call has been blocked and list its pending requests
# with peer, tag, size and communicator: the send it started and the receive it waits in.
set -u
mpiexec=$1 prog=$2 np=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-deadlock.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL (deadlock report): $*"
    echo "--- stderr"; cat "$tmp/err"
    exit 1
}
SKIFF_PROGRESS_TIMEOUT=2 "$mpiexec" -n "$np" --timeout 6 "$prog" deadlock >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -ne 0 ] || fail "a deadlocked job exited 0"
grep -q "mpiexec: timeout after 6 s" "$tmp/err" || fail "the job did not end by mpiexec's timeout (exit $rc)"
# The reports must come before mpiexec's verdict, i.e. at about 2 s and not at the kill.
head -n "$(grep -n 'mpiexec: timeout' "$tmp/err" | head -1 | cut -d: -f1)" "$tmp/err" >"$tmp/before"
r=0
while [ $r -lt "$np" ]; do
    next=$(( (r + 1) % np )) prev=$(( (r + np - 1) % np ))
    grep -q "^skiff\[$r\] error: MPI_Recv has been blocked for [0-9]* s (SKIFF_PROGRESS_TIMEOUT)" "$tmp/before" ||
        fail "rank $r did not report that MPI_Recv is blocked"
    grep -q "^skiff\[$r\] error:   pending send: peer $next, tag 5, 100 bytes, communicator ring$" "$tmp/before" ||
        fail "rank $r did not list its pending send to $next"
    grep -q "^skiff\[$r\] error:   pending receive: peer $prev, tag 7, 300 bytes, communicator ring$" "$tmp/before" ||
        fail "rank $r did not list its pending receive from $prev"
    r=$((r + 1))
done
echo "OK deadlock report: all $np ranks named the blocked call and their pending send and receive"
