/* bad_input rows: collectives, blocking and nonblocking (see bad_input.h).
 *
 * Rows on x->comm make an error every rank sees; what only the root checks (its receive side, its
 * MPI_IN_PLACE) runs on x->self, where every rank is the root. Per-rank arrays are 64 long, more than
 * any communicator here has ranks; a bad entry sits at index 0 so the message does not depend on the
 * number of ranks. */
#include "bad_input.h"

/* counts[i] = 1, displs[i] = i; counts[0] = first */
static int *counts_of(int *counts, int first)
{
    for (int i = 0; i < 64; i++)
        counts[i] = 1;
    counts[0] = first;
    return counts;
}

static int *displs_of(int *displs)
{
    for (int i = 0; i < 64; i++)
        displs[i] = i;
    return displs;
}

/* A committed derived type of an int and a double: no predefined op applies to mixed basic types. */
static MPI_Datatype int_and_double(void)
{
    int lens[2] = {1, 1};
    MPI_Aint displs[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t = MPI_DATATYPE_NULL;
    MPI_Type_create_struct(2, lens, displs, types, &t);
    MPI_Type_commit(&t);
    return t;
}

/* A committed derived type of one basic type (MPI_DOUBLE): predefined ops defined for it apply. */
static MPI_Datatype two_doubles(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(2, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
}

/* A committed non-contiguous type (2 ints, stride 3), which skiff reduces only with predefined ops. */
static MPI_Datatype strided_ints(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Type_vector(2, 1, 3, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

static void noop(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

/* ---------------------------------------------------------------------------------- Barrier, Ibarrier */

static int barrier_comm_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Barrier(MPI_COMM_NULL);
}

static int barrier_comm_freed(struct bad_ctx *x)
{
    (void)x;
    return MPI_Barrier(bad_freed_comm());
}

static int ibarrier_comm_null(struct bad_ctx *x)
{
    return MPI_Ibarrier(MPI_COMM_NULL, &x->req);
}

static int ibarrier_request_null(struct bad_ctx *x)
{
    return MPI_Ibarrier(x->comm, NULL);
}

/* -------------------------------------------------------------------------------------- Bcast, Ibcast */

static int bcast_root_high(struct bad_ctx *x)
{
    return MPI_Bcast(x->ibuf, 1, MPI_INT, 77, x->comm);
}

static int bcast_root_negative(struct bad_ctx *x)
{
    return MPI_Bcast(x->ibuf, 1, MPI_INT, -5, x->comm);
}

static int bcast_count_negative(struct bad_ctx *x)
{
    return MPI_Bcast(x->ibuf, -3, MPI_INT, 0, x->comm);
}

static int bcast_type_null(struct bad_ctx *x)
{
    return MPI_Bcast(x->ibuf, 1, MPI_DATATYPE_NULL, 0, x->comm);
}

static int bcast_type_freed(struct bad_ctx *x)
{
    return MPI_Bcast(x->ibuf, 1, bad_freed_type(), 0, x->comm);
}

static int bcast_uncommitted(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Bcast(x->ibuf, 1, t, 0, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int bcast_null_buf(struct bad_ctx *x)
{
    return MPI_Bcast(NULL, 4, MPI_INT, 0, x->comm);
}

static int bcast_in_place(struct bad_ctx *x)
{
    return MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, x->comm);
}

static int bcast_comm_freed(struct bad_ctx *x)
{
    return MPI_Bcast(x->ibuf, 1, MPI_INT, 0, bad_freed_comm());
}

static int ibcast_root_high(struct bad_ctx *x)
{
    return MPI_Ibcast(x->ibuf, 1, MPI_INT, 77, x->comm, &x->req);
}

static int ibcast_request_null(struct bad_ctx *x)
{
    return MPI_Ibcast(x->ibuf, 1, MPI_INT, 0, x->comm, NULL);
}

static int ibcast_in_place(struct bad_ctx *x)
{
    return MPI_Ibcast(MPI_IN_PLACE, 1, MPI_INT, 0, x->comm, &x->req);
}

static int ibcast_count_negative(struct bad_ctx *x)
{
    return MPI_Ibcast(x->ibuf, -3, MPI_INT, 0, x->comm, &x->req);
}

/* ------------------------------------------------------------------------------------ Reduce, Ireduce */

static int reduce_root_negative(struct bad_ctx *x)
{
    return MPI_Reduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, -5, x->comm);
}

static int reduce_count_negative(struct bad_ctx *x)
{
    return MPI_Reduce(x->ibuf, x->ibuf2, -3, MPI_INT, MPI_SUM, 0, x->comm);
}

static int reduce_uncommitted(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Reduce(x->ibuf, x->ibuf2, 1, t, MPI_SUM, 0, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int reduce_op_null(struct bad_ctx *x)
{
    return MPI_Reduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_OP_NULL, 0, x->comm);
}

static int reduce_op_freed(struct bad_ctx *x)
{
    return MPI_Reduce(x->ibuf, x->ibuf2, 1, MPI_INT, bad_freed_op(), 0, x->comm);
}

static int reduce_land_double(struct bad_ctx *x)
{
    return MPI_Reduce(x->dbuf, x->dbuf + 8, 1, MPI_DOUBLE, MPI_LAND, 0, x->comm);
}

static int reduce_null_sendbuf(struct bad_ctx *x)
{
    return MPI_Reduce(NULL, x->ibuf2, 4, MPI_INT, MPI_SUM, 0, x->comm);
}

static int reduce_root_null_recvbuf(struct bad_ctx *x)
{
    return MPI_Reduce(x->ibuf, NULL, 4, MPI_INT, MPI_SUM, 0, x->self);
}

static int reduce_root_recvbuf_in_place(struct bad_ctx *x)
{
    return MPI_Reduce(x->ibuf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, 0, x->self);
}

static int reduce_root_aliased(struct bad_ctx *x)
{
    return MPI_Reduce(x->ibuf, x->ibuf, 4, MPI_INT, MPI_SUM, 0, x->self);
}

static int reduce_comm_null(struct bad_ctx *x)
{
    return MPI_Reduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_NULL);
}

static int ireduce_root_high(struct bad_ctx *x)
{
    return MPI_Ireduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, 77, x->comm, &x->req);
}

static int ireduce_request_null(struct bad_ctx *x)
{
    return MPI_Ireduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, 0, x->comm, NULL);
}

static int ireduce_op_replace(struct bad_ctx *x)
{
    return MPI_Ireduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_REPLACE, 0, x->comm, &x->req);
}

static int ireduce_root_aliased(struct bad_ctx *x)
{
    return MPI_Ireduce(x->ibuf, x->ibuf, 4, MPI_INT, MPI_SUM, 0, x->self, &x->req);
}

/* ---------------------------------------------------------------------------- Allreduce, Iallreduce */

static int allreduce_count_negative(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf2, -3, MPI_INT, MPI_SUM, x->comm);
}

static int allreduce_type_null(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf2, 1, MPI_DATATYPE_NULL, MPI_SUM, x->comm);
}

static int allreduce_op_null(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_OP_NULL, x->comm);
}

static int allreduce_op_freed(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf2, 1, MPI_INT, bad_freed_op(), x->comm);
}

static int allreduce_op_no_op(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_NO_OP, x->comm);
}

static int allreduce_maxloc_int(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf2, 2, MPI_INT, MPI_MAXLOC, x->comm);
}

/* The Fortran types admit only the ops of their class: no arithmetic on LOGICAL or CHARACTER, no
 * logical ops on INTEGER, no bitwise ops on REAL, no order on complex numbers, locations on pairs only. */
static int allreduce_sum_logical(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf2, 1, MPI_LOGICAL, MPI_SUM, x->comm);
}

static int allreduce_sum_character(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf2, 1, MPI_CHARACTER, MPI_SUM, x->comm);
}

static int allreduce_land_integer(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf2, 1, MPI_INTEGER, MPI_LAND, x->comm);
}

static int allreduce_band_real(struct bad_ctx *x)
{
    return MPI_Allreduce(x->dbuf, x->dbuf + 8, 1, MPI_REAL, MPI_BAND, x->comm);
}

static int allreduce_max_double_complex(struct bad_ctx *x)
{
    return MPI_Allreduce(x->dbuf, x->dbuf + 8, 1, MPI_DOUBLE_COMPLEX, MPI_MAX, x->comm);
}

static int allreduce_maxloc_double_precision(struct bad_ctx *x)
{
    return MPI_Allreduce(x->dbuf, x->dbuf + 8, 2, MPI_DOUBLE_PRECISION, MPI_MAXLOC, x->comm);
}

static int allreduce_sum_derived(struct bad_ctx *x)
{
    MPI_Datatype t = int_and_double();
    int rc = MPI_Allreduce(x->dbuf, x->dbuf + 8, 1, t, MPI_SUM, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int allreduce_land_derived_double(struct bad_ctx *x)
{
    MPI_Datatype t = two_doubles();
    int rc = MPI_Allreduce(x->dbuf, x->dbuf + 8, 1, t, MPI_LAND, x->comm);
    MPI_Type_free(&t);
    return rc;
}

/* Non-contiguous types reduce (staged), but the op must still suit their basic type. */
static int allreduce_band_noncontiguous_double(struct bad_ctx *x)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    int rc = MPI_Allreduce(x->ibuf, x->ibuf2, 1, t, MPI_BAND, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int allreduce_user_op_noncontiguous(struct bad_ctx *x)
{
    MPI_Datatype t = strided_ints();
    MPI_Op op = MPI_OP_NULL;
    MPI_Op_create(noop, 1, &op);
    int rc = MPI_Allreduce(x->ibuf, x->ibuf2, 1, t, op, x->comm);
    MPI_Op_free(&op);
    MPI_Type_free(&t);
    return rc;
}

static int allreduce_null_sendbuf(struct bad_ctx *x)
{
    return MPI_Allreduce(NULL, x->ibuf2, 4, MPI_INT, MPI_SUM, x->comm);
}

static int allreduce_null_recvbuf(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, NULL, 4, MPI_INT, MPI_SUM, x->comm);
}

static int allreduce_recvbuf_in_place(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, x->comm);
}

static int allreduce_aliased(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf, 4, MPI_INT, MPI_SUM, x->comm);
}

static int allreduce_comm_freed(struct bad_ctx *x)
{
    return MPI_Allreduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, bad_freed_comm());
}

static int iallreduce_request_null(struct bad_ctx *x)
{
    return MPI_Iallreduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, x->comm, NULL);
}

static int iallreduce_bxor_float(struct bad_ctx *x)
{
    return MPI_Iallreduce(x->dbuf, x->dbuf + 8, 1, MPI_FLOAT, MPI_BXOR, x->comm, &x->req);
}

static int iallreduce_aliased(struct bad_ctx *x)
{
    return MPI_Iallreduce(x->ibuf, x->ibuf, 4, MPI_INT, MPI_SUM, x->comm, &x->req);
}

/* -------------------------------------------------------------------------------------- Reduce_local */

static int reduce_local_count_negative(struct bad_ctx *x)
{
    return MPI_Reduce_local(x->ibuf, x->ibuf2, -3, MPI_INT, MPI_SUM);
}

static int reduce_local_type_freed(struct bad_ctx *x)
{
    return MPI_Reduce_local(x->ibuf, x->ibuf2, 1, bad_freed_type(), MPI_SUM);
}

static int reduce_local_op_null(struct bad_ctx *x)
{
    return MPI_Reduce_local(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_OP_NULL);
}

static int reduce_local_band_double(struct bad_ctx *x)
{
    return MPI_Reduce_local(x->dbuf, x->dbuf + 8, 1, MPI_DOUBLE, MPI_BAND);
}

static int reduce_local_null_inbuf(struct bad_ctx *x)
{
    return MPI_Reduce_local(NULL, x->ibuf2, 4, MPI_INT, MPI_SUM);
}

static int reduce_local_null_inoutbuf(struct bad_ctx *x)
{
    return MPI_Reduce_local(x->ibuf, NULL, 4, MPI_INT, MPI_SUM);
}

static int reduce_local_in_place(struct bad_ctx *x)
{
    return MPI_Reduce_local(MPI_IN_PLACE, x->ibuf2, 1, MPI_INT, MPI_SUM);
}

static int reduce_local_aliased(struct bad_ctx *x)
{
    return MPI_Reduce_local(x->ibuf, x->ibuf, 4, MPI_INT, MPI_SUM);
}

/* ---------------------------------------------------------------------------------- Gather, Gatherv */

static int gather_root_high(struct bad_ctx *x)
{
    return MPI_Gather(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, 77, x->comm);
}

static int gather_sendcount_negative(struct bad_ctx *x)
{
    return MPI_Gather(x->ibuf, -3, MPI_INT, x->ibuf2, 1, MPI_INT, 0, x->comm);
}

static int gather_sendtype_null(struct bad_ctx *x)
{
    return MPI_Gather(x->ibuf, 1, MPI_DATATYPE_NULL, x->ibuf2, 1, MPI_INT, 0, x->comm);
}

static int gather_null_sendbuf(struct bad_ctx *x)
{
    return MPI_Gather(NULL, 4, MPI_INT, x->ibuf2, 4, MPI_INT, 0, x->comm);
}

static int gather_root_recvcount_negative(struct bad_ctx *x)
{
    return MPI_Gather(x->ibuf, 1, MPI_INT, x->ibuf2, -3, MPI_INT, 0, x->self);
}

static int gather_root_recvtype_uncommitted(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Gather(x->ibuf, 2, MPI_INT, x->ibuf2, 1, t, 0, x->self);
    MPI_Type_free(&t);
    return rc;
}

static int gather_root_null_recvbuf(struct bad_ctx *x)
{
    return MPI_Gather(x->ibuf, 4, MPI_INT, NULL, 4, MPI_INT, 0, x->self);
}

static int gather_root_recvbuf_in_place(struct bad_ctx *x)
{
    return MPI_Gather(x->ibuf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, x->self);
}

static int gather_root_aliased(struct bad_ctx *x)
{
    return MPI_Gather(x->ibuf, 1, MPI_INT, x->ibuf, 1, MPI_INT, 0, x->self);
}

static int gather_root_mismatch(struct bad_ctx *x)
{
    return MPI_Gather(x->ibuf, 2, MPI_INT, x->ibuf2, 1, MPI_INT, 0, x->self);
}

static int gatherv_root_high(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Gatherv(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, 1), displs_of(displs), MPI_INT, 77,
                       x->comm);
}

static int gatherv_sendcount_negative(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Gatherv(x->ibuf, -3, MPI_INT, x->ibuf2, counts_of(counts, 1), displs_of(displs), MPI_INT, 0,
                       x->comm);
}

static int gatherv_root_recvcounts_null(struct bad_ctx *x)
{
    int displs[64];
    return MPI_Gatherv(x->ibuf, 1, MPI_INT, x->ibuf2, NULL, displs_of(displs), MPI_INT, 0, x->self);
}

static int gatherv_root_displs_null(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Gatherv(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, 1), NULL, MPI_INT, 0, x->self);
}

static int gatherv_root_recvcount_negative(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Gatherv(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, -3), displs_of(displs), MPI_INT, 0,
                       x->self);
}

static int gatherv_root_recvtype_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Gatherv(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, 1), displs_of(displs), MPI_DATATYPE_NULL,
                       0, x->self);
}

static int gatherv_root_null_recvbuf(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Gatherv(x->ibuf, 1, MPI_INT, NULL, counts_of(counts, 1), displs_of(displs), MPI_INT, 0, x->self);
}

static int gatherv_root_recvbuf_in_place(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Gatherv(x->ibuf, 1, MPI_INT, MPI_IN_PLACE, counts_of(counts, 1), displs_of(displs), MPI_INT, 0,
                       x->self);
}

static int gatherv_root_aliased(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Gatherv(x->ibuf, 1, MPI_INT, x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, 0, x->self);
}

static int gatherv_root_mismatch(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Gatherv(x->ibuf, 3, MPI_INT, x->ibuf2, counts_of(counts, 1), displs_of(displs), MPI_INT, 0,
                       x->self);
}

/* ------------------------------------------------------------------------------- Scatter, Scatterv */

static int scatter_root_high(struct bad_ctx *x)
{
    return MPI_Scatter(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, 77, x->comm);
}

static int scatter_recvcount_negative(struct bad_ctx *x)
{
    return MPI_Scatter(x->ibuf, 1, MPI_INT, x->ibuf2, -3, MPI_INT, 0, x->comm);
}

static int scatter_recvtype_freed(struct bad_ctx *x)
{
    return MPI_Scatter(x->ibuf, 1, MPI_INT, x->ibuf2, 1, bad_freed_type(), 0, x->comm);
}

static int scatter_null_recvbuf(struct bad_ctx *x)
{
    return MPI_Scatter(x->ibuf, 4, MPI_INT, NULL, 4, MPI_INT, 0, x->comm);
}

static int scatter_root_sendcount_negative(struct bad_ctx *x)
{
    return MPI_Scatter(x->ibuf, -3, MPI_INT, x->ibuf2, 1, MPI_INT, 0, x->self);
}

static int scatter_root_sendtype_null(struct bad_ctx *x)
{
    return MPI_Scatter(x->ibuf, 1, MPI_DATATYPE_NULL, x->ibuf2, 1, MPI_INT, 0, x->self);
}

static int scatter_root_null_sendbuf(struct bad_ctx *x)
{
    return MPI_Scatter(NULL, 4, MPI_INT, x->ibuf2, 4, MPI_INT, 0, x->self);
}

static int scatter_root_sendbuf_in_place(struct bad_ctx *x)
{
    return MPI_Scatter(MPI_IN_PLACE, 1, MPI_INT, x->ibuf2, 1, MPI_INT, 0, x->self);
}

static int scatter_root_aliased(struct bad_ctx *x)
{
    return MPI_Scatter(x->ibuf, 1, MPI_INT, x->ibuf, 1, MPI_INT, 0, x->self);
}

static int scatter_root_mismatch(struct bad_ctx *x)
{
    return MPI_Scatter(x->ibuf, 1, MPI_INT, x->ibuf2, 2, MPI_INT, 0, x->self);
}

static int scatterv_root_high(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Scatterv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf2, 1, MPI_INT, 77,
                        x->comm);
}

static int scatterv_recvcount_negative(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Scatterv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf2, -3, MPI_INT, 0,
                        x->comm);
}

static int scatterv_root_sendcounts_null(struct bad_ctx *x)
{
    int displs[64];
    return MPI_Scatterv(x->ibuf, NULL, displs_of(displs), MPI_INT, x->ibuf2, 1, MPI_INT, 0, x->self);
}

static int scatterv_root_displs_null(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Scatterv(x->ibuf, counts_of(counts, 1), NULL, MPI_INT, x->ibuf2, 1, MPI_INT, 0, x->self);
}

static int scatterv_root_sendcount_negative(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Scatterv(x->ibuf, counts_of(counts, -3), displs_of(displs), MPI_INT, x->ibuf2, 1, MPI_INT, 0,
                        x->self);
}

static int scatterv_root_sendtype_uncommitted(struct bad_ctx *x)
{
    int counts[64], displs[64];
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Scatterv(x->ibuf, counts_of(counts, 1), displs_of(displs), t, x->ibuf2, 2, MPI_INT, 0, x->self);
    MPI_Type_free(&t);
    return rc;
}

static int scatterv_root_sendbuf_in_place(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Scatterv(MPI_IN_PLACE, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf2, 1, MPI_INT, 0,
                        x->self);
}

static int scatterv_root_aliased(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Scatterv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf, 1, MPI_INT, 0, x->self);
}

/* ------------------------------------------------------------------------------ Allgather, Allgatherv */

static int allgather_sendcount_negative(struct bad_ctx *x)
{
    return MPI_Allgather(x->ibuf, -3, MPI_INT, x->ibuf2, 1, MPI_INT, x->comm);
}

static int allgather_recvtype_null(struct bad_ctx *x)
{
    return MPI_Allgather(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_DATATYPE_NULL, x->comm);
}

static int allgather_null_recvbuf(struct bad_ctx *x)
{
    return MPI_Allgather(x->ibuf, 4, MPI_INT, NULL, 4, MPI_INT, x->comm);
}

static int allgather_recvbuf_in_place(struct bad_ctx *x)
{
    return MPI_Allgather(x->ibuf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, x->comm);
}

static int allgather_aliased(struct bad_ctx *x)
{
    return MPI_Allgather(x->ibuf, 1, MPI_INT, x->ibuf, 1, MPI_INT, x->comm);
}

static int allgather_mismatch(struct bad_ctx *x)
{
    return MPI_Allgather(x->ibuf, 2, MPI_INT, x->ibuf2, 1, MPI_INT, x->comm);
}

static int allgather_comm_null(struct bad_ctx *x)
{
    return MPI_Allgather(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, MPI_COMM_NULL);
}

static int allgatherv_recvcounts_null(struct bad_ctx *x)
{
    int displs[64];
    return MPI_Allgatherv(x->ibuf, 1, MPI_INT, x->ibuf2, NULL, displs_of(displs), MPI_INT, x->comm);
}

static int allgatherv_displs_null(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Allgatherv(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, 1), NULL, MPI_INT, x->comm);
}

static int allgatherv_recvcount_negative(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Allgatherv(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, -3), displs_of(displs), MPI_INT,
                          x->comm);
}

static int allgatherv_sendtype_uncommitted(struct bad_ctx *x)
{
    int counts[64], displs[64];
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Allgatherv(x->ibuf, 1, t, x->ibuf2, counts_of(counts, 2), displs_of(displs), MPI_INT, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int allgatherv_recvbuf_in_place(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Allgatherv(x->ibuf, 1, MPI_INT, MPI_IN_PLACE, counts_of(counts, 1), displs_of(displs), MPI_INT,
                          x->comm);
}

static int allgatherv_aliased(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Allgatherv(x->ibuf, 1, MPI_INT, x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->comm);
}

/* ---------------------------------------------------------------------------------- Alltoall(v) */

static int alltoall_sendcount_negative(struct bad_ctx *x)
{
    return MPI_Alltoall(x->ibuf, -3, MPI_INT, x->ibuf2, 1, MPI_INT, x->comm);
}

static int alltoall_recvtype_freed(struct bad_ctx *x)
{
    return MPI_Alltoall(x->ibuf, 1, MPI_INT, x->ibuf2, 1, bad_freed_type(), x->comm);
}

static int alltoall_null_sendbuf(struct bad_ctx *x)
{
    return MPI_Alltoall(NULL, 4, MPI_INT, x->ibuf2, 4, MPI_INT, x->comm);
}

static int alltoall_recvbuf_in_place(struct bad_ctx *x)
{
    return MPI_Alltoall(x->ibuf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, x->comm);
}

static int alltoall_aliased(struct bad_ctx *x)
{
    return MPI_Alltoall(x->ibuf, 1, MPI_INT, x->ibuf, 1, MPI_INT, x->comm);
}

static int alltoall_mismatch(struct bad_ctx *x)
{
    return MPI_Alltoall(x->ibuf, 1, MPI_DOUBLE, x->ibuf2, 1, MPI_INT, x->comm);
}

static int alltoallv_sendcounts_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Alltoallv(x->ibuf, NULL, displs_of(displs), MPI_INT, x->ibuf2, counts_of(counts, 1), displs, MPI_INT,
                         x->comm);
}

static int alltoallv_rdispls_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Alltoallv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf2, counts, NULL, MPI_INT,
                         x->comm);
}

static int alltoallv_sendcount_negative(struct bad_ctx *x)
{
    int counts[64], bad[64], displs[64];
    return MPI_Alltoallv(x->ibuf, counts_of(bad, -3), displs_of(displs), MPI_INT, x->ibuf2, counts_of(counts, 1),
                         displs, MPI_INT, x->comm);
}

static int alltoallv_recvtype_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Alltoallv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf2, counts, displs,
                         MPI_DATATYPE_NULL, x->comm);
}

static int alltoallv_null_recvbuf(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Alltoallv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, NULL, counts, displs, MPI_INT,
                         x->comm);
}

static int alltoallv_recvbuf_in_place(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Alltoallv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, MPI_IN_PLACE, counts, displs,
                         MPI_INT, x->comm);
}

static int alltoallv_aliased(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Alltoallv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf, counts, displs, MPI_INT,
                         x->comm);
}

/* ---------------------------------------------------------------------- Reduce_scatter(_block) */

static int reduce_scatter_counts_null(struct bad_ctx *x)
{
    return MPI_Reduce_scatter(x->ibuf, x->ibuf2, NULL, MPI_INT, MPI_SUM, x->comm);
}

static int reduce_scatter_count_negative(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Reduce_scatter(x->ibuf, x->ibuf2, counts_of(counts, -3), MPI_INT, MPI_SUM, x->comm);
}

static int reduce_scatter_uncommitted(struct bad_ctx *x)
{
    int counts[64];
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Reduce_scatter(x->ibuf, x->ibuf2, counts_of(counts, 1), t, MPI_SUM, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int reduce_scatter_op_null(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Reduce_scatter(x->ibuf, x->ibuf2, counts_of(counts, 1), MPI_INT, MPI_OP_NULL, x->comm);
}

static int reduce_scatter_null_sendbuf(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Reduce_scatter(NULL, x->ibuf2, counts_of(counts, 1), MPI_INT, MPI_SUM, x->comm);
}

static int reduce_scatter_recvbuf_in_place(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Reduce_scatter(x->ibuf, MPI_IN_PLACE, counts_of(counts, 1), MPI_INT, MPI_SUM, x->comm);
}

static int reduce_scatter_aliased(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Reduce_scatter(x->ibuf, x->ibuf, counts_of(counts, 1), MPI_INT, MPI_SUM, x->comm);
}

static int reduce_scatter_block_count_negative(struct bad_ctx *x)
{
    return MPI_Reduce_scatter_block(x->ibuf, x->ibuf2, -3, MPI_INT, MPI_SUM, x->comm);
}

static int reduce_scatter_block_type_null(struct bad_ctx *x)
{
    return MPI_Reduce_scatter_block(x->ibuf, x->ibuf2, 1, MPI_DATATYPE_NULL, MPI_SUM, x->comm);
}

static int reduce_scatter_block_op_freed(struct bad_ctx *x)
{
    return MPI_Reduce_scatter_block(x->ibuf, x->ibuf2, 1, MPI_INT, bad_freed_op(), x->comm);
}

static int reduce_scatter_block_recvbuf_in_place(struct bad_ctx *x)
{
    return MPI_Reduce_scatter_block(x->ibuf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, x->comm);
}

static int reduce_scatter_block_aliased(struct bad_ctx *x)
{
    return MPI_Reduce_scatter_block(x->ibuf, x->ibuf, 1, MPI_INT, MPI_SUM, x->comm);
}

static int reduce_scatter_block_null_recvbuf(struct bad_ctx *x)
{
    return MPI_Reduce_scatter_block(x->ibuf, NULL, 4, MPI_INT, MPI_SUM, x->comm);
}

static int reduce_scatter_block_comm_null(struct bad_ctx *x)
{
    return MPI_Reduce_scatter_block(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL);
}

/* --------------------------------------------------------------------------------------- Scan, Exscan */

static int scan_count_negative(struct bad_ctx *x)
{
    return MPI_Scan(x->ibuf, x->ibuf2, -3, MPI_INT, MPI_SUM, x->comm);
}

static int scan_type_freed(struct bad_ctx *x)
{
    return MPI_Scan(x->ibuf, x->ibuf2, 1, bad_freed_type(), MPI_SUM, x->comm);
}

static int scan_op_null(struct bad_ctx *x)
{
    return MPI_Scan(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_OP_NULL, x->comm);
}

static int scan_null_sendbuf(struct bad_ctx *x)
{
    return MPI_Scan(NULL, x->ibuf2, 4, MPI_INT, MPI_SUM, x->comm);
}

static int scan_recvbuf_in_place(struct bad_ctx *x)
{
    return MPI_Scan(x->ibuf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, x->comm);
}

static int scan_aliased(struct bad_ctx *x)
{
    return MPI_Scan(x->ibuf, x->ibuf, 4, MPI_INT, MPI_SUM, x->comm);
}

static int exscan_count_negative(struct bad_ctx *x)
{
    return MPI_Exscan(x->ibuf, x->ibuf2, -3, MPI_INT, MPI_SUM, x->comm);
}

static int exscan_uncommitted(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Exscan(x->ibuf, x->ibuf2, 1, t, MPI_SUM, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int exscan_lor_complex(struct bad_ctx *x)
{
    return MPI_Exscan(x->dbuf, x->dbuf + 8, 1, MPI_C_DOUBLE_COMPLEX, MPI_LOR, x->comm);
}

static int exscan_null_recvbuf(struct bad_ctx *x)
{
    return MPI_Exscan(x->ibuf, NULL, 4, MPI_INT, MPI_SUM, x->comm);
}

static int exscan_recvbuf_in_place(struct bad_ctx *x)
{
    return MPI_Exscan(x->ibuf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, x->comm);
}

static int exscan_aliased(struct bad_ctx *x)
{
    return MPI_Exscan(x->ibuf, x->ibuf, 4, MPI_INT, MPI_SUM, x->comm);
}

static int exscan_comm_null(struct bad_ctx *x)
{
    return MPI_Exscan(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL);
}

/* ------------------------------------------------- the remaining (call, class) pairs: comm, nonblocking */

static int ibcast_comm_null(struct bad_ctx *x)
{
    return MPI_Ibcast(x->ibuf, 1, MPI_INT, 0, MPI_COMM_NULL, &x->req);
}

static int ibcast_type_null(struct bad_ctx *x)
{
    return MPI_Ibcast(x->ibuf, 1, MPI_DATATYPE_NULL, 0, x->comm, &x->req);
}

static int ireduce_count_negative(struct bad_ctx *x)
{
    return MPI_Ireduce(x->ibuf, x->ibuf2, -3, MPI_INT, MPI_SUM, 0, x->comm, &x->req);
}

static int ireduce_type_freed(struct bad_ctx *x)
{
    return MPI_Ireduce(x->ibuf, x->ibuf2, 1, bad_freed_type(), MPI_SUM, 0, x->comm, &x->req);
}

static int ireduce_comm_freed(struct bad_ctx *x)
{
    return MPI_Ireduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, 0, bad_freed_comm(), &x->req);
}

static int iallreduce_count_negative(struct bad_ctx *x)
{
    return MPI_Iallreduce(x->ibuf, x->ibuf2, -3, MPI_INT, MPI_SUM, x->comm, &x->req);
}

static int iallreduce_uncommitted(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Iallreduce(x->ibuf, x->ibuf2, 1, t, MPI_SUM, x->comm, &x->req);
    MPI_Type_free(&t);
    return rc;
}

static int iallreduce_comm_null(struct bad_ctx *x)
{
    return MPI_Iallreduce(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &x->req);
}

static int gather_comm_null(struct bad_ctx *x)
{
    return MPI_Gather(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, 0, MPI_COMM_NULL);
}

static int gatherv_comm_freed(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Gatherv(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, 1), displs_of(displs), MPI_INT, 0,
                       bad_freed_comm());
}

static int scatter_comm_freed(struct bad_ctx *x)
{
    return MPI_Scatter(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, 0, bad_freed_comm());
}

static int scatterv_comm_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Scatterv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf2, 1, MPI_INT, 0,
                        MPI_COMM_NULL);
}

static int scatterv_root_mismatch(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Scatterv(x->ibuf, counts_of(counts, 3), displs_of(displs), MPI_INT, x->ibuf2, 1, MPI_INT, 0,
                        x->self);
}

static int allgatherv_mismatch(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Allgatherv(x->ibuf, 2, MPI_INT, x->ibuf2, counts_of(counts, 1), displs_of(displs), MPI_INT, x->comm);
}

static int allgatherv_comm_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Allgatherv(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, 1), displs_of(displs), MPI_INT,
                          MPI_COMM_NULL);
}

static int alltoall_comm_freed(struct bad_ctx *x)
{
    return MPI_Alltoall(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, bad_freed_comm());
}

static int alltoallv_comm_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Alltoallv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf2, counts, displs, MPI_INT,
                         MPI_COMM_NULL);
}

static int reduce_scatter_comm_null(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Reduce_scatter(x->ibuf, x->ibuf2, counts_of(counts, 1), MPI_INT, MPI_SUM, MPI_COMM_NULL);
}

static int scan_comm_freed(struct bad_ctx *x)
{
    return MPI_Scan(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, bad_freed_comm());
}

/* ------------------------------------------------- the other nonblocking collectives, and Alltoallw */

static int iallgather_request_null(struct bad_ctx *x)
{
    return MPI_Iallgather(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, x->comm, NULL);
}

static int iallgatherv_recvcounts_null(struct bad_ctx *x)
{
    int displs[64];
    return MPI_Iallgatherv(x->ibuf, 1, MPI_INT, x->ibuf2, NULL, displs_of(displs), MPI_INT, x->comm, &x->req);
}

static int ialltoall_count_negative(struct bad_ctx *x)
{
    return MPI_Ialltoall(x->ibuf, -3, MPI_INT, x->ibuf2, 1, MPI_INT, x->comm, &x->req);
}

static int ialltoallv_rdispls_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Ialltoallv(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf2, counts, NULL, MPI_INT,
                          x->comm, &x->req);
}

static MPI_Datatype *ints_of(MPI_Datatype *types, MPI_Datatype first)
{
    for (int i = 0; i < 64; i++)
        types[i] = MPI_INT;
    types[0] = first;
    return types;
}

static int ialltoallw_sendtypes_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    MPI_Datatype types[64];
    return MPI_Ialltoallw(x->ibuf, counts_of(counts, 1), displs_of(displs), NULL, x->ibuf2, counts, displs,
                          ints_of(types, MPI_INT), x->comm, &x->req);
}

static int ialltoallw_recvbuf_in_place(struct bad_ctx *x)
{
    int counts[64], displs[64];
    MPI_Datatype types[64];
    ints_of(types, MPI_INT);
    return MPI_Ialltoallw(x->ibuf, counts_of(counts, 1), displs_of(displs), types, MPI_IN_PLACE, counts, displs,
                          types, x->comm, &x->req);
}

static int alltoallw_recvcount_negative(struct bad_ctx *x)
{
    int counts[64], bad[64], displs[64];
    MPI_Datatype types[64];
    ints_of(types, MPI_INT);
    return MPI_Alltoallw(x->ibuf, counts_of(counts, 1), displs_of(displs), types, x->ibuf2, counts_of(bad, -3),
                         displs, types, x->comm);
}

static int alltoallw_recvtype_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    MPI_Datatype types[64], rtypes[64];
    return MPI_Alltoallw(x->ibuf, counts_of(counts, 1), displs_of(displs), ints_of(types, MPI_INT), x->ibuf2, counts,
                         displs, ints_of(rtypes, MPI_DATATYPE_NULL), x->comm);
}

static int alltoallw_comm_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    MPI_Datatype types[64];
    ints_of(types, MPI_INT);
    return MPI_Alltoallw(x->ibuf, counts_of(counts, 1), displs_of(displs), types, x->ibuf2, counts, displs, types,
                         MPI_COMM_NULL);
}

static int igather_root_high(struct bad_ctx *x)
{
    return MPI_Igather(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, 77, x->comm, &x->req);
}

static int igatherv_root_displs_null(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Igatherv(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, 1), NULL, MPI_INT, 0, x->self, &x->req);
}

static int iscatter_type_null(struct bad_ctx *x)
{
    return MPI_Iscatter(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_DATATYPE_NULL, 0, x->comm, &x->req);
}

static int iscatterv_root_sendcounts_null(struct bad_ctx *x)
{
    int displs[64];
    return MPI_Iscatterv(x->ibuf, NULL, displs_of(displs), MPI_INT, x->ibuf2, 1, MPI_INT, 0, x->self, &x->req);
}

static int ireduce_scatter_recvcount_negative(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Ireduce_scatter(x->ibuf, x->ibuf2, counts_of(counts, -3), MPI_INT, MPI_SUM, x->comm, &x->req);
}

static int ireduce_scatter_block_bxor_float(struct bad_ctx *x)
{
    return MPI_Ireduce_scatter_block(x->dbuf, x->dbuf + 8, 1, MPI_FLOAT, MPI_BXOR, x->comm, &x->req);
}

static int iscan_count_negative(struct bad_ctx *x)
{
    return MPI_Iscan(x->ibuf, x->ibuf2, -3, MPI_INT, MPI_SUM, x->comm, &x->req);
}

static int iexscan_comm_null(struct bad_ctx *x)
{
    return MPI_Iexscan(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &x->req);
}

static int iexscan_request_null(struct bad_ctx *x)
{
    return MPI_Iexscan(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, x->comm, NULL);
}

/* ------------------------------------------------------------------------ persistent collectives */

static int allreduce_init_request_null(struct bad_ctx *x)
{
    return MPI_Allreduce_init(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, x->comm, MPI_INFO_NULL, NULL);
}

static int bcast_init_root_negative(struct bad_ctx *x)
{
    return MPI_Bcast_init(x->ibuf, 1, MPI_INT, -5, x->comm, MPI_INFO_NULL, &x->req);
}

static int gather_init_root_high(struct bad_ctx *x)
{
    return MPI_Gather_init(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, 77, x->comm, MPI_INFO_NULL, &x->req);
}

static int alltoallw_init_comm_null(struct bad_ctx *x)
{
    int counts[64], displs[64];
    MPI_Datatype types[64];
    ints_of(types, MPI_INT);
    return MPI_Alltoallw_init(x->ibuf, counts_of(counts, 1), displs_of(displs), types, x->ibuf2, counts, displs,
                              types, MPI_COMM_NULL, MPI_INFO_NULL, &x->req);
}

static int scan_init_count_negative(struct bad_ctx *x)
{
    return MPI_Scan_init(x->ibuf, x->ibuf2, -3, MPI_INT, MPI_SUM, x->comm, MPI_INFO_NULL, &x->req);
}

static int reduce_scatter_block_init_aliased(struct bad_ctx *x)
{
    return MPI_Reduce_scatter_block_init(x->ibuf, x->ibuf, 1, MPI_INT, MPI_SUM, x->comm, MPI_INFO_NULL, &x->req);
}

static int barrier_init_comm_null(struct bad_ctx *x)
{
    return MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &x->req);
}

static int reduce_init_root_negative(struct bad_ctx *x)
{
    return MPI_Reduce_init(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_SUM, -5, x->comm, MPI_INFO_NULL, &x->req);
}

static int allgather_init_count_negative(struct bad_ctx *x)
{
    return MPI_Allgather_init(x->ibuf, -3, MPI_INT, x->ibuf2, 1, MPI_INT, x->comm, MPI_INFO_NULL, &x->req);
}

static int allgatherv_init_recvcount_negative(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Allgatherv_init(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, -3), displs_of(displs), MPI_INT,
                               x->comm, MPI_INFO_NULL, &x->req);
}

static int alltoall_init_sendtype_null(struct bad_ctx *x)
{
    return MPI_Alltoall_init(x->ibuf, 1, MPI_DATATYPE_NULL, x->ibuf2, 1, MPI_INT, x->comm, MPI_INFO_NULL, &x->req);
}

static int alltoallv_init_sendcount_negative(struct bad_ctx *x)
{
    int counts[64], rcounts[64], displs[64];
    return MPI_Alltoallv_init(x->ibuf, counts_of(counts, -3), displs_of(displs), MPI_INT, x->ibuf2,
                              counts_of(rcounts, 1), displs, MPI_INT, x->comm, MPI_INFO_NULL, &x->req);
}

static int exscan_init_op_null(struct bad_ctx *x)
{
    return MPI_Exscan_init(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_OP_NULL, x->comm, MPI_INFO_NULL, &x->req);
}

static int gatherv_init_root_high(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Gatherv_init(x->ibuf, 1, MPI_INT, x->ibuf2, counts_of(counts, 1), displs_of(displs), MPI_INT, 77,
                            x->comm, MPI_INFO_NULL, &x->req);
}

static int reduce_scatter_init_op_null(struct bad_ctx *x)
{
    int counts[64];
    return MPI_Reduce_scatter_init(x->ibuf, x->ibuf2, counts_of(counts, 1), MPI_INT, MPI_OP_NULL, x->comm,
                                   MPI_INFO_NULL, &x->req);
}

static int scatter_init_root_high(struct bad_ctx *x)
{
    return MPI_Scatter_init(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, 77, x->comm, MPI_INFO_NULL, &x->req);
}

static int scatterv_init_root_negative(struct bad_ctx *x)
{
    int counts[64], displs[64];
    return MPI_Scatterv_init(x->ibuf, counts_of(counts, 1), displs_of(displs), MPI_INT, x->ibuf2, 1, MPI_INT, -5,
                             x->comm, MPI_INFO_NULL, &x->req);
}

#define ALIASED "the same address"
#define IN_PLACE(buf) buf " is MPI_IN_PLACE"
#define ROOT_IN_PLACE(buf, other) buf " cannot be MPI_IN_PLACE; at the root pass MPI_IN_PLACE as " other
#define SKIFF_LIMIT "a limitation of skiff"
#define IS_NULL(buf) buf " is NULL"

const struct bad_case bad_coll[] = {
    {"barrier_comm_null", "MPI_Barrier", MPI_ERR_COMM, "MPI_COMM_NULL", barrier_comm_null},
    {"barrier_comm_freed", "MPI_Barrier", MPI_ERR_COMM, "already freed", barrier_comm_freed},
    {"ibarrier_comm_null", "MPI_Ibarrier", MPI_ERR_COMM, "MPI_COMM_NULL", ibarrier_comm_null},
    {"ibarrier_request_null", "MPI_Ibarrier", MPI_ERR_ARG, IS_NULL("request"), ibarrier_request_null},

    {"bcast_root_high", "MPI_Bcast", MPI_ERR_ROOT, "invalid root 77", bcast_root_high},
    {"bcast_root_negative", "MPI_Bcast", MPI_ERR_ROOT, "invalid root -5", bcast_root_negative},
    {"bcast_count_negative", "MPI_Bcast", MPI_ERR_COUNT, "invalid count -3", bcast_count_negative},
    {"bcast_type_null", "MPI_Bcast", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", bcast_type_null},
    {"bcast_type_freed", "MPI_Bcast", MPI_ERR_TYPE, "already freed", bcast_type_freed},
    {"bcast_uncommitted", "MPI_Bcast", MPI_ERR_TYPE, "not committed", bcast_uncommitted},
    {"bcast_null_buf", "MPI_Bcast", MPI_ERR_BUFFER, IS_NULL("buffer"), bcast_null_buf},
    {"bcast_in_place", "MPI_Bcast", MPI_ERR_BUFFER, IN_PLACE("buffer"), bcast_in_place},
    {"bcast_comm_freed", "MPI_Bcast", MPI_ERR_COMM, "already freed", bcast_comm_freed},
    {"ibcast_root_high", "MPI_Ibcast", MPI_ERR_ROOT, "invalid root 77", ibcast_root_high},
    {"ibcast_request_null", "MPI_Ibcast", MPI_ERR_ARG, IS_NULL("request"), ibcast_request_null},
    {"ibcast_in_place", "MPI_Ibcast", MPI_ERR_BUFFER, IN_PLACE("buffer"), ibcast_in_place},
    {"ibcast_count_negative", "MPI_Ibcast", MPI_ERR_COUNT, "invalid count -3", ibcast_count_negative},

    {"reduce_root_negative", "MPI_Reduce", MPI_ERR_ROOT, "invalid root -5", reduce_root_negative},
    {"reduce_count_negative", "MPI_Reduce", MPI_ERR_COUNT, "invalid count -3", reduce_count_negative},
    {"reduce_uncommitted", "MPI_Reduce", MPI_ERR_TYPE, "not committed", reduce_uncommitted},
    {"reduce_op_null", "MPI_Reduce", MPI_ERR_OP, "MPI_OP_NULL", reduce_op_null},
    {"reduce_op_freed", "MPI_Reduce", MPI_ERR_OP, "already freed", reduce_op_freed},
    {"reduce_land_double", "MPI_Reduce", MPI_ERR_OP, "MPI_LAND is not defined for MPI_DOUBLE", reduce_land_double},
    {"reduce_null_sendbuf", "MPI_Reduce", MPI_ERR_BUFFER, IS_NULL("sendbuf"), reduce_null_sendbuf},
    {"reduce_root_null_recvbuf", "MPI_Reduce", MPI_ERR_BUFFER, IS_NULL("recvbuf"), reduce_root_null_recvbuf},
    {"reduce_root_recvbuf_in_place", "MPI_Reduce", MPI_ERR_BUFFER, ROOT_IN_PLACE("recvbuf", "sendbuf"),
     reduce_root_recvbuf_in_place},
    {"reduce_root_aliased", "MPI_Reduce", MPI_ERR_BUFFER, ALIASED, reduce_root_aliased},
    {"reduce_comm_null", "MPI_Reduce", MPI_ERR_COMM, "MPI_COMM_NULL", reduce_comm_null},
    {"ireduce_root_high", "MPI_Ireduce", MPI_ERR_ROOT, "invalid root 77", ireduce_root_high},
    {"ireduce_request_null", "MPI_Ireduce", MPI_ERR_ARG, IS_NULL("request"), ireduce_request_null},
    {"ireduce_op_replace", "MPI_Ireduce", MPI_ERR_OP, "MPI_REPLACE", ireduce_op_replace},
    {"ireduce_root_aliased", "MPI_Ireduce", MPI_ERR_BUFFER, ALIASED, ireduce_root_aliased},

    {"allreduce_count_negative", "MPI_Allreduce", MPI_ERR_COUNT, "invalid count -3", allreduce_count_negative},
    {"allreduce_type_null", "MPI_Allreduce", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", allreduce_type_null},
    {"allreduce_op_null", "MPI_Allreduce", MPI_ERR_OP, "MPI_OP_NULL", allreduce_op_null},
    {"allreduce_op_freed", "MPI_Allreduce", MPI_ERR_OP, "already freed", allreduce_op_freed},
    {"allreduce_op_no_op", "MPI_Allreduce", MPI_ERR_OP, "MPI_NO_OP", allreduce_op_no_op},
    {"allreduce_maxloc_int", "MPI_Allreduce", MPI_ERR_OP, "MPI_MAXLOC is not defined for MPI_INT",
     allreduce_maxloc_int},
    {"allreduce_sum_logical", "MPI_Allreduce", MPI_ERR_OP, "MPI_SUM is not defined for MPI_LOGICAL",
     allreduce_sum_logical},
    {"allreduce_sum_character", "MPI_Allreduce", MPI_ERR_OP, "MPI_SUM is not defined for MPI_CHARACTER",
     allreduce_sum_character},
    {"allreduce_land_integer", "MPI_Allreduce", MPI_ERR_OP, "MPI_LAND is not defined for MPI_INTEGER",
     allreduce_land_integer},
    {"allreduce_band_real", "MPI_Allreduce", MPI_ERR_OP, "MPI_BAND is not defined for MPI_REAL", allreduce_band_real},
    {"allreduce_max_double_complex", "MPI_Allreduce", MPI_ERR_OP, "MPI_MAX is not defined for MPI_DOUBLE_COMPLEX",
     allreduce_max_double_complex},
    {"allreduce_maxloc_double_precision", "MPI_Allreduce", MPI_ERR_OP,
     "MPI_MAXLOC is not defined for MPI_DOUBLE_PRECISION", allreduce_maxloc_double_precision},
    {"allreduce_sum_derived", "MPI_Allreduce", MPI_ERR_OP, "MPI_SUM is not defined for a derived datatype of mixed",
     allreduce_sum_derived},
    {"allreduce_land_derived_double", "MPI_Allreduce", MPI_ERR_OP,
     "MPI_LAND is not defined for MPI_DOUBLE, the basic type of this derived datatype", allreduce_land_derived_double},
    {"allreduce_band_noncontiguous_double", "MPI_Allreduce", MPI_ERR_OP,
     "MPI_BAND is not defined for MPI_DOUBLE, the basic type of this derived datatype",
     allreduce_band_noncontiguous_double},
    {"allreduce_user_op_noncontiguous", "MPI_Allreduce", MPI_ERR_UNSUPPORTED_OPERATION, SKIFF_LIMIT,
     allreduce_user_op_noncontiguous},
    {"allreduce_null_sendbuf", "MPI_Allreduce", MPI_ERR_BUFFER, IS_NULL("sendbuf"), allreduce_null_sendbuf},
    {"allreduce_null_recvbuf", "MPI_Allreduce", MPI_ERR_BUFFER, IS_NULL("recvbuf"), allreduce_null_recvbuf},
    {"allreduce_recvbuf_in_place", "MPI_Allreduce", MPI_ERR_BUFFER, IN_PLACE("recvbuf"), allreduce_recvbuf_in_place},
    {"allreduce_aliased", "MPI_Allreduce", MPI_ERR_BUFFER, ALIASED, allreduce_aliased},
    {"allreduce_comm_freed", "MPI_Allreduce", MPI_ERR_COMM, "already freed", allreduce_comm_freed},
    {"iallreduce_request_null", "MPI_Iallreduce", MPI_ERR_ARG, IS_NULL("request"), iallreduce_request_null},
    {"iallreduce_bxor_float", "MPI_Iallreduce", MPI_ERR_OP, "MPI_BXOR is not defined for MPI_FLOAT",
     iallreduce_bxor_float},
    {"iallreduce_aliased", "MPI_Iallreduce", MPI_ERR_BUFFER, ALIASED, iallreduce_aliased},

    {"reduce_local_count_negative", "MPI_Reduce_local", MPI_ERR_COUNT, "invalid count -3",
     reduce_local_count_negative},
    {"reduce_local_type_freed", "MPI_Reduce_local", MPI_ERR_TYPE, "already freed", reduce_local_type_freed},
    {"reduce_local_op_null", "MPI_Reduce_local", MPI_ERR_OP, "MPI_OP_NULL", reduce_local_op_null},
    {"reduce_local_band_double", "MPI_Reduce_local", MPI_ERR_OP, "MPI_BAND is not defined for MPI_DOUBLE",
     reduce_local_band_double},
    {"reduce_local_null_inbuf", "MPI_Reduce_local", MPI_ERR_BUFFER, IS_NULL("inbuf"), reduce_local_null_inbuf},
    {"reduce_local_null_inoutbuf", "MPI_Reduce_local", MPI_ERR_BUFFER, IS_NULL("inoutbuf"),
     reduce_local_null_inoutbuf},
    {"reduce_local_in_place", "MPI_Reduce_local", MPI_ERR_BUFFER, IN_PLACE("inbuf"), reduce_local_in_place},
    {"reduce_local_aliased", "MPI_Reduce_local", MPI_ERR_BUFFER, ALIASED, reduce_local_aliased},

    {"gather_root_high", "MPI_Gather", MPI_ERR_ROOT, "invalid root 77", gather_root_high},
    {"gather_sendcount_negative", "MPI_Gather", MPI_ERR_COUNT, "invalid count -3", gather_sendcount_negative},
    {"gather_sendtype_null", "MPI_Gather", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", gather_sendtype_null},
    {"gather_null_sendbuf", "MPI_Gather", MPI_ERR_BUFFER, IS_NULL("sendbuf"), gather_null_sendbuf},
    {"gather_root_recvcount_negative", "MPI_Gather", MPI_ERR_COUNT, "invalid count -3",
     gather_root_recvcount_negative},
    {"gather_root_recvtype_uncommitted", "MPI_Gather", MPI_ERR_TYPE, "not committed",
     gather_root_recvtype_uncommitted},
    {"gather_root_null_recvbuf", "MPI_Gather", MPI_ERR_BUFFER, IS_NULL("recvbuf"), gather_root_null_recvbuf},
    {"gather_root_recvbuf_in_place", "MPI_Gather", MPI_ERR_BUFFER, ROOT_IN_PLACE("recvbuf", "sendbuf"),
     gather_root_recvbuf_in_place},
    {"gather_root_aliased", "MPI_Gather", MPI_ERR_BUFFER, ALIASED, gather_root_aliased},
    {"gather_root_mismatch", "MPI_Gather", MPI_ERR_TRUNCATE,
     "sendcount and sendtype give 8 bytes, recvcount and recvtype 4 bytes", gather_root_mismatch},
    {"gatherv_root_high", "MPI_Gatherv", MPI_ERR_ROOT, "invalid root 77", gatherv_root_high},
    {"gatherv_sendcount_negative", "MPI_Gatherv", MPI_ERR_COUNT, "invalid count -3", gatherv_sendcount_negative},
    {"gatherv_root_recvcounts_null", "MPI_Gatherv", MPI_ERR_ARG, IS_NULL("recvcounts"), gatherv_root_recvcounts_null},
    {"gatherv_root_displs_null", "MPI_Gatherv", MPI_ERR_ARG, IS_NULL("displs"), gatherv_root_displs_null},
    {"gatherv_root_recvcount_negative", "MPI_Gatherv", MPI_ERR_COUNT, "invalid recvcounts[0] = -3",
     gatherv_root_recvcount_negative},
    {"gatherv_root_recvtype_null", "MPI_Gatherv", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", gatherv_root_recvtype_null},
    {"gatherv_root_null_recvbuf", "MPI_Gatherv", MPI_ERR_BUFFER, IS_NULL("recvbuf"), gatherv_root_null_recvbuf},
    {"gatherv_root_recvbuf_in_place", "MPI_Gatherv", MPI_ERR_BUFFER, ROOT_IN_PLACE("recvbuf", "sendbuf"),
     gatherv_root_recvbuf_in_place},
    {"gatherv_root_aliased", "MPI_Gatherv", MPI_ERR_BUFFER, ALIASED, gatherv_root_aliased},
    {"gatherv_root_mismatch", "MPI_Gatherv", MPI_ERR_TRUNCATE,
     "sendcount and sendtype give 12 bytes, recvcounts[0] and recvtype 4 bytes", gatherv_root_mismatch},

    {"scatter_root_high", "MPI_Scatter", MPI_ERR_ROOT, "invalid root 77", scatter_root_high},
    {"scatter_recvcount_negative", "MPI_Scatter", MPI_ERR_COUNT, "invalid count -3", scatter_recvcount_negative},
    {"scatter_recvtype_freed", "MPI_Scatter", MPI_ERR_TYPE, "already freed", scatter_recvtype_freed},
    {"scatter_null_recvbuf", "MPI_Scatter", MPI_ERR_BUFFER, IS_NULL("recvbuf"), scatter_null_recvbuf},
    {"scatter_root_sendcount_negative", "MPI_Scatter", MPI_ERR_COUNT, "invalid count -3",
     scatter_root_sendcount_negative},
    {"scatter_root_sendtype_null", "MPI_Scatter", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", scatter_root_sendtype_null},
    {"scatter_root_null_sendbuf", "MPI_Scatter", MPI_ERR_BUFFER, IS_NULL("sendbuf"), scatter_root_null_sendbuf},
    {"scatter_root_sendbuf_in_place", "MPI_Scatter", MPI_ERR_BUFFER, ROOT_IN_PLACE("sendbuf", "recvbuf"),
     scatter_root_sendbuf_in_place},
    {"scatter_root_aliased", "MPI_Scatter", MPI_ERR_BUFFER, ALIASED, scatter_root_aliased},
    {"scatter_root_mismatch", "MPI_Scatter", MPI_ERR_TRUNCATE,
     "sendcount and sendtype give 4 bytes, recvcount and recvtype 8 bytes", scatter_root_mismatch},
    {"scatterv_root_high", "MPI_Scatterv", MPI_ERR_ROOT, "invalid root 77", scatterv_root_high},
    {"scatterv_recvcount_negative", "MPI_Scatterv", MPI_ERR_COUNT, "invalid count -3", scatterv_recvcount_negative},
    {"scatterv_root_sendcounts_null", "MPI_Scatterv", MPI_ERR_ARG, IS_NULL("sendcounts"),
     scatterv_root_sendcounts_null},
    {"scatterv_root_displs_null", "MPI_Scatterv", MPI_ERR_ARG, IS_NULL("displs"), scatterv_root_displs_null},
    {"scatterv_root_sendcount_negative", "MPI_Scatterv", MPI_ERR_COUNT, "invalid sendcounts[0] = -3",
     scatterv_root_sendcount_negative},
    {"scatterv_root_sendtype_uncommitted", "MPI_Scatterv", MPI_ERR_TYPE, "not committed",
     scatterv_root_sendtype_uncommitted},
    {"scatterv_root_sendbuf_in_place", "MPI_Scatterv", MPI_ERR_BUFFER, ROOT_IN_PLACE("sendbuf", "recvbuf"),
     scatterv_root_sendbuf_in_place},
    {"scatterv_root_aliased", "MPI_Scatterv", MPI_ERR_BUFFER, ALIASED, scatterv_root_aliased},

    {"allgather_sendcount_negative", "MPI_Allgather", MPI_ERR_COUNT, "invalid count -3", allgather_sendcount_negative},
    {"allgather_recvtype_null", "MPI_Allgather", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", allgather_recvtype_null},
    {"allgather_null_recvbuf", "MPI_Allgather", MPI_ERR_BUFFER, IS_NULL("recvbuf"), allgather_null_recvbuf},
    {"allgather_recvbuf_in_place", "MPI_Allgather", MPI_ERR_BUFFER, IN_PLACE("recvbuf"), allgather_recvbuf_in_place},
    {"allgather_aliased", "MPI_Allgather", MPI_ERR_BUFFER, ALIASED, allgather_aliased},
    {"allgather_mismatch", "MPI_Allgather", MPI_ERR_TRUNCATE,
     "sendcount and sendtype give 8 bytes, recvcount and recvtype 4 bytes", allgather_mismatch},
    {"allgather_comm_null", "MPI_Allgather", MPI_ERR_COMM, "MPI_COMM_NULL", allgather_comm_null},
    {"allgatherv_recvcounts_null", "MPI_Allgatherv", MPI_ERR_ARG, IS_NULL("recvcounts"), allgatherv_recvcounts_null},
    {"allgatherv_displs_null", "MPI_Allgatherv", MPI_ERR_ARG, IS_NULL("displs"), allgatherv_displs_null},
    {"allgatherv_recvcount_negative", "MPI_Allgatherv", MPI_ERR_COUNT, "invalid recvcounts[0] = -3",
     allgatherv_recvcount_negative},
    {"allgatherv_sendtype_uncommitted", "MPI_Allgatherv", MPI_ERR_TYPE, "not committed",
     allgatherv_sendtype_uncommitted},
    {"allgatherv_recvbuf_in_place", "MPI_Allgatherv", MPI_ERR_BUFFER, IN_PLACE("recvbuf"),
     allgatherv_recvbuf_in_place},
    {"allgatherv_aliased", "MPI_Allgatherv", MPI_ERR_BUFFER, ALIASED, allgatherv_aliased},

    {"alltoall_sendcount_negative", "MPI_Alltoall", MPI_ERR_COUNT, "invalid count -3", alltoall_sendcount_negative},
    {"alltoall_recvtype_freed", "MPI_Alltoall", MPI_ERR_TYPE, "already freed", alltoall_recvtype_freed},
    {"alltoall_null_sendbuf", "MPI_Alltoall", MPI_ERR_BUFFER, IS_NULL("sendbuf"), alltoall_null_sendbuf},
    {"alltoall_recvbuf_in_place", "MPI_Alltoall", MPI_ERR_BUFFER, IN_PLACE("recvbuf"), alltoall_recvbuf_in_place},
    {"alltoall_aliased", "MPI_Alltoall", MPI_ERR_BUFFER, ALIASED, alltoall_aliased},
    {"alltoall_mismatch", "MPI_Alltoall", MPI_ERR_TRUNCATE,
     "sendcount and sendtype give 8 bytes, recvcount and recvtype 4 bytes", alltoall_mismatch},
    {"alltoallv_sendcounts_null", "MPI_Alltoallv", MPI_ERR_ARG, IS_NULL("sendcounts"), alltoallv_sendcounts_null},
    {"alltoallv_rdispls_null", "MPI_Alltoallv", MPI_ERR_ARG, IS_NULL("rdispls"), alltoallv_rdispls_null},
    {"alltoallv_sendcount_negative", "MPI_Alltoallv", MPI_ERR_COUNT, "invalid sendcounts[0] = -3",
     alltoallv_sendcount_negative},
    {"alltoallv_recvtype_null", "MPI_Alltoallv", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", alltoallv_recvtype_null},
    {"alltoallv_null_recvbuf", "MPI_Alltoallv", MPI_ERR_BUFFER, IS_NULL("recvbuf"), alltoallv_null_recvbuf},
    {"alltoallv_recvbuf_in_place", "MPI_Alltoallv", MPI_ERR_BUFFER, IN_PLACE("recvbuf"), alltoallv_recvbuf_in_place},
    {"alltoallv_aliased", "MPI_Alltoallv", MPI_ERR_BUFFER, ALIASED, alltoallv_aliased},

    {"reduce_scatter_counts_null", "MPI_Reduce_scatter", MPI_ERR_ARG, IS_NULL("recvcounts"),
     reduce_scatter_counts_null},
    {"reduce_scatter_count_negative", "MPI_Reduce_scatter", MPI_ERR_COUNT, "invalid recvcounts[0] = -3",
     reduce_scatter_count_negative},
    {"reduce_scatter_uncommitted", "MPI_Reduce_scatter", MPI_ERR_TYPE, "not committed", reduce_scatter_uncommitted},
    {"reduce_scatter_op_null", "MPI_Reduce_scatter", MPI_ERR_OP, "MPI_OP_NULL", reduce_scatter_op_null},
    {"reduce_scatter_null_sendbuf", "MPI_Reduce_scatter", MPI_ERR_BUFFER, IS_NULL("sendbuf"),
     reduce_scatter_null_sendbuf},
    {"reduce_scatter_recvbuf_in_place", "MPI_Reduce_scatter", MPI_ERR_BUFFER, IN_PLACE("recvbuf"),
     reduce_scatter_recvbuf_in_place},
    {"reduce_scatter_aliased", "MPI_Reduce_scatter", MPI_ERR_BUFFER, ALIASED, reduce_scatter_aliased},
    {"reduce_scatter_block_count_negative", "MPI_Reduce_scatter_block", MPI_ERR_COUNT, "invalid count -3",
     reduce_scatter_block_count_negative},
    {"reduce_scatter_block_type_null", "MPI_Reduce_scatter_block", MPI_ERR_TYPE, "MPI_DATATYPE_NULL",
     reduce_scatter_block_type_null},
    {"reduce_scatter_block_op_freed", "MPI_Reduce_scatter_block", MPI_ERR_OP, "already freed",
     reduce_scatter_block_op_freed},
    {"reduce_scatter_block_recvbuf_in_place", "MPI_Reduce_scatter_block", MPI_ERR_BUFFER, IN_PLACE("recvbuf"),
     reduce_scatter_block_recvbuf_in_place},
    {"reduce_scatter_block_aliased", "MPI_Reduce_scatter_block", MPI_ERR_BUFFER, ALIASED,
     reduce_scatter_block_aliased},
    {"reduce_scatter_block_null_recvbuf", "MPI_Reduce_scatter_block", MPI_ERR_BUFFER, IS_NULL("recvbuf"),
     reduce_scatter_block_null_recvbuf},
    {"reduce_scatter_block_comm_null", "MPI_Reduce_scatter_block", MPI_ERR_COMM, "MPI_COMM_NULL",
     reduce_scatter_block_comm_null},

    {"scan_count_negative", "MPI_Scan", MPI_ERR_COUNT, "invalid count -3", scan_count_negative},
    {"scan_type_freed", "MPI_Scan", MPI_ERR_TYPE, "already freed", scan_type_freed},
    {"scan_op_null", "MPI_Scan", MPI_ERR_OP, "MPI_OP_NULL", scan_op_null},
    {"scan_null_sendbuf", "MPI_Scan", MPI_ERR_BUFFER, IS_NULL("sendbuf"), scan_null_sendbuf},
    {"scan_recvbuf_in_place", "MPI_Scan", MPI_ERR_BUFFER, IN_PLACE("recvbuf"), scan_recvbuf_in_place},
    {"scan_aliased", "MPI_Scan", MPI_ERR_BUFFER, ALIASED, scan_aliased},
    {"exscan_count_negative", "MPI_Exscan", MPI_ERR_COUNT, "invalid count -3", exscan_count_negative},
    {"exscan_uncommitted", "MPI_Exscan", MPI_ERR_TYPE, "not committed", exscan_uncommitted},
    {"exscan_lor_complex", "MPI_Exscan", MPI_ERR_OP, "MPI_LOR is not defined for MPI_C_DOUBLE_COMPLEX",
     exscan_lor_complex},
    {"exscan_null_recvbuf", "MPI_Exscan", MPI_ERR_BUFFER, IS_NULL("recvbuf"), exscan_null_recvbuf},
    {"exscan_recvbuf_in_place", "MPI_Exscan", MPI_ERR_BUFFER, IN_PLACE("recvbuf"), exscan_recvbuf_in_place},
    {"exscan_aliased", "MPI_Exscan", MPI_ERR_BUFFER, ALIASED, exscan_aliased},
    {"exscan_comm_null", "MPI_Exscan", MPI_ERR_COMM, "MPI_COMM_NULL", exscan_comm_null},
    {"ibcast_comm_null", "MPI_Ibcast", MPI_ERR_COMM, "MPI_COMM_NULL", ibcast_comm_null},
    {"ibcast_type_null", "MPI_Ibcast", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", ibcast_type_null},
    {"ireduce_count_negative", "MPI_Ireduce", MPI_ERR_COUNT, "invalid count -3", ireduce_count_negative},
    {"ireduce_type_freed", "MPI_Ireduce", MPI_ERR_TYPE, "already freed", ireduce_type_freed},
    {"ireduce_comm_freed", "MPI_Ireduce", MPI_ERR_COMM, "already freed", ireduce_comm_freed},
    {"iallreduce_count_negative", "MPI_Iallreduce", MPI_ERR_COUNT, "invalid count -3", iallreduce_count_negative},
    {"iallreduce_uncommitted", "MPI_Iallreduce", MPI_ERR_TYPE, "not committed", iallreduce_uncommitted},
    {"iallreduce_comm_null", "MPI_Iallreduce", MPI_ERR_COMM, "MPI_COMM_NULL", iallreduce_comm_null},
    {"gather_comm_null", "MPI_Gather", MPI_ERR_COMM, "MPI_COMM_NULL", gather_comm_null},
    {"gatherv_comm_freed", "MPI_Gatherv", MPI_ERR_COMM, "already freed", gatherv_comm_freed},
    {"scatter_comm_freed", "MPI_Scatter", MPI_ERR_COMM, "already freed", scatter_comm_freed},
    {"scatterv_comm_null", "MPI_Scatterv", MPI_ERR_COMM, "MPI_COMM_NULL", scatterv_comm_null},
    {"scatterv_root_mismatch", "MPI_Scatterv", MPI_ERR_TRUNCATE,
     "sendcounts[0] and sendtype give 12 bytes, recvcount and recvtype 4 bytes", scatterv_root_mismatch},
    {"allgatherv_mismatch", "MPI_Allgatherv", MPI_ERR_TRUNCATE,
     "sendcount and sendtype give 8 bytes, recvcounts[", allgatherv_mismatch},
    {"allgatherv_comm_null", "MPI_Allgatherv", MPI_ERR_COMM, "MPI_COMM_NULL", allgatherv_comm_null},
    {"alltoall_comm_freed", "MPI_Alltoall", MPI_ERR_COMM, "already freed", alltoall_comm_freed},
    {"alltoallv_comm_null", "MPI_Alltoallv", MPI_ERR_COMM, "MPI_COMM_NULL", alltoallv_comm_null},
    {"reduce_scatter_comm_null", "MPI_Reduce_scatter", MPI_ERR_COMM, "MPI_COMM_NULL", reduce_scatter_comm_null},
    {"scan_comm_freed", "MPI_Scan", MPI_ERR_COMM, "already freed", scan_comm_freed},
    {"iallgather_request_null", "MPI_Iallgather", MPI_ERR_ARG, IS_NULL("request"), iallgather_request_null},
    {"iallgatherv_recvcounts_null", "MPI_Iallgatherv", MPI_ERR_ARG, IS_NULL("recvcounts"),
     iallgatherv_recvcounts_null},
    {"ialltoall_count_negative", "MPI_Ialltoall", MPI_ERR_COUNT, "invalid count -3", ialltoall_count_negative},
    {"ialltoallv_rdispls_null", "MPI_Ialltoallv", MPI_ERR_ARG, IS_NULL("rdispls"), ialltoallv_rdispls_null},
    {"ialltoallw_sendtypes_null", "MPI_Ialltoallw", MPI_ERR_ARG, IS_NULL("sendtypes"), ialltoallw_sendtypes_null},
    {"ialltoallw_recvbuf_in_place", "MPI_Ialltoallw", MPI_ERR_BUFFER, IN_PLACE("recvbuf"),
     ialltoallw_recvbuf_in_place},
    {"alltoallw_recvcount_negative", "MPI_Alltoallw", MPI_ERR_COUNT, "invalid recvcounts[0] = -3",
     alltoallw_recvcount_negative},
    {"alltoallw_recvtype_null", "MPI_Alltoallw", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", alltoallw_recvtype_null},
    {"alltoallw_comm_null", "MPI_Alltoallw", MPI_ERR_COMM, "MPI_COMM_NULL", alltoallw_comm_null},
    {"igather_root_high", "MPI_Igather", MPI_ERR_ROOT, "invalid root 77", igather_root_high},
    {"igatherv_root_displs_null", "MPI_Igatherv", MPI_ERR_ARG, IS_NULL("displs"), igatherv_root_displs_null},
    {"iscatter_type_null", "MPI_Iscatter", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", iscatter_type_null},
    {"iscatterv_root_sendcounts_null", "MPI_Iscatterv", MPI_ERR_ARG, IS_NULL("sendcounts"),
     iscatterv_root_sendcounts_null},
    {"ireduce_scatter_recvcount_negative", "MPI_Ireduce_scatter", MPI_ERR_COUNT, "invalid recvcounts[0] = -3",
     ireduce_scatter_recvcount_negative},
    {"ireduce_scatter_block_bxor_float", "MPI_Ireduce_scatter_block", MPI_ERR_OP,
     "MPI_BXOR is not defined for MPI_FLOAT", ireduce_scatter_block_bxor_float},
    {"iscan_count_negative", "MPI_Iscan", MPI_ERR_COUNT, "invalid count -3", iscan_count_negative},
    {"iexscan_comm_null", "MPI_Iexscan", MPI_ERR_COMM, "MPI_COMM_NULL", iexscan_comm_null},
    {"iexscan_request_null", "MPI_Iexscan", MPI_ERR_ARG, IS_NULL("request"), iexscan_request_null},
    {"allreduce_init_request_null", "MPI_Allreduce_init", MPI_ERR_ARG, IS_NULL("request"),
     allreduce_init_request_null},
    {"bcast_init_root_negative", "MPI_Bcast_init", MPI_ERR_ROOT, "invalid root -5", bcast_init_root_negative},
    {"gather_init_root_high", "MPI_Gather_init", MPI_ERR_ROOT, "invalid root 77", gather_init_root_high},
    {"alltoallw_init_comm_null", "MPI_Alltoallw_init", MPI_ERR_COMM, "MPI_COMM_NULL", alltoallw_init_comm_null},
    {"scan_init_count_negative", "MPI_Scan_init", MPI_ERR_COUNT, "invalid count -3", scan_init_count_negative},
    {"reduce_scatter_block_init_aliased", "MPI_Reduce_scatter_block_init", MPI_ERR_BUFFER, ALIASED,
     reduce_scatter_block_init_aliased},
    {"barrier_init_comm_null", "MPI_Barrier_init", MPI_ERR_COMM, "MPI_COMM_NULL", barrier_init_comm_null},
    {"reduce_init_root_negative", "MPI_Reduce_init", MPI_ERR_ROOT, "invalid root -5", reduce_init_root_negative},
    {"allgather_init_count_negative", "MPI_Allgather_init", MPI_ERR_COUNT, "invalid count -3",
     allgather_init_count_negative},
    {"allgatherv_init_recvcount_negative", "MPI_Allgatherv_init", MPI_ERR_COUNT, "invalid recvcounts[0] = -3",
     allgatherv_init_recvcount_negative},
    {"alltoall_init_sendtype_null", "MPI_Alltoall_init", MPI_ERR_TYPE, "MPI_DATATYPE_NULL",
     alltoall_init_sendtype_null},
    {"alltoallv_init_sendcount_negative", "MPI_Alltoallv_init", MPI_ERR_COUNT, "invalid sendcounts[0] = -3",
     alltoallv_init_sendcount_negative},
    {"exscan_init_op_null", "MPI_Exscan_init", MPI_ERR_OP, "MPI_OP_NULL", exscan_init_op_null},
    {"gatherv_init_root_high", "MPI_Gatherv_init", MPI_ERR_ROOT, "invalid root 77", gatherv_init_root_high},
    {"reduce_scatter_init_op_null", "MPI_Reduce_scatter_init", MPI_ERR_OP, "MPI_OP_NULL", reduce_scatter_init_op_null},
    {"scatter_init_root_high", "MPI_Scatter_init", MPI_ERR_ROOT, "invalid root 77", scatter_init_root_high},
    {"scatterv_init_root_negative", "MPI_Scatterv_init", MPI_ERR_ROOT, "invalid root -5",
     scatterv_init_root_negative},
    {0},
};
