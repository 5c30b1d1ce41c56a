#!/bin/sh
# clang.sh MPICC MPICXX MPIEXEC HELLO_C HELLO_CPP WORKDIR
# SKIFF_CC / SKIFF_CXX choose the compiler the wrappers drive (as MPICH_CC and OMPI_CC do): with
# clang and clang++ the programs must be built by clang (its name in .comment), need skiff's libmpi
# and run 2 ranks. Exit 77 (skipped) without clang.
set -u
mpicc=$1 mpicxx=$2 mpiexec=$3 hello=$4 hello_cpp=$5 work=$6
command -v clang >/dev/null && command -v clang++ >/dev/null || { echo "SKIP: no clang"; exit 77; }
mkdir -p "$work" || exit 1

# An instrumented libmpi (SKIFF_SANITIZE) needs the sanitizer runtime it was built with loaded first;
# clang's own ASan runtime cannot stand in for gcc's, so the runs preload gcc's.
libdir=$(cd "$(dirname "$mpicc")/../lib" && pwd -P) || exit 1
asan=$(ldd "$libdir/libmpi.so" | sed -n 's/^[[:space:]]*libasan[^ ]* => \([^ ]*\) .*/\1/p')

check() { # what, wrapper, env assignment, source, output name
    what=$1 wrapper=$2 setting=$3 src=$4 exe="$work/$5"
    rm -f "$exe"
    echo "+ env $setting $wrapper -Wall -Werror $src -o $exe"
    env "$setting" "$wrapper" -Wall -Werror "$src" -o "$exe" || { echo "FAIL: $what: the build failed"; exit 1; }
    shown=$(env "$setting" "$wrapper" -show)
    case $shown in
        "${setting#*=} "*) ;;
        *) echo "FAIL: $what: -show starts '$shown', not '${setting#*=}'"; exit 1 ;;
    esac
    readelf -p .comment "$exe" | grep -q 'clang version' ||
        { echo "FAIL: $what: no clang in .comment:"; readelf -p .comment "$exe"; exit 1; }
    readelf -d "$exe" | grep -q 'NEEDED.*\[libmpi\.so\.0\]' || { echo "FAIL: $what: does not need libmpi.so.0"; exit 1; }
    out=$("$mpiexec" -n 2 env ${asan:+LD_PRELOAD=$asan} "$exe") || { echo "FAIL: $what: mpiexec exited $?"; exit 1; }
    echo "$out"
    [ "$(printf '%s\n' "$out" | grep -c '^Hello from rank [01] of 2$')" -eq 2 ] || { echo "FAIL: $what: wrong output"; exit 1; }
    echo "ok $what"
}

check "mpicc with SKIFF_CC=clang" "$mpicc" SKIFF_CC=clang "$hello" hello_clang
check "mpicxx with SKIFF_CXX=clang++" "$mpicxx" SKIFF_CXX=clang++ "$hello_cpp" hello_clangxx
echo "OK clang"
