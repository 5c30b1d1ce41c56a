#!/bin/sh
# fatal.sh MPIEXEC PROGRAM TABLE
#
# Runs every row of one bad_input table under MPI_ERRORS_ARE_FATAL, one job per row (1 rank), and
# passes when each job ends non-zero by itself (not by mpiexec's --timeout, whose report would say so:
# no wall-clock limit that a busy machine could exceed), without the program's NOT-ABORTED marker,
# with "skiff: <call> on rank 0: ...<value>..." on stderr.
set -u
mpiexec=$1 prog=$2 table=$3

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-badfatal.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

"$prog" --list "$table" >"$tmp/rows" || { echo "FAIL: $prog --list $table"; exit 1; }
[ -s "$tmp/rows" ] || { echo "FAIL: table $table has no rows"; exit 1; }

tab=$(printf '\t')
rows=0 bad=0
while IFS="$tab" read -r name call want; do
    rows=$((rows + 1))
    "$mpiexec" -n 1 --timeout 20 "$prog" --fatal "$name" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    why=""
    if [ "$rc" -eq 0 ]; then why="job exited 0"
    elif grep -q NOT-ABORTED "$tmp/out"; then why="the call returned"
    elif grep -q "mpiexec: timeout" "$tmp/err"; then why="the job hung until mpiexec's --timeout"
    elif ! grep -qF -- "skiff: $call on rank 0: " "$tmp/err"; then why="stderr does not name '$call on rank 0'"
    elif [ -n "$want" ] && ! grep -F -- "skiff: $call on rank 0: " "$tmp/err" | grep -qF -- "$want"; then
        why="the message does not contain '$want'"
    fi
    if [ -n "$why" ]; then
        bad=$((bad + 1))
        echo "FAIL $name ($call): $why (exit $rc)"
        sed 's/^/    out: /' "$tmp/out"; sed 's/^/    err: /' "$tmp/err"
    fi
done <"$tmp/rows"

if [ "$bad" -ne 0 ]; then
    echo "FAIL: $bad of $rows rows of table $table did not end the job as required"
    exit 1
fi
echo "OK bad_input fatal $table: $rows rows each ended the job naming the call, rank and value"
