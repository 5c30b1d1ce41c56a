/* bad_input rows: datatype constructors and queries, pack/unpack (see bad_input.h). */
#include "bad_input.h"

static int contiguous_count_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_contiguous(-3, MPI_INT, &t);
}

const struct bad_case bad_dtype[] = {
    {"contiguous_count_negative", "MPI_Type_contiguous", MPI_ERR_COUNT, "-3", contiguous_count_negative},
    {0},
};
