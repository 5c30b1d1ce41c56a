#!/bin/sh
# real_programs.sh CASE MPIEXEC [SKIFF_MPICC]
# What real programs and test harnesses expect of mpiexec (issue 12): prompts and progress output
# without a newline show up at once, a program built with another MPI is named instead of running
# as silent singletons, and MPIEXEC_TIMEOUT acts as --timeout. One CASE per CTest test.
#
# Nothing here depends on timing: a rank that prints a partial line then waits for a file that this
# script creates only after it has seen the partial line on mpiexec's output (polled for up to 60 s).
# Before partial lines were forwarded, the wait ran out.
set -u
case_=$1 mpiexec=$2 mpicc=${3:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-real.XXXXXX") || exit 2
pid=""
trap 'touch "$tmp/go1" "$tmp/go2"; [ -z "$pid" ] || wait "$pid"; rm -rf "$tmp"' EXIT
failed=0

fail() {
    echo "FAIL ($case_): $*"
    echo "    command: $last"
    echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err" 2>/dev/null
    failed=1
}
# start ARGS...: mpiexec ARGS in the background, stdout to out, stderr to err.
start() {
    last="mpiexec $*"
    "$mpiexec" --timeout 90 "$@" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
}
# finish: waits for the background mpiexec; its exit code in rc.
finish() {
    wait "$pid"
    rc=$?
    pid=""
}
# run ARGS...: mpiexec ARGS in the foreground.
run() {
    last="mpiexec $*"
    "$mpiexec" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
# seen FILE TEXT: waits (up to 60 s) until FILE holds TEXT; after a failure, not at all.
seen() {
    [ $failed -eq 0 ] || return 1
    i=0
    while ! grep -qF -- "$2" "$1"; do
        i=$((i + 1))
        [ $i -le 600 ] || return 1
        sleep 0.1
    done
}
# The rank's side (sh -c SCRIPT TMPDIR): w NAME waits for TMPDIR/NAME, which the test creates once it
# has seen what the rank wrote before.
w='w() { while [ ! -e "$0/$1" ]; do sleep 0.05; done; };'
rc_is() { [ "$rc" -eq "$1" ] || fail "exit code $rc, expected $1"; }
out_is() {
    [ "$(cat "$tmp/out")" = "$1" ] || fail "stdout is not exactly: $1"
}
err_has() { grep -qF -- "$1" "$tmp/err" || fail "stderr lacks '$1'"; }
err_lacks() { if grep -qF -- "$1" "$tmp/err"; then fail "stderr has '$1'"; fi; }

case $case_ in
partial_np1) # one rank: the prompt at once, the answer continues the same line
    start sh -c "$w printf 'x = '; w go1; printf '42\n'" "$tmp"
    seen "$tmp/out" "x = " || fail "the partial line 'x = ' never appeared before its newline"
    touch "$tmp/go1"
    finish
    rc_is 0; out_is "x = 42"
    ;;
partial_np2) # untagged: each prompt shows before its newline, no line holds both ranks' text
    start -n 2 sh -c "$w printf 'rank %s prompt> ' \$SKIFF_RANK; w go1; echo answered" "$tmp"
    seen "$tmp/out" "rank 0 prompt> " || fail "rank 0's prompt never appeared before its newline"
    seen "$tmp/out" "rank 1 prompt> " || fail "rank 1's prompt never appeared before its newline"
    touch "$tmp/go1"
    finish
    rc_is 0
    [ "$(grep -c answered "$tmp/out")" -eq 2 ] || fail "expected 2 answers"
    if grep -vqE '^(rank [01] prompt> )?(answered)?$' "$tmp/out"; then fail "two ranks share a line"; fi
    ;;
partial_tagged) # --tag-output: one tag per line; a rank's text, tags removed, is exactly what it wrote
    start -n 2 --tag-output sh -c "$w printf 'rank %s prompt> ' \$SKIFF_RANK; w go1; echo answered" \
        "$tmp"
    seen "$tmp/out" "[0] rank 0 prompt> " || fail "rank 0's prompt never appeared before its newline"
    seen "$tmp/out" "[1] rank 1 prompt> " || fail "rank 1's prompt never appeared before its newline"
    touch "$tmp/go1"
    finish
    rc_is 0
    if grep -vqE '^\[[01]\] ' "$tmp/out"; then fail "a line without its tag"; fi
    for r in 0 1; do
        text=$(sed -n "s/^\[$r\] //p" "$tmp/out" | tr -d '\n')
        [ "$text" = "rank $r prompt> answered" ] || fail "rank $r's text reads '$text'"
    done
    ;;
partial_shared) # stdout and stderr to one file: a line of the other stream ends the open line first
    last="mpiexec --tag-output ... >out 2>&1"
    "$mpiexec" --timeout 90 --tag-output sh -c \
        "$w printf 'x = '; w go1; echo warn >&2; w go2; printf '42\n'" "$tmp" \
        >"$tmp/out" 2>&1 &
    pid=$!
    seen "$tmp/out" "[0] x = " || fail "the partial line never appeared before its newline"
    touch "$tmp/go1"
    seen "$tmp/out" "[0] warn" || fail "the stderr line never appeared"
    touch "$tmp/go2"
    finish
    rc_is 0
    out_is "$(printf '[0] x = \n[0] warn\n[0] 42')"
    ;;
foreign) # programs built with Open MPI and MPICH: named, not run as silent singletons
    for cc in mpicc.openmpi mpicc.mpich; do
        command -v $cc >/dev/null || { echo "SKIP: $cc not installed"; exit 77; }
    done
    here=$(cd "$(dirname "$0")/.." && pwd)
    mpicc.openmpi "$here/mpi/hello.c" -o "$tmp/hello_ompi" || exit 2
    mpicc.mpich "$here/mpi/hello.c" -o "$tmp/hello_mpich" || exit 2
    run -n 2 "$tmp/hello_ompi"
    rc_is 1
    err_has "never joined the job: the program is linked with /"
    err_has "libmpi.so.40, not skiff's libmpi"
    run -n 2 "$tmp/hello_mpich"
    rc_is 1
    err_has "libmpich.so.12, not skiff's libmpi"
    err_has "--pmi fd"
    # PMI mode: an Open MPI rank does not speak PMI-1 either; an MPICH rank does, and runs.
    run --pmi fd -n 2 "$tmp/hello_ompi"
    rc_is 1; err_has "libmpi.so.40, not skiff's libmpi"
    run --pmi fd -n 2 "$tmp/hello_mpich"
    rc_is 0; err_lacks "never joined"
    # Not MPI programs at all, and a skiff program that ends before MPI_Init: all fine.
    run -n 2 hostname
    rc_is 0; err_lacks "never joined"
    run -n 2 sh -c 'echo hi'
    rc_is 0; err_lacks "never joined"
    printf '#include <mpi.h>\nint main(int c, char **v) { if (c > 9) MPI_Init(&c, &v); return 0; }\n' \
        >"$tmp/early.c"
    "$mpicc" "$tmp/early.c" -o "$tmp/early" || exit 2
    run -n 2 "$tmp/early"
    rc_is 0; err_lacks "never joined"
    ;;
env_timeout) # MPIEXEC_TIMEOUT acts as --timeout; the command line wins; garbage is refused
    last="MPIEXEC_TIMEOUT=2 mpiexec -n 2 sleep 60"
    MPIEXEC_TIMEOUT=2 "$mpiexec" -n 2 sleep 60 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    rc_is 124; err_has "timeout after 2 s (MPIEXEC_TIMEOUT)"
    last="MPIEXEC_TIMEOUT=1000 mpiexec --timeout 1 -n 2 sleep 60"
    MPIEXEC_TIMEOUT=1000 "$mpiexec" --timeout 1 -n 2 sleep 60 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    rc_is 124; err_has "timeout after 1 s;"
    last="MPIEXEC_TIMEOUT=0 mpiexec -n 2 true"
    MPIEXEC_TIMEOUT=0 "$mpiexec" -n 2 true >"$tmp/out" 2>"$tmp/err"
    rc=$?
    rc_is 0
    last="MPIEXEC_TIMEOUT=soon mpiexec -n 2 true"
    MPIEXEC_TIMEOUT=soon "$mpiexec" -n 2 true >"$tmp/out" 2>"$tmp/err"
    rc=$?
    rc_is 2; err_has "bad MPIEXEC_TIMEOUT"
    ;;
*)
    echo "unknown case $case_"
    exit 2
    ;;
esac
[ $failed -eq 0 ] && echo "OK real_programs $case_"
exit $failed
