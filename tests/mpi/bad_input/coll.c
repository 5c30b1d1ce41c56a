/* bad_input rows: collectives, blocking and nonblocking (see bad_input.h). */
#include "bad_input.h"

static int bcast_root_high(struct bad_ctx *x)
{
    return MPI_Bcast(x->ibuf, 1, MPI_INT, 77, x->comm);
}

const struct bad_case bad_coll[] = {
    {"bcast_root_high", "MPI_Bcast", MPI_ERR_ROOT, "77", bcast_root_high},
    {0},
};
