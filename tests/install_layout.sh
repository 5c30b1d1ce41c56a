#!/bin/sh
# install_layout.sh BUILD_DIR HELLO_C
# `cmake --install` into a fresh prefix gives the promised layout, and a program built with the
# installed mpicc runs under the installed mpiexec with no LD_LIBRARY_PATH and no build tree in sight.
set -eu
build=$1 hello=$2
prefix=$(mktemp -d "${TMPDIR:-/tmp}/skiff-install.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/mpicc bin/mpicxx bin/mpiexec include/mpi.h lib/libmpi.so lib/pkgconfig/skiff.pc; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $prefix/$f is missing"; exit 1; }
done
"$prefix/bin/mpicc" -show | grep -q "$prefix/include" || { echo "FAIL: installed mpicc points elsewhere"; exit 1; }
"$prefix/bin/mpicc" "$hello" -o "$prefix/hello"
unset LD_LIBRARY_PATH
lines=$("$prefix/bin/mpiexec" -n 2 "$prefix/hello" | wc -l)
[ "$lines" -eq 2 ] || { echo "FAIL: expected 2 lines from 2 ranks, got $lines"; exit 1; }
# The pkg-config file alone is enough to build and run a program too.
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs skiff)
# shellcheck disable=SC2086
${SKIFF_CC:-cc} "$hello" -o "$prefix/hello_pc" $flags
lines=$("$prefix/bin/mpiexec" -n 2 "$prefix/hello_pc" | wc -l)
[ "$lines" -eq 2 ] || { echo "FAIL: the pkg-config build printed $lines lines, expected 2"; exit 1; }
echo "OK install layout in $prefix"
