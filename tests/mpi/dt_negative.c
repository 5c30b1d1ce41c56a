/* Negative extents and negative displacements (issue 12, item 3). MPI_Type_create_resized may give a
 * type a negative extent (ub < lb): count elements then walk backwards through memory, which real codes
 * use to reverse an array in flight. Checked here: the bounds MPI reports for such types and for types
 * built on them, vectors with negative strides, hindexed with negative displacements; MPI_Pack/Unpack;
 * count > 1 through point-to-point in every combination of typed and contiguous sides, a partial last
 * element, a message of several MiB (the rendezvous path), MPI_Sendrecv_replace; broadcast, gathers and
 * scatter; and reductions, which must either be refused or be right.
 *
 * Ranks pair up (0-1, 2-3, ...; an odd last rank and np=1 talk to themselves). Expected layouts are
 * written out by hand, as int offsets, not computed by MPI. */
#include "testutil.h"

#include <stddef.h>

static int rank, size, peer;

static MPI_Datatype committed(MPI_Datatype t)
{
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

/* size, lb, extent, true lb, true extent in bytes, as MPI reports them */
#define CHECK_SHAPE(t, sz, lb, extent, tlb, textent)                                                          \
    do {                                                                                                      \
        int s_ = -1;                                                                                          \
        MPI_Aint l_ = -1, e_ = -1, tl_ = -1, te_ = -1;                                                        \
        CHECK_MPI(MPI_Type_size((t), &s_));                                                                   \
        CHECK_MPI(MPI_Type_get_extent((t), &l_, &e_));                                                        \
        CHECK_MPI(MPI_Type_get_true_extent((t), &tl_, &te_));                                                 \
        CHECK_EQ((sz), s_);                                                                                   \
        CHECK_EQ((lb), l_);                                                                                   \
        CHECK_EQ((extent), e_);                                                                               \
        CHECK_EQ((tlb), tl_);                                                                                 \
        CHECK_EQ((textent), te_);                                                                             \
    } while (0)

#define I ((MPI_Aint)sizeof(int)) /* bytes of an int, for bounds */

/* One element of a type made of ints: the int offsets of its data in type-map order, and its extent
 * in ints. Element k of a count starts k * ext ints from the buffer. */
struct layout {
    const char *name;
    MPI_Datatype t;
    int n;
    int off[8];
    int ext;
    int disjoint; /* count elements never share an int, so a receive may use count > 1 */
};

static int at(const struct layout *l, int k, int j)
{
    return k * l->ext + l->off[j];
}

/* Where count elements of l reach, in ints relative to the buffer: [*lo, *hi]. */
static void reach(const struct layout *l, int count, int *lo, int *hi)
{
    *lo = *hi = l->off[0];
    for (int k = 0; k < count; k++)
        for (int j = 0; j < l->n; j++) {
            int p = at(l, k, j);
            *lo = p < *lo ? p : *lo;
            *hi = p > *hi ? p : *hi;
        }
}

/* An array around count elements of l, with 8 spare ints each side that nothing may touch; *base is
 * where the buffer argument points. */
struct arena {
    int *mem, len, lo;
    int *base;
};

#define SPARE 8

static void arena_make(struct arena *a, const struct layout *l, int count, int fill_rank)
{
    int lo, hi;
    reach(l, count, &lo, &hi);
    a->len = hi - lo + 1 + 2 * SPARE;
    a->lo = lo - SPARE;
    a->mem = tu_malloc((size_t)a->len * sizeof(int));
    a->base = a->mem - a->lo;
    for (int i = 0; i < a->len; i++)
        a->mem[i] = fill_rank < 0 ? -1 : fill_rank * 100000 + a->lo + i;
}

static int val(int r, int pos)
{
    return r * 100000 + pos;
}

/* After a receive of count elements of l from rank `from`: every data int holds the sender's int at
 * the same element position (sent with layout s, or contiguously when s is NULL), every other int is
 * still -1. */
static void check_received(const struct arena *a, const struct layout *l, int count, int from,
                           const struct layout *s, int got)
{
    int *seen = calloc((size_t)a->len, sizeof(int));
    CHECK(seen != NULL);
    int i = 0;
    for (int k = 0; k < count; k++)
        for (int j = 0; j < l->n; j++, i++) {
            if (i >= got)
                break;
            int p = at(l, k, j);
            int want = s ? val(from, at(s, i / s->n, i % s->n)) : val(from, i);
            CHECK_MSG(a->base[p] == want, "%s: element %d int %d (offset %d): expected %d, got %d", l->name, k, j,
                      p, want, a->base[p]);
            seen[p - a->lo] = 1;
        }
    for (int q = 0; q < a->len; q++)
        CHECK_MSG(seen[q] || a->mem[q] == -1, "%s: int at offset %d written (%d), not part of the data", l->name,
                  a->lo + q, a->mem[q]);
    free(seen);
}

/* Sends and receives at once, so a rank paired with itself cannot block. */
static void exchange(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                     int tag, MPI_Status *st)
{
    MPI_Request rq[2];
    MPI_Status sts[2];
    CHECK_MPI(MPI_Irecv(rbuf, rcount, rtype, peer, tag, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Isend(sbuf, scount, stype, peer, tag, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Waitall(2, rq, sts));
    if (st)
        *st = sts[0];
}

/* ---------------------------------------------------------------------------------- the types */

enum { RINT, RGAP, RPAIR, CONT3, VRINT, VNEG, HIDX, HVR, STRUCT, RVNEG, NTYPES };
static struct layout types[NTYPES];

static void make_types(void)
{
    MPI_Datatype pair, vneg;
    struct layout *l = types;
    /* one int, the next element one int lower: count n reverses n ints */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, -I, &l[RINT].t));
    l[RINT] = (struct layout){"resized(int, 0, -4)", l[RINT].t, 1, {0}, -1, 1};
    CHECK_SHAPE(l[RINT].t, 4, 0, -4, 0, 4);
    /* a lower bound above the data: lb 8, ub -4 */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 2 * I, -3 * I, &l[RGAP].t));
    l[RGAP] = (struct layout){"resized(int, 8, -12)", l[RGAP].t, 1, {0}, -3, 1};
    CHECK_SHAPE(l[RGAP].t, 4, 8, -12, 0, 4);
    /* one block of two ints whose extent is minus its size: count elements cover one run of memory,
     * but in the reverse order of the packed data, so it is not contiguous */
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_create_resized(pair, 0, -2 * I, &l[RPAIR].t));
    l[RPAIR] = (struct layout){"resized(2 ints, 0, -8)", l[RPAIR].t, 2, {0, 1}, -2, 1};
    CHECK_SHAPE(l[RPAIR].t, 8, 0, -8, 0, 8);
    CHECK_MPI(MPI_Type_free(&pair));
    /* Built on a negative extent: lb is the lowest lb marker, ub the highest ub marker (ub of one
     * copy is 4 bytes below its data), so the extent is 1 int and elements overlap. */
    CHECK_MPI(MPI_Type_contiguous(3, l[RINT].t, &l[CONT3].t));
    l[CONT3] = (struct layout){"contiguous(3, rint)", l[CONT3].t, 3, {0, -1, -2}, 1, 0};
    CHECK_SHAPE(l[CONT3].t, 12, -8, 4, -8, 12);
    CHECK_MPI(MPI_Type_vector(3, 2, 4, l[RINT].t, &l[VRINT].t));
    l[VRINT] = (struct layout){"vector(3, 2, 4, rint)", l[VRINT].t, 6, {0, -1, -4, -5, -8, -9}, 8, 0};
    CHECK_SHAPE(l[VRINT].t, 24, -36, 32, -36, 40);
    /* a negative stride on an ordinary type */
    CHECK_MPI(MPI_Type_vector(3, 2, -4, MPI_INT, &l[VNEG].t));
    l[VNEG] = (struct layout){"vector(3, 2, -4, int)", l[VNEG].t, 6, {0, 1, -4, -3, -8, -7}, 10, 1};
    CHECK_SHAPE(l[VNEG].t, 24, -32, 40, -32, 40);
    const int hbl[3] = {2, 1, 3};
    const MPI_Aint hd[3] = {4 * I, -2 * I, -10 * I};
    CHECK_MPI(MPI_Type_create_hindexed(3, hbl, hd, MPI_INT, &l[HIDX].t));
    l[HIDX] = (struct layout){"hindexed({2,1,3}, {16,-8,-40}, int)", l[HIDX].t, 6, {4, 5, -2, -10, -9, -8}, 16, 1};
    CHECK_SHAPE(l[HIDX].t, 24, -40, 64, -40, 64);
    CHECK_MPI(MPI_Type_create_hvector(3, 1, -6 * I, l[RINT].t, &l[HVR].t));
    l[HVR] = (struct layout){"hvector(3, 1, -24, rint)", l[HVR].t, 3, {0, -6, -12}, 11, 1};
    CHECK_SHAPE(l[HVR].t, 12, -48, 44, -48, 52);
    /* every member carries explicit bounds, so MPICH and Open MPI agree on them */
    const int sbl[2] = {2, 1};
    const MPI_Aint sd[2] = {3 * I, -4 * I};
    const MPI_Datatype sty[2] = {l[RINT].t, l[RINT].t};
    CHECK_MPI(MPI_Type_create_struct(2, sbl, sd, sty, &l[STRUCT].t));
    l[STRUCT] = (struct layout){"struct({2,1}, {12,-16}, rint)", l[STRUCT].t, 3, {3, 2, -4}, 6, 0};
    CHECK_SHAPE(l[STRUCT].t, 12, -16, 24, -16, 32);
    /* the vector above, its elements walking backwards 10 ints apart */
    CHECK_MPI(MPI_Type_vector(3, 2, -4, MPI_INT, &vneg));
    CHECK_MPI(MPI_Type_create_resized(vneg, 0, -10 * I, &l[RVNEG].t));
    l[RVNEG] = (struct layout){"resized(vneg, 0, -40)", l[RVNEG].t, 6, {0, 1, -4, -3, -8, -7}, -10, 1};
    CHECK_SHAPE(l[RVNEG].t, 24, 0, -40, -32, 40);
    CHECK_MPI(MPI_Type_free(&vneg));
    for (int i = 0; i < NTYPES; i++)
        l[i].t = committed(l[i].t);
}

/* Shapes MPICH and Open MPI agree on that no element loop tests. */
static void more_shapes(void)
{
    MPI_Datatype t, u, d;
    /* two copies of a type of extent -4: lb markers at 0 and -4, ub markers at -4 and -8 */
    CHECK_MPI(MPI_Type_contiguous(2, types[RINT].t, &t));
    CHECK_SHAPE(t, 8, -4, 0, -4, 8);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_resized(MPI_DOUBLE, 8, -16, &t));
    CHECK_SHAPE(t, 8, 8, -16, 0, 8);
    MPI_Aint lb = 0, ext = 0;
    CHECK_MPI(MPI_Type_dup(t, &u)); /* a duplicate keeps the bounds */
    CHECK_MPI(MPI_Type_get_extent(u, &lb, &ext));
    CHECK_EQ(8, lb);
    CHECK_EQ(-16, ext);
    /* resizing a negative type back to a positive extent */
    CHECK_MPI(MPI_Type_create_resized(u, 0, 8, &d));
    CHECK_SHAPE(d, 8, 0, 8, 0, 8);
    CHECK_MPI(MPI_Type_free(&d));
    CHECK_MPI(MPI_Type_free(&u));
    CHECK_MPI(MPI_Type_free(&t));
    /* an empty count of a negative type adds nothing */
    CHECK_MPI(MPI_Type_contiguous(0, types[RINT].t, &t));
    CHECK_SHAPE(t, 0, 0, 0, 0, 0);
    CHECK_MPI(MPI_Type_free(&t));
}

/* ---------------------------------------------------------------------------------- pack, p2p */

static void pack_unpack(const struct layout *l, int count)
{
    struct arena in, out;
    arena_make(&in, l, count, rank);
    int bytes = -1;
    CHECK_MPI(MPI_Pack_size(count, l->t, MPI_COMM_WORLD, &bytes));
    CHECK_EQ(count * l->n * (int)sizeof(int), bytes);
    int *packed = tu_malloc((size_t)bytes + sizeof(int));
    packed[count * l->n] = 12345;
    int pos = 0;
    CHECK_MPI(MPI_Pack(in.base, count, l->t, packed, bytes + (int)sizeof(int), &pos, MPI_COMM_WORLD));
    CHECK_EQ(bytes, pos);
    for (int k = 0; k < count; k++)
        for (int j = 0; j < l->n; j++)
            CHECK_MSG(packed[k * l->n + j] == val(rank, at(l, k, j)), "MPI_Pack of %d %s: element %d int %d: %d",
                      count, l->name, k, j, packed[k * l->n + j]);
    CHECK_EQ(12345, packed[count * l->n]);
    if (l->disjoint) {
        arena_make(&out, l, count, -1);
        pos = 0;
        CHECK_MPI(MPI_Unpack(packed, bytes, &pos, out.base, count, l->t, MPI_COMM_WORLD));
        CHECK_EQ(bytes, pos);
        check_received(&out, l, count, rank, l, count * l->n);
        free(out.mem);
    }
    free(packed);
    free(in.mem);
}

/* Contiguous ints into count elements of l, then l to l (sent from sbase). */
static void p2p_into(const struct layout *l, int count, const int *sbase)
{
    struct arena r;
    int n = count * l->n, got = -1;
    int *back = tu_malloc((size_t)n * sizeof(int));
    MPI_Status st;
    for (int i = 0; i < n; i++)
        back[i] = val(rank, i);
    arena_make(&r, l, count, -1);
    exchange(back, n, MPI_INT, r.base, count, l->t, 2, &st);
    check_received(&r, l, count, peer, NULL, n);
    CHECK_MPI(MPI_Get_count(&st, l->t, &got));
    CHECK_EQ(count, got);
    CHECK_MPI(MPI_Get_elements(&st, l->t, &got));
    CHECK_EQ(n, got);
    free(r.mem);
    arena_make(&r, l, count, -1);
    exchange(sbase, count, l->t, r.base, count, l->t, 3, NULL);
    check_received(&r, l, count, peer, l, n);
    free(r.mem);
    free(back);
}

/* count elements of l to the peer's contiguous ints; for a type a receive may use, the other ways too. */
static void p2p(const struct layout *l, int count)
{
    struct arena s;
    int n = count * l->n;
    int *flat = tu_malloc((size_t)n * sizeof(int));
    MPI_Status st;
    arena_make(&s, l, count, rank);
    exchange(s.base, count, l->t, flat, n, MPI_INT, 1, &st);
    for (int i = 0; i < n; i++)
        CHECK_MSG(flat[i] == val(peer, at(l, i / l->n, i % l->n)), "%d %s to ints: int %d is %d", count, l->name,
                  i, flat[i]);
    int got = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &got));
    CHECK_EQ(n, got);
    if (l->disjoint)
        p2p_into(l, count, s.base);
    free(s.mem);
    free(flat);
}

/* A message that ends inside an element: 5 ints into 3 elements of two ints walking backwards. */
static void partial(void)
{
    const struct layout *l = &types[RPAIR];
    struct arena r;
    int five[5];
    MPI_Status st;
    for (int i = 0; i < 5; i++)
        five[i] = val(rank, i);
    arena_make(&r, l, 3, -1);
    exchange(five, 5, MPI_INT, r.base, 3, l->t, 4, &st);
    check_received(&r, l, 3, peer, NULL, 5);
    int got = 0;
    CHECK_MPI(MPI_Get_count(&st, l->t, &got));
    CHECK_EQ(MPI_UNDEFINED, got);
    CHECK_MPI(MPI_Get_elements(&st, l->t, &got));
    CHECK_EQ(5, got);
    free(r.mem);
}

/* 1 Mi doubles reversed in flight, both ways at once: far past any eager limit. */
static void large(void)
{
    const int n = 1 << 20;
    MPI_Datatype rev;
    CHECK_MPI(MPI_Type_create_resized(MPI_DOUBLE, 0, -(MPI_Aint)sizeof(double), &rev));
    rev = committed(rev);
    double *a = tu_malloc((size_t)n * sizeof(double)), *b = tu_malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        a[i] = rank * 1e7 + i, b[i] = -1;
    exchange(a + n - 1, n, rev, b, n, MPI_DOUBLE, 5, NULL);
    for (int i = 0; i < n; i++)
        CHECK_MSG(b[i] == peer * 1e7 + (n - 1 - i), "large: double %d is %g", i, b[i]);
    for (int i = 0; i < n; i++)
        b[i] = -1;
    exchange(a, n, MPI_DOUBLE, b + n - 1, n, rev, 6, NULL);
    for (int i = 0; i < n; i++)
        CHECK_MSG(b[i] == peer * 1e7 + (n - 1 - i), "large, reversed on receipt: double %d is %g", i, b[i]);
    /* both sides reversed: the order survives */
    exchange(a + n - 1, n, rev, b + n - 1, n, rev, 7, NULL);
    for (int i = 0; i < n; i++)
        CHECK_MSG(b[i] == peer * 1e7 + i, "large, reversed twice: double %d is %g", i, b[i]);
    CHECK_MPI(MPI_Type_free(&rev));
    free(a);
    free(b);
}

/* The outgoing data is read through the type before the incoming data lands through it. */
static void sendrecv_replace(void)
{
    const struct layout *l = &types[VNEG];
    struct arena a;
    arena_make(&a, l, 2, rank);
    CHECK_MPI(MPI_Sendrecv_replace(a.base, 2, l->t, peer, 8, peer, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < l->n; j++)
            CHECK_EQ(val(peer, at(l, k, j)), a.base[at(l, k, j)]);
    free(a.mem);
}

/* ---------------------------------------------------------------------------------- collectives */

static void bcast(void)
{
    const struct layout *l = &types[HVR];
    struct arena a;
    arena_make(&a, l, 3, rank == 0 ? 0 : -1);
    CHECK_MPI(MPI_Bcast(a.base, 3, l->t, 0, MPI_COMM_WORLD));
    if (rank != 0)
        check_received(&a, l, 3, 0, l, 3 * l->n);
    free(a.mem);
}

/* Rank r's n ints, gathered into elements of extent -1 int from top. */
static void check_blocks(const int *top, int n)
{
    for (int r = 0; r < size; r++)
        for (int k = 0; k < n; k++)
            CHECK_MSG(top[-(r * n + k)] == val(r, k), "gather: rank %d int %d is %d", r, k, top[-(r * n + k)]);
}

/* Block i of a gather starts i * count extents from recvbuf: with a negative extent, each lower. */
static void gathers(void)
{
    const int n = 3;
    const struct layout *l = &types[RINT];
    int mine[3] = {val(rank, 0), val(rank, 1), val(rank, 2)};
    int *all = tu_malloc((size_t)(n * size + 2) * sizeof(int)), *top = all + n * size;
    for (int i = 0; i < n * size + 2; i++)
        all[i] = -1;
    CHECK_MPI(MPI_Gather(mine, n, MPI_INT, top, n, l->t, 0, MPI_COMM_WORLD));
    if (rank == 0)
        check_blocks(top, n);
    CHECK(all[0] == -1 && top[1] == -1);
#ifndef OPEN_MPI /* Open MPI 4.1 fails this at np 3 with MPI_ERR_INTERN */
    for (int i = 0; i < n * size + 2; i++)
        all[i] = -1;
    for (int k = 0; k < n; k++) /* in place: this rank's block is already where it belongs */
        top[-(rank * n + k)] = mine[k];
    CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, top, n, l->t, MPI_COMM_WORLD));
    check_blocks(top, n);
#endif
    CHECK(all[0] == -1 && top[1] == -1);
    /* with displacements: rank r's block at 4 * r + 1 elements, one int between blocks left alone */
    int *counts = tu_malloc((size_t)size * sizeof(int)), *displs = tu_malloc((size_t)size * sizeof(int));
    int span = 4 * size + 1;
    int *v = tu_malloc((size_t)span * sizeof(int)), *vtop = v + span - 1;
    for (int r = 0; r < size; r++)
        counts[r] = n, displs[r] = 4 * r + 1;
    for (int i = 0; i < span; i++)
        v[i] = -1;
    CHECK_MPI(MPI_Gatherv(mine, n, MPI_INT, vtop, counts, displs, l->t, size - 1, MPI_COMM_WORLD));
    if (rank == size - 1)
        for (int j = 0; j < span; j++) {
            int want = j % 4 ? val(j / 4, j % 4 - 1) : -1;
            CHECK_MSG(vtop[-j] == want, "gatherv: int %d below recvbuf is %d, expected %d", j, vtop[-j], want);
        }
    free(v);
    free(counts);
    free(displs);
    /* and back: the root scatters its reversed array, block r to rank r */
    int got[3] = {-1, -1, -1};
    for (int i = 0; i < n * size; i++)
        all[i + 1] = val(0, n * size - 1 - i); /* top[-j] holds val(0, j) */
    CHECK_MPI(MPI_Scatter(top, n, l->t, got, n, MPI_INT, 0, MPI_COMM_WORLD));
    for (int k = 0; k < n; k++)
        CHECK_EQ(val(0, rank * n + k), got[k]);
    free(all);
}

/* A predefined op over a derived type: MPICH and Open MPI refuse it (MPI_ERR_OP); skiff reduces the
 * basic elements, staged through a copy when they are not contiguous (as here, walking backwards). A
 * library that accepts must be right; one that refuses must leave recvbuf alone. */
static void reductions(void)
{
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    const struct layout *l = &types[RINT];
    int in[4], out[4] = {-1, -1, -1, -1};
    for (int i = 0; i < 4; i++)
        in[i] = rank + 10 * i; /* element k is in[3 - k] */
    int rc = MPI_Allreduce(in + 3, out + 3, 4, l->t, MPI_SUM, c);
#ifdef SKIFF_MPI
    CHECK_EQ(MPI_SUCCESS, rc);
#endif
    for (int i = 0; i < 4; i++)
        CHECK_MSG(out[i] == (rc == MPI_SUCCESS ? size * (size - 1) / 2 + 10 * size * i : -1),
                  "allreduce (rc %d): int %d is %d", rc, i, out[i]);
    int acc[4] = {1, 2, 3, 4};
    /* no communicator: MPI-4 raises the error on MPI_COMM_SELF, older versions on MPI_COMM_WORLD */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    rc = MPI_Reduce_local(in + 3, acc + 3, 3, l->t, MPI_SUM);
    CHECK_EQ(1, acc[0]);
    for (int i = 1; i < 4; i++)
        CHECK_EQ(rc == MPI_SUCCESS ? i + 1 + in[i] : i + 1, acc[i]);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Comm_free(&c));
}

#ifdef SKIFF_MPI
/* What skiff says about such types: their numbers signed, and packed bytes that would land on the data
 * refused (the highest and lowest data bytes are those of the first and the last element swapped). */
static void skiff_checks(void)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0, rc, cls = -1;
    MPI_Datatype t;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, -I, &t));
    int x[2] = {1, 2};
    rc = MPI_Send(x + 1, 2, t, rank, 9, MPI_COMM_WORLD);
    CHECK_MPI(MPI_Error_string(rc, msg, &len));
    CHECK_MSG(strstr(msg, "not committed") && strstr(msg, "extent -4)"), "message: %s", msg);
    CHECK_MPI(MPI_Type_free(&t));
    const struct layout *l = &types[RINT];
    struct arena a;
    arena_make(&a, l, 4, rank);
    int pos = 0;
    rc = MPI_Pack(a.base, 4, l->t, a.base - 3, 16, &pos, MPI_COMM_WORLD);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK_EQ(MPI_ERR_BUFFER, cls);
    CHECK_EQ(0, pos);
    rc = MPI_Pack(a.base, 4, l->t, a.base + 1, 16, &pos, MPI_COMM_WORLD); /* just above: fine */
    CHECK_MPI(rc);
    CHECK_EQ(val(rank, 0), a.base[1]);
    CHECK_EQ(val(rank, -3), a.base[4]);
    free(a.mem);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}
#endif

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    rank = tu_rank();
    size = tu_size();
    peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    make_types();
    more_shapes();
    for (int i = 0; i < NTYPES; i++) {
        for (int count = 1; count <= 4; count += 3) {
            pack_unpack(&types[i], count);
            p2p(&types[i], count);
        }
    }
    partial();
    large();
    sendrecv_replace();
    bcast();
    gathers();
    reductions();
#ifdef SKIFF_MPI
    skiff_checks();
#endif
    for (int i = 0; i < NTYPES; i++)
        CHECK_MPI(MPI_Type_free(&types[i].t));
    return tu_finish("dt_negative");
}
