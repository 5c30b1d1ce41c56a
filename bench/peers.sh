# bench/peers.sh — sourced by compare.sh, pipe-compare.sh and cg-compare.sh: how each library starts its
# ranks on this host, at the settings those scripts' headers explain (MPICH_ENV, OMPI_MCA, SKIFF_BUILD):
# two ranks one per core (launcher_for), or N ranks pinned while they fit and oversubscribed beyond
# (launcher_np_for).

# Prints the launcher argv (one word per line) for library $1: 2 ranks, one per core.
launcher_for() {
    case "$1" in
        skiff) printf '%s\n' "$SKIFF_BUILD/bin/mpiexec" -n 2 --bind-to core ;;
        mpich)
            # shellcheck disable=SC2086  # word-split on purpose
            printf '%s\n' env $MPICH_ENV mpiexec.mpich -n 2 -bind-to core ;;
        ompi)
            printf '%s\n' env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                mpiexec.openmpi -n 2 --bind-to core --map-by core
            if [[ $(id -u) -eq 0 ]]; then echo --allow-run-as-root; fi
            # shellcheck disable=SC2086  # word-split on purpose
            if [[ -n "$OMPI_MCA" ]]; then printf '%s\n' $OMPI_MCA; fi ;;
    esac
}

NCORES="$(nproc)"

# More ranks than cores: oversubscribed, nothing pinned.
oversubscribed() { [[ "$1" -gt "$NCORES" ]]; }

# Prints the launcher argv for library $1 with $2 ranks: one rank pinned per core while they
# fit (as launcher_for), otherwise each library's oversubscription settings.
launcher_np_for() {
    local lib="$1" np="$2"
    if ! oversubscribed "$np"; then
        case "$lib" in
            skiff) printf '%s\n' "$SKIFF_BUILD/bin/mpiexec" -n "$np" --bind-to core ;;
            mpich)
                # shellcheck disable=SC2086  # word-split on purpose
                printf '%s\n' env $MPICH_ENV mpiexec.mpich -n "$np" -bind-to core ;;
            ompi)
                printf '%s\n' env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                    mpiexec.openmpi -n "$np" --bind-to core --map-by core ;;
        esac
    else
        case "$lib" in
            # skiff binds only when the ranks fit on the cores: nothing to turn off.
            skiff) printf '%s\n' "$SKIFF_BUILD/bin/mpiexec" -n "$np" ;;
            mpich)
                # shellcheck disable=SC2086
                printf '%s\n' env $MPICH_ENV mpiexec.mpich -n "$np" -bind-to none ;;
            # Without yield_when_idle, Open MPI's ranks spin and starve the ones they wait for.
            ompi)
                printf '%s\n' env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                    OMPI_MCA_mpi_yield_when_idle=1 \
                    mpiexec.openmpi -n "$np" --bind-to none --oversubscribe ;;
        esac
    fi
    if [[ "$lib" == ompi ]]; then
        if [[ $(id -u) -eq 0 ]]; then echo --allow-run-as-root; fi
        # shellcheck disable=SC2086
        if [[ -n "$OMPI_MCA" ]]; then printf '%s\n' $OMPI_MCA; fi
    fi
}
