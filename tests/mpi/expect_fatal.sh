#!/bin/sh
# expect_fatal.sh PATTERN MAX_SECONDS COMMAND [ARGS...]
#
# Passes when COMMAND (an mpiexec line running a job that must abort) exits non-zero within
# MAX_SECONDS, its stderr contains PATTERN (case-insensitive, fixed string), and its stdout has
# no "NOT-ABORTED" marker (printed by the program when the bad call returned instead).
# The time limit matters: a job whose other ranks were not taken down would otherwise "fail"
# only when mpiexec's own timeout kills it, which must not count as a pass.
set -u
pattern=$1
max_seconds=$2
shift 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-fatal.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

start=$(date +%s)
"$@" >"$tmp/out" 2>"$tmp/err"
rc=$?
elapsed=$(( $(date +%s) - start ))

show() {
    echo "--- stdout"; cat "$tmp/out"
    echo "--- stderr"; cat "$tmp/err"
}
fail() {
    echo "FAIL: $*"
    show
    exit 1
}

[ "$rc" -ne 0 ] || fail "job exited 0, expected it to abort"
if grep -q "NOT-ABORTED" "$tmp/out"; then fail "the erroneous call returned"; fi
[ "$elapsed" -le "$max_seconds" ] || fail "job took ${elapsed}s (> ${max_seconds}s): not aborted promptly"
grep -qiF -- "$pattern" "$tmp/err" || fail "stderr does not mention '$pattern'"
echo "OK expect_fatal: exit $rc after ${elapsed}s, stderr mentions '$pattern'"
exit 0
