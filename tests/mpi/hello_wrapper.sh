#!/bin/sh
# hello_wrapper.sh MPICC MPIEXEC SOURCE WORKDIR [NP]
#
# Builds SOURCE with the mpicc wrapper, runs it with `MPIEXEC -n NP` (default 4) and checks the
# output is exactly NP lines "Hello from rank R of NP", one per rank. Proves the wrapper finds
# the header and library and the launcher starts a working job.
set -u
mpicc=$1
mpiexec=$2
src=$3
work=$4
np=${5:-4}

mkdir -p "$work" || exit 1
exe="$work/hello"
rm -f "$exe"

echo "+ $mpicc $src -o $exe"
"$mpicc" "$src" -o "$exe" || { echo "FAIL: mpicc failed"; exit 1; }

echo "+ $mpiexec -n $np $exe"
out=$("$mpiexec" -n "$np" "$exe") || { echo "FAIL: mpiexec exited $?"; echo "$out"; exit 1; }
echo "$out"

lines=$(printf '%s\n' "$out" | wc -l)
[ "$lines" -eq "$np" ] || { echo "FAIL: expected $np lines, got $lines"; exit 1; }
r=0
while [ "$r" -lt "$np" ]; do
    n=$(printf '%s\n' "$out" | grep -c "^Hello from rank $r of $np\$")
    [ "$n" -eq 1 ] || { echo "FAIL: rank $r reported $n times"; exit 1; }
    r=$((r + 1))
done
echo "OK hello"
