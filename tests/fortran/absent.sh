#!/bin/sh
# absent.sh SOURCE_DIR
# Configures skiff with a Fortran compiler that does not exist: the configuration must succeed, say
# that the Fortran bindings are skipped, and give mpicc but no mpifort.
set -eu
src=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/skiff-nofortran.XXXXXX")
trap 'rm -rf "$work"' EXIT
out=$(cmake -S "$src" -B "$work/b" -DSKIFF_TESTS=OFF -DCMAKE_Fortran_COMPILER=/nonexistent/gfortran 2>&1) ||
    { printf '%s\n' "$out"; echo "FAIL: configuring without a Fortran compiler failed"; exit 1; }
printf '%s\n' "$out" | grep -q 'the Fortran bindings are skipped' ||
    { printf '%s\n' "$out"; echo "FAIL: no message that Fortran is skipped"; exit 1; }
[ -x "$work/b/bin/mpicc" ] || { echo "FAIL: no mpicc"; exit 1; }
[ ! -e "$work/b/bin/mpifort" ] || { echo "FAIL: an mpifort without Fortran"; exit 1; }
echo "OK skiff configures without Fortran"
