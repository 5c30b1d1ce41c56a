#!/bin/sh
# deadlock.sh MPIEXEC PROGRAM NP
# SKIFF_PROGRESS_TIMEOUT=2 on `faulty deadlock` (see faulty.c): every rank must, while the job still
# runs, say which call has been blocked and list its pending requests with peer, tag, size and
# communicator: the send it started and the receive it waits in. Then the test ends the job.
#
# Nothing here depends on timing: the reports are awaited (polled, up to 45 s) instead of expected
# before a fixed deadline, which a busy machine can miss (the job's start alone may take seconds).
set -u
mpiexec=$1 prog=$2 np=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-deadlock.XXXXXX") || exit 2
launcher=""
trap '[ -z "$launcher" ] || { kill "$launcher" 2>/dev/null; wait "$launcher"; }; rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL (deadlock report): $*"
    echo "--- stderr"; cat "$tmp/err"
    exit 1
}
# reported FILE: every rank's report is in FILE; else $why says what is missing.
reported() {
    r=0
    while [ $r -lt "$np" ]; do
        next=$(( (r + 1) % np )) prev=$(( (r + np - 1) % np ))
        grep -q "^skiff: rank $r: MPI_Recv has been blocked for [0-9]* s (SKIFF_PROGRESS_TIMEOUT)" "$1" ||
            { why="rank $r did not report that MPI_Recv is blocked"; return 1; }
        grep -q "^skiff: rank $r:   pending send: peer $next, tag 5, 100 bytes, communicator ring$" "$1" ||
            { why="rank $r did not list its pending send to $next"; return 1; }
        grep -q "^skiff: rank $r:   pending receive: peer $prev, tag 7, 300 bytes, communicator ring$" "$1" ||
            { why="rank $r did not list its pending receive from $prev"; return 1; }
        r=$((r + 1))
    done
}

# --timeout only bounds a job whose reports never come; the test ends the job before that.
: >"$tmp/err"
SKIFF_PROGRESS_TIMEOUT=2 "$mpiexec" -n "$np" --timeout 50 "$prog" deadlock >"$tmp/out" 2>"$tmp/err" &
launcher=$!
i=0
while ! reported "$tmp/err" && kill -0 "$launcher" 2>/dev/null && [ $i -lt 450 ]; do
    sleep 0.1
    i=$((i + 1))
done
# The reports must come from the blocked ranks themselves, not from the job's end: look only at what
# was there while the job still ran.
cp "$tmp/err" "$tmp/before"
kill -0 "$launcher" 2>/dev/null || { wait "$launcher"; rc=$?; launcher=""; fail "the job ended (exit $rc) before every rank reported"; }
kill -TERM "$launcher"
wait "$launcher"
launcher=""
reported "$tmp/before" || fail "$why"
echo "OK deadlock report: all $np ranks named the blocked call and their pending send and receive"
