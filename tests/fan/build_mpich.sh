#!/bin/sh
# build_mpich.sh SRCDIR OUT
# skiff-fan is written against the MPI API only: its sources and tools/lib must build warning-free with
# MPICH's compiler wrapper too. Exits 77 (skipped) when mpicc.mpich is not installed.
set -u
src=$1
out=$2
if ! command -v mpicc.mpich >/dev/null 2>&1; then
    echo "SKIP: mpicc.mpich not found"
    exit 77
fi
mkdir -p "$(dirname "$out")" || exit 1
rm -f "$out"
# shellcheck disable=SC2086 # the file list is a glob on purpose
mpicc.mpich -std=c11 -O2 -Wall -Wextra -Werror -I"$src/tools" -I"$src/tools/lib" \
    "$src"/tools/skiff_fan*.c "$src/tools/lib/measure.c" -o "$out" || { echo "FAIL: mpicc.mpich build"; exit 1; }
[ -x "$out" ] || { echo "FAIL: no $out"; exit 1; }
echo "OK built $out with mpicc.mpich"
