/* Communicator queries. */
#include "mpi/mpi_impl.h"

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER("MPI_Comm_rank");
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)))
        return skiff_fail(comm, rc);
    *rank = c->rank;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_rank)

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER("MPI_Comm_size");
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)))
        return skiff_fail(comm, rc);
    *size = c->size;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_size)
