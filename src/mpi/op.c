/* User-defined reduction operations. */
#include <stdlib.h>

#include "core/op.h"
#include "mpi/mpi_impl.h"

/* Freed ops are kept for reuse, never given back to malloc: a stale handle then still points at an op
 * whose magic is cleared, so using it is refused instead of reading freed memory. */
struct op_slot {
    struct skiff_op op; /* first: the handle is the slot's address */
    struct op_slot *next_free;
};

static struct op_slot *free_ops;

static int fail(int rc)
{
    return skiff_fail(MPI_COMM_WORLD, rc);
}

static const char *invalid_op(MPI_Op op)
{
    return op == MPI_OP_NULL ? "invalid op (MPI_OP_NULL)" : "invalid op (not an op, or already freed)";
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    SKIFF_ENTER(MPI_Op_create);
    SKIFF_REQUIRE_INIT();
    if (!user_fn)
        return fail(skiff_err(MPI_ERR_ARG, "user_fn is NULL"));
    int rc = skiff_check_ptr(op, "op");
    if (rc)
        return fail(rc);
    struct op_slot *s = free_ops;
    if (s)
        free_ops = s->next_free;
    else if (!(s = malloc(sizeof *s)))
        return fail(skiff_err(MPI_ERR_NO_MEM, "out of memory for an op"));
    s->op = (struct skiff_op){SKIFF_OP_MAGIC, user_fn, commute != 0};
    *op = (MPI_Op)(void *)&s->op;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Op_create)

int PMPI_Op_free(MPI_Op *op)
{
    SKIFF_ENTER(MPI_Op_free);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(op, "op");
    if (rc)
        return fail(rc);
    struct skiff_op *o = skiff_op_user(*op);
    if (!o && skiff_op_valid(*op))
        return fail(skiff_err(MPI_ERR_OP, "%s is predefined and cannot be freed", skiff_op_name(*op)));
    if (!o)
        return fail(skiff_err(MPI_ERR_OP, "%s", invalid_op(*op)));
    struct op_slot *s = (struct op_slot *)(void *)o;
    s->op.magic = 0;
    s->next_free = free_ops;
    free_ops = s;
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Op_free)

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    SKIFF_ENTER(MPI_Op_commutative);
    if (!skiff_op_valid(op))
        return fail(skiff_err(MPI_ERR_OP, "%s", invalid_op(op)));
    int rc = skiff_check_ptr(commute, "commute");
    if (rc)
        return fail(rc);
    *commute = skiff_op_commutative(op);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Op_commutative)
