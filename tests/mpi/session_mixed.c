/* session_mixed — sessions and the world model in one program: a first session that ends before anything
 * else; a session opened before MPI_Init whose communicator works beside MPI_COMM_WORLD once MPI_Init joins
 * it (congruent to it, traffic on both at once); a session opened and closed between MPI_Init and
 * MPI_Finalize; a session that outlives MPI_Finalize and still communicates after it. MPI_Initialized and
 * MPI_Finalized follow the world model alone.
 *
 * Passes under MPICH 4.0 (which has sessions but cannot start again after its last session ends: that
 * part is left out there). Open MPI 4.1, the version in Debian 12, has no sessions: under it the test says
 * so and passes without testing anything. */
#include "testutil.h"

#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
int main(void)
{
    printf("OK session_mixed (skipped: Open MPI %d.%d has no sessions)\n", OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION);
    return 0;
}
#else

static void world_flags(int init, int fin)
{
    int i = -1, f = -1;
    CHECK_MPI(MPI_Initialized(&i));
    CHECK_MPI(MPI_Finalized(&f));
    CHECK_EQ(init, i);
    CHECK_EQ(fin, f);
}

static MPI_Comm from_pset(MPI_Session s, const char *pset, const char *tag)
{
    MPI_Group g;
    MPI_Comm c;
    CHECK_MPI(MPI_Group_from_session_pset(s, pset, &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK_MPI(MPI_Group_free(&g));
    return c;
}

/* Each rank sends its rank + base to the next on c and checks what the previous sent. */
static void ring(MPI_Comm c, int base)
{
    int rank, size, got = -1;
    CHECK_MPI(MPI_Comm_rank(c, &rank));
    CHECK_MPI(MPI_Comm_size(c, &size));
    int mine = base + rank, from = (rank + size - 1) % size;
    CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_INT, (rank + 1) % size, 5, &got, 1, MPI_INT, from, 5, c,
                           MPI_STATUS_IGNORE));
    CHECK_EQ(base + from, got);
}

/* The same tag on two communicators of the same processes: each message stays on its own. */
static void side_by_side(MPI_Comm a, MPI_Comm b)
{
    int rank, size, got[2] = {-1, -1};
    CHECK_MPI(MPI_Comm_rank(a, &rank));
    CHECK_MPI(MPI_Comm_size(a, &size));
    int to = (rank + 1) % size, from = (rank + size - 1) % size, va = 10 + rank, vb = 20 + rank;
    MPI_Request r[4];
    CHECK_MPI(MPI_Irecv(&got[1], 1, MPI_INT, from, 9, b, &r[0]));
    CHECK_MPI(MPI_Irecv(&got[0], 1, MPI_INT, from, 9, a, &r[1]));
    CHECK_MPI(MPI_Isend(&va, 1, MPI_INT, to, 9, a, &r[2]));
    CHECK_MPI(MPI_Isend(&vb, 1, MPI_INT, to, 9, b, &r[3]));
    CHECK_MPI(MPI_Waitall(4, r, TU_STATUSES_IGNORE));
    CHECK_EQ(10 + from, got[0]);
    CHECK_EQ(20 + from, got[1]);
}

int main(int argc, char **argv)
{
    MPI_Session a, b, c;
    world_flags(0, 0);
#if !defined(MPICH_NUMVERSION) || MPICH_NUMVERSION >= 40100000
    /* A session opened and closed before anything else: what comes after starts MPI again. (MPICH 4.0
     * cannot start again after its last session: not tried there.) */
    MPI_Session z;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &z));
    MPI_Comm cz = from_pset(z, "mpi://WORLD", "mixed/z");
    ring(cz, 50);
    CHECK_MPI(MPI_Comm_free(&cz));
    CHECK_MPI(MPI_Session_finalize(&z));
    world_flags(0, 0);
#endif
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &a));
    world_flags(0, 0);
    MPI_Comm ca = from_pset(a, "mpi://WORLD", "mixed/a");
    ring(ca, 100);

    /* The world model joins the running session. */
    int provided = -1;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided));
    CHECK_GE(MPI_THREAD_SINGLE, provided); /* more is allowed: MPICH gives what its session has */
    world_flags(1, 0);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cmp = -1, rank = -1;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, ca, &cmp));
    CHECK_EQ(MPI_CONGRUENT, cmp);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    side_by_side(MPI_COMM_WORLD, ca);
    CHECK_MPI(MPI_Comm_free(&ca));
    CHECK_MPI(MPI_Session_finalize(&a));
    world_flags(1, 0);
    ring(MPI_COMM_WORLD, 200);

    /* A session within the world model. */
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &b));
    MPI_Comm cb = from_pset(b, "mpi://WORLD", "mixed/b"), self = from_pset(b, "mpi://SELF", "mixed/self");
    side_by_side(cb, MPI_COMM_WORLD);
    int one = -1;
    CHECK_MPI(MPI_Comm_size(self, &one));
    CHECK_EQ(1, one);
    ring(self, 300);
    CHECK_MPI(MPI_Comm_free(&self));
    CHECK_MPI(MPI_Comm_free(&cb));
    CHECK_MPI(MPI_Session_finalize(&b));

    /* A session that outlives the world model. */
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MPI_Comm cc = from_pset(c, "mpi://WORLD", "mixed/c");
    CHECK_MPI(MPI_Finalize());
    world_flags(1, 1);
    ring(cc, 400);
    int sum = -1, size = -1;
    CHECK_MPI(MPI_Comm_size(cc, &size));
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, cc));
    CHECK_EQ(size * (size - 1) / 2, sum);
    CHECK_MPI(MPI_Comm_free(&cc));
    CHECK_MPI(MPI_Session_finalize(&c));
    world_flags(1, 1);
    if (rank == 0)
        printf("OK session_mixed\n");
    return 0;
}
#endif
