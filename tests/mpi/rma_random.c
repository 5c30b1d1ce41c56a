/* Randomized one-sided traffic with checksums: in each of ROUNDS fence epochs every rank issues random
 * puts (contiguous or strided, into 8-element blocks that this epoch's ownership rule gives it alone),
 * random accumulates (SUM, several origins into the same elements) and, in the next epoch, random gets and
 * get-accumulates with MPI_NO_OP of whatever it likes. Every rank replays every origin's generator, so each
 * keeps a model of all windows and checks each fetched element, and at the end the windows' checksums.
 * Argument: a seed (default 1). Passes with MPICH and Open MPI too. */
#include "testutil.h"

#define W 256       /* longs per window */
#define BLK 8
#define PUT_BLOCKS 30 /* blocks 0..29 take puts; 30..31 accumulates */
#define ROUNDS 12
#define OPS 24

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int size, rank;
static long *model; /* size * W */

static int owner(int round, int target, int block)
{
    return (target + block * 3 + round) % size;
}

/* One origin's operations in a put round; do_it: issue them (only for this rank) or only apply them to
 * the model. */
static void put_round(uint64_t seed, int round, int o, MPI_Win win, int do_it)
{
    uint64_t s = seed * 1000003u + (uint64_t)round * 7919u + (uint64_t)o;
    unsigned char used[64][PUT_BLOCKS];
    memset(used, 0, sizeof used);
    for (int k = 0; k < OPS; k++) {
        int t = (int)(next_rand(&s) % (uint64_t)size);
        uint64_t r = next_rand(&s);
        if (r % 3 != 0) { /* a put into a block of its own */
            int b = (int)(next_rand(&s) % PUT_BLOCKS);
            int stride = 1 + (int)(next_rand(&s) % 2), n = 1 + (int)(next_rand(&s) % (BLK / stride));
            long vals[BLK];
            for (int i = 0; i < n; i++)
                vals[i] = (long)(next_rand(&s) % 1000000);
            if (owner(round, t, b) != o || used[t % 64][b])
                continue;
            used[t % 64][b] = 1;
            for (int i = 0; i < n; i++)
                model[t * W + b * BLK + i * stride] = vals[i];
            if (!do_it)
                continue;
            if (stride == 1) {
                CHECK_MPI(MPI_Put(vals, n, MPI_LONG, t, b * BLK, n, MPI_LONG, win));
            } else {
                MPI_Datatype v;
                CHECK_MPI(MPI_Type_vector(n, 1, stride, MPI_LONG, &v));
                CHECK_MPI(MPI_Type_commit(&v));
                CHECK_MPI(MPI_Put(vals, n, MPI_LONG, t, b * BLK, 1, v, win));
                CHECK_MPI(MPI_Type_free(&v));
            }
        } else { /* an accumulate into the shared area: anyone, any overlap */
            int at = PUT_BLOCKS * BLK + (int)(next_rand(&s) % (2 * BLK - 4)), n = 1 + (int)(next_rand(&s) % 4);
            long vals[4];
            for (int i = 0; i < n; i++) {
                vals[i] = (long)(next_rand(&s) % 1000) - 500;
                model[t * W + at + i] += vals[i];
            }
            if (do_it)
                CHECK_MPI(MPI_Accumulate(vals, n, MPI_LONG, t, at, n, MPI_LONG, MPI_SUM, win));
        }
    }
}

/* A get round: random reads, checked against the model once the epoch ends. */
static void get_round(uint64_t seed, int round, MPI_Win win)
{
    uint64_t s = seed * 31u + (uint64_t)round * 131u + (uint64_t)rank * 65537u;
    long got[OPS][BLK];
    int tg[OPS], at[OPS], n[OPS];
    for (int k = 0; k < OPS; k++) {
        tg[k] = (int)(next_rand(&s) % (uint64_t)size);
        n[k] = 1 + (int)(next_rand(&s) % BLK);
        at[k] = (int)(next_rand(&s) % (uint64_t)(W - n[k] + 1));
        if (k % 4 == 3)
            CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_LONG, got[k], n[k], MPI_LONG, tg[k], at[k], n[k], MPI_LONG,
                                         MPI_NO_OP, win));
        else
            CHECK_MPI(MPI_Get(got[k], n[k], MPI_LONG, tg[k], at[k], n[k], MPI_LONG, win));
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int k = 0; k < OPS; k++)
        for (int i = 0; i < n[k]; i++)
            CHECK_MSG(got[k][i] == model[tg[k] * W + at[k] + i],
                      "round %d: rank %d element %d: got %ld, model %ld", round, tg[k], at[k] + i, got[k][i],
                      model[tg[k] * W + at[k] + i]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    model = calloc((size_t)size * W, sizeof *model);
    long *mem;
    MPI_Win win;
    /* "create" as argument 2: the same over user memory (MPI_Win_create: single copy within a node) */
    int create = argc > 2 && strcmp(argv[2], "create") == 0;
    if (create) {
        mem = tu_malloc(W * sizeof(long));
        CHECK_MPI(MPI_Win_create(mem, W * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else {
        CHECK_MPI(MPI_Win_allocate(W * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    }
    for (int i = 0; i < W; i++)
        mem[i] = 0;
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int round = 0; round < ROUNDS; round++) {
        for (int o = 0; o < size; o++)
            put_round(seed, round, o, win, o == rank);
        CHECK_MPI(MPI_Win_fence(0, win));
        get_round(seed, round, win);
    }
    /* Checksums: this rank's window against the model, and the sum over all windows. */
    long sum = 0, want = 0, all = 0, all_want = 0;
    for (int i = 0; i < W; i++) {
        sum += mem[i] * (i + 1);
        want += model[rank * W + i] * (i + 1);
        CHECK_MSG(mem[i] == model[rank * W + i], "element %d: %ld, model %ld", i, mem[i], model[rank * W + i]);
    }
    CHECK_EQ(want, sum);
    for (int i = 0; i < size * W; i++)
        all_want += model[i] * (i % W + 1);
    CHECK_MPI(MPI_Allreduce(&sum, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ(all_want, all);
    CHECK_MPI(MPI_Win_free(&win));
    if (create)
        free(mem);
    free(model);
    if (rank == 0)
        printf("OK rma_random (seed %llu, checksum %ld)\n", (unsigned long long)seed, all);
    MPI_Finalize();
    return 0;
}
