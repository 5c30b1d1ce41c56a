/* User-defined reduction operations. */
#include <stdlib.h>

#include "core/op.h"
#include "mpi/mpi_impl.h"

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    SKIFF_ENTER(MPI_Op_create);
    SKIFF_REQUIRE_INIT();
    if (!user_fn)
        return skiff_fail(MPI_COMM_WORLD, skiff_err(MPI_ERR_ARG, "the user function is NULL"));
    struct skiff_op *o = malloc(sizeof *o);
    if (!o)
        return skiff_fail(MPI_COMM_WORLD, skiff_err(MPI_ERR_NO_MEM, "out of memory for an op"));
    o->magic = SKIFF_OP_MAGIC;
    o->fn = user_fn;
    o->commute = commute != 0;
    *op = (MPI_Op)(void *)o;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Op_create)

int PMPI_Op_free(MPI_Op *op)
{
    SKIFF_ENTER(MPI_Op_free);
    SKIFF_REQUIRE_INIT();
    struct skiff_op *o = skiff_op_user(*op);
    if (!o)
        return skiff_fail(MPI_COMM_WORLD,
                          skiff_err(MPI_ERR_OP, "%s cannot be freed (only user-defined ops can)", skiff_op_name(*op)));
    o->magic = 0;
    free(o);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Op_free)

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    SKIFF_ENTER(MPI_Op_commutative);
    if (!skiff_op_valid(op))
        return skiff_fail(MPI_COMM_WORLD, skiff_err(MPI_ERR_OP, "%s is not an op", skiff_op_name(op)));
    *commute = skiff_op_commutative(op);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Op_commutative)
