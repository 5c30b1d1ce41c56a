# bench/peers.sh — sourced by compare.sh and pipe-compare.sh: how each library starts two ranks, one
# per core, at the settings those scripts' headers explain (MPICH_ENV, OMPI_MCA, SKIFF_BUILD).

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
