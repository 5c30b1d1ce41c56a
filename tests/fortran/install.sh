#!/bin/sh
# install.sh BUILD_DIR TEST_SRC_DIR
# The Fortran side of an installed skiff: `cmake --install` into a fresh prefix gives mpif.h, mpi.mod,
# libmpifort.so and mpifort/mpif90/mpif77 that point into the prefix; programs built with them (mpif.h
# in fixed form, the mpi and mpi_f08 modules in free form) run under the prefix's mpiexec with no
# LD_LIBRARY_PATH.
set -eu
build=$1 src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/skiff-finstall.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/skiff
cmake --install "$build" --prefix "$prefix" >/dev/null
unset LD_LIBRARY_PATH
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
for f in bin/mpifort bin/mpif90 bin/mpif77 include/mpif.h include/mpi.mod include/mpi_f08.mod \
         lib/libmpifort.so; do
    [ -e "$prefix/$f" ] || fail "$prefix/$f is missing"
done
for w in mpifort mpif90 mpif77; do
    "$prefix/bin/$w" -show | grep -q -- "-I$prefix/include .*$prefix/lib/libmpifort.so $prefix/lib/libmpi.so" ||
        fail "$w -show: $("$prefix/bin/$w" -show)"
done
[ "$("$prefix/bin/mpifort" --showme:libs)" = "mpifort mpi" ] || fail "mpifort --showme:libs"
"$prefix/bin/mpif77" -Wall -cpp "$src/f_p2p.f" "$src/fcheck.f" -o p2p || fail "mpif77 f_p2p.f"
"$prefix/bin/mpifort" -Wall "$src/f_coll.f90" "$src/fcheck.f" -o coll || fail "mpifort f_coll.f90"
"$prefix/bin/mpif90" -Wall "$src/f08_p2p.f90" "$src/fcheck.f" -o f08 || fail "mpif90 f08_p2p.f90 (use mpi_f08)"
# The mpi module checks the hand-written calls too (an attribute value must be an ADDRESS_KIND integer),
# and the PMPI_ names as their MPI_ twins: each program must be rejected with the argument named.
rejects() { # name, argument the error must name, the call
    printf '%s\n' "program $1" '  use mpi' '  integer :: ierr' "  call $3" 'end program' >"$1.f90"
    if "$prefix/bin/mpifort" -c "$1.f90" -o "$1.o" 2>"$1.err"; then
        fail "use mpi accepted $3"
    fi
    grep -q "$2" "$1.err" || fail "use mpi: unexpected error for $3: $(cat "$1.err")"
}
rejects bad attribute_val 'MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, 1, ierr)'
rejects badp 'argument .rank' 'PMPI_Comm_rank(MPI_COMM_WORLD, 1.5, ierr)'
for p in p2p coll f08; do
    out=$("$prefix/bin/mpiexec" -n 2 "./$p" 2>&1) || fail "$p: $out"
    printf '%s\n' "$out" | grep -q ': ok$' || fail "$p printed: $out"
done
echo "OK Fortran from the installed prefix $prefix"
