/* User-defined reduction operations. */
#include "core/op.h"
#include "mpi/mpi_impl.h"

/* fn or fn_c (MPI_Op_create_c) is the user's function. */
static int op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute, MPI_Op *op)
{
    int rc;
    const void *user_fn = fn ? (const void *)(uintptr_t)fn : (const void *)(uintptr_t)fn_c;
    if ((rc = skiff_check_ptr(user_fn, "user_fn")) || (rc = skiff_check_ptr(op, "op")))
        return skiff_fail_world(rc);
    struct skiff_op *o = skiff_op_create(fn, fn_c, commute);
    if (!o)
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "out of memory for an op"));
    *op = (MPI_Op)(void *)o;
    return MPI_SUCCESS;
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    SKIFF_ENTER(MPI_Op_create);
    SKIFF_REQUIRE_INIT();
    return op_create(user_fn, NULL, commute, op);
}
SKIFF_ALIAS(MPI_Op_create)

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    SKIFF_ENTER(MPI_Op_create_c);
    SKIFF_REQUIRE_INIT();
    return op_create(NULL, user_fn, commute, op);
}
SKIFF_ALIAS(MPI_Op_create_c)

int PMPI_Op_free(MPI_Op *op)
{
    SKIFF_ENTER(MPI_Op_free);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = skiff_check_ptr(op, "op")) || (rc = skiff_op_check_valid(*op)))
        return skiff_fail_world(rc);
    struct skiff_op *o = skiff_op_user(*op);
    if (!o)
        return skiff_fail_world(skiff_err(MPI_ERR_OP, "%s is predefined and cannot be freed", skiff_op_name(*op)));
    skiff_op_free(o);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Op_free)

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    SKIFF_ENTER(MPI_Op_commutative);
    SKIFF_REQUIRE_INIT(); /* user ops are given back at MPI_Finalize: a handle then points at nothing */
    int rc;
    if ((rc = skiff_op_check_valid(op)) || (rc = skiff_check_ptr(commute, "commute")))
        return skiff_fail_world(rc);
    *commute = skiff_op_commutative(op);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Op_commutative)
