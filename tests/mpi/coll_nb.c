/* coll_nb — nonblocking collectives: MPI_Ibarrier, MPI_Ibcast, MPI_Iallreduce, MPI_Ireduce.
 *
 * 1. Gates (timing-free): a nonblocking collective must not complete before every rank it
 *    depends on has started it. Rank 0 starts Ibarrier / Iallreduce / Ireduce (root 0) and
 *    polls MPI_Test 200 times while the others are held in a receive; it must stay incomplete.
 *    Then rank 0 releases them with a message, and everyone Test-polls to completion. For
 *    Ibcast it is the other way round: rank 1 polls while the root (0) is held back.
 * 2. Several at once, overlapped with point-to-point: every rank starts Ibcast (>1 MiB, root 1)
 *    and Iallreduce (1000 ints, and IN_PLACE), does a blocking Sendrecv ring (100 KB) while they
 *    are outstanding, posts a fully wildcard receive (MPI_ANY_SOURCE, MPI_ANY_TAG), starts
 *    Ireduce (1 MiB of doubles, root np-1; 5 longs IN_PLACE at root 0), Ibarrier and a small
 *    Ibcast from the last rank, Isends a user message to its right neighbour, then Test-polls
 *    everything (collective and point-to-point requests, newest first) to completion. The
 *    wildcard receive must get exactly the neighbour's user message; all results must be right.
 *    Repeated 4 times (or as given).
 * 3. Blocking collectives (Bcast, Allreduce) issued while an Iallreduce is outstanding.
 * 4. 32 Ibcasts from rotating roots (0 bytes to 300 KB) outstanding together, completed with
 *    Waitall; 32 Iallreduces completed with Testall polling; 0-count Iallreduce and Ibcast; then
 *    8 Iallreduces completed with Waitany and Waitsome.
 *
 * usage: coll_nb [overlap_rounds]   (default 4)
 */
#include "testutil.h"

#define NAME "coll_nb"
#define TAG_GO 3
#define TAG_RING 4
#define TAG_USER 5

static int g_rank, g_np;

static void poll_done(MPI_Request *req, const char *what)
{
    int flag = 0;
    unsigned polls = 0;
    for (;;) {
        CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
        if (flag)
            break;
        tu_poll_pause(&polls);
    }
    CHECK_MSG(*req == MPI_REQUEST_NULL, "%s: request not MPI_REQUEST_NULL after completion",
              what);
}

static void must_stay_pending(MPI_Request *req, const char *what)
{
    for (int i = 0; i < 200; i++) {
        int flag = 1;
        CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
        CHECK_MSG(!flag, "%s completed on rank %d before the other ranks had started it", what,
                  g_rank);
    }
}

static void release(int from, int to_all_but)
{
    char go = 1;
    for (int r = 0; r < g_np; r++)
        if (r != from && r != to_all_but)
            CHECK_MPI(MPI_Send(&go, 1, MPI_CHAR, r, TAG_GO, MPI_COMM_WORLD));
}

static void wait_release(int from)
{
    char go = 0;
    CHECK_MPI(MPI_Recv(&go, 1, MPI_CHAR, from, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/* ---------------------------------------------------------------- 1. gates */

static int ival(int r, size_t i)
{
    return (int)(((size_t)r + 1) * (i + 3) % 1000) - 300;
}

static void gates(void)
{
    MPI_Request req;
    int gated = g_np > 1;

    /* Ibarrier */
    if (g_rank != 0)
        wait_release(0);
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req));
    if (g_rank == 0 && gated) {
        must_stay_pending(&req, "Ibarrier");
        release(0, -1);
    }
    poll_done(&req, "Ibarrier");

    /* Iallreduce */
    int in[4], out[4];
    for (int i = 0; i < 4; i++)
        in[i] = ival(g_rank, (size_t)i);
    if (g_rank != 0)
        wait_release(0);
    CHECK_MPI(MPI_Iallreduce(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    if (g_rank == 0 && gated) {
        must_stay_pending(&req, "Iallreduce");
        release(0, -1);
    }
    poll_done(&req, "Iallreduce");
    for (int i = 0; i < 4; i++) {
        int e = 0;
        for (int r = 0; r < g_np; r++)
            e += ival(r, (size_t)i);
        CHECK_EQ(e, out[i]);
    }

    /* Ireduce to root 0 */
    if (g_rank != 0)
        wait_release(0);
    CHECK_MPI(MPI_Ireduce(in, g_rank == 0 ? out : NULL, 4, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD,
                          &req));
    if (g_rank == 0 && gated) {
        must_stay_pending(&req, "Ireduce at the root");
        release(0, -1);
    }
    poll_done(&req, "Ireduce");
    if (g_rank == 0)
        for (int i = 0; i < 4; i++) {
            int e = ival(0, (size_t)i);
            for (int r = 1; r < g_np; r++)
                e = ival(r, (size_t)i) > e ? ival(r, (size_t)i) : e;
            CHECK_EQ(e, out[i]);
        }

    /* Ibcast from root 0: rank 1 starts first and must wait for the data */
    uint8_t b[300];
    uint32_t seed = tu_seed(1, 2, 3, 4);
    if (g_rank == 0)
        tu_fill(b, sizeof b, seed);
    else
        memset(b, 0, sizeof b);
    if (g_rank == 0 && gated)
        wait_release(1);
    if (g_rank > 1)
        wait_release(1);
    CHECK_MPI(MPI_Ibcast(b, (int)sizeof b, MPI_BYTE, 0, MPI_COMM_WORLD, &req));
    if (g_rank == 1) {
        must_stay_pending(&req, "Ibcast at a non-root");
        release(1, -1);
    }
    poll_done(&req, "Ibcast");
    CHECK_PATTERN(b, sizeof b, seed);
}

/* ---------------------------------------------------------------- 2. overlap */

static double dval(int r, size_t i)
{
    return (double)(r + 1) + (double)(i % 1024) * 0.5;
}

static void overlap(int iter)
{
    const size_t big = (1u << 20) + 3, nd = (1u << 17) + 5, ni = 1000;
    int root_b = 1 % g_np, root_r = g_np - 1, last = g_np - 1;
    int right = (g_rank + 1) % g_np, left = (g_rank - 1 + g_np) % g_np;
    uint32_t bseed = tu_seed((uint64_t)iter, 77, 0, 0), sseed = tu_seed((uint64_t)iter, 78, 0, 0);

    enum { R_WILD, R_BCAST, R_ALLRED, R_ALLRED_IP, R_RED, R_RED0, R_BARRIER, R_BCAST_SMALL,
           R_USER_SEND, NREQ };
    MPI_Request req[NREQ];
    const char *names[NREQ] = {"wildcard Irecv", "Ibcast", "Iallreduce", "Iallreduce(IN_PLACE)",
                               "Ireduce", "Ireduce(IN_PLACE)", "Ibarrier", "Ibcast(small)",
                               "Isend"};

    int user_in = -1, user_out = 1000 * iter + g_rank;
    MPI_Status wild;

    uint8_t *bb = tu_malloc(big + TU_GUARD);
    if (g_rank == root_b)
        tu_fill(bb, big, bseed);
    else
        memset(bb, 0, big);
    tu_set_guard(bb, big);
    CHECK_MPI(MPI_Ibcast(bb, (int)big, MPI_BYTE, root_b, MPI_COMM_WORLD, &req[R_BCAST]));

    int *ai = tu_malloc(ni * sizeof(int)), *ao = tu_malloc(ni * sizeof(int));
    long ip[7];
    for (size_t i = 0; i < ni; i++)
        ai[i] = ival(g_rank + iter, i);
    for (int i = 0; i < 7; i++)
        ip[i] = (long)((g_rank * 7 + i * 3) % 11) - 5;
    CHECK_MPI(MPI_Iallreduce(ai, ao, (int)ni, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[R_ALLRED]));
    CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, ip, 7, MPI_LONG, MPI_MAX, MPI_COMM_WORLD,
                             &req[R_ALLRED_IP]));

    /* Blocking point-to-point in the middle of it all. */
    enum { RING = 100000 };
    uint8_t *rs = tu_malloc(RING), *rr = tu_malloc(RING);
    tu_fill(rs, RING, tu_seed((uint64_t)iter, (uint64_t)g_rank, 79, 0));
    CHECK_MPI(MPI_Sendrecv(rs, RING, MPI_BYTE, right, TAG_RING, rr, RING, MPI_BYTE, left,
                           TAG_RING, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_PATTERN(rr, RING, tu_seed((uint64_t)iter, (uint64_t)left, 79, 0));

    /* From here on, any message to this rank would match this receive: only the neighbour's
     * user message may. (Posted after the ring, whose message it would otherwise take.) */
    CHECK_MPI(MPI_Irecv(&user_in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                        &req[R_WILD]));

    double *ds = tu_malloc(nd * sizeof(double));
    double *dr = g_rank == root_r ? tu_malloc(nd * sizeof(double)) : NULL;
    for (size_t i = 0; i < nd; i++)
        ds[i] = dval(g_rank, i);
    CHECK_MPI(MPI_Ireduce(ds, dr, (int)nd, MPI_DOUBLE, MPI_SUM, root_r, MPI_COMM_WORLD,
                          &req[R_RED]));
    long rl[5];
    for (int i = 0; i < 5; i++)
        rl[i] = (long)(g_rank + 1) * (i + 1);
    CHECK_MPI(MPI_Ireduce(g_rank == 0 ? MPI_IN_PLACE : rl, g_rank == 0 ? rl : NULL, 5, MPI_LONG,
                          MPI_SUM, 0, MPI_COMM_WORLD, &req[R_RED0]));
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req[R_BARRIER]));
    uint8_t small[10];
    if (g_rank == last)
        tu_fill(small, sizeof small, sseed);
    else
        memset(small, 0, sizeof small);
    CHECK_MPI(MPI_Ibcast(small, (int)sizeof small, MPI_BYTE, last, MPI_COMM_WORLD,
                         &req[R_BCAST_SMALL]));
    CHECK_MPI(MPI_Isend(&user_out, 1, MPI_INT, right, TAG_USER, MPI_COMM_WORLD,
                        &req[R_USER_SEND]));

    /* Test-poll everything, newest first. */
    int left_to_do = NREQ;
    unsigned polls = 0;
    while (left_to_do > 0) {
        int before = left_to_do;
        for (int k = NREQ - 1; k >= 0; k--) {
            if (req[k] == MPI_REQUEST_NULL)
                continue;
            int flag = 0;
            CHECK_MPI(MPI_Test(&req[k], &flag, k == R_WILD ? &wild : MPI_STATUS_IGNORE));
            if (flag) {
                CHECK_MSG(req[k] == MPI_REQUEST_NULL, "%s: request not freed", names[k]);
                left_to_do--;
            }
        }
        if (left_to_do == before)
            tu_poll_pause(&polls);
        else
            polls = 0;
    }

    CHECK_EQ(1000 * iter + left, user_in);
    CHECK_EQ(left, wild.MPI_SOURCE);
    CHECK_EQ(TAG_USER, wild.MPI_TAG);
    CHECK_PATTERN(bb, big, bseed);
    CHECK_GUARD(bb, big);
    CHECK_PATTERN(small, sizeof small, sseed);
    for (size_t i = 0; i < ni; i++) {
        int e = 0;
        for (int r = 0; r < g_np; r++)
            e += ival(r + iter, i);
        CHECK_MSG(e == ao[i], "Iallreduce element %zu: expected %d, got %d", i, e, ao[i]);
    }
    for (int i = 0; i < 7; i++) {
        long e = -100;
        for (int r = 0; r < g_np; r++) {
            long v = (long)((r * 7 + i * 3) % 11) - 5;
            e = v > e ? v : e;
        }
        CHECK_EQ(e, ip[i]);
    }
    if (g_rank == 0)
        for (int i = 0; i < 5; i++)
            CHECK_EQ((long)(i + 1) * g_np * (g_np + 1) / 2, rl[i]);
    if (dr)
        for (size_t i = 0; i < nd; i++) {
            double e = 0;
            for (int r = 0; r < g_np; r++)
                e += dval(r, i);
            CHECK_MSG(e == dr[i], "Ireduce element %zu: expected %g, got %g", i, e, dr[i]);
        }
    free(bb);
    free(ai);
    free(ao);
    free(rs);
    free(rr);
    free(ds);
    free(dr);
}

/* ---------------------------------------------------------------- 3. blocking inside */

static void blocking_inside(void)
{
    int a[3] = {g_rank, -g_rank, 1}, b[3];
    MPI_Request req;
    CHECK_MPI(MPI_Iallreduce(a, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    char c[64];
    if (g_rank == 0)
        tu_fill(c, sizeof c, 99);
    CHECK_MPI(MPI_Bcast(c, (int)sizeof c, MPI_BYTE, 0, MPI_COMM_WORLD));
    int m = g_rank, mm = -1;
    CHECK_MPI(MPI_Allreduce(&m, &mm, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_PATTERN(c, sizeof c, 99);
    CHECK_EQ(g_np - 1, mm);
    CHECK_EQ(g_np * (g_np - 1) / 2, b[0]);
    CHECK_EQ(-g_np * (g_np - 1) / 2, b[1]);
    CHECK_EQ(g_np, b[2]);
}

/* ---------------------------------------------------------------- 4. many outstanding */

static void many(void)
{
    enum { N = 32 };
    MPI_Request req[N];
    uint8_t *buf[N];
    size_t len[N];
    for (int i = 0; i < N; i++) {
        len[i] = (size_t)(i * 331 % 3000) + (i % 10 == 9 ? 300000 : 0);
        buf[i] = tu_malloc(len[i] + 1);
        if (g_rank == i % g_np)
            tu_fill(buf[i], len[i], tu_seed((uint64_t)i, 88, 0, 0));
        else
            memset(buf[i], 0, len[i]);
        CHECK_MPI(MPI_Ibcast(buf[i], (int)len[i], MPI_BYTE, i % g_np, MPI_COMM_WORLD, &req[i]));
    }
    CHECK_MPI(MPI_Waitall(N, req, TU_STATUSES_IGNORE));
    for (int i = 0; i < N; i++) {
        CHECK(req[i] == MPI_REQUEST_NULL);
        CHECK_PATTERN(buf[i], len[i], tu_seed((uint64_t)i, 88, 0, 0));
        free(buf[i]);
    }

    long in[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = (long)g_rank * (i + 1);
        CHECK_MPI(MPI_Iallreduce(&in[i], &out[i], 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &req[i]));
    }
    int flag = 0;
    unsigned polls = 0;
    for (;;) {
        CHECK_MPI(MPI_Testall(N, req, &flag, TU_STATUSES_IGNORE));
        if (flag)
            break;
        tu_poll_pause(&polls);
    }
    for (int i = 0; i < N; i++)
        CHECK_EQ((long)(i + 1) * g_np * (g_np - 1) / 2, out[i]);

    /* count 0 */
    MPI_Request z[2];
    long zi = 7, zo = 9;
    CHECK_MPI(MPI_Iallreduce(&zi, &zo, 0, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &z[0]));
    CHECK_MPI(MPI_Ibcast(&zi, 0, MPI_LONG, g_np - 1, MPI_COMM_WORLD, &z[1]));
    CHECK_MPI(MPI_Waitall(2, z, TU_STATUSES_IGNORE));
    CHECK_EQ(7, zi);
    CHECK_EQ(9, zo);

    /* Waitany / Waitsome over collective requests */
    for (int i = 0; i < 8; i++) {
        in[i] = g_rank + i;
        CHECK_MPI(MPI_Iallreduce(&in[i], &out[i], 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &req[i]));
    }
    for (int done = 0; done < 4; done++) {
        int idx = -1;
        CHECK_MPI(MPI_Waitany(8, req, &idx, MPI_STATUS_IGNORE));
        CHECK(idx >= 0 && idx < 8);
    }
    int finished = 4;
    while (finished < 8) {
        int outc = 0, idx[8];
        CHECK_MPI(MPI_Waitsome(8, req, &outc, idx, TU_STATUSES_IGNORE));
        if (outc == MPI_UNDEFINED)
            break;
        finished += outc;
    }
    for (int i = 0; i < 8; i++) {
        CHECK(req[i] == MPI_REQUEST_NULL);
        CHECK_EQ(g_np - 1 + i, out[i]);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    g_rank = tu_rank();
    g_np = tu_size();
    int rounds = (int)tu_arg_long(argc, argv, 1, 4);
    gates();
    for (int iter = 0; iter < rounds; iter++)
        overlap(iter);
    blocking_inside();
    many();
    return tu_finish(NAME);
}
