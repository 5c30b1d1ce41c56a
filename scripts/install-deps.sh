#!/bin/sh
# Installs what skiff needs to build, test and compare itself, from Debian's packages.
# Does nothing when everything is already there; uses sudo when not run as root.
set -eu

# clang + libclang-rt-14-dev: the libFuzzer target; iproute2: the emulated cluster (ip netns, tc);
# netpipe-tcp: raw TCP floor for bench/cluster.sh; slurm-wlm + munge: srun --mpi=pmi2 tests;
# libpmix-dev: PMIx launch (srun --mpi=pmix, Open MPI's mpirun; skiff builds without it, and says so);
# libucx-dev: the ucx transport (skiff builds without it, and says so); valgrind: the memcheck subset of
# the suite; gfortran (+ python3, the generator): the Fortran bindings.
PKGS="build-essential cmake pkg-config libhwloc-dev hwloc libcmocka-dev gnuplot-nox gfortran
      mpich libmpich-dev openmpi-bin libopenmpi-dev python3 procps hostname
      clang libclang-rt-14-dev iproute2 netpipe-tcp slurm-wlm munge valgrind libpmix-dev libucx-dev"

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
