/* MPI_Get_hw_resource_info (MPI-4.1): where this process runs, in the terms MPI_Comm_split_type's
 * MPI_COMM_TYPE_HW_GUIDED takes. One key per hardware level this machine has, named as the
 * mpi_hw_resource_type values skiff accepts (hwloc's names: Package, NUMANode, L3Cache, Core, PU, ...);
 * its value is the logical index of the object of that level that holds every CPU the process may run
 * on, or "unbound" when the process's CPUs span several (splitting by that level would leave it alone).
 * The standard leaves the keys to the implementation; MPICH and Open MPI return an empty object. */
#include <stdio.h>

#include "core/hwtopo.h"
#include "core/info.h"
#include "mpi/mpi_impl.h"

static int fill(struct skiff_info *in)
{
    for (int level = 0; level < SKIFF_HW_LEVELS; level++) {
        const char *name = skiff_hw_level_name(level);
        if (skiff_hw_level_of(name) < 0)
            continue; /* this machine has no object of that level */
        char value[24] = "unbound";
        int obj = skiff_hw_object(level);
        if (obj >= 0)
            snprintf(value, sizeof value, "%d", obj);
        int rc = skiff_info_set(in, name, value);
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    SKIFF_ENTER(MPI_Get_hw_resource_info);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(hw_info, "hw_info");
    if (rc)
        return skiff_fail_world(rc);
    struct skiff_info *in = skiff_info_new();
    if (!in)
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "out of memory for an info object"));
    if ((rc = fill(in))) {
        skiff_info_free(in);
        return skiff_fail_world(rc);
    }
    *hw_info = skiff_info_handle(in);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_hw_resource_info)
