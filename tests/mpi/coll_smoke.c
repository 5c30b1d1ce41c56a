/* coll_smoke — oversubscription smoke test: many tiny collectives back to back.
 *
 * Run with more ranks than cores (8 ranks on the 2-core CI box): N MPI_Barriers, then N 8-byte
 * MPI_Allreduces (int64 SUM, every result checked). No timing is
 * asserted: the test only has to finish well within its timeout, which it cannot if ranks that
 * wait for each other spin without yielding the core to the rank they wait for. Rank 0 prints
 * the elapsed time for information.
 *
 * usage: coll_smoke [N]   (default 2000)
 */
#include "testutil.h"

#define NAME "coll_smoke"

static void allreduce_once(long i, int rank, int np)
{
    int64_t v = (int64_t)i + rank, sum = -1;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ((int64_t)np * i + (int64_t)np * (np - 1) / 2, sum);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int rank = tu_rank(), np = tu_size();
    long n = tu_arg_long(argc, argv, 1, 2000);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++)
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    double t1 = MPI_Wtime();
    for (long i = 0; i < n; i++)
        allreduce_once(i, rank, np);
    double t2 = MPI_Wtime();
    if (rank == 0)
        printf("%s: np=%d N=%ld: barrier %.1f us, allreduce(8 B) %.1f us (info)\n", NAME, np, n,
               (t1 - t0) * 1e6 / (double)n, (t2 - t1) * 1e6 / (double)n);
    return tu_finish(NAME);
}
