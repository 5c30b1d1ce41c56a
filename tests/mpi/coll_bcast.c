/* coll_bcast — MPI_Bcast from every root, 0 bytes to > 1 MiB, checked byte by byte.
 *
 * 1. Sizes 0, 1, 3, 1000, 64 KiB+5, 1 MiB+7, 4 MiB+1 bytes, as MPI_BYTE, MPI_INT or MPI_DOUBLE
 *    counts in turn; every root for sizes up to 64 KiB, roots 0 and the last rank above. The
 *    payload depends on (size, root), receive buffers start as garbage with guard bytes behind
 *    them, and the root's buffer must be unchanged.
 * 2. 64 broadcasts back to back, without anything in between, each from a different root
 *    (rank i % np) with its own size and buffer; all are checked afterwards. Catches collectives
 *    matching each other's messages when ranks run ahead.
 * 3. MPI_Bcast on MPI_COMM_SELF leaves the buffer as it is.
 * 4. Every root of a split whose rank order is not MPI_COMM_WORLD's (keys 2,3,1,0,5,4,7,6,...): with
 *    SKIFF_NODE_SIZE the node-aware broadcast once took the data from the wrong node's leader.
 *
 * usage: coll_bcast
 */
#include "testutil.h"

#define NAME "coll_bcast"

static const MPI_Datatype kinds[] = {MPI_BYTE, MPI_INT, MPI_DOUBLE};

static void one_on(MPI_Comm comm, int rank, size_t bytes, int root, int kind)
{
    MPI_Datatype dt = kinds[kind];
    int es = 0;
    CHECK_MPI(MPI_Type_size(dt, &es));
    size_t count = bytes / (size_t)es, n = count * (size_t)es;
    uint32_t seed = tu_seed(n, (uint64_t)root, (uint64_t)kind, 11);
    uint8_t *buf = tu_malloc(n + TU_GUARD);
    if (rank == root)
        tu_fill(buf, n, seed);
    else
        memset(buf, 0x3c, n);
    tu_set_guard(buf, n);
    CHECK_MPI(MPI_Bcast(buf, (int)count, dt, root, comm));
    CHECK_PATTERN(buf, n, seed);
    CHECK_GUARD(buf, n);
    free(buf);
}

static void one(int rank, size_t bytes, int root, int kind)
{
    one_on(MPI_COMM_WORLD, rank, bytes, root, kind);
}

static void sizes(int rank, int np)
{
    static const size_t bytes[] = {0, 1, 3, 1000, (64 << 10) + 5, (1 << 20) + 7, (4 << 20) + 1};
    int k = 0;
    for (size_t s = 0; s < sizeof bytes / sizeof bytes[0]; s++) {
        for (int root = 0; root < np; root++) {
            if (bytes[s] > (64 << 10) + 5 && root != 0 && root != np - 1)
                continue;
            one(rank, bytes[s], root, k++ % 3);
        }
    }
}

static void back_to_back(int rank, int np)
{
    enum { N = 64 };
    uint8_t *buf[N];
    size_t len[N];
    for (int i = 0; i < N; i++) {
        len[i] = (size_t)((i * 977) % 5000) + (i % 8 == 7 ? 200000 : 0);
        buf[i] = tu_malloc(len[i] + TU_GUARD);
        int root = i % np;
        if (rank == root)
            tu_fill(buf[i], len[i], tu_seed((uint64_t)i, (uint64_t)root, 22, 0));
        else
            memset(buf[i], 0, len[i]);
        tu_set_guard(buf[i], len[i]);
    }
    for (int i = 0; i < N; i++)
        CHECK_MPI(MPI_Bcast(buf[i], (int)len[i], MPI_BYTE, i % np, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++) {
        CHECK_PATTERN(buf[i], len[i], tu_seed((uint64_t)i, (uint64_t)(i % np), 22, 0));
        CHECK_GUARD(buf[i], len[i]);
        free(buf[i]);
    }
}

static void self(int rank)
{
    uint8_t b[100];
    tu_fill(b, sizeof b, tu_seed((uint64_t)rank, 33, 0, 0));
    CHECK_MPI(MPI_Bcast(b, (int)sizeof b, MPI_BYTE, 0, MPI_COMM_SELF));
    CHECK_PATTERN(b, sizeof b, tu_seed((uint64_t)rank, 33, 0, 0));
}

static void reordered(int rank, int np)
{
    static const int keys[] = {2, 3, 1, 0, 5, 4, 7, 6};
    MPI_Comm sub;
    int srank = -1;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, keys[rank % 8] + 8 * (rank / 8), &sub));
    CHECK_MPI(MPI_Comm_rank(sub, &srank));
    for (int root = 0; root < np; root++)
        one_on(sub, srank, root % 2 ? 100 : 65541, root, 0);
    CHECK_MPI(MPI_Comm_free(&sub));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int rank = tu_rank(), np = tu_size();
    sizes(rank, np);
    back_to_back(rank, np);
    self(rank);
    reordered(rank, np);
    return tu_finish(NAME);
}
