/* bad_input rows: the large-count (_c) calls (see bad_input.h). Their checks are their int twins'; these
 * rows make sure each _c entry point runs them, names itself, and prints an MPI_Count beyond int range
 * whole (-2^33, which an int would wrap). */
#include "bad_input.h"

#define NEG ((MPI_Count) - 8589934592LL) /* -2^33 */

static int send_c_count(struct bad_ctx *x)
{
    return MPI_Send_c(x->ibuf, NEG, MPI_INT, 0, 0, x->comm);
}

static int isend_c_count(struct bad_ctx *x)
{
    return MPI_Isend_c(x->ibuf, NEG, MPI_INT, 0, 0, x->comm, &x->req);
}

static int bsend_c_count(struct bad_ctx *x)
{
    return MPI_Bsend_c(x->ibuf, NEG, MPI_INT, 0, 0, x->comm);
}

static int recv_c_count(struct bad_ctx *x)
{
    return MPI_Recv_c(x->ibuf, NEG, MPI_INT, 0, 0, x->comm, &x->status);
}

static int irecv_c_count(struct bad_ctx *x)
{
    return MPI_Irecv_c(x->ibuf, NEG, MPI_INT, 0, 0, x->comm, &x->req);
}

static int recv_c_rank(struct bad_ctx *x)
{
    return MPI_Recv_c(x->ibuf, 1, MPI_INT, 99, 0, x->comm, &x->status);
}

static int sendrecv_c_recvcount(struct bad_ctx *x)
{
    return MPI_Sendrecv_c(x->ibuf, 1, MPI_INT, 0, 0, x->ibuf2, NEG, MPI_INT, 0, 0, x->comm, &x->status);
}

static int send_init_c_count(struct bad_ctx *x)
{
    return MPI_Send_init_c(x->ibuf, NEG, MPI_INT, 0, 0, x->comm, &x->req);
}

static int imrecv_c_no_message(struct bad_ctx *x)
{
    MPI_Message m = MPI_MESSAGE_NULL;
    return MPI_Imrecv_c(x->ibuf, 1, MPI_INT, &m, &x->req);
}

static int buffer_attach_c_size(struct bad_ctx *x)
{
    return MPI_Buffer_attach_c(x->ibuf, NEG);
}

static int get_count_c_null(struct bad_ctx *x)
{
    return MPI_Get_count_c(&x->status, MPI_INT, NULL);
}

static int status_set_elements_c_count(struct bad_ctx *x)
{
    return MPI_Status_set_elements_c(&x->status, MPI_INT, NEG);
}

static int bcast_c_count(struct bad_ctx *x)
{
    return MPI_Bcast_c(x->ibuf, NEG, MPI_INT, 0, x->comm);
}

static int allreduce_c_count(struct bad_ctx *x)
{
    return MPI_Allreduce_c(x->ibuf, x->ibuf2, NEG, MPI_INT, MPI_SUM, x->comm);
}

static int iallreduce_c_op(struct bad_ctx *x)
{
    return MPI_Iallreduce_c(x->ibuf, x->ibuf2, 1, MPI_INT, MPI_OP_NULL, x->comm, &x->req);
}

static int gather_c_root(struct bad_ctx *x)
{
    return MPI_Gather_c(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, 77, x->comm);
}

static int reduce_local_c_count(struct bad_ctx *x)
{
    return MPI_Reduce_local_c(x->ibuf, x->ibuf2, NEG, MPI_INT, MPI_SUM);
}

static int reduce_scatter_c_counts(struct bad_ctx *x)
{
    MPI_Count counts[64];
    for (int i = 0; i < x->size; i++)
        counts[i] = i ? 1 : NEG;
    return MPI_Reduce_scatter_c(x->ibuf, x->ibuf2, counts, MPI_INT, MPI_SUM, x->comm);
}

static int ireduce_scatter_c_null(struct bad_ctx *x)
{
    return MPI_Ireduce_scatter_c(x->ibuf, x->ibuf2, NULL, MPI_INT, MPI_SUM, x->comm, &x->req);
}

static int gatherv_c_counts(struct bad_ctx *x)
{
    MPI_Count counts[64];
    MPI_Aint displs[64];
    for (int i = 0; i < x->size; i++) {
        counts[i] = i == x->size - 1 ? NEG : 0;
        displs[i] = 0;
    }
    /* each rank its own root: the root's checks fail everywhere before anything moves */
    return MPI_Gatherv_c(x->ibuf, 0, MPI_INT, x->ibuf2, counts, displs, MPI_INT, x->rank, x->comm);
}

static int iscatterv_c_displs(struct bad_ctx *x)
{
    MPI_Count counts[64] = {0};
    return MPI_Iscatterv_c(x->ibuf, counts, NULL, MPI_INT, x->ibuf2, 0, MPI_INT, x->rank, x->comm, &x->req);
}

static int allgatherv_init_c_counts(struct bad_ctx *x)
{
    MPI_Count counts[64];
    MPI_Aint displs[64] = {0};
    for (int i = 0; i < x->size; i++)
        counts[i] = i ? 1 : NEG;
    return MPI_Allgatherv_init_c(x->ibuf, 1, MPI_INT, x->ibuf2, counts, displs, MPI_INT, x->comm, MPI_INFO_NULL,
                                 &x->req);
}

static int alltoallv_c_sdispls(struct bad_ctx *x)
{
    MPI_Count counts[64] = {0};
    MPI_Aint displs[64] = {0};
    return MPI_Alltoallv_c(x->ibuf, counts, NULL, MPI_INT, x->ibuf2, counts, displs, MPI_INT, x->comm);
}

static int ialltoallw_c_counts(struct bad_ctx *x)
{
    MPI_Count counts[64];
    MPI_Aint displs[64] = {0};
    MPI_Datatype types[64];
    for (int i = 0; i < x->size; i++) {
        counts[i] = i == x->size - 1 ? NEG : 0;
        types[i] = MPI_INT;
    }
    return MPI_Ialltoallw_c(x->ibuf, counts, displs, types, x->ibuf2, counts, displs, types, x->comm, &x->req);
}

static int neighbor_alltoallv_c_topo(struct bad_ctx *x)
{
    MPI_Count counts[2] = {1, 1};
    MPI_Aint displs[2] = {0, 1};
    return MPI_Neighbor_alltoallv_c(x->ibuf, counts, displs, MPI_INT, x->ibuf2, counts, displs, MPI_INT, x->comm);
}

static int neighbor_allgatherv_init_c_topo(struct bad_ctx *x)
{
    MPI_Count counts[2] = {1, 1};
    MPI_Aint displs[2] = {0, 1};
    return MPI_Neighbor_allgatherv_init_c(x->ibuf, 1, MPI_INT, x->ibuf2, counts, displs, MPI_INT, x->comm,
                                          MPI_INFO_NULL, &x->req);
}

static int type_create_subarray_c_start(struct bad_ctx *x)
{
    (void)x;
    MPI_Datatype t;
    const MPI_Count sizes[1] = {8589934593LL}, subsizes[1] = {4}, starts[1] = {8589934592LL};
    return MPI_Type_create_subarray_c(1, sizes, subsizes, starts, MPI_ORDER_C, MPI_BYTE, &t);
}

static int type_create_darray_c_gsize(struct bad_ctx *x)
{
    MPI_Datatype t;
    const MPI_Count gsizes[1] = {NEG};
    const int distribs[1] = {MPI_DISTRIBUTE_BLOCK}, dargs[1] = {MPI_DISTRIBUTE_DFLT_DARG}, psizes[1] = {1};
    (void)x;
    return MPI_Type_create_darray_c(1, 0, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT, &t);
}

static int op_create_c_null(struct bad_ctx *x)
{
    (void)x;
    MPI_Op op;
    return MPI_Op_create_c(NULL, 1, &op);
}

static int pack_c_count(struct bad_ctx *x)
{
    MPI_Count pos = 0;
    return MPI_Pack_c(x->ibuf, NEG, MPI_INT, x->ibuf2, 64, &pos, x->comm);
}

static int pack_c_position(struct bad_ctx *x)
{
    MPI_Count pos = 1LL << 40;
    return MPI_Pack_c(x->ibuf, 1, MPI_INT, x->ibuf2, 64, &pos, x->comm);
}

static int pack_size_c_count(struct bad_ctx *x)
{
    MPI_Count sz;
    return MPI_Pack_size_c(NEG, MPI_INT, x->comm, &sz);
}

static int pack_external_size_c_datarep(struct bad_ctx *x)
{
    (void)x;
    MPI_Count sz;
    return MPI_Pack_external_size_c("native", 1, MPI_INT, &sz);
}

static int type_size_c_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_size_c(MPI_INT, NULL);
}

static int type_get_extent_c_type(struct bad_ctx *x)
{
    (void)x;
    MPI_Count lb, ext;
    return MPI_Type_get_extent_c(MPI_DATATYPE_NULL, &lb, &ext);
}

const struct bad_case bad_large[] = {
    {"send_c_count", "MPI_Send_c", MPI_ERR_COUNT, "invalid count -8589934592", send_c_count},
    {"isend_c_count", "MPI_Isend_c", MPI_ERR_COUNT, "invalid count -8589934592", isend_c_count},
    {"bsend_c_count", "MPI_Bsend_c", MPI_ERR_COUNT, "invalid count -8589934592", bsend_c_count},
    {"recv_c_count", "MPI_Recv_c", MPI_ERR_COUNT, "invalid count -8589934592", recv_c_count},
    {"irecv_c_count", "MPI_Irecv_c", MPI_ERR_COUNT, "invalid count -8589934592", irecv_c_count},
    {"recv_c_rank", "MPI_Recv_c", MPI_ERR_RANK, "invalid rank 99", recv_c_rank},
    {"sendrecv_c_recvcount", "MPI_Sendrecv_c", MPI_ERR_COUNT, "invalid count -8589934592", sendrecv_c_recvcount},
    {"send_init_c_count", "MPI_Send_init_c", MPI_ERR_COUNT, "invalid count -8589934592", send_init_c_count},
    {"imrecv_c_no_message", "MPI_Imrecv_c", MPI_ERR_REQUEST, "MPI_MESSAGE_NULL", imrecv_c_no_message},
    {"buffer_attach_c_size", "MPI_Buffer_attach_c", MPI_ERR_ARG, "invalid buffer size -8589934592",
     buffer_attach_c_size},
    {"get_count_c_null", "MPI_Get_count_c", MPI_ERR_ARG, "count is NULL", get_count_c_null},
    {"status_set_elements_c_count", "MPI_Status_set_elements_c", MPI_ERR_COUNT, "invalid count -8589934592",
     status_set_elements_c_count},
    {"bcast_c_count", "MPI_Bcast_c", MPI_ERR_COUNT, "-8589934592", bcast_c_count},
    {"allreduce_c_count", "MPI_Allreduce_c", MPI_ERR_COUNT, "-8589934592", allreduce_c_count},
    {"iallreduce_c_op", "MPI_Iallreduce_c", MPI_ERR_OP, "MPI_OP_NULL", iallreduce_c_op},
    {"gather_c_root", "MPI_Gather_c", MPI_ERR_ROOT, "77", gather_c_root},
    {"reduce_local_c_count", "MPI_Reduce_local_c", MPI_ERR_COUNT, "-8589934592", reduce_local_c_count},
    {"reduce_scatter_c_counts", "MPI_Reduce_scatter_c", MPI_ERR_COUNT, "invalid recvcounts[0] = -8589934592",
     reduce_scatter_c_counts},
    {"ireduce_scatter_c_null", "MPI_Ireduce_scatter_c", MPI_ERR_ARG, "recvcounts is NULL", ireduce_scatter_c_null},
    {"gatherv_c_counts", "MPI_Gatherv_c", MPI_ERR_COUNT, "= -8589934592 (must be >= 0)", gatherv_c_counts},
    {"iscatterv_c_displs", "MPI_Iscatterv_c", MPI_ERR_ARG, "displs is NULL", iscatterv_c_displs},
    {"allgatherv_init_c_counts", "MPI_Allgatherv_init_c", MPI_ERR_COUNT, "invalid recvcounts[0] = -8589934592",
     allgatherv_init_c_counts},
    {"alltoallv_c_sdispls", "MPI_Alltoallv_c", MPI_ERR_ARG, "sdispls is NULL", alltoallv_c_sdispls},
    {"ialltoallw_c_counts", "MPI_Ialltoallw_c", MPI_ERR_COUNT, "= -8589934592 (must be >= 0)", ialltoallw_c_counts},
    {"neighbor_alltoallv_c_topo", "MPI_Neighbor_alltoallv_c", MPI_ERR_TOPOLOGY, "no topology",
     neighbor_alltoallv_c_topo},
    {"neighbor_allgatherv_init_c_topo", "MPI_Neighbor_allgatherv_init_c", MPI_ERR_TOPOLOGY, "no topology",
     neighbor_allgatherv_init_c_topo},
    {"type_create_subarray_c_start", "MPI_Type_create_subarray_c", MPI_ERR_ARG,
     "invalid array_of_starts[0] = 8589934592 (a subarray of 4 from it would not fit in 8589934593 elements)",
     type_create_subarray_c_start},
    {"type_create_darray_c_gsize", "MPI_Type_create_darray_c", MPI_ERR_ARG, "invalid array_of_gsizes[0] = -8589934592",
     type_create_darray_c_gsize},
    {"op_create_c_null", "MPI_Op_create_c", MPI_ERR_ARG, "user_fn is NULL", op_create_c_null},
    {"pack_c_count", "MPI_Pack_c", MPI_ERR_COUNT, "invalid count -8589934592", pack_c_count},
    {"pack_c_position", "MPI_Pack_c", MPI_ERR_ARG, "position 1099511627776 is outside the 64-byte outbuf",
     pack_c_position},
    {"pack_size_c_count", "MPI_Pack_size_c", MPI_ERR_COUNT, "invalid count -8589934592", pack_size_c_count},
    {"pack_external_size_c_datarep", "MPI_Pack_external_size_c", MPI_ERR_UNSUPPORTED_DATAREP, "\"native\"",
     pack_external_size_c_datarep},
    {"type_size_c_null", "MPI_Type_size_c", MPI_ERR_ARG, "size is NULL", type_size_c_null},
    {"type_get_extent_c_type", "MPI_Type_get_extent_c", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", type_get_extent_c_type},
    {0},
};
