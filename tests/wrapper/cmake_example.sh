#!/bin/sh
# cmake_example.sh BUILD_DIR EXAMPLE_DIR
# A CMake user's project (tests/cmake_example) against an installed skiff, with each recipe README.md
# gives: configure, build, and its own ctest, which runs a 2-rank program through MPIEXEC_EXECUTABLE.
# FindMPI must have picked skiff's mpiexec and libmpi: the cache, the command ctest ran, the library
# the program loads (ldd) and the one it names (MPI_Get_library_version) all say so.
# CFLAGS from the environment reach the example (an ASan build passes -fsanitize there).
set -u
build=$1 example=$2
prefix=$(mktemp -d "${TMPDIR:-/tmp}/skiff-cmake-example.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix/skiff" >/dev/null || { echo "FAIL: install"; exit 1; }
P=$prefix/skiff
unset MPI_HOME LD_LIBRARY_PATH

run_recipe() { # name, cmake arguments...
    name=$1
    shift
    dir=$prefix/$name
    echo "+ cmake -S $example -B $dir $*"
    cmake -S "$example" -B "$dir" "$@" >"$dir.log" 2>&1 || { cat "$dir.log"; echo "FAIL: $name: configure"; exit 1; }
    cmake --build "$dir" >>"$dir.log" 2>&1 || { cat "$dir.log"; echo "FAIL: $name: build"; exit 1; }
    exec_used=$(sed -n 's/^MPIEXEC_EXECUTABLE:FILEPATH=//p' "$dir/CMakeCache.txt")
    [ "$exec_used" = "$P/bin/mpiexec" ] || { echo "FAIL: $name: FindMPI chose mpiexec '$exec_used'"; exit 1; }
    grep -q "^MPI_[A-Za-z0-9_]*_LIBRARY:FILEPATH=$P/lib/libmpi.so\$" "$dir/CMakeCache.txt" ||
        { grep '^MPI_' "$dir/CMakeCache.txt"; echo "FAIL: $name: FindMPI did not find $P/lib/libmpi.so"; exit 1; }
    loaded=$(ldd "$dir/ring" | sed -n 's/^[[:space:]]*libmpi[^ ]* => \([^ ]*\) .*/\1/p')
    [ "$(readlink -f "$loaded")" = "$(readlink -f "$P/lib/libmpi.so.0")" ] ||
        { echo "FAIL: $name: ring loads libmpi from '$loaded'"; exit 1; }
    out=$(cd "$dir" && ctest -V 2>&1) || { echo "$out"; echo "FAIL: $name: the example's ctest failed"; exit 1; }
    echo "$out" | grep -q "Test command: $P/bin/mpiexec " ||
        { echo "$out"; echo "FAIL: $name: ctest did not run skiff's mpiexec"; exit 1; }
    echo "$out" | grep -q "token went round 2 ranks, visiting 1; library: skiff " ||
        { echo "$out"; echo "FAIL: $name: the program did not run 2 ranks on skiff"; exit 1; }
    echo "ok $name: $(echo "$out" | grep -m1 'token went round')"
}

run_recipe mpi_home -DMPI_HOME="$P"
run_recipe compiler_and_mpiexec -DMPI_C_COMPILER="$P/bin/mpicc" -DMPIEXEC_EXECUTABLE="$P/bin/mpiexec"
echo "OK cmake example"
