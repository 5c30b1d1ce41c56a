#!/bin/sh
# census.sh LIBMPIFORT BINDINGS_TXT
# The Fortran bindings' census: every call gen_bindings.py bound (or left to fortran_hand.c) is exported
# by libmpifort under the names Fortran compilers call (mpi_x_, mpi_x__, MPI_X) and as pmpi_x_,
# pmpi_x__, PMPI_X; libmpifort exports nothing else but the COMMON blocks of the special addresses
# and the predefined attribute procedures (all mpi_*; under ASan also its __odr_asan.mpi_* markers of
# those COMMON blocks). Prints the counts docs/fortran.md quotes.
set -eu
lib=$1 list=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/skiff-fcensus.XXXXXX")
trap 'rm -rf "$work"' EXIT
nm -D --defined-only "$lib" | awk '{ print $NF }' | sort -u >"$work/exports"
fail=0
# __odr_asan.X: AddressSanitizer's one-definition markers of the exported COMMON blocks (ASan builds).
stray=$(grep -v '^\(mpi_\|pmpi_\|MPI_\|PMPI_\|__odr_asan\.mpi_\)' "$work/exports" || true)
[ -z "$stray" ] || { echo "fortran census: libmpifort exports other names: $stray"; fail=1; }
awk '$1 == "bound" || $1 == "hand" { print $2 }' "$list" >"$work/bound"
while read -r name; do
    lower=$(printf '%s' "$name" | tr 'A-Z' 'a-z')
    upper=$(printf '%s' "$name" | tr 'a-z' 'A-Z')
    for sym in "mpi_${lower}_" "mpi_${lower}__" "MPI_${upper}" "pmpi_${lower}_" "pmpi_${lower}__" "PMPI_${upper}"; do
        grep -qxF "$sym" "$work/exports" || { echo "fortran census: MISSING $sym"; fail=1; }
    done
done <"$work/bound"
for kind in bound hand c-only unbound; do
    printf '%s %s\n' "$kind" "$(grep -c "^$kind " "$list" || true)"
done
grep '^unbound ' "$list" || true
[ "$fail" -eq 0 ] && echo "fortran census: ok"
exit "$fail"
