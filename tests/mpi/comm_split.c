/* comm_split — MPI_Comm_split and MPI_Comm_split_type.
 *   - split by parity with reversed keys: sizes, ranks in reverse order, translate back to world;
 *   - MPI_UNDEFINED color gives MPI_COMM_NULL, the others still get their communicator;
 *   - equal keys keep the parent order; a split of a split;
 *   - traffic on each new communicator: a ring whose statuses carry the new ranks;
 *   - MPI_COMM_TYPE_SHARED: the ranks sharing this node, in key order (one node or several);
 *   - Comm_compare of the splits against MPI_COMM_WORLD.
 */
#include "testutil.h"

#define NAME "comm_split"

/* Sends each rank's world rank around a ring of comm and checks what arrives. */
static void ring(MPI_Comm comm, const int *world_of)
{
    int rank, size, got = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Comm_rank(comm, &rank));
    CHECK_MPI(MPI_Comm_size(comm, &size));
    int right = (rank + 1) % size, left = (rank + size - 1) % size, me = tu_rank();
    CHECK_MPI(MPI_Sendrecv(&me, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, comm, &st));
    CHECK_EQ(left, st.MPI_SOURCE);
    CHECK_EQ(7, st.MPI_TAG);
    CHECK_EQ(world_of[left], got);
}

static void world_ranks_of(MPI_Comm comm, int *out)
{
    MPI_Group wg, g;
    int n;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_MPI(MPI_Comm_group(comm, &g));
    CHECK_MPI(MPI_Group_size(g, &n));
    int *r = tu_malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        r[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(g, n, r, wg, out));
    free(r);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_free(&wg));
}

static void parity_reversed(int rank, int size)
{
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &c));
    int n = (size + 1 - rank % 2) / 2, r, s;
    CHECK_MPI(MPI_Comm_size(c, &s));
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_EQ(n, s);
    /* Highest world rank of my parity first. */
    int *w = tu_malloc(sizeof(int) * (size_t)s);
    world_ranks_of(c, w);
    for (int i = 0; i < s; i++) {
        int expect = (size - 1 - i * 2) - ((size - 1) % 2 != rank % 2);
        CHECK_EQ(expect, w[i]);
    }
    CHECK_EQ(rank, w[r]);
    ring(c, w);
    int res;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, c, &res));
    CHECK_EQ(size == 1 ? MPI_CONGRUENT : size == 2 ? MPI_UNEQUAL : MPI_UNEQUAL, res);
    free(w);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK(c == MPI_COMM_NULL);
}

static void undefined_color(int rank, int size)
{
    /* Ranks divisible by 3 stay out; the others split in halves with equal keys. */
    int color = rank % 3 == 0 ? MPI_UNDEFINED : rank < size / 2;
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, 0, &c));
    if (color == MPI_UNDEFINED) {
        CHECK(c == MPI_COMM_NULL);
        return;
    }
    CHECK(c != MPI_COMM_NULL);
    int expect = 0, myrank = -1, r, s;
    for (int i = 0; i < size; i++)
        if (i % 3 != 0 && (i < size / 2) == color) {
            if (i == rank)
                myrank = expect;
            expect++;
        }
    CHECK_MPI(MPI_Comm_size(c, &s));
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_EQ(expect, s);
    CHECK_EQ(myrank, r); /* equal keys: parent order */
    int *w = tu_malloc(sizeof(int) * (size_t)s);
    world_ranks_of(c, w);
    ring(c, w);

    /* A split of the split: singletons, then everyone together again in reverse. */
    MPI_Comm one, back;
    CHECK_MPI(MPI_Comm_split(c, r, 0, &one));
    CHECK_MPI(MPI_Comm_size(one, &s));
    CHECK_EQ(1, s);
    CHECK_MPI(MPI_Comm_split(c, 0, -r, &back));
    CHECK_MPI(MPI_Comm_rank(back, &s));
    CHECK_EQ(expect - 1 - r, s);
    int res;
    CHECK_MPI(MPI_Comm_compare(c, back, &res));
    CHECK_EQ(expect == 1 ? MPI_CONGRUENT : MPI_SIMILAR, res);
    int *wb = tu_malloc(sizeof(int) * (size_t)expect);
    world_ranks_of(back, wb);
    ring(back, wb);
    free(wb);
    free(w);
    CHECK_MPI(MPI_Comm_free(&one));
    CHECK_MPI(MPI_Comm_free(&back));
    CHECK_MPI(MPI_Comm_free(&c));
}

/* The job may span nodes (Hydra's fork launcher, SKIFF_NODE_SIZE): the node communicator holds
 * the ranks that share this one, in key order, and every rank of it must agree on its members. */
static void shared(int rank, int size)
{
    MPI_Comm node;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, size - rank, MPI_INFO_NULL, &node));
    int r, s, res, lowest, lowest_max;
    CHECK_MPI(MPI_Comm_size(node, &s));
    CHECK_MPI(MPI_Comm_rank(node, &r));
    CHECK(s >= 1 && s <= size);
    int *w = tu_malloc(sizeof(int) * (size_t)s);
    world_ranks_of(node, w);
    CHECK_EQ(rank, w[r]);
    for (int i = 1; i < s; i++)
        CHECK_MSG(w[i] < w[i - 1], "node communicator not in key order: world ranks %d then %d", w[i - 1], w[i]);
    lowest = w[s - 1];
    CHECK_MPI(MPI_Allreduce(&lowest, &lowest_max, 1, MPI_INT, MPI_MAX, node));
    CHECK_EQ(lowest, lowest_max); /* all members see the same membership */
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, node, &res));
    CHECK_EQ(s < size ? MPI_UNEQUAL : size == 1 ? MPI_CONGRUENT : MPI_SIMILAR, res);
    ring(node, w);
    int with_rank0 = w[s - 1] == 0;
    free(w);
    CHECK_MPI(MPI_Comm_free(&node));

    /* MPI_UNDEFINED as the split type leaves a rank out. */
    int before = s;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, 0,
                                  MPI_INFO_NULL, &node));
    if (rank == 0) {
        CHECK(node == MPI_COMM_NULL);
    } else {
        CHECK_MPI(MPI_Comm_size(node, &s));
        CHECK_EQ(before - with_rank0, s);
        CHECK_MPI(MPI_Comm_free(&node));
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int rank = tu_rank(), size = tu_size();
    parity_reversed(rank, size);
    undefined_color(rank, size);
    shared(rank, size);
    return tu_finish(NAME);
}
