/* comm_idup — communicators made without the whole parent waiting: MPI_Comm_idup (several outstanding on
 * one communicator, progressing from MPI_Test/MPI_Wait only, mixed with blocking dup and split, the parent
 * freed before completion), MPI_Comm_idup_with_info, MPI_Comm_dup_with_info and MPI_Comm_create_group
 * (only the group's members call; overlapping groups told apart by their tags).
 *
 * Nonblocking for real: every rank but 0 starts an idup and then sends to rank 0, which receives all of
 * those messages before it calls MPI_Comm_idup itself. An idup that waited for rank 0 would never return.
 *
 * Also passes with MPICH 4 and Open MPI 4.1 (which has no MPI_Comm_idup_with_info: MPI_Comm_dup_with_info
 * there, and which crashes when the parent is freed before the idup completes: it is freed after there).
 * What MPI_Comm_get_info reports is checked for skiff only. */
#include "testutil.h"

#define NIDUP 4

static int rank_of(MPI_Comm c)
{
    int r = -1;
    MPI_Comm_rank(c, &r);
    return r;
}

static int size_of(MPI_Comm c)
{
    int s = -1;
    MPI_Comm_size(c, &s);
    return s;
}

/* A ring exchange on each of comms[0..n), the receives posted in the opposite order: a message that
 * reached the wrong communicator would fill the wrong buffer. */
static void traffic_apart(MPI_Comm *comms, int n)
{
    int size = size_of(comms[0]), rank = rank_of(comms[0]);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int out[8], in[8];
    MPI_Request reqs[16];
    for (int i = n - 1; i >= 0; i--)
        CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, prev, 3, comms[i], &reqs[i]));
    for (int i = 0; i < n; i++) {
        out[i] = 1000 * i + rank;
        CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, next, 3, comms[i], &reqs[n + i]));
    }
    CHECK_MPI(MPI_Waitall(2 * n, reqs, TU_STATUSES_IGNORE));
    for (int i = 0; i < n; i++)
        CHECK_EQ(1000 * i + prev, in[i]);
}

static void check_dup_of(MPI_Comm parent, MPI_Comm c)
{
    int cmp = -1;
    CHECK(c != MPI_COMM_NULL);
    CHECK_MPI(MPI_Comm_compare(parent, c, &cmp));
    CHECK_EQ(MPI_CONGRUENT, cmp);
    CHECK_EQ(rank_of(parent), rank_of(c));
}

static void several_outstanding(void)
{
    MPI_Comm comms[NIDUP + 2];
    MPI_Request reqs[NIDUP];
    for (int i = 0; i < NIDUP; i++)
        CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &comms[i], &reqs[i]));
    /* Blocking creations on the same parent while the idups are pending. */
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[NIDUP]));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank_of(MPI_COMM_WORLD), &comms[NIDUP + 1]));
    /* Completed out of order, by polling. */
    for (int i = NIDUP - 1; i >= 0; i--) {
        int flag = 0;
        unsigned polls = 0;
        while (!flag) {
            CHECK_MPI(MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE));
            if (!flag)
                tu_poll_pause(&polls);
        }
        CHECK(reqs[i] == MPI_REQUEST_NULL);
    }
    for (int i = 0; i < NIDUP + 1; i++)
        check_dup_of(MPI_COMM_WORLD, comms[i]);
    traffic_apart(comms, NIDUP + 1);
    int size = size_of(MPI_COMM_WORLD);
    CHECK_EQ(size - 1 - rank_of(MPI_COMM_WORLD), rank_of(comms[NIDUP + 1]));
    for (int i = 0; i < NIDUP + 2; i++)
        CHECK_MPI(MPI_Comm_free(&comms[i]));
}

static void does_not_wait(void)
{
    int rank = rank_of(MPI_COMM_WORLD), size = size_of(MPI_COMM_WORLD), token = rank;
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    if (rank != 0) {
        CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
        CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 9, MPI_COMM_WORLD));
    } else {
        for (int r = 1; r < size; r++)
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, r, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_dup_of(MPI_COMM_WORLD, dup);
    traffic_apart(&dup, 1);
    CHECK_MPI(MPI_Comm_free(&dup));
}

static int copies;

static int count_copy(MPI_Comm c, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)keyval;
    (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* The duplicate takes comm's attributes when idup is called: freeing comm before the request completes
 * changes nothing. */
static void parent_freed_early(void)
{
    MPI_Comm parent, dup;
    MPI_Request req;
    int key, *val = NULL, flag = 0;
    static int value = 42;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
    CHECK_MPI(MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(parent, key, &value));
    copies = 0;
    CHECK_MPI(MPI_Comm_idup(parent, &dup, &req));
#ifndef OPEN_MPI
    CHECK_MPI(MPI_Comm_free(&parent));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
#else
    /* Open MPI 4.1 crashes in MPI_Wait when the parent went first: freed after it there. */
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_free(&parent));
#endif
    CHECK_EQ(1, copies);
    CHECK_MPI(MPI_Comm_get_attr(dup, key, &val, &flag));
    CHECK(flag && val == &value);
    check_dup_of(MPI_COMM_WORLD, dup);
    traffic_apart(&dup, 1);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_free_keyval(&key));
}

#ifdef SKIFF_MPI
static void check_hint(MPI_Comm comm, const char *key, const char *want)
{
    MPI_Info used;
    char buf[32];
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_info(comm, &used));
    CHECK_MPI(MPI_Info_get(used, key, (int)sizeof buf - 1, buf, &flag));
    CHECK_MSG(flag && strcmp(buf, want) == 0, "%s is %s, expected %s", key, flag ? buf : "(absent)", want);
    CHECK_MPI(MPI_Info_free(&used));
}
#endif

static void with_info(void)
{
    MPI_Comm a, b, c;
    MPI_Request req;
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_source", "true"));
#if MPI_VERSION >= 4
    CHECK_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &a, &req));
    CHECK_MPI(MPI_Info_free(&info)); /* the call has taken what it needs */
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
#else
    (void)req; /* Open MPI 4.1 (MPI 3.1) has no MPI_Comm_idup_with_info */
    CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &a));
    CHECK_MPI(MPI_Info_free(&info));
#endif
    CHECK_MPI(MPI_Comm_dup_with_info(a, MPI_INFO_NULL, &b));
    CHECK_MPI(MPI_Comm_dup(a, &c));
#ifdef SKIFF_MPI
    check_hint(a, "mpi_assert_no_any_source", "true");
    check_hint(b, "mpi_assert_no_any_source", "false");
    check_hint(c, "mpi_assert_no_any_source", "true");
#endif
    MPI_Comm all[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        check_dup_of(MPI_COMM_WORLD, all[i]);
    traffic_apart(all, 3);
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_free(&all[i]));
}

/* A communicator of world ranks [lo, hi], in reverse when rev, made by those ranks only. */
static MPI_Comm group_comm(int lo, int hi, int rev, int tag)
{
    MPI_Group world, g;
    int ranks[64], n = 0;
    for (int r = lo; r <= hi; r++)
        ranks[n++] = rev ? hi - (r - lo) : r;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    CHECK_MPI(MPI_Group_incl(world, n, ranks, &g));
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, tag, &c));
    CHECK(c != MPI_COMM_NULL);
    CHECK_EQ(n, size_of(c));
    int me = rank_of(MPI_COMM_WORLD);
    CHECK_EQ(rev ? hi - me : me - lo, rank_of(c));
    MPI_Group_free(&g);
    MPI_Group_free(&world);
    return c;
}

static void create_group(void)
{
    int rank = rank_of(MPI_COMM_WORLD), size = size_of(MPI_COMM_WORLD);
    /* Halves made by their own members, while the other half makes its own. */
    int half = size / 2;
    MPI_Comm mine = rank < half ? group_comm(0, half - 1, 1, 5) : group_comm(half, size - 1, 0, 6);
    traffic_apart(&mine, 1);
    /* Overlapping groups: [0, size-2] and [1, size-1]; the middle ranks are in both (tags 7 and 8). */
    if (size >= 3) {
        MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL;
        if (rank <= size - 2)
            a = group_comm(0, size - 2, 0, 7);
        if (rank >= 1)
            b = group_comm(1, size - 1, 0, 8);
        MPI_Comm both[2];
        int n = 0;
        if (a != MPI_COMM_NULL)
            both[n++] = a;
        if (b != MPI_COMM_NULL)
            both[n++] = b;
        for (int i = 0; i < n; i++)
            traffic_apart(&both[i], 1);
        for (int i = 0; i < n; i++)
            CHECK_MPI(MPI_Comm_free(&both[i]));
    }
    /* The parent keeps working: its collectives were not disturbed. */
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ(size * (size - 1) / 2, sum);
    CHECK_MPI(MPI_Comm_free(&mine));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    several_outstanding();
    does_not_wait();
    parent_freed_early();
    with_info();
    create_group();
    tu_barrier();
    if (rank_of(MPI_COMM_WORLD) == 0)
        printf("OK comm_idup\n");
    MPI_Finalize();
    return 0;
}
