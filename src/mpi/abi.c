/* The standard ABI's own version, and the sizes of its integer types, for a program (or a binding such
 * as mpi4py) that checks at run time which ABI the library it loaded speaks. Both may be called before
 * MPI_Init and after MPI_Finalize, like MPI_Get_version. */
#include <stdio.h>

#include "mpi/mpi_impl.h"

int PMPI_Abi_get_version(int *abi_major, int *abi_minor)
{
    SKIFF_ENTER(MPI_Abi_get_version);
    int rc = skiff_check_ptr(abi_major, "abi_major");
    if (!rc && !(rc = skiff_check_ptr(abi_minor, "abi_minor"))) {
        *abi_major = MPI_ABI_VERSION;
        *abi_minor = MPI_ABI_SUBVERSION;
    }
    return skiff_fail_world(rc);
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
    SKIFF_ENTER(MPI_Abi_get_info);
    int rc = skiff_check_ptr(info, "info");
    if (rc)
        return skiff_fail_world(rc);
    struct skiff_info *in = skiff_info_new();
    if (!in || set_size(in, "mpi_aint_size", sizeof(MPI_Aint)) || set_size(in, "mpi_count_size", sizeof(MPI_Count)) ||
        set_size(in, "mpi_offset_size", sizeof(MPI_Offset))) {
        if (in)
            skiff_info_free(in);
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "out of memory for the ABI's info object"));
    }
    *info = skiff_info_handle(in);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Abi_get_info)
