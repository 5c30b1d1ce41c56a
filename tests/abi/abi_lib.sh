#!/bin/sh
# abi_lib.sh BUILD_DIR ABI_TEST_DIR HELLO_C
# MPI-5.0's names for the standard ABI (issue 15 §7), from an installed prefix with no build tree in sight:
# lib/libmpi_abi.so (SONAME libmpi_abi.so.1, as the MPI Forum's reference library has it) and
# bin/mpicc_abi. abi_app.c, compiled with the plain compiler against mpi_abi_ref.h (the reference
# header's values, written independently of skiff's mpi.h) and linked with -lmpi_abi, must record
# libmpi_abi.so.1 and run at 1 to 4 ranks; the same program linked against a stand-in libmpi_abi.so.1
# (stub_lib.c) must run unchanged on skiff's; a program built with mpicc_abi must link the same library.
# SKIFF_CC (several words allowed) replaces cc, as in the wrappers.
set -eu
build=$1 src=$(cd "$2" && pwd) hello=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
work=$(mktemp -d "${TMPDIR:-/tmp}/skiff-abi.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/skiff
cmake --install "$build" --prefix "$prefix" >/dev/null
unset LD_LIBRARY_PATH
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
cc=${SKIFF_CC:-cc}

for f in lib/libmpi_abi.so lib/libmpi_abi.so.1 bin/mpicc_abi; do
    [ -e "$prefix/$f" ] || fail "$prefix/$f is missing"
done
soname=$(readelf -d "$prefix/lib/libmpi_abi.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libmpi_abi.so.1 ] || fail "libmpi_abi.so has SONAME '$soname', expected libmpi_abi.so.1"
echo "ok $prefix/lib/libmpi_abi.so: SONAME libmpi_abi.so.1"

needs_abi() { # program: links libmpi_abi.so.1 and not libmpi.so.0
    needed=$(readelf -d "$1" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
    case " $needed" in *" libmpi_abi.so.1 "*) ;; *) fail "$1 needs '$needed', not libmpi_abi.so.1" ;; esac
    case " $needed" in *" libmpi.so"*) fail "$1 also needs skiff's libmpi: '$needed'" ;; esac
}

# The plain compiler, the independent header (no -I into the prefix), -lmpi_abi.
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror -I "$src" "$src/abi_app.c" -o abi_app \
    -L "$prefix/lib" -Wl,-rpath,"$prefix/lib" -lmpi_abi || fail "abi_app.c does not build against mpi_abi_ref.h"
needs_abi abi_app
for np in 1 2 3 4; do
    out=$("$prefix/bin/mpiexec" -n $np ./abi_app 2>&1) || { printf '%s\n' "$out"; fail "abi_app at $np ranks"; }
    printf '%s\n' "$out" | grep -q "^OK abi_app $np ranks$" || { printf '%s\n' "$out"; fail "abi_app at $np ranks"; }
done
echo "ok abi_app (reference header, -lmpi_abi) at 1, 2, 3 and 4 ranks"

# Built with no skiff in sight: linked against a stand-in libmpi_abi.so.1 (tests/abi/stub_lib.c, all calls
# doing nothing), then run unchanged with skiff's lib directory on the search path.
mkdir other
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -I "$src" "$src/stub_lib.c" -o other/libmpi_abi.so.1 \
    -Wl,-soname,libmpi_abi.so.1 || fail "the stand-in library does not build"
ln -s libmpi_abi.so.1 other/libmpi_abi.so
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror -I "$src" "$src/abi_app.c" -o abi_app_elsewhere -L other -lmpi_abi ||
    fail "abi_app.c does not build against the stand-in library"
needs_abi abi_app_elsewhere
readelf -d abi_app_elsewhere | grep -q 'R.*PATH' && fail "abi_app_elsewhere has an rpath"
out=$(LD_LIBRARY_PATH="$prefix/lib" "$prefix/bin/mpiexec" -n 3 ./abi_app_elsewhere 2>&1) ||
    { printf '%s\n' "$out"; fail "abi_app built against another libmpi_abi, run on skiff"; }
printf '%s\n' "$out" | grep -q "^OK abi_app 3 ranks$" || { printf '%s\n' "$out"; fail "abi_app_elsewhere at 3 ranks"; }
echo "ok abi_app linked against another libmpi_abi.so.1 runs unchanged on skiff (3 ranks)"

[ "$("$prefix/bin/mpicc_abi" --showme:libs)" = mpi_abi ] || fail "mpicc_abi --showme:libs is not mpi_abi"
"$prefix/bin/mpicc_abi" -show | grep -q "$prefix/lib/libmpi_abi.so" || fail "mpicc_abi -show: $("$prefix/bin/mpicc_abi" -show)"
"$prefix/bin/mpicc_abi" "$hello" -o hello_abi
needs_abi hello_abi
lines=$("$prefix/bin/mpiexec" -n 2 ./hello_abi | grep -c '^Hello from rank [01] of 2$') || true
[ "$lines" -eq 2 ] || fail "hello built with mpicc_abi: expected 2 lines from 2 ranks, got $lines"
echo "ok mpicc_abi links libmpi_abi.so.1"
echo "OK abi library"
