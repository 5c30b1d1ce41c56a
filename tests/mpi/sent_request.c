/* Requests of sends that are complete when MPI_Isend returns. skiff gives all of them one shared request
 * (core/request.h; MPICH does the same), so every completion call must take that request many times in one
 * array, never as a repeat, and leave it usable: Waitall over short and long arrays (the pairwise repeat
 * check, the marked one, the allocated table), mixed with MPI_REQUEST_NULL, real requests (MPI_Issend,
 * MPI_Irecv) and sends to MPI_PROC_NULL; Waitany, Testany, Waitsome, Testsome, Testall;
 * MPI_Request_get_status (and MPI-4.1's _all) before the wait; MPI_Request_free; MPI_Cancel of a completed
 * send; MPI_Ibsend; Fortran handles. Each rank pairs with rank ^ 1, or with itself when that rank does
 * not exist. Passes with MPICH 4.0 and Open MPI 4.1 too (the MPI-4.1 call is guarded). */
#include "testutil.h"

#define HAVE_MPI_4_1 (MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1))
#define BIG 1000

static int rank, peer;

/* Messages of one int, value base + i and tag TAG0 + i % 7: receives of the peer's, sends to the peer. */
#define TAG0 10

static void recv_ints(int n, MPI_Request *rr, int *in)
{
    for (int i = 0; i < n; i++) {
        in[i] = -1;
        CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, peer, TAG0 + i % 7, MPI_COMM_WORLD, &rr[i]));
    }
}

static void check_ints(int n, int base, const int *in)
{
    for (int i = 0; i < n; i++)
        CHECK_EQ(base + i, in[i]);
}

static void isend_ints(int n, int base, MPI_Request *sr, int *out)
{
    for (int i = 0; i < n; i++) {
        out[i] = base + i;
        CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, peer, TAG0 + i % 7, MPI_COMM_WORLD, &sr[i]));
    }
}

static void all_null(int n, const MPI_Request *r)
{
    for (int i = 0; i < n; i++)
        CHECK(r[i] == MPI_REQUEST_NULL);
}

/* Windows of n Isends ended by one Waitall, receives posted first; statuses say "not cancelled". */
static void waitall_window(int n, int base)
{
    MPI_Request *rr = tu_malloc(n * sizeof *rr), *sr = tu_malloc(n * sizeof *sr);
    MPI_Status *st = tu_malloc(n * sizeof *st);
    int *in = tu_malloc(n * sizeof *in), *out = tu_malloc(n * sizeof *out);
    recv_ints(n, rr, in);
    tu_barrier();
    isend_ints(n, base, sr, out);
    CHECK_MPI(MPI_Waitall(n, sr, st));
    all_null(n, sr);
    for (int i = 0; i < n; i++) {
        int flag = -1;
        CHECK_MPI(MPI_Test_cancelled(&st[i], &flag));
        CHECK_EQ(0, flag);
    }
    CHECK_MPI(MPI_Waitall(n, rr, TU_STATUSES_IGNORE));
    check_ints(n, base, in);
    free(rr);
    free(sr);
    free(st);
    free(in);
    free(out);
}

/* One array holding completed sends, a synchronous send, a send to MPI_PROC_NULL, MPI_REQUEST_NULL and the
 * receives of the peer's messages, ended by Testall polls. */
static void mixed_testall(void)
{
    int out[3] = {7, 8, 9}, in[3] = {-1, -1, -1}, dummy = 0, flag = 0;
    MPI_Request r[7];
    unsigned polls = 0;
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, peer, 50 + i, MPI_COMM_WORLD, &r[i]));
    CHECK_MPI(MPI_Isend(&out[0], 1, MPI_INT, peer, 50, MPI_COMM_WORLD, &r[3]));
    CHECK_MPI(MPI_Issend(&out[1], 1, MPI_INT, peer, 51, MPI_COMM_WORLD, &r[4]));
    CHECK_MPI(MPI_Isend(&out[2], 1, MPI_INT, peer, 52, MPI_COMM_WORLD, &r[5]));
    CHECK_MPI(MPI_Isend(&dummy, 1, MPI_INT, MPI_PROC_NULL, 53, MPI_COMM_WORLD, &r[6]));
    MPI_Request arr[8] = {r[3], MPI_REQUEST_NULL, r[0], r[4], r[5], r[1], r[6], r[2]};
    while (!flag) {
        CHECK_MPI(MPI_Testall(8, arr, &flag, TU_STATUSES_IGNORE));
        if (!flag)
            tu_poll_pause(&polls);
    }
    all_null(8, arr);
    CHECK_EQ(7, in[0]);
    CHECK_EQ(8, in[1]);
    CHECK_EQ(9, in[2]);
}

/* Waitany and Testany take one completed request per call; Waitsome and Testsome all that are done. */
static void any_and_some(void)
{
    enum { N = 6 };
    MPI_Request rr[N], sr[N];
    int in[N], out[N], left = N, idx = -1, flag = 0, outcount = 0, indices[N];
    unsigned polls = 0;
    recv_ints(N, rr, in);
    tu_barrier();
    isend_ints(N, 100, sr, out);
    CHECK_MPI(MPI_Waitany(N, sr, &idx, MPI_STATUS_IGNORE));
    CHECK(idx >= 0 && idx < N);
    CHECK(sr[idx] == MPI_REQUEST_NULL);
    left--;
    while (left > N - 3) {
        CHECK_MPI(MPI_Testany(N, sr, &idx, &flag, MPI_STATUS_IGNORE));
        if (flag) {
            CHECK(idx >= 0 && idx < N);
            CHECK(sr[idx] == MPI_REQUEST_NULL);
            left--;
        } else {
            tu_poll_pause(&polls);
        }
    }
    while (left > 0) {
        CHECK_MPI(MPI_Waitsome(N, sr, &outcount, indices, TU_STATUSES_IGNORE));
        CHECK(outcount >= 1 && outcount <= left);
        for (int k = 0; k < outcount; k++)
            CHECK(sr[indices[k]] == MPI_REQUEST_NULL);
        left -= outcount;
    }
    CHECK_MPI(MPI_Testsome(N, sr, &outcount, indices, TU_STATUSES_IGNORE));
    CHECK_EQ(MPI_UNDEFINED, outcount);
    CHECK_MPI(MPI_Waitall(N, rr, TU_STATUSES_IGNORE));
    check_ints(N, 100, in);
}

/* Looking at a request's status does not end it; freeing one lets the message go on; cancelling a send
 * that is complete cancels nothing. */
static void status_free_cancel(void)
{
    int out[3] = {200, 201, 202}, in[3] = {-1, -1, -1}, flag = 0;
    MPI_Request rr[3], s[2], p;
    MPI_Status st;
    unsigned polls = 0;
    recv_ints(3, rr, in);
    tu_barrier();
    CHECK_MPI(MPI_Isend(&out[0], 1, MPI_INT, peer, TAG0 + 0, MPI_COMM_WORLD, &s[0]));
    CHECK_MPI(MPI_Isend(&out[1], 1, MPI_INT, peer, TAG0 + 1, MPI_COMM_WORLD, &s[1]));
    while (!flag) {
        CHECK_MPI(MPI_Request_get_status(s[0], &flag, &st));
        if (!flag)
            tu_poll_pause(&polls);
    }
    CHECK(s[0] != MPI_REQUEST_NULL);
#if HAVE_MPI_4_1
    flag = 0;
    while (!flag) {
        CHECK_MPI(MPI_Request_get_status_all(2, s, &flag, TU_STATUSES_IGNORE));
        if (!flag)
            tu_poll_pause(&polls);
    }
    CHECK(s[0] != MPI_REQUEST_NULL && s[1] != MPI_REQUEST_NULL);
#endif
    CHECK_MPI(MPI_Wait(&s[0], MPI_STATUS_IGNORE));
    CHECK(s[0] == MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Request_free(&s[1]));
    CHECK(s[1] == MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Isend(&out[2], 1, MPI_INT, peer, TAG0 + 2, MPI_COMM_WORLD, &p));
    CHECK_MPI(MPI_Waitall(3, rr, TU_STATUSES_IGNORE)); /* the freed send arrives all the same */
    check_ints(3, 200, in);
    CHECK_MPI(MPI_Wait(&p, MPI_STATUS_IGNORE));

    int dummy = 0;
    CHECK_MPI(MPI_Isend(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &p));
    CHECK_MPI(MPI_Cancel(&p));
    CHECK_MPI(MPI_Wait(&p, &st));
    CHECK(p == MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(0, flag);
}

/* A buffered send's request is complete at once; Fortran handles of such requests convert back. */
static void ibsend_and_fortran(void)
{
    int size = 0, out[2] = {300, 301}, in[2] = {-1, -1};
    MPI_Request rr[2], s[2];
    CHECK_MPI(MPI_Pack_size(2, MPI_INT, MPI_COMM_WORLD, &size));
    size += 2 * MPI_BSEND_OVERHEAD;
    char *buf = tu_malloc((size_t)size);
    CHECK_MPI(MPI_Buffer_attach(buf, size));
    recv_ints(2, rr, in);
    tu_barrier();
    CHECK_MPI(MPI_Ibsend(&out[0], 1, MPI_INT, peer, TAG0 + 0, MPI_COMM_WORLD, &s[0]));
    CHECK_MPI(MPI_Isend(&out[1], 1, MPI_INT, peer, TAG0 + 1, MPI_COMM_WORLD, &s[1]));
    MPI_Fint f[2] = {MPI_Request_c2f(s[0]), MPI_Request_c2f(s[1])};
    MPI_Request back[2] = {MPI_Request_f2c(f[0]), MPI_Request_f2c(f[1])};
    CHECK(back[0] == s[0] && back[1] == s[1]);
    CHECK_MPI(MPI_Waitall(2, back, TU_STATUSES_IGNORE));
    CHECK_MPI(MPI_Waitall(2, rr, TU_STATUSES_IGNORE));
    check_ints(2, 300, in);
    void *detached = NULL;
    CHECK_MPI(MPI_Buffer_detach(&detached, &size));
    free(buf);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = (rank ^ 1) < tu_size() ? (rank ^ 1) : rank;
    waitall_window(3, 0);    /* repeats found by comparing pairs */
    waitall_window(40, 10);  /* by marking */
    waitall_window(BIG, 60); /* in an allocated table */
    mixed_testall();
    any_and_some();
    status_free_cancel();
    ibsend_and_fortran();
    return tu_finish("sent_request");
}
