/* MPI_Alloc_mem: cache-line aligned memory (the shared-memory copies run fastest on it). */
#include <stdlib.h>

#include "mpi/mpi_impl.h"

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    (void)info;
    SKIFF_ENTER(MPI_Alloc_mem);
    SKIFF_REQUIRE_INIT();
    if (size < 0)
        return skiff_fail(MPI_COMM_WORLD, skiff_err(MPI_ERR_ARG, "invalid size %ld", (long)size));
    void *p = NULL;
    if (posix_memalign(&p, 64, size ? (size_t)size : 1) != 0)
        return skiff_fail(MPI_COMM_WORLD, skiff_err(MPI_ERR_NO_MEM, "cannot allocate %ld bytes", (long)size));
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Alloc_mem)

int PMPI_Free_mem(void *base)
{
    SKIFF_ENTER(MPI_Free_mem);
    free(base);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Free_mem)
