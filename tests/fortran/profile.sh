#!/bin/sh
# The built-in profiler sees Fortran calls under their MPI names, through each interface: mpif.h
# (f_p2p), the mpi module (f_coll) and mpi_f08 (f08_coll), each run under SKIFF_PROFILE=1 on 2 ranks;
# the report must count the calls each program is known to make.
# Usage: profile.sh MPIEXEC F_P2P F_COLL F08_COLL
set -u
mpiexec=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/skiff-fprof.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL fortran_profile: $*"; exit 1; }
check() { # program, then the calls its report must name
    prog=$1
    shift
    name=$(basename "$prog")
    SKIFF_PROFILE=1 SKIFF_PROFILE_FILE="$dir/$name.txt" "$mpiexec" -n 2 --timeout 60 "$prog" >"$dir/$name.out" 2>&1 ||
        fail "$name exited with $? under the profiler: $(tail -3 "$dir/$name.out")"
    for call in "$@"; do
        grep -Eq "^$call +[0-9]+ " "$dir/$name.txt" || fail "$name's report has no line for $call"
    done
}
check "$2" MPI_Send MPI_Recv MPI_Sendrecv MPI_Waitany
check "$3" MPI_Bcast MPI_Allreduce MPI_Alltoall
check "$4" MPI_Bcast MPI_Reduce MPI_Allreduce MPI_Alltoall
echo "OK fortran_profile"
