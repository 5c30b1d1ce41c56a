/* Large one-sided transfers (issue 17): 4 MiB puts and gets, contiguous and through a vector type on the
 * target, and a 1 MiB accumulate, each rank to its right neighbour, with fences; every byte checked. On
 * the message path (rma_big_msgpath, rma_big_msgpath_tcp) they are single messages above every eager
 * limit, so they travel by the point-to-point rendezvous (striped over the rails on tcp); on Win_create
 * memory within a node ("create") put and get are single copies. */
#include "testutil.h"

#define BIG (4 << 20)

static unsigned char pattern(int rank, size_t i)
{
    return (unsigned char)(i * 131u + (size_t)rank * 7u + (i >> 12));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int create = argc > 1 && strcmp(argv[1], "create") == 0;
    unsigned char *mem, *src = tu_malloc(BIG), *got = tu_malloc(BIG);
    MPI_Win win;
    if (create) {
        mem = tu_malloc(BIG);
        CHECK_MPI(MPI_Win_create(mem, BIG, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else {
        CHECK_MPI(MPI_Win_allocate(BIG, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    }
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (size_t i = 0; i < BIG; i++)
        src[i] = pattern(rank, i);
    memset(mem, 0, BIG);
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(src, BIG, MPI_BYTE, next, 0, BIG, MPI_BYTE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (size_t i = 0; i < BIG; i++)
        CHECK_EQ(pattern(prev, i), mem[i]);
    CHECK_MPI(MPI_Get(got, BIG, MPI_BYTE, next, 0, BIG, MPI_BYTE, win)); /* next holds our pattern */
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(memcmp(got, src, BIG) == 0);

    /* Every other 4 KiB block of the target, from a contiguous 2 MiB origin. */
    MPI_Datatype halves;
    CHECK_MPI(MPI_Type_vector(BIG / 8192, 4096, 8192, MPI_BYTE, &halves));
    CHECK_MPI(MPI_Type_commit(&halves));
    memset(mem, 0, BIG);
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(src, BIG / 2, MPI_BYTE, next, 0, 1, halves, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (size_t i = 0; i < BIG; i++) {
        size_t blk = i / 8192, off = i % 8192;
        CHECK_EQ(off < 4096 ? pattern(prev, blk * 4096 + off) : 0, mem[i]);
    }
    memset(got, 0xff, BIG);
    CHECK_MPI(MPI_Get(got, BIG / 2, MPI_BYTE, prev, 0, 1, halves, win)); /* prev's blocks hold ours... */
    CHECK_MPI(MPI_Win_fence(0, win));
    for (size_t i = 0; i < BIG / 2; i++) /* ...from its left neighbour: prev of prev */
        CHECK_EQ(pattern((prev + size - 1) % size, i), got[i]);
    CHECK_MPI(MPI_Type_free(&halves));

    /* 1 MiB of ints summed by every rank into its right neighbour. */
    int *ones = (int *)(void *)src, n = (1 << 20) / (int)sizeof(int);
    for (int i = 0; i < n; i++)
        ones[i] = i + rank;
    memset(mem, 0, BIG);
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Accumulate(ones, n, MPI_INT, next, 0, n, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < n; i++) {
        int v;
        memcpy(&v, mem + (size_t)i * sizeof v, sizeof v);
        CHECK_EQ(i + prev, v);
    }
    CHECK_MPI(MPI_Win_free(&win));
    if (create)
        free(mem);
    free(src);
    free(got);
    if (rank == 0)
        printf("OK rma_big\n");
    MPI_Finalize();
    return 0;
}
