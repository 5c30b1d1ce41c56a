/* Reduction operations: the predefined ones on every type the standard allows, and user ops. */
#ifndef SKIFF_OP_H
#define SKIFF_OP_H

#include <stddef.h>

#include "mpi.h"

#define SKIFF_OP_MAGIC 0x6f70u

struct skiff_op {
    unsigned magic;
    MPI_User_function *fn;
    MPI_User_function_c *fn_c; /* made by MPI_Op_create_c: takes an MPI_Count length (fn is then NULL) */
    int commute;
    int freed; /* MPI_Op_free was called: the handle is dead, the object lives while refs > 0 */
    int refs;  /* the user's handle + pending nonblocking reductions */
};

/* NULL unless op is a live user-defined op. */
struct skiff_op *skiff_op_user(MPI_Op op);
/* A live user op, or a predefined one (MPI_REPLACE and MPI_NO_OP included); else an MPI_ERR_OP code. */
int skiff_op_check_valid(MPI_Op op);
int skiff_op_commutative(MPI_Op op);
/* MPI_SUCCESS, or an MPI_ERR_OP code naming the op and the type it is not defined for. dt is the
 * user's type: a predefined op also takes a derived type built of one basic type it is defined for
 * (it then runs on the basic elements); user ops accept any type. */
int skiff_op_check(MPI_Op op, MPI_Datatype dt);
/* User ops live in a pool (core/objpool.h), so a freed handle stays readable and is refused. */
struct skiff_op *skiff_op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute);
void skiff_op_free(struct skiff_op *o);
/* A pending nonblocking reduction holds op (MPI_Op_free may come before it completes): retain returns
 * 1 if it took a reference, which release then gives back. Predefined ops need none. */
int skiff_op_retain(MPI_Op op);
void skiff_op_release(MPI_Op op);
/* Gives the pool back to the C library (MPI_Finalize). */
void skiff_op_finalize(void);
/* inout[i] = in[i] op inout[i] for count elements of dt: the standard's order of operands, which
 * matters for non-commutative user ops (in holds the lower ranks' contribution). */
void skiff_op_apply(MPI_Op op, const void *in, void *inout, size_t count, MPI_Datatype dt);
const char *skiff_op_name(MPI_Op op);

#endif
