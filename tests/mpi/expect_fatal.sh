#!/bin/sh
# expect_fatal.sh PATTERN COMMAND [ARGS...]
#
# Passes when COMMAND (an mpiexec line running a job that must abort) exits non-zero by itself, its
# stderr contains PATTERN (case-insensitive, fixed string), and its stdout has no "NOT-ABORTED"
# marker (printed by the program when the bad call returned instead).
# "By itself" matters: a job whose other ranks were not taken down would otherwise "fail" only when
# mpiexec's own --timeout kills it, which must not count as a pass. mpiexec says so when that
# happens, and that is what is checked: a wall-clock limit would fail a slow job on a busy machine.
# Other launchers (Hydra, srun) get no --timeout here: a hang there is ended by CTest's TIMEOUT or
# slurm.sh's timeout, and fails the test.
set -u
pattern=$1
shift

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-fatal.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

start=$(date +%s)
"$@" >"$tmp/out" 2>"$tmp/err"
rc=$?
elapsed=$(( $(date +%s) - start )) # reported, not judged

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
if grep -q "mpiexec: timeout" "$tmp/err"; then fail "not aborted: mpiexec's --timeout ended the job after ${elapsed}s"; fi
grep -qiF -- "$pattern" "$tmp/err" || fail "stderr does not mention '$pattern'"
echo "OK expect_fatal: exit $rc after ${elapsed}s, stderr mentions '$pattern'"
exit 0
