#!/bin/sh
# expect_clean_exit.sh PATTERN LINES COMMAND [ARGS...]
#
# Passes when COMMAND (an mpiexec line) exits 0, prints LINES lines containing "done" on stdout (one
# per rank that got out of MPI_Finalize), and its stderr contains PATTERN (case-insensitive, fixed
# string; "-" for no requirement). For erroneous programs that must still end cleanly and say why.
set -u
pattern=$1
lines=$2
shift 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-clean-exit.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

"$@" >"$tmp/out" 2>"$tmp/err"
rc=$?
fail() {
    echo "FAIL: $*"
    echo "--- stdout"; cat "$tmp/out"
    echo "--- stderr"; cat "$tmp/err"
    exit 1
}
[ "$rc" -eq 0 ] || fail "job exited $rc, expected 0"
done=$(grep -c "done" "$tmp/out")
[ "$done" -eq "$lines" ] || fail "$done ranks said done, expected $lines"
[ "$pattern" = "-" ] || grep -qiF -- "$pattern" "$tmp/err" || fail "stderr does not mention '$pattern'"
cat "$tmp/err"
echo "OK expect_clean_exit: $lines ranks done${pattern:+, stderr mentions '$pattern'}"
