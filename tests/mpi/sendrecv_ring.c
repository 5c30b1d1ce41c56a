/* sendrecv_ring — MPI_Sendrecv and MPI_Sendrecv_replace around a ring.
 *
 * Every rank sends to rank+d and receives from rank-d at the same time (d = +1 and -1), which
 * deadlocks with plain blocking Send/Recv once messages are rendezvous-sized: Sendrecv must
 * progress both halves together. Sizes cross the eager/rendezvous boundary. The receive side
 * also uses MPI_ANY_SOURCE (with a tag only the neighbour uses) and the status must name the
 * real neighbour. At np=1 the ring is a self-loop.
 *
 * usage: sendrecv_ring [large_bytes]
 */
#include "testutil.h"

#define NAME "sendrecv_ring"

static void ring_sendrecv(int rank, int size, int d, size_t n, int any_source, uint8_t *sb,
                          uint8_t *rb)
{
    int to = (rank + d + size) % size, from = (rank - d + size) % size;
    int tag = 10 + (d > 0);
    MPI_Status st;
    tu_fill(sb, n, tu_seed(n, (uint64_t)rank, (uint64_t)tag, 1));
    tu_set_guard(rb, n);
    CHECK_MPI(MPI_Sendrecv(sb, (int)n, MPI_BYTE, to, tag, rb, (int)n, MPI_BYTE,
                           any_source ? MPI_ANY_SOURCE : from, tag, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, from, tag, (int)n);
    CHECK_PATTERN(rb, n, tu_seed(n, (uint64_t)from, (uint64_t)tag, 1));
    CHECK_GUARD(rb, n);
    CHECK_PATTERN(sb, n, tu_seed(n, (uint64_t)rank, (uint64_t)tag, 1));
}

/* Same exchange in place: the buffer goes out with our pattern and comes back with theirs. */
static void ring_replace(int rank, int size, int d, size_t n, uint8_t *buf)
{
    int to = (rank + d + size) % size, from = (rank - d + size) % size;
    int tag = 20 + (d > 0);
    MPI_Status st;
    tu_fill(buf, n, tu_seed(n, (uint64_t)rank, (uint64_t)tag, 2));
    tu_set_guard(buf, n);
    CHECK_MPI(MPI_Sendrecv_replace(buf, (int)n, MPI_BYTE, to, tag, from, tag, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, from, tag, (int)n);
    CHECK_PATTERN(buf, n, tu_seed(n, (uint64_t)from, (uint64_t)tag, 2));
    CHECK_GUARD(buf, n);
}

/* Typed replace: counts are in elements, not bytes. */
static void ring_replace_typed(int rank, int size)
{
    int to = (rank + 1) % size, from = (rank - 1 + size) % size;
    double v[100];
    MPI_Status st;
    int n = -1;
    for (int i = 0; i < 100; i++)
        v[i] = rank * 1000.0 + i;
    CHECK_MPI(MPI_Sendrecv_replace(v, 100, MPI_DOUBLE, to, 30, from, 30, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
    CHECK_EQ(100, n);
    for (int i = 0; i < 100; i++)
        CHECK_MSG(v[i] == from * 1000.0 + i, "v[%d]: expected %g, got %g", i, from * 1000.0 + i,
                  v[i]);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    size_t large = (size_t)tu_arg_long(argc, argv, 1, 1024 * 1024 + 3);
    int rank = tu_rank(), size = tu_size();
    const size_t sizes[] = {0, 1, 1000, 65536, 100003, large};
    uint8_t *sb = tu_malloc(large + TU_GUARD), *rb = tu_malloc(large + TU_GUARD);

    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int d = -1; d <= 1; d += 2) {
            ring_sendrecv(rank, size, d, sizes[i], 0, sb, rb);
            ring_sendrecv(rank, size, d, sizes[i], 1, sb, rb);
            ring_replace(rank, size, d, sizes[i], rb);
        }
    ring_replace_typed(rank, size);
    free(sb);
    free(rb);
    return tu_finish(NAME);
}
