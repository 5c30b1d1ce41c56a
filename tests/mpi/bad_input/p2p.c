/* bad_input rows: point-to-point, probe, requests and completion (see bad_input.h). */
#include "bad_input.h"

static int send_rank_high(struct bad_ctx *x)
{
    return MPI_Send(x->ibuf, 1, MPI_INT, 99, 0, x->comm);
}

static int send_tag_negative(struct bad_ctx *x)
{
    return MPI_Send(x->ibuf, 1, MPI_INT, 0, -7, x->comm);
}

static int send_uncommitted(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Send(x->ibuf, 1, t, 0, 0, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int send_freed_comm(struct bad_ctx *x)
{
    return MPI_Send(x->ibuf, 1, MPI_INT, 0, 0, bad_freed_comm());
}

const struct bad_case bad_p2p[] = {
    {"send_rank_high", "MPI_Send", MPI_ERR_RANK, "99", send_rank_high},
    {"send_tag_negative", "MPI_Send", MPI_ERR_TAG, "-7", send_tag_negative},
    {"send_uncommitted", "MPI_Send", MPI_ERR_TYPE, "not committed", send_uncommitted},
    {"send_freed_comm", "MPI_Send", MPI_ERR_COMM, NULL, send_freed_comm},
    {0},
};
