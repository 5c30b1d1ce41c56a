#!/bin/sh
# install_layout.sh BUILD_DIR HELLO_C
# `cmake --install` into a fresh prefix gives the promised layout, and everything in it works with no
# LD_LIBRARY_PATH and no build tree in sight: every installed program starts (--help), skiff-info and
# skiff-pipe do real work, a program built with the installed mpicc (also with a line that would let
# another MPI's libmpi in: tests/wrapper/link_exact.sh) runs under mpiexec and mpirun, pkg-config's
# skiff, mpi, mpi-c and mpi-cxx give normalised paths into the prefix, and after the whole prefix is
# moved elsewhere the programs still start (their rpath is relative to themselves).
set -eu
build=$1 hello=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/skiff-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/skiff
cmake --install "$build" --prefix "$prefix" >/dev/null
unset LD_LIBRARY_PATH
cd "$work"

fail() { echo "FAIL: $*"; exit 1; }

for f in bin/mpicc bin/mpicxx bin/mpiexec bin/mpirun include/mpi.h lib/libmpi.so lib/libmpi.so.0 \
         lib/pkgconfig/skiff.pc lib/pkgconfig/mpi.pc lib/pkgconfig/mpi-c.pc lib/pkgconfig/mpi-cxx.pc; do
    [ -e "$prefix/$f" ] || fail "$prefix/$f is missing"
done
for p in skiff-info skiff-clean skiff-pipe skiff-fan skiff-map skiff-stream; do
    [ -x "$prefix/bin/$p" ] || fail "$prefix/bin/$p is missing"
done

# Every installed program starts: --help exits 0 (a library that cannot be loaded gives 127).
starts() { # prefix
    for p in "$1"/bin/*; do
        out=$("$p" --help 2>&1) || fail "$p --help exited $?: $(printf '%s\n' "$out" | head -3)"
        [ -n "$out" ] || fail "$p --help printed nothing"
    done
    echo "ok every program in $1/bin starts"
}
starts "$prefix"

info=$("$prefix/bin/skiff-info") || fail "skiff-info exited $?"
printf '%s\n' "$info" | grep -q '^library: *skiff ' || fail "skiff-info printed: $info"
"$prefix/bin/mpiexec" -n 2 "$prefix/bin/skiff-pipe" --quick -q -o pipe.out >pipe.txt 2>&1 ||
    { cat pipe.txt; fail "mpiexec -n 2 skiff-pipe --quick exited non-zero"; }
grep -q '^latency ' pipe.txt || { cat pipe.txt; fail "skiff-pipe reported no latency"; }
echo "ok skiff-info and mpiexec -n 2 skiff-pipe --quick"

"$prefix/bin/mpicc" -show | grep -q "$prefix/include" || fail "installed mpicc points elsewhere"
"$prefix/bin/mpicc" "$hello" -o "$work/hello"
for launcher in mpiexec mpirun; do
    lines=$("$prefix/bin/$launcher" -n 2 "$work/hello" | grep -c '^Hello from rank [01] of 2$') || true
    [ "$lines" -eq 2 ] || fail "$launcher: expected 2 lines from 2 ranks, got $lines"
done
echo "ok hello under mpiexec and mpirun"
sh "$here/wrapper/link_exact.sh" "$prefix/bin/mpicc" "$prefix/bin/mpiexec" "$hello" "$work/link_exact" ||
    fail "the installed mpicc links another libmpi"

# pkg-config: skiff's directory first finds skiff under each name, even where the system has an MPI's
# mpi.pc; paths in the prefix, without pkgconfig/../.. detours.
for m in skiff mpi mpi-c mpi-cxx; do
    flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs "$m")
    flags=$(echo $flags) # one space between words
    [ "$flags" = "-I$prefix/include -L$prefix/lib -Wl,-rpath,$prefix/lib -lmpi" ] ||
        fail "pkg-config $m gives '$flags'"
done
# shellcheck disable=SC2086
${SKIFF_CC:-cc} "$hello" -o "$work/hello_pc" $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs mpi)
lines=$("$prefix/bin/mpiexec" -n 2 "$work/hello_pc" | grep -c '^Hello from rank [01] of 2$') || true
[ "$lines" -eq 2 ] || fail "the pkg-config build printed $lines lines, expected 2"
echo "ok pkg-config skiff, mpi, mpi-c, mpi-cxx"

# A moved prefix: the programs find libmpi relative to themselves.
mv "$prefix" "$work/moved"
starts "$work/moved"
"$work/moved/bin/skiff-info" | grep -q '^library: *skiff ' || fail "skiff-info in the moved prefix"
"$work/moved/bin/mpiexec" -n 2 "$work/moved/bin/skiff-pipe" --end 1k --pert 0 --trials 1 -q -o pipe2.out >pipe2.txt 2>&1 ||
    { cat pipe2.txt; fail "skiff-pipe in the moved prefix"; }
echo "ok the moved prefix"
echo "OK install layout in $prefix"
