/* The standard ABI's own version, and the sizes of its integer types, for a program (or a binding such
 * as mpi4py) that checks at run time which ABI the library it loaded speaks. MPI-5.0 (21.2) lets both be
 * called at any time, before MPI_Init and after MPI_Finalize, and requires them thread-safe: so they
 * touch no state of the library's but the info pool (locked, core/info.c), and are not recorded by the
 * profiler (its table belongs to the thread inside MPI). Only a bad argument goes through the usual
 * error path. */
#include <stdio.h>

#include "mpi/mpi_impl.h"

static int fail(const char *call, const char *what)
{
    SKIFF_MT_GUARD();
    skiff_call = call;
    return skiff_fail_world(skiff_check_ptr(NULL, what));
}

int PMPI_Abi_get_version(int *abi_major, int *abi_minor)
{
    if (!abi_major || !abi_minor)
        return fail("MPI_Abi_get_version", abi_major ? "abi_minor" : "abi_major");
    *abi_major = MPI_ABI_VERSION;
    *abi_minor = MPI_ABI_SUBVERSION;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Abi_get_version)

static int set_size(struct skiff_info *in, const char *key, size_t size)
{
    char v[24];
    snprintf(v, sizeof v, "%zu", size);
    return skiff_info_set(in, key, v);
}

/* MPI-5.0's keys: the sizes in bytes of the ABI's integer types, which the ABI lets vary by platform. */
int PMPI_Abi_get_info(MPI_Info *info)
{
    if (!info)
        return fail("MPI_Abi_get_info", "info");
    struct skiff_info *in = skiff_info_new();
    if (!in || set_size(in, "mpi_aint_size", sizeof(MPI_Aint)) || set_size(in, "mpi_count_size", sizeof(MPI_Count)) ||
        set_size(in, "mpi_offset_size", sizeof(MPI_Offset))) {
        if (in)
            skiff_info_free(in);
        SKIFF_MT_GUARD();
        skiff_call = "MPI_Abi_get_info";
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "out of memory for the ABI's info object"));
    }
    *info = skiff_info_handle(in);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Abi_get_info)
