/* bad_input rows: communicators, groups, attributes, error handlers, topologies (see bad_input.h). */
#include "bad_input.h"

static int comm_rank_null(struct bad_ctx *x)
{
    int r;
    (void)x;
    return MPI_Comm_rank(MPI_COMM_NULL, &r);
}

const struct bad_case bad_comm[] = {
    {"comm_rank_null", "MPI_Comm_rank", MPI_ERR_COMM, "MPI_COMM_NULL", comm_rank_null},
    {0},
};
