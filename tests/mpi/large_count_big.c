/* Transfers of more than 2^31 bytes through the large-count (_c) calls, at np 2: MPI_Send_c/MPI_Recv_c,
 * MPI_Bcast_c and MPI_Allreduce_c (MPI_UINT8_T, more than INT_MAX elements), and a non-contiguous derived
 * type whose size exceeds INT_MAX (MPI_Type_size gives MPI_UNDEFINED, MPI_Type_size_c the size; the int
 * MPI_Get_count gives MPI_UNDEFINED for more than INT_MAX bytes, MPI_Get_count_c the count). Run on
 * shared memory and on tcp (the tcp variant sets SKIFF_TRANSPORTS=tcp).
 *
 * Memory: each rank holds one buffer of 2^31 + 2^21 bytes (2.002 GiB); the allreduce and the derived
 * type may need as much again inside the library (a reduction's scratch, the packed copy of the derived
 * type), so up to 2 x 2.002 GiB per rank, about 8 GiB for the job. With less than 9 GiB available
 * (MemAvailable) the test says so and passes. */
#include "testutil.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MPI_VERSION >= 4

#define BIG (((size_t)1 << 31) + ((size_t)1 << 21)) /* bytes: more than INT_MAX */
#define NEED_KIB (9ull << 20)                      /* 9 GiB, in kB as /proc/meminfo counts */

static unsigned long long mem_available_kib(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

/* Word i of a pattern (8-byte words; the tail bytes are those of the next word). */
static uint64_t word(size_t i, uint64_t seed)
{
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    return x ^ (x >> 29);
}

static void fill_big(unsigned char *p, size_t n, uint64_t seed)
{
    size_t words = n / 8;
    for (size_t i = 0; i < words; i++) {
        uint64_t w = word(i, seed);
        memcpy(p + 8 * i, &w, 8);
    }
    uint64_t w = word(words, seed);
    memcpy(p + 8 * words, &w, n % 8);
}

/* The first differing byte, or n. */
static size_t check_big(const unsigned char *p, size_t n, uint64_t seed)
{
    size_t words = n / 8;
    for (size_t i = 0; i < words; i++) {
        uint64_t w = word(i, seed);
        if (memcmp(p + 8 * i, &w, 8) != 0)
            return 8 * i;
    }
    uint64_t w = word(words, seed);
    return memcmp(p + 8 * words, &w, n % 8) ? 8 * words : n;
}

static void expect_pattern(const unsigned char *p, size_t n, uint64_t seed, const char *what)
{
    size_t at = check_big(p, n, seed);
    CHECK_MSG(at == n, "%s: byte %zu of %zu differs from what was sent", what, at, n);
}

static void send_recv(unsigned char *buf, int rank)
{
    MPI_Status st;
    if (rank == 0) {
        fill_big(buf, BIG, 1);
        CHECK_MPI(MPI_Send_c(buf, (MPI_Count)BIG, MPI_BYTE, 1, 1, MPI_COMM_WORLD));
        return;
    }
    memset(buf, 0, BIG);
    CHECK_MPI(MPI_Recv_c(buf, (MPI_Count)BIG, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st));
    expect_pattern(buf, BIG, 1, "Send_c/Recv_c");
    int n = 0;
    MPI_Count nc = 0;
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
    CHECK_EQ(MPI_UNDEFINED, n);
    CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &nc));
    CHECK_EQ(BIG, nc);
    CHECK_MPI(MPI_Get_elements(&st, MPI_BYTE, &n));
    CHECK_EQ(MPI_UNDEFINED, n);
}

static void bcast(unsigned char *buf, int rank)
{
    if (rank == 0)
        fill_big(buf, BIG, 2);
    else
        memset(buf, 0, BIG);
    CHECK_MPI(MPI_Bcast_c(buf, (MPI_Count)BIG, MPI_BYTE, 0, MPI_COMM_WORLD));
    expect_pattern(buf, BIG, 2, "Bcast_c");
}

/* Every rank contributes its rank + 1 in each byte; the sum is 3 at np 2. */
static void allreduce(unsigned char *buf, int rank)
{
    memset(buf, rank + 1, BIG);
    CHECK_MPI(MPI_Allreduce_c(MPI_IN_PLACE, buf, (MPI_Count)BIG, MPI_UINT8_T, MPI_SUM, MPI_COMM_WORLD));
    for (size_t i = 0; i < BIG; i++)
        CHECK_MSG(buf[i] == 3, "Allreduce_c: element %zu is %d, expected 3", i, buf[i]);
}

/* 1025 blocks of 2^21 - 64 bytes, 2^21 apart: 2,149,515,200 bytes of data, extent just under BIG. */
static void derived(unsigned char *buf, int rank)
{
    const int blocks = 1025, len = (1 << 21) - 64, stride = 1 << 21;
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(blocks, len, stride, MPI_BYTE, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    int isz = 0;
    MPI_Count csz = 0, lb = -1, ext = 0;
    CHECK_MPI(MPI_Type_size(v, &isz));
    CHECK_EQ(MPI_UNDEFINED, isz);
    CHECK_MPI(MPI_Type_size_c(v, &csz));
    CHECK_EQ((MPI_Count)blocks * len, csz);
    CHECK_MPI(MPI_Type_get_extent_c(v, &lb, &ext));
    CHECK_EQ(0, lb);
    CHECK_EQ((MPI_Count)(blocks - 1) * stride + len, ext);
    CHECK_LE((double)BIG, ext); /* one element fits the buffer */
    if (rank == 0) {
        fill_big(buf, BIG, 3);
        CHECK_MPI(MPI_Send(buf, 1, v, 1, 3, MPI_COMM_WORLD));
    } else {
        memset(buf, 0, BIG);
        MPI_Status st;
        CHECK_MPI(MPI_Recv(buf, 1, v, 0, 3, MPI_COMM_WORLD, &st));
        MPI_Count n = 0;
        CHECK_MPI(MPI_Get_count_c(&st, v, &n));
        CHECK_EQ(1, n);
        CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &n));
        CHECK_EQ(csz, n);
        /* the blocks hold the sender's pattern where they lie, the gaps stay zero */
        for (int b = 0; b < blocks; b++) {
            size_t off = (size_t)b * (size_t)stride;
            for (size_t w = off / 8; w < (off + (size_t)len) / 8; w++) {
                uint64_t x = word(w, 3);
                CHECK_MSG(memcmp(buf + 8 * w, &x, 8) == 0, "derived: block %d differs at byte %zu", b, 8 * w);
            }
            for (size_t i = off + (size_t)len; b < blocks - 1 && i < off + (size_t)stride; i++)
                CHECK_MSG(buf[i] == 0, "derived: gap byte %zu after block %d was written", i, b);
        }
    }
    CHECK_MPI(MPI_Type_free(&v));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = tu_rank(), size = tu_size();
    unsigned long long avail = rank == 0 ? mem_available_kib() : 0;
    CHECK_MPI(MPI_Bcast(&avail, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD));
    if (size != 2 || avail < NEED_KIB) {
        if (rank == 0)
            printf("large_count_big: skipped (np %d, %llu MiB available; it runs at np 2 with %llu MiB)\n", size,
                   avail >> 10, NEED_KIB >> 10);
        MPI_Finalize();
        return 0;
    }
    unsigned char *buf = tu_malloc(BIG);
    send_recv(buf, rank);
    bcast(buf, rank);
    allreduce(buf, rank);
    derived(buf, rank);
    free(buf);
    if (rank == 0)
        printf("large_count_big: %zu bytes by Send_c, Bcast_c, Allreduce_c and a %lld-byte derived type\n", BIG,
               1025LL * ((1 << 21) - 64));
    MPI_Finalize();
    return 0;
}

#else
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (tu_rank() == 0)
        printf("large_count_big: skipped, MPI %d.%d has no large-count calls\n", MPI_VERSION, MPI_SUBVERSION);
    MPI_Finalize();
    return 0;
}
#endif
