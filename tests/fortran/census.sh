#!/bin/sh
# census.sh LIBMPIFORT BINDINGS_TXT
# The Fortran bindings' census: every call gen_bindings.py bound (or left to fortran_hand.c) is exported
# by libmpifort under the names Fortran compilers call (mpi_x_, mpi_x__, MPI_X) and as pmpi_x_,
# pmpi_x__, PMPI_X, and under its mpi_f08 name (mpi_x_f08_, or mpi_x_f08ts_ for a call with a choice
# buffer, and pmpi_...), and every large-count form the generator put in mpi_f08 (f08-only) under its
# mpi_f08 name; libmpifort exports nothing else but the COMMON blocks of the special addresses,
# the predefined attribute procedures (all mpi_*) and the mpi_f08 module's own symbols (__mpi_f08_MOD_*:
# the predefined handles, which a call passes by address, and == and /= on handles); under ASan also
# the __odr_asan.* markers of those data symbols. Prints the counts docs/fortran.md quotes.
set -eu
lib=$1 list=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/skiff-fcensus.XXXXXX")
trap 'rm -rf "$work"' EXIT
nm -D --defined-only "$lib" | awk '{ print $NF }' | sort -u >"$work/exports"
fail=0
# __odr_asan.X: AddressSanitizer's one-definition markers of the exported data (ASan builds).
stray=$(grep -v '^\(mpi_\|pmpi_\|MPI_\|PMPI_\|__odr_asan\.mpi_\|__mpi_f08_MOD_\|__odr_asan\.__mpi_f08_MOD_\)' "$work/exports" || true)
[ -z "$stray" ] || { echo "fortran census: libmpifort exports other names: $stray"; fail=1; }
# The names each bound call must have; the mpi_f08 name ends in _f08ts when there is a choice buffer
# (either spelling is accepted here), and MPI-1's removed calls have none.
awk '$1 == "bound" || $1 == "hand" {
        l = tolower($2); u = toupper($2)
        print "mpi_" l "_"; print "mpi_" l "__"; print "MPI_" u
        print "pmpi_" l "_"; print "pmpi_" l "__"; print "PMPI_" u
        if ($2 !~ /^(Keyval_create|Attr_put|Attr_get|Errhandler_create)$/) {
            print "mpi_" l "_f08_"; print "pmpi_" l "_f08_"
        }
    }
    $1 == "f08-only" { l = tolower($2); print "mpi_" l "_f08_"; print "pmpi_" l "_f08_" }' "$list" |
    sort -u >"$work/expected"
sed 's/_f08ts_$/_f08_/' "$work/exports" | sort -u >"$work/exports08"
missing=$(comm -23 "$work/expected" "$work/exports08")
[ -z "$missing" ] || { echo "fortran census: MISSING (an f08 name may be _f08ts_):" $missing; fail=1; }
for kind in bound hand f08-only c-only unbound; do
    printf '%s %s\n' "$kind" "$(grep -c "^$kind " "$list" || true)"
done
grep '^unbound ' "$list" || true
printf 'mpi_f08 specific procedures %s (with a choice buffer, _f08ts: %s)\n' \
    "$(grep -c '^mpi_[a-z0-9_]*_f08\(ts\)\?_$' "$work/exports")" "$(grep -c '^mpi_[a-z0-9_]*_f08ts_$' "$work/exports")"
[ "$fail" -eq 0 ] && echo "fortran census: ok"
exit "$fail"
