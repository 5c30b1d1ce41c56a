#!/bin/sh
# The census of the MPI C API: every function, constant and type named in functions.txt, constants.txt and
# types.txt (written from the standard) must be declared by the mpi.h under test, and every function must
# be exported as MPI_x and PMPI_x by the libmpi.so under test -- unless a glob in exclusions.txt matches it,
# with the issue that owns it. An exclusion that matches nothing missing fails too, so the list stays honest.
# Prints the counts that README.md quotes; given libmpifort.so and the Fortran generator's list
# (src/fortran/fortran_bindings.txt), also how many of the functions present have Fortran bindings.
# Usage: census.sh <libmpi.so> <include-dir> [cc [<libmpifort.so> <fortran_bindings.txt>]]
set -eu
lib=$1
inc=$2
cc=${3:-cc}
flib=${4:-}
flist=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/skiff-census.XXXXXX")
trap 'rm -rf "$work"' EXIT

names() { grep -v '^#' "$here/$1" | grep .; }

# One C function per name, so the compiler reports every undeclared name, not only the first.
{
    echo '#include <mpi.h>'
    echo '#include <stdint.h>'
    echo 'typedef void (*census_fn)(void);'
    names functions.txt | awk '{ printf "census_fn f%d(void) { return (census_fn)%s; }\n", NR, $1 }'
    names constants.txt | awk '{ printf "intptr_t c%d(void) { return (intptr_t)(%s); }\n", NR, $1 }'
    names types.txt | awk '{ printf "void t%d(void) { %s *p = 0; (void)p; }\n", NR, $1 }'
} >"$work/census.c"
"$cc" -std=c11 -fsyntax-only -fmax-errors=0 -I"$inc" "$work/census.c" 2>"$work/cc.err" || true
# gcc and clang both quote the missing name in "'X' undeclared" / "unknown type name 'X'" / "undeclared identifier 'X'".
# Only the first quoted name of a line: the rest is a "did you mean" suggestion.
grep -E "undeclared|unknown type name" "$work/cc.err" | sed -n "s/^[^\`'‘\"]*[\`'‘\"]\(MPI_[A-Za-z0-9_]*\).*/\1/p" |
    sort -u >"$work/undeclared"
if grep -q 'error' "$work/cc.err" && ! [ -s "$work/undeclared" ]; then
    echo "census: compiling the probe failed for another reason:" >&2
    head -20 "$work/cc.err" >&2
    exit 1
fi
nm -D --defined-only "$lib" | awk '{ print $NF }' | sort -u >"$work/exports"

# missing: "<name>\t<why>" for every name that the header or the library lacks (one awk pass: the lists
# are long and a grep per name is slow under load).
names functions.txt >"$work/functions"
names constants.txt >"$work/constants"
names types.txt >"$work/types"
grep -v '^#' "$here/exclusions.txt" | grep . >"$work/exclusions" || true
awk -v out="$work/missing" '
    FILENAME ~ /undeclared$/ { undeclared[$1] = 1; next }
    FILENAME ~ /exports$/    { exported[$1] = 1; next }
    {
        why = ""
        if ($1 in undeclared) why = "not declared"
        if (FILENAME ~ /functions$/) {
            if (!($1 in exported)) why = why (why ? ", " : "") "MPI_ not exported"
            if (!(("P" $1) in exported)) why = why (why ? ", " : "") "PMPI_ not exported"
        }
        if (why != "") printf "%s\t%s\n", $1, why > out
    }' "$work/undeclared" "$work/exports" "$work/functions" "$work/constants" "$work/types"
touch "$work/missing"

# exclusions.txt: "<glob> <owner and reason>"; a name is excluded when a glob matches it.
excluded_by() {
    while read -r glob reason; do
        case "$1" in $glob) printf '%s' "$glob"; return 0 ;; esac
    done <"$work/exclusions"
}

fail=0
nfun=$(wc -l <"$work/functions")
ncon=$(cat "$work/constants" "$work/types" | wc -l)
mfun=$(cut -f1 "$work/missing" | grep -cxFf "$work/functions" || true)
mcon=$(($(wc -l <"$work/missing") - mfun))
while IFS="$(printf '\t')" read -r name why; do
    if [ -z "$(excluded_by "$name")" ]; then
        echo "census: MISSING $name ($why), and exclusions.txt does not list it"
        fail=1
    fi
done <"$work/missing"
# Every exclusion must still exclude something: when the last call of a family arrives, its line goes.
cut -f1 "$work/missing" | sort >"$work/missing.names"
while read -r glob reason; do
    hit=""
    while read -r name; do
        case "$name" in $glob) hit=1; break ;; esac
    done <"$work/missing.names"
    if [ -z "$hit" ]; then
        echo "census: exclusion '$glob' matches nothing missing any more: remove it from exclusions.txt"
        fail=1
    fi
done <"$work/exclusions"

echo "census: functions present $((nfun - mfun)) of $nfun; constants and types present $((ncon - mcon)) of $ncon"
if [ -n "$flib" ]; then
    # Fortran beside C: of the functions present, those libmpifort exports for mpif.h / the mpi module
    # (mpi_x_) and for mpi_f08 (mpi_x_f08_ or mpi_x_f08ts_), and what the generator says of the rest.
    nm -D --defined-only "$flib" | awk '{ print $NF }' | sort -u >"$work/fexports"
    cut -f1 "$work/missing" | sort >"$work/absent"
    sort "$work/functions" | comm -23 - "$work/absent" >"$work/present"
    awk -v ff="$work/fcounts" '
        FILENAME ~ /fexports$/ { e[$1] = 1; next }
        FILENAME ~ /fortran_bindings/ { kind["MPI_" $2] = $1; next }
        {
            l = tolower(substr($1, 5)); n++
            if (("mpi_" l "_") in e) f++
            if (("mpi_" l "_f08_") in e || ("mpi_" l "_f08ts_") in e) f08++
            has08 = (("mpi_" l "_f08_") in e || ("mpi_" l "_f08ts_") in e)
            if (!(("mpi_" l "_") in e) && !has08) { if (kind[$1] == "c-only") c++; else u++ }
        }
        END { printf "%d %d %d %d %d\n", n, f, f08, c, u > ff }' "$work/fexports" "$flist" "$work/present"
    read -r fn ff f08 fc fu <"$work/fcounts"
    echo "census: Fortran: of the $fn functions present, $ff have mpif.h/mpi bindings and $f08 mpi_f08 ones" \
         "(large-count forms: mpi_f08 only); $fc have none, being C-only by the standard (or a large-count" \
         "form whose mpi_f08 generic is its base's); without a Fortran binding yet: $fu (docs/fortran.md)"
fi
echo "census: excluded (missing, owned by a later issue or not planned):"
while read -r glob reason; do
    n=$(while read -r name; do case "$name" in $glob) echo x ;; esac; done <"$work/missing.names" | wc -l)
    printf '  %-28s %4d  %s\n' "$glob" "$n" "$reason"
done <"$work/exclusions"
exit $fail
