/* Reduction operations: the predefined ones on every type the standard allows, and user ops. */
#ifndef SKIFF_OP_H
#define SKIFF_OP_H

#include <stddef.h>

#include "mpi.h"

#define SKIFF_OP_MAGIC 0x6f70u

struct skiff_op {
    unsigned magic;
    MPI_User_function *fn;
    int commute;
};

/* NULL unless op is a live user-defined op. */
struct skiff_op *skiff_op_user(MPI_Op op);
int skiff_op_valid(MPI_Op op);
int skiff_op_commutative(MPI_Op op);
/* MPI_SUCCESS, or an MPI_ERR_OP code naming the op and the type it is not defined for.
 * dt is the basic type the reduction runs on (user ops accept any type). */
int skiff_op_check(MPI_Op op, MPI_Datatype dt);
/* inout[i] = in[i] op inout[i] for count elements of dt: the standard's order of operands, which
 * matters for non-commutative user ops (in holds the lower ranks' contribution). */
void skiff_op_apply(MPI_Op op, const void *in, void *inout, size_t count, MPI_Datatype dt);
const char *skiff_op_name(MPI_Op op);

#endif
