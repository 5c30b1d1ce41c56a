/* coll_nb_all — the nonblocking collectives beyond Ibarrier/Ibcast/Ireduce/Iallreduce, and Alltoallw.
 *
 * 1. Every call on ints with known values, every root, uneven v-counts with gaps, MPI_IN_PLACE where
 *    the standard allows it: Iallgather(v), Ialltoall(v,w), Alltoallw, Igather(v), Iscatter(v),
 *    Ireduce_scatter(_block), Iscan, Iexscan.
 * 2. Derived datatypes (a strided vector) on the receiving or sending side, freed right after the
 *    call starts and before it completes.
 * 3. Fourteen collectives outstanding at once over MPI_COMM_WORLD and a duplicate, started in an
 *    order and completed in another: half waited for newest first, the rest with MPI_Waitany.
 *
 * Only MPI-3 calls: builds and passes under MPICH and Open MPI as well.
 */
#include "testutil.h"

#define NAME "coll_nb_all"

static int me, np;

static int val(int a, int b, int k)
{
    return a * 10000 + b * 100 + k;
}

static void wait1(MPI_Request *r)
{
    CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
    CHECK(*r == MPI_REQUEST_NULL);
}

/* Counts of uneven blocks: rank i's block holds i % 3 + 1 elements, at a gap of one. */
static void vblocks(int *counts, int *displs, int *total)
{
    int d = 0;
    for (int i = 0; i < np; i++) {
        counts[i] = i % 3 + 1;
        displs[i] = d + 1;
        d += counts[i] + 1;
    }
    *total = d + 1;
}

static void test_allgather(int in_place)
{
    int sb[3], *rb = tu_malloc(3 * (size_t)np * sizeof *rb);
    MPI_Request r;
    for (int k = 0; k < 3; k++)
        sb[k] = (in_place ? rb + 3 * me : sb)[k] = val(me, 0, k);
    CHECK_MPI(MPI_Iallgather(in_place ? MPI_IN_PLACE : sb, 3, MPI_INT, rb, 3, MPI_INT, MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int i = 0; i < np; i++)
        for (int k = 0; k < 3; k++)
            CHECK_EQ(val(i, 0, k), rb[3 * i + k]);
    int counts[64], displs[64], total;
    vblocks(counts, displs, &total);
    int *vb = tu_malloc((size_t)total * sizeof *vb);
    for (int k = 0; k < total; k++)
        vb[k] = -1;
    for (int k = 0; k < counts[me]; k++)
        sb[k] = (in_place ? vb + displs[me] : sb)[k] = val(me, 1, k);
    CHECK_MPI(MPI_Iallgatherv(in_place ? MPI_IN_PLACE : sb, counts[me], MPI_INT, vb, counts, displs, MPI_INT,
                              MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int i = 0; i < np; i++) {
        CHECK_EQ(-1, vb[displs[i] - 1]);
        for (int k = 0; k < counts[i]; k++)
            CHECK_EQ(val(i, 1, k), vb[displs[i] + k]);
    }
    free(vb);
    free(rb);
}

static void test_alltoall(int in_place)
{
    int *sb = tu_malloc(2 * (size_t)np * sizeof *sb), *rb = tu_malloc(2 * (size_t)np * sizeof *rb);
    MPI_Request r;
    for (int j = 0; j < np; j++)
        for (int k = 0; k < 2; k++)
            (in_place ? rb : sb)[2 * j + k] = val(me, j, k);
    CHECK_MPI(MPI_Ialltoall(in_place ? MPI_IN_PLACE : sb, 2, MPI_INT, rb, 2, MPI_INT, MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int i = 0; i < np; i++)
        for (int k = 0; k < 2; k++)
            CHECK_EQ(val(i, me, k), rb[2 * i + k]);
    free(sb);
    free(rb);
}

/* i sends j (i + j) % 3 + 1 elements; v: ints at element displacements with gaps. */
static int pair_count(int i, int j)
{
    return (i + j) % 3 + 1;
}

static void test_alltoallv(int in_place)
{
    int sc[64], sd[64], rc[64], rd[64], stot = 0, rtot = 0;
    for (int j = 0; j < np; j++) {
        sc[j] = pair_count(me, j);
        sd[j] = stot + 1;
        stot += sc[j] + 1;
        rc[j] = pair_count(j, me);
        rd[j] = rtot + 1;
        rtot += rc[j] + 1;
    }
    int *sb = tu_malloc((size_t)stot * sizeof *sb), *rb = tu_malloc((size_t)(rtot + 1) * sizeof *rb);
    for (int k = 0; k <= rtot; k++)
        rb[k] = -1;
    for (int j = 0; j < np; j++)
        for (int k = 0; k < sc[j]; k++)
            sb[sd[j] + k] = val(me, j, k);
    if (in_place) /* the standard takes both sides from the receive arguments then: symmetric counts */
        for (int j = 0; j < np; j++)
            for (int k = 0; k < rc[j]; k++)
                rb[rd[j] + k] = val(me, j, k);
    MPI_Request r;
    CHECK_MPI(MPI_Ialltoallv(in_place ? MPI_IN_PLACE : sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int i = 0; i < np; i++) {
        CHECK_EQ(-1, rb[rd[i] - 1]);
        for (int k = 0; k < rc[i]; k++)
            CHECK_EQ(val(i, me, k), rb[rd[i] + k]);
    }
    free(sb);
    free(rb);
}

/* Alltoallw: the pair (i, j) travels as ints when i + j is even, as doubles when odd; byte
 * displacements, the receive blocks in reverse rank order. */
static void test_alltoallw(int in_place, int nonblocking)
{
    int sc[64], sd[64], rc[64], rd[64];
    MPI_Datatype st[64], rt[64];
    size_t slot = 3 * sizeof(double);
    char *sb = tu_malloc(slot * (size_t)np), *rb = tu_malloc(slot * (size_t)np);
    for (int j = 0; j < np; j++) {
        int dbl = (me + j) % 2;
        sc[j] = rc[j] = pair_count(me, j);
        st[j] = rt[j] = dbl ? MPI_DOUBLE : MPI_INT;
        sd[j] = (int)slot * j;
        rd[j] = (int)slot * (np - 1 - j);
        char *blk = in_place ? rb + rd[j] : sb + sd[j];
        for (int k = 0; k < sc[j]; k++) {
            if (dbl)
                ((double *)blk)[k] = val(me, j, k) + 0.5;
            else
                ((int *)blk)[k] = val(me, j, k);
        }
    }
    MPI_Request r;
    if (nonblocking) {
        CHECK_MPI(MPI_Ialltoallw(in_place ? MPI_IN_PLACE : sb, sc, sd, st, rb, rc, rd, rt, MPI_COMM_WORLD, &r));
        wait1(&r);
    } else {
        CHECK_MPI(MPI_Alltoallw(in_place ? MPI_IN_PLACE : sb, sc, sd, st, rb, rc, rd, rt, MPI_COMM_WORLD));
    }
    for (int i = 0; i < np; i++)
        for (int k = 0; k < rc[i]; k++) {
            char *blk = rb + rd[i];
            if ((me + i) % 2)
                CHECK(((double *)blk)[k] == val(i, me, k) + 0.5);
            else
                CHECK_EQ(val(i, me, k), ((int *)blk)[k]);
        }
    free(sb);
    free(rb);
}

static void test_rooted(int root, int in_place)
{
    int *all = tu_malloc(2 * (size_t)np * sizeof *all), own[2];
    MPI_Request r;
    int at_root = me == root, ip = in_place && at_root;
    for (int k = 0; k < 2; k++)
        (ip ? all + 2 * me : own)[k] = val(me, root, k);
    CHECK_MPI(MPI_Igather(ip ? MPI_IN_PLACE : own, 2, MPI_INT, all, 2, MPI_INT, root, MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int i = 0; at_root && i < np; i++)
        for (int k = 0; k < 2; k++)
            CHECK_EQ(val(i, root, k), all[2 * i + k]);
    for (int i = 0; at_root && i < np; i++)
        for (int k = 0; k < 2; k++)
            all[2 * i + k] = val(root, i, k);
    own[0] = own[1] = -1;
    CHECK_MPI(MPI_Iscatter(all, 2, MPI_INT, ip ? MPI_IN_PLACE : own, 2, MPI_INT, root, MPI_COMM_WORLD, &r));
    wait1(&r);
    if (!ip)
        for (int k = 0; k < 2; k++)
            CHECK_EQ(val(root, me, k), own[k]);

    int counts[64], displs[64], total, vown[3];
    vblocks(counts, displs, &total);
    int *vb = tu_malloc((size_t)total * sizeof *vb);
    for (int k = 0; k < total; k++)
        vb[k] = -1;
    for (int k = 0; k < counts[me]; k++)
        (ip ? vb + displs[me] : vown)[k] = val(me, root, 50 + k);
    CHECK_MPI(MPI_Igatherv(ip ? MPI_IN_PLACE : vown, counts[me], MPI_INT, vb, counts, displs, MPI_INT, root,
                           MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int i = 0; at_root && i < np; i++) {
        CHECK_EQ(-1, vb[displs[i] - 1]);
        for (int k = 0; k < counts[i]; k++)
            CHECK_EQ(val(i, root, 50 + k), vb[displs[i] + k]);
    }
    for (int i = 0; at_root && i < np; i++)
        for (int k = 0; k < counts[i]; k++)
            vb[displs[i] + k] = val(root, i, 60 + k);
    vown[0] = vown[1] = vown[2] = -1;
    CHECK_MPI(MPI_Iscatterv(vb, counts, displs, MPI_INT, ip ? MPI_IN_PLACE : vown, counts[me], MPI_INT, root,
                            MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int k = 0; !ip && k < counts[me]; k++)
        CHECK_EQ(val(root, me, 60 + k), vown[k]);
    free(vb);
    free(all);
}

static void test_reductions(int in_place)
{
    int counts[64], total = 0;
    for (int i = 0; i < np; i++)
        total += counts[i] = i % 3 + 1;
    int *sb = tu_malloc((size_t)total * sizeof *sb), *rb = tu_malloc((size_t)total * sizeof *rb);
    int sum_ranks = np * (np - 1) / 2, first = 0;
    for (int i = 0; i < me; i++)
        first += counts[i];
    for (int k = 0; k < total; k++)
        (in_place ? rb : sb)[k] = me + k;
    MPI_Request r;
    CHECK_MPI(MPI_Ireduce_scatter(in_place ? MPI_IN_PLACE : sb, rb, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int k = 0; k < counts[me]; k++)
        CHECK_EQ(sum_ranks + np * (first + k), rb[k]);
    int *bs = tu_malloc(2 * (size_t)np * sizeof *bs), *br = tu_malloc(2 * (size_t)np * sizeof *br);
    for (int k = 0; k < 2 * np; k++)
        (in_place ? br : bs)[k] = me * k;
    CHECK_MPI(MPI_Ireduce_scatter_block(in_place ? MPI_IN_PLACE : bs, br, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int k = 0; k < 2; k++)
        CHECK_EQ(sum_ranks * (2 * me + k), br[k]);

    long s[2], out[2] = {-7, -7};
    for (int k = 0; k < 2; k++)
        (in_place ? out : s)[k] = me + 1 + k;
    CHECK_MPI(MPI_Iscan(in_place ? MPI_IN_PLACE : s, out, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int k = 0; k < 2; k++)
        CHECK_EQ((long)(me + 1) * (me + 2) / 2 + (long)k * (me + 1), out[k]);
    for (int k = 0; k < 2; k++)
        (in_place ? out : s)[k] = me + 1 + k;
    CHECK_MPI(MPI_Iexscan(in_place ? MPI_IN_PLACE : s, out, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r));
    wait1(&r);
    for (int k = 0; me > 0 && k < 2; k++) /* rank 0's result is undefined */
        CHECK_EQ((long)me * (me + 1) / 2 + (long)k * me, out[k]);
    free(sb);
    free(rb);
    free(bs);
    free(br);
}

/* Every other int: each element of `strided` is one int followed by a hole of one. */
static MPI_Datatype strided_type(int count)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_vector(count, 1, 2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static void test_derived(void)
{
    int n2 = 2 * np;
    int *sb = tu_malloc(2 * (size_t)n2 * sizeof *sb), *rb = tu_malloc(2 * (size_t)n2 * sizeof *rb);
    MPI_Request r[3];
    /* Iallgather: 2 ints sent plainly, received as one strided pair per rank. */
    MPI_Datatype pair = strided_type(2), pair_r, one;
    CHECK_MPI(MPI_Type_create_resized(pair, 0, 4 * (MPI_Aint)sizeof(int), &pair_r));
    CHECK_MPI(MPI_Type_commit(&pair_r));
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &one));
    CHECK_MPI(MPI_Type_commit(&one));
    for (int k = 0; k < 2 * n2; k++)
        rb[k] = -1;
    int mine[2] = {val(me, 7, 0), val(me, 7, 1)};
    CHECK_MPI(MPI_Iallgather(mine, 2, MPI_INT, rb, 1, pair_r, MPI_COMM_WORLD, &r[0]));
    /* Ialltoall: strided send (every other int), plain receive. */
    for (int j = 0; j < np; j++)
        for (int k = 0; k < 2; k++)
            sb[4 * j + 2 * k] = val(me, j, k), sb[4 * j + 2 * k + 1] = -5;
    int *ab = tu_malloc((size_t)n2 * sizeof *ab);
    CHECK_MPI(MPI_Ialltoall(sb, 2, one, ab, 2, MPI_INT, MPI_COMM_WORLD, &r[1]));
    /* Igather at the last rank into strided pairs. */
    int *gb = tu_malloc(2 * (size_t)n2 * sizeof *gb), root = np - 1;
    for (int k = 0; k < 2 * n2; k++)
        gb[k] = -1;
    CHECK_MPI(MPI_Igather(mine, 2, MPI_INT, gb, 1, pair_r, root, MPI_COMM_WORLD, &r[2]));
    /* The user may free the types at once; the calls keep what they need. */
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK_MPI(MPI_Type_free(&one));
    CHECK_MPI(MPI_Type_free(&pair_r));
    CHECK_MPI(MPI_Waitall(3, r, tu_statuses_ignore()));
    for (int i = 0; i < np; i++) {
        CHECK_EQ(val(i, 7, 0), rb[4 * i]);
        CHECK_EQ(-1, rb[4 * i + 1]);
        CHECK_EQ(val(i, 7, 1), rb[4 * i + 2]);
        CHECK_EQ(-1, rb[4 * i + 3]);
        for (int k = 0; k < 2; k++)
            CHECK_EQ(val(i, me, k), ab[2 * i + k]);
        if (me == root) {
            CHECK_EQ(val(i, 7, 0), gb[4 * i]);
            CHECK_EQ(val(i, 7, 1), gb[4 * i + 2]);
            CHECK_EQ(-1, gb[4 * i + 3]);
        }
    }
    free(sb);
    free(rb);
    free(ab);
    free(gb);
}

/* Many outstanding: on world and a duplicate, completed newest first, then in whatever order. */
static void test_many(void)
{
    enum { N = 14 };
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Request r[N];
    int *ag[N], sc[N][2];
    long scan[N][2];
    for (int q = 0; q < N; q++) {
        MPI_Comm c = q % 2 ? dup : MPI_COMM_WORLD;
        ag[q] = tu_malloc(2 * (size_t)np * sizeof(int));
        sc[q][0] = val(me, q, 0);
        sc[q][1] = val(me, q, 1);
        switch (q % 4) {
        case 0:
        case 1:
            CHECK_MPI(MPI_Iallgather(sc[q], 2, MPI_INT, ag[q], 2, MPI_INT, c, &r[q]));
            break;
        case 2:
            scan[q][0] = q;
            scan[q][1] = me;
            CHECK_MPI(MPI_Iscan(MPI_IN_PLACE, scan[q], 2, MPI_LONG, MPI_SUM, c, &r[q]));
            break;
        default:
            CHECK_MPI(MPI_Igather(sc[q], 2, MPI_INT, ag[q], 2, MPI_INT, q % np, c, &r[q]));
        }
    }
    for (int q = N - 1; q >= N / 2; q--)
        wait1(&r[q]);
    for (int left = N / 2; left > 0; left--) {
        int idx;
        CHECK_MPI(MPI_Waitany(N, r, &idx, MPI_STATUS_IGNORE));
        CHECK(idx >= 0 && idx < N / 2);
    }
    for (int q = 0; q < N; q++) {
        if (q % 4 == 2) {
            CHECK_EQ((long)q * (me + 1), scan[q][0]);
            CHECK_EQ((long)me * (me + 1) / 2, scan[q][1]);
        } else if (q % 4 != 3 || me == q % np) {
            for (int i = 0; i < np; i++)
                for (int k = 0; k < 2; k++)
                    CHECK_EQ(val(i, q, k), ag[q][2 * i + k]);
        }
        free(ag[q]);
    }
    CHECK_MPI(MPI_Comm_free(&dup));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    me = tu_rank();
    np = tu_size();
    if (np > 64)
        return tu_need_ranks(64, NAME);
    for (int in_place = 0; in_place < 2; in_place++) {
        test_allgather(in_place);
        test_alltoall(in_place);
        test_alltoallv(in_place);
        test_alltoallw(in_place, 0);
        test_alltoallw(in_place, 1);
        for (int root = 0; root < np; root++)
            test_rooted(root, in_place);
        test_reductions(in_place);
    }
    test_derived();
    test_many();
    return tu_finish(NAME);
}
