/* bad_input rows: ops, memory, environment, error classes and strings, MPI_T (see bad_input.h). */
#include "bad_input.h"

static int op_free_predefined(struct bad_ctx *x)
{
    MPI_Op op = MPI_SUM;
    (void)x;
    return MPI_Op_free(&op);
}

const struct bad_case bad_misc[] = {
    {"op_free_predefined", "MPI_Op_free", MPI_ERR_OP, NULL, op_free_predefined},
    {0},
};
