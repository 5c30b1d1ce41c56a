/* bad_input — the table-driven test of argument checking.
 *
 * Every row is one erroneous call: which MPI call, which error class it must return, and a piece of
 * text the error message must contain (the offending value). The driver (main.c) runs the rows two
 * ways:
 *   bad_input                 every row under MPI_ERRORS_RETURN, on every rank: the call must return
 *                             that class, and MPI_Error_string must read
 *                             "<call> on rank <r>: ...<want>..."; communication must still work after.
 *   bad_input --fatal NAME    one row under the default MPI_ERRORS_ARE_FATAL: the job must end, and
 *                             stderr must carry the same message (checked by fatal.sh, which also
 *                             uses `bad_input --list [TABLE]` to learn the rows).
 *
 * Rules for rows:
 *   - The error must be found on every rank of the communicator the row uses, before any message
 *     moves; a check that only one rank can make (e.g. the root's receive count) uses
 *     MPI_COMM_SELF (x->self), where every rank is the root.
 *   - want is a fixed substring, so values are chosen to be distinctive (rank 99, tag -7, count -3).
 *   - A row creates what it needs and frees it again (bad_freed_* give stale handles made just
 *     before the call, so a pool cannot have handed the slot out again).
 *   - One table per area (p2p.c, coll.c, comm.c, dtype.c, misc.c, topo.c); row names are unique.
 *   - Two calls keep other rules (main.c): MPI_T_* rows give in cls the exact MPI_T_ERR_* code and no
 *     want (the tools interface has no messages and calls no handler: they run, and must return, under
 *     MPI_ERRORS_ARE_FATAL, and --list leaves them out); MPI_Abort rows run only under --fatal. */
#ifndef SKIFF_BAD_INPUT_H
#define SKIFF_BAD_INPUT_H

#include <mpi.h>
#include <stddef.h>

struct bad_ctx {
    MPI_Comm comm; /* a duplicate of MPI_COMM_WORLD: the handler of the mode being tested */
    MPI_Comm self; /* MPI_COMM_SELF */
    int rank, size;
    int ibuf[64], ibuf2[64];
    double dbuf[64];
    MPI_Status status;
    MPI_Request req;
};

struct bad_case {
    const char *name; /* unique */
    const char *call; /* "MPI_Send": the message must start "MPI_Send on rank R: " */
    int cls;          /* the error class */
    const char *want; /* a substring the message must contain, or NULL */
    int (*run)(struct bad_ctx *x);
};

/* Stale handles: created and freed right here. */
MPI_Comm bad_freed_comm(void);
MPI_Group bad_freed_group(void);
MPI_Datatype bad_freed_type(void);
MPI_Op bad_freed_op(void);
/* A derived datatype (2 ints, stride 3) that was never committed; the caller frees it. */
MPI_Datatype bad_uncommitted_type(void);

/* The tables, each ended by a row whose name is NULL. */
extern const struct bad_case bad_p2p[], bad_coll[], bad_comm[], bad_dtype[], bad_misc[],
    bad_topo[], bad_req[], bad_large[], bad_rma[];

#endif
