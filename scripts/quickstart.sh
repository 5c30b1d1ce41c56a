#!/bin/sh
# From a fresh Debian 12 machine to a two-rank ping-pong: dependencies, build, run.
set -eu
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
echo "built: build/bin/mpicc build/bin/mpicxx build/bin/mpiexec build/lib/libmpi.so"
echo
echo "two-rank ping-pong and streaming over shared memory (build/bin/mpiexec -n 2 build/bin/skiff-bench-pt2pt --quick):"
build/bin/mpiexec -n 2 build/bin/skiff-bench-pt2pt --quick | awk '
    BEGIN { printf "  %-10s %12s %14s\n", "bytes", "latency us", "bandwidth GB/s" }
    $1 == "lat" { printf "  %-10s %12.3f %14s\n", $2, $3, "" }
    $1 == "bw"  { printf "  %-10s %12s %14.2f\n", $2, "", $3 }'
