#!/bin/sh
# suite.sh MPIEXEC NP PROGRAM... : runs each program on the hosts in $HOSTS (set by cluster.sh or
# slurm.sh's caller) through skiff's mpiexec and 'ip netns exec', NP ranks in blocks over the hosts.
# With LAUNCH=srun, runs them with srun --mpi=pmi2 instead; LAUNCH=srun-pmix: srun --mpi=pmix;
# LAUNCH=mpirun: Open MPI's mpiexec.openmpi (its own PMIx server) on this host, NP ranks here.
# Stops at the first failure.
set -u
mpiexec=$1
np=$2
shift 2
for prog in "$@"; do
    name=$(basename "$prog")
    if [ "${LAUNCH:-}" = srun ]; then
        out=$(timeout 120 srun -O --mpi=pmi2 -n "$np" "$prog" 2>&1)
    elif [ "${LAUNCH:-}" = srun-pmix ]; then
        out=$(timeout 120 srun -O --mpi=pmix -n "$np" "$prog" 2>&1)
    elif [ "${LAUNCH:-}" = mpirun ]; then
        out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            timeout 120 mpiexec.openmpi --allow-run-as-root --oversubscribe --bind-to none -n "$np" "$prog" 2>&1)
    else
        out=$("$mpiexec" --hosts "$HOSTS" --launcher-template 'ip netns exec {host}' -n "$np" --timeout 120 \
            "$prog" 2>&1)
    fi
    rc=$?
    if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q "^OK $name"; then
        echo "FAILED: $name (np=$np, exit $rc)"
        printf '%s\n' "$out" | tail -n 30
        exit 1
    fi
    echo "ok: $name np=$np"
done
