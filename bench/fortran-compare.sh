#!/usr/bin/env bash
# bench/fortran-compare.sh — the Fortran CG (bench/fortran/cg.f90, mpi_f08 only) built from the same
# source with skiff's mpifort, MPICH's (mpif90.mpich) and Open MPI's (mpif90.openmpi), all with -O2,
# run interleaved (skiff, mpich, ompi, skiff, ...) ROUNDS times at each rank count on this host, with
# bench/peers.sh's launchers (one rank pinned per core while they fit, each library's oversubscription
# settings beyond). Every run must report the same iteration count and residual (printed to 6 digits);
# the summary gives per library and rank count the median and min solve time (slowest rank) and skiff's
# median / each peer's.
#
# Usage: bench/fortran-compare.sh [-r ROUNDS] [-n NPS] [-s N] [-l LIBS]
#   -r ROUNDS  interleaved rounds (default 5)
#   -n NPS     comma list of rank counts (default 1,2)
#   -s N       grid size: N^3 unknowns (default 96)
#   -l LIBS    comma list from skiff,mpich,ompi (default all three)
# Environment: SKIFF_BUILD (default <repo>/build), MPICH_ENV, OMPI_MCA as in bench/compare.sh.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly BENCH_DIR
readonly SKIFF_BUILD="${SKIFF_BUILD:-${BENCH_DIR%/bench}/build}"
readonly MPICH_ENV="${MPICH_ENV-UCX_TLS=self,posix}"
readonly OMPI_MCA="${OMPI_MCA---mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none}"
# shellcheck source=bench/peers.sh
. "$BENCH_DIR/peers.sh"

ROUNDS=5 NPS="1 2" SIZE=96 LIBS="skiff mpich ompi"
while getopts "r:n:s:l:h" opt; do
    case "$opt" in
        r) ROUNDS="$OPTARG" ;;
        n) NPS="${OPTARG//,/ }" ;;
        s) SIZE="$OPTARG" ;;
        l) LIBS="${OPTARG//,/ }" ;;
        *) sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 2 ;;
    esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/skiff-fcg.XXXXXX")
trap 'rm -rf "$work"' EXIT
for lib in $LIBS; do
    case "$lib" in
        skiff) fc="$SKIFF_BUILD/bin/mpifort" ;;
        mpich) fc=mpif90.mpich ;;
        ompi) fc=mpif90.openmpi ;;
        *) echo "fortran-compare.sh: unknown library $lib" >&2; exit 2 ;;
    esac
    "$fc" -O2 "$BENCH_DIR/fortran/cg.f90" -o "$work/cg-$lib"
done

echo "# $(date -u +%FT%TZ) $(uname -n) load $(cut -d' ' -f1-3 /proc/loadavg) size $SIZE rounds $ROUNDS"
for np in $NPS; do
    for r in $(seq "$ROUNDS"); do
        for lib in $LIBS; do
            mapfile -t launch < <(launcher_np_for "$lib" "$np")
            line=$("${launch[@]}" "$work/cg-$lib" "$SIZE" 2>&1 | grep '^cg:') ||
                { echo "fortran-compare.sh: $lib np $np failed" >&2; exit 1; }
            echo "$lib np $np round $r $line" | tee -a "$work/raw"
        done
    done
done
echo "# load after $(cut -d' ' -f1-3 /proc/loadavg)"

# Lines: lib np NP round R cg: n N ranks R iterations I residual X time T per_iteration P
awk -v libs="$LIBS" '
    function isort(v, m,    i, j, x) { for (i = 2; i <= m; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x } }
    { key = $1 " " $3; answer[$3 " iterations " $12 " residual " $14]++; t[key] = t[key] " " $16 }
    END {
        n = 0; for (a in answer) n++
        if (n > 0) for (a in answer) { split(a, f, " "); seen[f[1]]++ }
        bad = 0; for (np in seen) if (seen[np] > 1) bad = 1
        print (bad ? "ANSWERS DIFFER between libraries:" : "same answer (iterations, residual) in every run:")
        for (a in answer) print "  np " a " (" answer[a] " runs)"
        nl = split(libs, L, " ")
        printf "%-4s", "np"; for (i = 1; i <= nl; i++) printf " %14s", L[i] " med/min"
        printf "   skiff/peer (median)\n"
        for (np in seen) {
            printf "%-4s", np
            for (i = 1; i <= nl; i++) {
                m = split(substr(t[L[i] " " np], 2), v, " "); isort(v, m)
                med[L[i]] = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
                printf " %7.4f/%6.4f", med[L[i]], v[1]
            }
            for (i = 1; i <= nl; i++) if (L[i] != "skiff" && med["skiff"] != "")
                printf "   %s %.2f", L[i], med["skiff"] / med[L[i]]
            printf "\n"
        }
        exit bad
    }' "$work/raw"
