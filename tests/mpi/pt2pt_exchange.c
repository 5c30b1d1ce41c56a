/* pt2pt_exchange — pairs of ranks send each other the same amount at the same time.
 *
 * Rank 2k and 2k+1 exchange 1 KiB, 64 KiB, 300 KiB and 4 MiB both ways, first with MPI_Sendrecv, then
 * with Irecv + Isend + Waitall; both payloads are checked byte by byte. An unpaired last rank talks
 * to itself. Run with small tcp socket buffers (SKIFF_TCP_SOCKBUF=8192) it once took 42 s for 4 MiB
 * each way: the accepted sockets' buffers were shrunk after the handshake. The test's time limit
 * (mpiexec --timeout) catches that; normally the whole program takes well under a second.
 */
#include "testutil.h"

#define NAME "pt2pt_exchange"

static void exchange(int rank, int peer, size_t n, int nonblocking)
{
    uint8_t *out = tu_malloc(n), *in = tu_malloc(n + TU_GUARD);
    uint32_t mine = tu_seed(n, (uint64_t)rank, 55, 0), theirs = tu_seed(n, (uint64_t)peer, 55, 0);
    tu_fill(out, n, mine);
    memset(in, 0x5a, n);
    tu_set_guard(in, n);
    if (nonblocking) {
        MPI_Request r[2];
        CHECK_MPI(MPI_Irecv(in, (int)n, MPI_BYTE, peer, 9, MPI_COMM_WORLD, &r[0]));
        CHECK_MPI(MPI_Isend(out, (int)n, MPI_BYTE, peer, 9, MPI_COMM_WORLD, &r[1]));
        CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    } else {
        CHECK_MPI(MPI_Sendrecv(out, (int)n, MPI_BYTE, peer, 9, in, (int)n, MPI_BYTE, peer, 9, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
    }
    CHECK_PATTERN(in, n, theirs);
    CHECK_GUARD(in, n);
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {1024, 65536, 300 * 1024 + 1, 4 << 20};
    tu_init(&argc, &argv);
    int rank = tu_rank(), np = tu_size();
    int peer = rank ^ 1;
    if (peer >= np)
        peer = rank;
    for (int nb = 0; nb < 2; nb++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            exchange(rank, peer, sizes[i], nb);
    return tu_finish(NAME);
}
