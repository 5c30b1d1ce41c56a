/* comm_churn — many communicators made and freed: 10000 MPI_Comm_dup, 2000 MPI_Comm_split, 1000
 * MPI_Comm_idup and 500 MPI_Comm_create_group, each freed before the next. None may run out of context
 * ids, traffic on the last of each still arrives, and the process does not grow with the count (resident
 * memory checked without sanitizers; the ASan build checks leaks at exit instead).
 *
 * Also passes with MPICH 4 and Open MPI 4.1 (which recycle their context ids); MPICH takes over two minutes
 * at np 3 on two cores (its ranks spin), 19 s at np 2. */
#include "testutil.h"

#define NDUP 10000
#define NSPLIT 2000
#define NIDUP 1000
#define NGROUP 500

/* Resident memory in KiB (Linux), 0 if unknown. */
static long resident_kib(void)
{
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
        rss = 0;
    fclose(f);
    return rss * 4;
}

static void ring(MPI_Comm c)
{
    int rank = 0, size = 1, got = -1;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 1, &got, 1, MPI_INT, (rank + size - 1) % size, 1, c,
                           MPI_STATUS_IGNORE));
    CHECK_EQ((rank + size - 1) % size, got);
}

static void churn(int round)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int i = 0; i < NDUP; i++) {
        MPI_Comm c;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        if (i == NDUP - 1)
            ring(c);
        CHECK_MPI(MPI_Comm_free(&c));
    }
    for (int i = 0; i < NSPLIT; i++) {
        MPI_Comm c;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, (rank + i) % 2, -rank, &c));
        if (i == NSPLIT - 1)
            ring(c);
        CHECK_MPI(MPI_Comm_free(&c));
    }
    for (int i = 0; i < NIDUP; i++) {
        MPI_Comm c;
        MPI_Request r;
        CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c, &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        if (i == NIDUP - 1)
            ring(c);
        CHECK_MPI(MPI_Comm_free(&c));
    }
    for (int i = 0; i < NGROUP; i++) {
        MPI_Comm c;
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, world, i, &c));
        if (i == NGROUP - 1)
            ring(c);
        CHECK_MPI(MPI_Comm_free(&c));
    }
    MPI_Group_free(&world);
    (void)round;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    /* The first round sizes whatever grows once (pools, tables); the second must not need more. */
    churn(0);
    long before = resident_kib();
    churn(1);
    long grown = resident_kib() - before;
#if !defined(__SANITIZE_ADDRESS__)
    CHECK_MSG(grown < 8192, "a second round of %d communicators grew the process by %ld KiB",
              NDUP + NSPLIT + NIDUP + NGROUP, grown);
#else
    (void)grown;
#endif
    tu_barrier();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("OK comm_churn\n");
    MPI_Finalize();
    return 0;
}
