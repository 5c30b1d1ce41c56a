/* The MPI-4 large-count (_c) calls with small counts: each must do exactly what its int twin does.
 * Point-to-point around a ring (every send mode, blocking, nonblocking, persistent, combined and
 * matched), collectives (each result compared with the int form's), reductions with an
 * MPI_Op_create_c function, and the MPI_Count datatype queries and status counts.
 * MPICH 4.0 has these calls; Open MPI 4.1 (MPI 3.1) has none, so there the test only says so. The
 * MPI-4.1 additions (MPI_Comm_attach_buffer_c), MPI_Status_set_elements_c (missing from MPICH 4.0) and
 * the ABI header's MPI_Psend_init_c are checked on skiff only (its mpi.h defines MPI_ABI_VERSION). */
#include "testutil.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#if MPI_VERSION >= 4

#define N 7

static int rank, size, next, prev;

static void fill(int *buf, int n, int who, int salt)
{
    for (int i = 0; i < n; i++)
        buf[i] = who * 1000 + salt * 50 + i;
}

static void check_from(const int *buf, int n, int who, int salt, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK_MSG(buf[i] == who * 1000 + salt * 50 + i, "%s: element %d is %d, expected %d", what, i, buf[i],
                  who * 1000 + salt * 50 + i);
}

/* One ring step by a blocking or nonblocking _c send and MPI_Recv_c/MPI_Irecv_c. */
enum send_kind { K_SEND, K_SSEND, K_RSEND, K_BSEND, K_ISEND, K_ISSEND, K_IRSEND, K_IBSEND, K_NKINDS };
static const char *const kind_name[] = {"Send_c", "Ssend_c", "Rsend_c", "Bsend_c",
                                        "Isend_c", "Issend_c", "Irsend_c", "Ibsend_c"};

static void ring_send(enum send_kind k)
{
    int out[N], in[N];
    fill(out, N, rank, (int)k);
    memset(in, 0xff, sizeof in);
    MPI_Request rr, sr = MPI_REQUEST_NULL;
    MPI_Status st;
    const MPI_Count n = N;
    CHECK_MPI(MPI_Irecv_c(in, n, MPI_INT, prev, (int)k, MPI_COMM_WORLD, &rr));
    tu_barrier(); /* ready mode: every receive is posted */
    switch (k) {
    case K_SEND: CHECK_MPI(MPI_Send_c(out, n, MPI_INT, next, (int)k, MPI_COMM_WORLD)); break;
    case K_SSEND: CHECK_MPI(MPI_Ssend_c(out, n, MPI_INT, next, (int)k, MPI_COMM_WORLD)); break;
    case K_RSEND: CHECK_MPI(MPI_Rsend_c(out, n, MPI_INT, next, (int)k, MPI_COMM_WORLD)); break;
    case K_BSEND: CHECK_MPI(MPI_Bsend_c(out, n, MPI_INT, next, (int)k, MPI_COMM_WORLD)); break;
    case K_ISEND: CHECK_MPI(MPI_Isend_c(out, n, MPI_INT, next, (int)k, MPI_COMM_WORLD, &sr)); break;
    case K_ISSEND: CHECK_MPI(MPI_Issend_c(out, n, MPI_INT, next, (int)k, MPI_COMM_WORLD, &sr)); break;
    case K_IRSEND: CHECK_MPI(MPI_Irsend_c(out, n, MPI_INT, next, (int)k, MPI_COMM_WORLD, &sr)); break;
    default: CHECK_MPI(MPI_Ibsend_c(out, n, MPI_INT, next, (int)k, MPI_COMM_WORLD, &sr)); break;
    }
    CHECK_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&rr, &st));
    check_from(in, N, prev, (int)k, kind_name[k]);
    MPI_Count got = -1;
    CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &got));
    CHECK_EQ(N, got);
    CHECK_MPI(MPI_Get_elements_c(&st, MPI_INT, &got));
    CHECK_EQ(N, got);
}

static void ring_recv_blocking(void)
{
    int out[N], in[N];
    fill(out, N, rank, 20);
    MPI_Request sr;
    MPI_Status st;
    CHECK_MPI(MPI_Isend_c(out, N, MPI_INT, next, 20, MPI_COMM_WORLD, &sr));
    CHECK_MPI(MPI_Recv_c(in, N, MPI_INT, prev, 20, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    check_from(in, N, prev, 20, "Recv_c");
}

static void sendrecv_forms(void)
{
    int out[N], in[N];
    MPI_Request r;
    fill(out, N, rank, 21);
    CHECK_MPI(MPI_Sendrecv_c(out, N, MPI_INT, next, 21, in, N, MPI_INT, prev, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    check_from(in, N, prev, 21, "Sendrecv_c");
    fill(in, N, rank, 22);
    CHECK_MPI(MPI_Sendrecv_replace_c(in, N, MPI_INT, next, 22, prev, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    check_from(in, N, prev, 22, "Sendrecv_replace_c");
    fill(out, N, rank, 23);
    CHECK_MPI(MPI_Isendrecv_c(out, N, MPI_INT, next, 23, in, N, MPI_INT, prev, 23, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    check_from(in, N, prev, 23, "Isendrecv_c");
    fill(in, N, rank, 24);
    CHECK_MPI(MPI_Isendrecv_replace_c(in, N, MPI_INT, next, 24, prev, 24, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    check_from(in, N, prev, 24, "Isendrecv_replace_c");
}

static void matched_forms(void)
{
    int out[N], in[N];
    MPI_Request sr, rr;
    MPI_Message m;
    MPI_Status st;
    fill(out, N, rank, 25);
    CHECK_MPI(MPI_Isend(out, N, MPI_INT, next, 25, MPI_COMM_WORLD, &sr));
    CHECK_MPI(MPI_Mprobe(prev, 25, MPI_COMM_WORLD, &m, &st));
    CHECK_MPI(MPI_Mrecv_c(in, N, MPI_INT, &m, &st));
    CHECK_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    check_from(in, N, prev, 25, "Mrecv_c");
    fill(out, N, rank, 26);
    CHECK_MPI(MPI_Isend(out, N, MPI_INT, next, 26, MPI_COMM_WORLD, &sr));
    CHECK_MPI(MPI_Mprobe(prev, 26, MPI_COMM_WORLD, &m, &st));
    CHECK_MPI(MPI_Imrecv_c(in, N, MPI_INT, &m, &rr));
    CHECK_MPI(MPI_Wait(&rr, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    check_from(in, N, prev, 26, "Imrecv_c");
}

static void persistent_forms(void)
{
    int out[N], in[N];
    MPI_Request r[2];
    for (int k = 0; k < 4; k++) {
        fill(out, N, rank, 30 + k);
        CHECK_MPI(MPI_Recv_init_c(in, N, MPI_INT, prev, 30 + k, MPI_COMM_WORLD, &r[0]));
        switch (k) {
        case 0: CHECK_MPI(MPI_Send_init_c(out, N, MPI_INT, next, 30, MPI_COMM_WORLD, &r[1])); break;
        case 1: CHECK_MPI(MPI_Ssend_init_c(out, N, MPI_INT, next, 31, MPI_COMM_WORLD, &r[1])); break;
        case 2: CHECK_MPI(MPI_Rsend_init_c(out, N, MPI_INT, next, 32, MPI_COMM_WORLD, &r[1])); break;
        default: CHECK_MPI(MPI_Bsend_init_c(out, N, MPI_INT, next, 33, MPI_COMM_WORLD, &r[1])); break;
        }
        CHECK_MPI(MPI_Start(&r[0]));
        tu_barrier();
        CHECK_MPI(MPI_Start(&r[1]));
        CHECK_MPI(MPI_Waitall(2, r, TU_STATUSES_IGNORE));
        check_from(in, N, prev, 30 + k, "persistent _c");
        CHECK_MPI(MPI_Request_free(&r[0]));
        CHECK_MPI(MPI_Request_free(&r[1]));
    }
}

#ifdef MPI_ABI_VERSION /* skiff: MPI-4.1's buffer per communicator, the ABI header's partitioned _c */
static void skiff_only_forms(void)
{
    static char buf[4096];
    MPI_Count sz = 0;
    void *addr = NULL;
    CHECK_MPI(MPI_Comm_attach_buffer_c(MPI_COMM_WORLD, buf, (MPI_Count)sizeof buf));
    CHECK_MPI(MPI_Comm_detach_buffer_c(MPI_COMM_WORLD, &addr, &sz));
    CHECK(addr == buf);
    CHECK_EQ(sizeof buf, sz);
    int out[N], in[N];
    MPI_Request r[2];
    fill(out, N, rank, 40);
    CHECK_MPI(MPI_Precv_init_c(in, 1, N, MPI_INT, prev, 40, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Psend_init_c(out, 1, N, MPI_INT, next, 40, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    CHECK_MPI(MPI_Startall(2, r));
    CHECK_MPI(MPI_Pready(0, r[1]));
    CHECK_MPI(MPI_Waitall(2, r, TU_STATUSES_IGNORE));
    check_from(in, N, prev, 40, "Psend_init_c/Precv_init_c");
    CHECK_MPI(MPI_Request_free(&r[0]));
    CHECK_MPI(MPI_Request_free(&r[1]));
}
#endif

/* MPI_User_function_c: a sum that also checks it is given an MPI_Count length. */
static void sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    (void)dt;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

static void same(const int *a, const int *b, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK_MSG(a[i] == b[i], "%s: element %d is %d, the int form gave %d", what, i, a[i], b[i]);
}

static void rooted_and_reductions(void)
{
    int a[N], b[N], big_c[8 * N], big[8 * N];
    MPI_Op op;
    MPI_Request r;
    fill(a, N, rank, 50);
    memcpy(b, a, sizeof a);
    CHECK_MPI(MPI_Bcast_c(a, N, MPI_INT, size - 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Bcast(b, N, MPI_INT, size - 1, MPI_COMM_WORLD));
    same(a, b, N, "Bcast_c");
    fill(a, N, rank, 51);
    CHECK_MPI(MPI_Ibcast_c(a, N, MPI_INT, 0, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    check_from(a, N, 0, 51, "Ibcast_c");

    fill(a, N, rank, 52);
    CHECK_MPI(MPI_Op_create_c(sum_c, 1, &op));
    CHECK_MPI(MPI_Allreduce_c(a, big_c, N, MPI_INT, op, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(a, big, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    same(big_c, big, N, "Allreduce_c with Op_create_c");
    CHECK_MPI(MPI_Iallreduce_c(a, big_c, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    same(big_c, big, N, "Iallreduce_c");
    memset(big_c, 0, sizeof big_c);
    CHECK_MPI(MPI_Reduce_c(a, big_c, N, MPI_INT, op, 0, MPI_COMM_WORLD));
    if (rank == 0)
        same(big_c, big, N, "Reduce_c");
    memset(big_c, 0, sizeof big_c);
    CHECK_MPI(MPI_Ireduce_c(a, big_c, N, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    if (rank == 0)
        same(big_c, big, N, "Ireduce_c");
    CHECK_MPI(MPI_Scan_c(a, big_c, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Scan(a, big, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    same(big_c, big, N, "Scan_c");
    CHECK_MPI(MPI_Iscan_c(a, big_c, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    same(big_c, big, N, "Iscan_c");
    CHECK_MPI(MPI_Exscan_c(a, big_c, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Exscan(a, big, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (rank > 0)
        same(big_c, big, N, "Exscan_c");
    CHECK_MPI(MPI_Iexscan_c(a, big_c, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    if (rank > 0)
        same(big_c, big, N, "Iexscan_c");
    memcpy(big_c, a, sizeof a);
    memcpy(big, a, sizeof a);
    CHECK_MPI(MPI_Reduce_local_c(a, big_c, N, MPI_INT, op));
    CHECK_MPI(MPI_Reduce_local(a, big, N, MPI_INT, MPI_SUM));
    same(big_c, big, N, "Reduce_local_c");

    /* reduce_scatter_block: size blocks of 2 */
    int rs[8 * 2], rs_c[2], rs_i[2];
    for (int i = 0; i < 2 * size; i++)
        rs[i] = rank * 10 + i;
    CHECK_MPI(MPI_Reduce_scatter_block_c(rs, rs_c, 2, MPI_INT, op, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Reduce_scatter_block(rs, rs_i, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    same(rs_c, rs_i, 2, "Reduce_scatter_block_c");
    memset(rs_c, 0, sizeof rs_c);
    CHECK_MPI(MPI_Ireduce_scatter_block_c(rs, rs_c, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    same(rs_c, rs_i, 2, "Ireduce_scatter_block_c");
    /* reduce_scatter: rank k gets k + 1 elements */
    MPI_Count rcc[8];
    int rci[8], rs_n = 0, vin[64], vout_c[8], vout_i[8];
    for (int k = 0; k < size; k++) {
        rcc[k] = k + 1;
        rci[k] = k + 1;
        rs_n += k + 1;
    }
    for (int k = 0; k < rs_n; k++)
        vin[k] = rank * 100 + k;
    CHECK_MPI(MPI_Reduce_scatter_c(vin, vout_c, rcc, MPI_INT, op, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Reduce_scatter(vin, vout_i, rci, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    same(vout_c, vout_i, rank + 1, "Reduce_scatter_c");
    memset(vout_c, 0, sizeof vout_c);
    CHECK_MPI(MPI_Ireduce_scatter_c(vin, vout_c, rcc, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    same(vout_c, vout_i, rank + 1, "Ireduce_scatter_c");
    memset(vout_c, 0, sizeof vout_c);
    CHECK_MPI(MPI_Reduce_scatter_init_c(vin, vout_c, rcc, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(&r));
    same(vout_c, vout_i, rank + 1, "Reduce_scatter_init_c");
    CHECK_MPI(MPI_Op_free(&op));
}

static void blocks(void)
{
    int a[N], all_c[8 * N], all[8 * N], one_c[N], one[N];
    MPI_Request r;
    fill(a, N, rank, 60);
    CHECK_MPI(MPI_Allgather_c(a, N, MPI_INT, all_c, N, MPI_INT, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allgather(a, N, MPI_INT, all, N, MPI_INT, MPI_COMM_WORLD));
    same(all_c, all, N * size, "Allgather_c");
    memset(all_c, 0, sizeof all_c);
    CHECK_MPI(MPI_Iallgather_c(a, N, MPI_INT, all_c, N, MPI_INT, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    same(all_c, all, N * size, "Iallgather_c");
    memset(all_c, 0, sizeof all_c);
    CHECK_MPI(MPI_Gather_c(a, N, MPI_INT, all_c, N, MPI_INT, 0, MPI_COMM_WORLD));
    if (rank == 0)
        same(all_c, all, N * size, "Gather_c");
    memset(all_c, 0, sizeof all_c);
    CHECK_MPI(MPI_Igather_c(a, N, MPI_INT, all_c, N, MPI_INT, 0, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    if (rank == 0)
        same(all_c, all, N * size, "Igather_c");
    fill(all, N * size, rank, 61);
    CHECK_MPI(MPI_Scatter_c(all, N, MPI_INT, one_c, N, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Scatter(all, N, MPI_INT, one, N, MPI_INT, 0, MPI_COMM_WORLD));
    same(one_c, one, N, "Scatter_c");
    CHECK_MPI(MPI_Iscatter_c(all, N, MPI_INT, one_c, N, MPI_INT, 0, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    same(one_c, one, N, "Iscatter_c");
    CHECK_MPI(MPI_Alltoall_c(all, N, MPI_INT, all_c, N, MPI_INT, MPI_COMM_WORLD));
    int ref[8 * N];
    CHECK_MPI(MPI_Alltoall(all, N, MPI_INT, ref, N, MPI_INT, MPI_COMM_WORLD));
    same(all_c, ref, N * size, "Alltoall_c");
    memset(all_c, 0, sizeof all_c);
    CHECK_MPI(MPI_Ialltoall_c(all, N, MPI_INT, all_c, N, MPI_INT, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    same(all_c, ref, N * size, "Ialltoall_c");
}

/* Persistent collectives: one start each, against the blocking int form. */
static void persistent_colls(void)
{
    int a[N], x_c[8 * N], x[8 * N];
    MPI_Request r;
    fill(a, N, rank, 70);
#define RUN_INIT(call)                                                                                  \
    do {                                                                                                \
        CHECK_MPI(call);                                                                                \
        CHECK_MPI(MPI_Start(&r));                                                                       \
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));                                                     \
        CHECK_MPI(MPI_Request_free(&r));                                                                \
    } while (0)
    memcpy(x_c, a, sizeof a);
    memcpy(x, a, sizeof a);
    RUN_INIT(MPI_Bcast_init_c(x_c, N, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Bcast(x, N, MPI_INT, 0, MPI_COMM_WORLD));
    same(x_c, x, N, "Bcast_init_c");
    RUN_INIT(MPI_Allreduce_init_c(a, x_c, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Allreduce(a, x, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    same(x_c, x, N, "Allreduce_init_c");
    RUN_INIT(MPI_Reduce_init_c(a, x_c, N, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    if (rank == 0)
        same(x_c, x, N, "Reduce_init_c");
    RUN_INIT(MPI_Scan_init_c(a, x_c, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Scan(a, x, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    same(x_c, x, N, "Scan_init_c");
    RUN_INIT(MPI_Exscan_init_c(a, x_c, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Exscan(a, x, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (rank > 0)
        same(x_c, x, N, "Exscan_init_c");
    RUN_INIT(MPI_Allgather_init_c(a, N, MPI_INT, x_c, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Allgather(a, N, MPI_INT, x, N, MPI_INT, MPI_COMM_WORLD));
    same(x_c, x, N * size, "Allgather_init_c");
    RUN_INIT(MPI_Gather_init_c(a, N, MPI_INT, x_c, N, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    if (rank == 0)
        same(x_c, x, N * size, "Gather_init_c");
    int all[8 * N], one_c[N], one[N];
    fill(all, N * size, rank, 71);
    RUN_INIT(MPI_Scatter_init_c(all, N, MPI_INT, one_c, N, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Scatter(all, N, MPI_INT, one, N, MPI_INT, 0, MPI_COMM_WORLD));
    same(one_c, one, N, "Scatter_init_c");
    RUN_INIT(MPI_Alltoall_init_c(all, N, MPI_INT, x_c, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Alltoall(all, N, MPI_INT, x, N, MPI_INT, MPI_COMM_WORLD));
    same(x_c, x, N * size, "Alltoall_init_c");
    int rs[8 * 2], rs_c[2], rs_i[2];
    for (int i = 0; i < 2 * size; i++)
        rs[i] = rank * 10 + i;
    RUN_INIT(MPI_Reduce_scatter_block_init_c(rs, rs_c, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Reduce_scatter_block(rs, rs_i, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    same(rs_c, rs_i, 2, "Reduce_scatter_block_init_c");
}

/* Neighbourhood collectives on a ring topology. */
static void neighbors(void)
{
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int a[N], x_c[2 * N], x[2 * N], y[2 * N];
    MPI_Request r;
    fill(a, N, rank, 80);
    CHECK_MPI(MPI_Neighbor_allgather_c(a, N, MPI_INT, x_c, N, MPI_INT, ring));
    CHECK_MPI(MPI_Neighbor_allgather(a, N, MPI_INT, x, N, MPI_INT, ring));
    same(x_c, x, 2 * N, "Neighbor_allgather_c");
    memset(x_c, 0, sizeof x_c);
    CHECK_MPI(MPI_Ineighbor_allgather_c(a, N, MPI_INT, x_c, N, MPI_INT, ring, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    same(x_c, x, 2 * N, "Ineighbor_allgather_c");
    memset(x_c, 0, sizeof x_c);
    RUN_INIT(MPI_Neighbor_allgather_init_c(a, N, MPI_INT, x_c, N, MPI_INT, ring, MPI_INFO_NULL, &r));
    same(x_c, x, 2 * N, "Neighbor_allgather_init_c");
    fill(y, 2 * N, rank, 81);
    CHECK_MPI(MPI_Neighbor_alltoall_c(y, N, MPI_INT, x_c, N, MPI_INT, ring));
    CHECK_MPI(MPI_Neighbor_alltoall(y, N, MPI_INT, x, N, MPI_INT, ring));
    same(x_c, x, 2 * N, "Neighbor_alltoall_c");
    memset(x_c, 0, sizeof x_c);
    CHECK_MPI(MPI_Ineighbor_alltoall_c(y, N, MPI_INT, x_c, N, MPI_INT, ring, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    same(x_c, x, 2 * N, "Ineighbor_alltoall_c");
    memset(x_c, 0, sizeof x_c);
    RUN_INIT(MPI_Neighbor_alltoall_init_c(y, N, MPI_INT, x_c, N, MPI_INT, ring, MPI_INFO_NULL, &r));
    same(x_c, x, 2 * N, "Neighbor_alltoall_init_c");
    CHECK_MPI(MPI_Comm_free(&ring));
}

/* The MPI_Count datatype queries against the int ones, and a status set and read back. */
static void type_queries(void)
{
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    int isz;
    MPI_Count csz, lb, ext, tlb, text;
    MPI_Aint alb, aext, atlb, atext;
    CHECK_MPI(MPI_Type_size(v, &isz));
    CHECK_MPI(MPI_Type_size_c(v, &csz));
    CHECK_EQ(isz, csz);
    CHECK_MPI(MPI_Type_get_extent(v, &alb, &aext));
    CHECK_MPI(MPI_Type_get_extent_c(v, &lb, &ext));
    CHECK_EQ(alb, lb);
    CHECK_EQ(aext, ext);
    CHECK_MPI(MPI_Type_get_true_extent(v, &atlb, &atext));
    CHECK_MPI(MPI_Type_get_true_extent_c(v, &tlb, &text));
    CHECK_EQ(atlb, tlb);
    CHECK_EQ(atext, text);
    MPI_Status st;
    MPI_Count n = -1;
#ifdef MPI_ABI_VERSION
    CHECK_MPI(MPI_Status_set_elements_c(&st, MPI_INT, 12));
#else /* MPICH 4.0 lacks MPI_Status_set_elements_c */
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_INT, 12));
#endif
    CHECK_MPI(MPI_Get_elements_c(&st, v, &n));
    CHECK_EQ(12, n);
    CHECK_MPI(MPI_Get_count_c(&st, v, &n));
    CHECK_EQ(2, n);
    CHECK_MPI(MPI_Type_free(&v));
}

/* Packing, native and external32: the same bytes and positions as the int forms. */
static void pack_forms(void)
{
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    int src[24], back_c[24] = {0}, back[24] = {0}; /* 2 elements: extent 12 ints each */
    fill(src, 24, rank, 90);
    char p_c[256], p[256];
    int isz, ipos = 0;
    MPI_Count csz, cpos = 0;
    CHECK_MPI(MPI_Pack_size(2, v, MPI_COMM_WORLD, &isz));
    CHECK_MPI(MPI_Pack_size_c(2, v, MPI_COMM_WORLD, &csz));
    CHECK_EQ(isz, csz);
    CHECK_MPI(MPI_Pack(src, 2, v, p, (int)sizeof p, &ipos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack_c(src, 2, v, p_c, (MPI_Count)sizeof p_c, &cpos, MPI_COMM_WORLD));
    CHECK_EQ(ipos, cpos);
    CHECK(memcmp(p, p_c, (size_t)ipos) == 0);
    ipos = 0;
    cpos = 0;
    CHECK_MPI(MPI_Unpack(p, isz, &ipos, back, 2, v, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Unpack_c(p_c, csz, &cpos, back_c, 2, v, MPI_COMM_WORLD));
    CHECK_EQ(ipos, cpos);
    same(back_c, back, 24, "Unpack_c");
    MPI_Aint asz, apos = 0;
    CHECK_MPI(MPI_Pack_external_size("external32", 2, v, &asz));
    CHECK_MPI(MPI_Pack_external_size_c("external32", 2, v, &csz));
    CHECK_EQ(asz, csz);
    cpos = 0;
    CHECK_MPI(MPI_Pack_external("external32", src, 2, v, p, (MPI_Aint)sizeof p, &apos));
    CHECK_MPI(MPI_Pack_external_c("external32", src, 2, v, p_c, (MPI_Count)sizeof p_c, &cpos));
    CHECK_EQ(apos, cpos);
    CHECK(memcmp(p, p_c, (size_t)apos) == 0);
    apos = 0;
    cpos = 0;
    memset(back, 0, sizeof back);
    memset(back_c, 0, sizeof back_c);
    CHECK_MPI(MPI_Unpack_external("external32", p, asz, &apos, back, 2, v));
    CHECK_MPI(MPI_Unpack_external_c("external32", p_c, csz, &cpos, back_c, 2, v));
    CHECK_EQ(apos, cpos);
    same(back_c, back, 24, "Unpack_external_c");
    CHECK_MPI(MPI_Type_free(&v));
}

/* Two types must lay out the same data: same size, extent, true extent and packed bytes. */
static void same_type(MPI_Datatype c, MPI_Datatype i, const char *what)
{
    CHECK_MPI(MPI_Type_commit(&c));
    CHECK_MPI(MPI_Type_commit(&i));
    MPI_Count sc, si, lc, li, ec, ei;
    CHECK_MPI(MPI_Type_size_c(c, &sc));
    CHECK_MPI(MPI_Type_size_c(i, &si));
    CHECK_MSG(sc == si, "%s: size %lld, the int form's %lld", what, (long long)sc, (long long)si);
    CHECK_MPI(MPI_Type_get_extent_c(c, &lc, &ec));
    CHECK_MPI(MPI_Type_get_extent_c(i, &li, &ei));
    CHECK_MSG(lc == li && ec == ei, "%s: lb/extent %lld/%lld, the int form's %lld/%lld", what, (long long)lc,
              (long long)ec, (long long)li, (long long)ei);
    static int src[256];
    static char pc[1024], pi[1024];
    for (int k = 0; k < 256; k++)
        src[k] = k * 7 + 1;
    int posc = 0, posi = 0;
    CHECK_MPI(MPI_Pack(src + 64, 1, c, pc, (int)sizeof pc, &posc, MPI_COMM_SELF));
    CHECK_MPI(MPI_Pack(src + 64, 1, i, pi, (int)sizeof pi, &posi, MPI_COMM_SELF));
    CHECK_EQ(posi, posc);
    CHECK_MSG(memcmp(pc, pi, (size_t)posi) == 0, "%s: packs other bytes than the int form", what);
}

#ifdef MPI_ABI_VERSION
/* skiff records a _c constructor's arguments as large counts, which only the _c decoders give back. */
static void check_large_envelope(MPI_Datatype t, int combiner, MPI_Count nl, const MPI_Count *want)
{
    MPI_Count ni, na, nc, nd;
    int comb, i1, i2, i3;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb));
    CHECK_EQ(combiner, comb);
    CHECK_EQ(0, ni);
    CHECK_EQ(0, na);
    CHECK_EQ(nl, nc);
    MPI_Count got[16];
    MPI_Datatype types[4];
    CHECK_MPI(MPI_Type_get_contents_c(t, 0, 0, 16, 4, NULL, NULL, got, types));
    for (MPI_Count k = 0; k < nl; k++)
        CHECK_EQ(want[k], got[k]);
    for (MPI_Count k = 0; k < nd; k++)
        if (types[k] != MPI_INT)
            CHECK_MPI(MPI_Type_free(&types[k]));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Type_get_envelope(t, &i1, &i2, &i3, &comb);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    int cls = 0;
    MPI_Error_class(rc, &cls);
    CHECK_EQ(MPI_ERR_TYPE, cls);
}
#endif

/* Each _c constructor against its int form. */
static void constructors(void)
{
    MPI_Datatype c, i;
    CHECK_MPI(MPI_Type_contiguous_c(5, MPI_INT, &c));
    CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &i));
#ifdef MPI_ABI_VERSION
    check_large_envelope(c, MPI_COMBINER_CONTIGUOUS, 1, (const MPI_Count[]){5});
#endif
    same_type(c, i, "Type_contiguous_c");
    CHECK_MPI(MPI_Type_free(&c));
    CHECK_MPI(MPI_Type_free(&i));
    CHECK_MPI(MPI_Type_vector_c(3, 2, 5, MPI_INT, &c));
    CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &i));
#ifdef MPI_ABI_VERSION
    check_large_envelope(c, MPI_COMBINER_VECTOR, 3, (const MPI_Count[]){3, 2, 5});
#endif
    same_type(c, i, "Type_vector_c");
    CHECK_MPI(MPI_Type_free(&c));
    CHECK_MPI(MPI_Type_free(&i));
    CHECK_MPI(MPI_Type_create_hvector_c(3, 2, 24, MPI_INT, &c));
    CHECK_MPI(MPI_Type_create_hvector(3, 2, 24, MPI_INT, &i));
    same_type(c, i, "Type_create_hvector_c");
    CHECK_MPI(MPI_Type_free(&c));
    CHECK_MPI(MPI_Type_free(&i));
    const MPI_Count lc[3] = {2, 1, 3}, dc[3] = {0, 5, 9};
    const int li[3] = {2, 1, 3}, di[3] = {0, 5, 9};
    const MPI_Aint ha[3] = {0, 20, 36};
    const MPI_Count hc[3] = {0, 20, 36};
    CHECK_MPI(MPI_Type_indexed_c(3, lc, dc, MPI_INT, &c));
    CHECK_MPI(MPI_Type_indexed(3, li, di, MPI_INT, &i));
#ifdef MPI_ABI_VERSION
    check_large_envelope(c, MPI_COMBINER_INDEXED, 7, (const MPI_Count[]){3, 2, 1, 3, 0, 5, 9});
#endif
    same_type(c, i, "Type_indexed_c");
    CHECK_MPI(MPI_Type_free(&c));
    CHECK_MPI(MPI_Type_free(&i));
    CHECK_MPI(MPI_Type_create_hindexed_c(3, lc, hc, MPI_INT, &c));
    CHECK_MPI(MPI_Type_create_hindexed(3, li, ha, MPI_INT, &i));
    same_type(c, i, "Type_create_hindexed_c");
    CHECK_MPI(MPI_Type_free(&c));
    CHECK_MPI(MPI_Type_free(&i));
    CHECK_MPI(MPI_Type_create_indexed_block_c(3, 2, dc, MPI_INT, &c));
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, di, MPI_INT, &i));
#ifdef MPI_ABI_VERSION
    check_large_envelope(c, MPI_COMBINER_INDEXED_BLOCK, 5, (const MPI_Count[]){3, 2, 0, 5, 9});
#endif
    same_type(c, i, "Type_create_indexed_block_c");
    CHECK_MPI(MPI_Type_free(&c));
    CHECK_MPI(MPI_Type_free(&i));
    CHECK_MPI(MPI_Type_create_hindexed_block_c(3, 2, hc, MPI_INT, &c));
    CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, ha, MPI_INT, &i));
    same_type(c, i, "Type_create_hindexed_block_c");
    CHECK_MPI(MPI_Type_free(&c));
    CHECK_MPI(MPI_Type_free(&i));
    const MPI_Datatype ts[3] = {MPI_INT, MPI_INT, MPI_INT};
    CHECK_MPI(MPI_Type_create_struct_c(3, lc, hc, ts, &c));
    CHECK_MPI(MPI_Type_create_struct(3, li, ha, ts, &i));
#ifdef MPI_ABI_VERSION
    check_large_envelope(c, MPI_COMBINER_STRUCT, 7, (const MPI_Count[]){3, 2, 1, 3, 0, 20, 36});
#endif
    same_type(c, i, "Type_create_struct_c");
    CHECK_MPI(MPI_Type_free(&c));
    CHECK_MPI(MPI_Type_free(&i));
    CHECK_MPI(MPI_Type_create_resized_c(MPI_INT, -4, 16, &c));
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &i));
#ifdef MPI_ABI_VERSION
    check_large_envelope(c, MPI_COMBINER_RESIZED, 2, (const MPI_Count[]){-4, 16});
#endif
    same_type(c, i, "Type_create_resized_c");
    CHECK_MPI(MPI_Type_free(&c));
    CHECK_MPI(MPI_Type_free(&i));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    rank = tu_rank();
    size = tu_size();
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    static char bsend_buf[1 << 16];
    CHECK_MPI(MPI_Buffer_attach(bsend_buf, (int)sizeof bsend_buf));
    for (int k = 0; k < K_NKINDS; k++)
        ring_send((enum send_kind)k);
    ring_recv_blocking();
    sendrecv_forms();
    matched_forms();
    persistent_forms();
    void *addr;
    int bsz;
    CHECK_MPI(MPI_Buffer_detach(&addr, &bsz));
#ifdef MPI_ABI_VERSION
    skiff_only_forms();
#endif
    rooted_and_reductions();
    blocks();
    persistent_colls();
    neighbors();
    type_queries();
    pack_forms();
    constructors();
    if (rank == 0)
        printf("large_count: the _c calls agree with their int forms at np %d\n", size);
    MPI_Finalize();
    return 0;
}

#else /* an MPI-3 library (Open MPI 4.1): no _c calls */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (tu_rank() == 0)
        printf("large_count: skipped, MPI %d.%d has no large-count calls\n", MPI_VERSION, MPI_SUBVERSION);
    MPI_Finalize();
    return 0;
}
#endif
