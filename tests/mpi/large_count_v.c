/* The MPI-4 large-count (_c) forms of the v and w collectives and of the array type constructors:
 * Gatherv_c, Scatterv_c, Allgatherv_c, Alltoallv_c, Alltoallw_c (each blocking, I... and _init),
 * Neighbor_allgatherv_c, Neighbor_alltoallv_c, Neighbor_alltoallw_c (the same three ways), on
 * intercommunicators too, and Type_create_subarray_c, Type_create_darray_c.
 *
 * Blocks of different lengths at displacements with gaps, contiguous and strided (non-contiguous) datatypes,
 * MPI_IN_PLACE; every result is checked element by element against what the call must produce, gaps
 * included, and the int form is run on the same arguments and checked the same way. Displacements beyond
 * INT_MAX (which only the _c forms can express) are taken whole: the buffer argument is moved back by as
 * much, so the data lands in ordinary memory. The array constructors are compared with their int forms
 * (size, extent, packed bytes), decoded with MPI_Type_get_envelope_c/get_contents_c (MPI-4.1 5.1.13: a _c
 * constructor's counts come back as large counts), and built with sizes beyond INT_MAX.
 * MPICH 4.0 has these calls and passes this test; Open MPI 4.1 (MPI 3.1) has none, so there it only says so. */
#include "testutil.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if MPI_VERSION >= 4

#define MAXP 8
#define SPAN 512
#define GAP (-7) /* what the places no block covers hold, before and after */
#define BIG ((MPI_Count)3 << 31) /* a displacement no int holds */

static int rank, size;
static MPI_Datatype spaced; /* one int in 8 bytes: not contiguous, so blocks are packed and unpacked */

enum form { BLOCKING, NONBLOCKING, PERSISTENT };

/* Ends a nonblocking call, or starts and ends a persistent one. */
static void complete(enum form f, MPI_Request *r)
{
    if (f == BLOCKING)
        return;
    if (f == PERSISTENT)
        CHECK_MPI(MPI_Start(r));
    CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
    if (f == PERSISTENT)
        CHECK_MPI(MPI_Request_free(r));
}

static void gaps(int *buf, int n)
{
    for (int i = 0; i < n; i++)
        buf[i] = GAP;
}

/* buf must equal want everywhere (blocks and gaps). */
static void check_all(const int *buf, const int *want, int n, const char *call, int variant)
{
    for (int i = 0; i < n; i++)
        CHECK_MSG(buf[i] == want[i], "%s (variant %d, np %d, rank %d): element %d is %d, expected %d", call, variant,
                  size, rank, i, buf[i], want[i]);
}

/* Rank k's block in the v calls: k + 1 elements, at k(k+1)/2 + 2k elements (gaps of 2). */
static int vcount(int k)
{
    return k + 1;
}

static int vdispl(int k)
{
    return k * (k + 1) / 2 + 2 * k;
}

static int value(int from, int to, int i)
{
    return from * 1000 + to * 10 + i;
}

/* The receive (or root) side's arrays in both forms. */
struct varr {
    int icnt[MAXP], idsp[MAXP];
    MPI_Count lcnt[MAXP];
    MPI_Aint ldsp[MAXP];
};

static void varr_fill(struct varr *a, int n, int (*cnt)(int), int (*dsp)(int), MPI_Aint shift)
{
    for (int k = 0; k < n; k++) {
        a->icnt[k] = cnt(k);
        a->idsp[k] = dsp(k);
        a->lcnt[k] = cnt(k);
        a->ldsp[k] = dsp(k) + shift;
    }
}

/* A buffer moved back by shift elements of ext bytes: displacements that many larger find buf again. */
static void *moved_back(void *buf, MPI_Aint shift, MPI_Aint ext)
{
    return (void *)((uintptr_t)buf - (uintptr_t)shift * (uintptr_t)ext);
}

/* ---------------------------------------------------------------- rooted and all-to-all v calls */

/* stride 1: MPI_INT blocks; 2: the spaced type, every other int. */
static MPI_Datatype vtype(int stride)
{
    return stride == 1 ? MPI_INT : spaced;
}

/* MPI_IN_PLACE: the root's own block is already in its place. */
static void own_block(int *buf, int stride, int root, int in_place)
{
    for (int i = 0; in_place && rank == root && i < vcount(rank); i++)
        buf[stride * (vdispl(rank) + i)] = value(rank, root, i);
}

static void gatherv(int root, int stride, int in_place, int far)
{
    static int ref[SPAN], got[SPAN], want[SPAN];
    int send[MAXP + 1];
    struct varr a;
    MPI_Aint shift = far ? (MPI_Aint)BIG : 0;
    varr_fill(&a, size, vcount, vdispl, shift);
    for (int i = 0; i < vcount(rank); i++)
        send[i] = value(rank, root, i);
    gaps(want, SPAN);
    for (int k = 0; k < size; k++)
        for (int i = 0; i < vcount(k); i++)
            want[stride * (vdispl(k) + i)] = value(k, root, i);
    int variant = root * 8 + stride * 4 + in_place * 2 + far;
    const void *sb = in_place && rank == root ? MPI_IN_PLACE : send;
    MPI_Datatype t = vtype(stride);
    if (!far) {
        gaps(ref, SPAN);
        own_block(ref, stride, root, in_place);
        CHECK_MPI(MPI_Gatherv(sb, vcount(rank), MPI_INT, ref, a.icnt, a.idsp, t, root, MPI_COMM_WORLD));
        if (rank == root)
            check_all(ref, want, SPAN, "Gatherv", variant);
    }
    for (enum form f = BLOCKING; f <= PERSISTENT; f++) {
        MPI_Request r;
        gaps(got, SPAN);
        own_block(got, stride, root, in_place);
        void *rb = moved_back(got, shift, stride * (MPI_Aint)sizeof(int));
        if (f == BLOCKING)
            CHECK_MPI(MPI_Gatherv_c(sb, vcount(rank), MPI_INT, rb, a.lcnt, a.ldsp, t, root, MPI_COMM_WORLD));
        else if (f == NONBLOCKING)
            CHECK_MPI(MPI_Igatherv_c(sb, vcount(rank), MPI_INT, rb, a.lcnt, a.ldsp, t, root, MPI_COMM_WORLD, &r));
        else
            CHECK_MPI(MPI_Gatherv_init_c(sb, vcount(rank), MPI_INT, rb, a.lcnt, a.ldsp, t, root, MPI_COMM_WORLD,
                                         MPI_INFO_NULL, &r));
        complete(f, &r);
        if (rank == root) {
            char name[32];
            snprintf(name, sizeof name, "%sGatherv%s_c", f == NONBLOCKING ? "I" : "", f == PERSISTENT ? "_init" : "");
            check_all(got, want, SPAN, name, variant);
        }
    }
}

static void scatterv(int root, int stride, int in_place)
{
    static int all[SPAN];
    int ref[MAXP + 3], got[MAXP + 3], want[MAXP + 3];
    struct varr a;
    varr_fill(&a, size, vcount, vdispl, 0);
    gaps(all, SPAN);
    for (int k = 0; k < size; k++)
        for (int i = 0; i < vcount(k); i++)
            all[stride * (vdispl(k) + i)] = value(root, k, i);
    gaps(want, MAXP + 3);
    for (int i = 0; i < vcount(rank); i++)
        want[i] = value(root, rank, i);
    int variant = root * 8 + stride * 4 + in_place * 2, me = in_place && rank == root;
    MPI_Datatype t = vtype(stride);
    gaps(ref, MAXP + 3);
    CHECK_MPI(MPI_Scatterv(all, a.icnt, a.idsp, t, me ? MPI_IN_PLACE : ref, vcount(rank), MPI_INT, root,
                           MPI_COMM_WORLD));
    if (!me)
        check_all(ref, want, MAXP + 3, "Scatterv", variant);
    for (enum form f = BLOCKING; f <= PERSISTENT; f++) {
        MPI_Request r;
        gaps(got, MAXP + 3);
        void *rb = me ? MPI_IN_PLACE : got;
        if (f == BLOCKING)
            CHECK_MPI(MPI_Scatterv_c(all, a.lcnt, a.ldsp, t, rb, vcount(rank), MPI_INT, root, MPI_COMM_WORLD));
        else if (f == NONBLOCKING)
            CHECK_MPI(MPI_Iscatterv_c(all, a.lcnt, a.ldsp, t, rb, vcount(rank), MPI_INT, root, MPI_COMM_WORLD, &r));
        else
            CHECK_MPI(MPI_Scatterv_init_c(all, a.lcnt, a.ldsp, t, rb, vcount(rank), MPI_INT, root, MPI_COMM_WORLD,
                                          MPI_INFO_NULL, &r));
        complete(f, &r);
        if (!me)
            check_all(got, want, MAXP + 3, "Scatterv_c", variant * 4 + (int)f);
    }
}

static void allgatherv(int stride, int in_place)
{
    static int ref[SPAN], got[SPAN], want[SPAN];
    int send[MAXP + 1];
    struct varr a;
    varr_fill(&a, size, vcount, vdispl, 0);
    for (int i = 0; i < vcount(rank); i++)
        send[i] = value(rank, 9, i);
    gaps(want, SPAN);
    for (int k = 0; k < size; k++)
        for (int i = 0; i < vcount(k); i++)
            want[stride * (vdispl(k) + i)] = value(k, 9, i);
    int variant = stride * 4 + in_place * 2;
    const void *sb = in_place ? MPI_IN_PLACE : send;
    MPI_Datatype t = vtype(stride);
    gaps(ref, SPAN);
    for (int i = 0; in_place && i < vcount(rank); i++)
        ref[stride * (vdispl(rank) + i)] = value(rank, 9, i);
    CHECK_MPI(MPI_Allgatherv(sb, vcount(rank), MPI_INT, ref, a.icnt, a.idsp, t, MPI_COMM_WORLD));
    check_all(ref, want, SPAN, "Allgatherv", variant);
    for (enum form f = BLOCKING; f <= PERSISTENT; f++) {
        MPI_Request r;
        gaps(got, SPAN);
        for (int i = 0; in_place && i < vcount(rank); i++)
            got[stride * (vdispl(rank) + i)] = value(rank, 9, i);
        if (f == BLOCKING)
            CHECK_MPI(MPI_Allgatherv_c(sb, vcount(rank), MPI_INT, got, a.lcnt, a.ldsp, t, MPI_COMM_WORLD));
        else if (f == NONBLOCKING)
            CHECK_MPI(MPI_Iallgatherv_c(sb, vcount(rank), MPI_INT, got, a.lcnt, a.ldsp, t, MPI_COMM_WORLD, &r));
        else
            CHECK_MPI(MPI_Allgatherv_init_c(sb, vcount(rank), MPI_INT, got, a.lcnt, a.ldsp, t, MPI_COMM_WORLD,
                                            MPI_INFO_NULL, &r));
        complete(f, &r);
        check_all(got, want, SPAN, "Allgatherv_c", variant * 4 + (int)f);
    }
}

/* All-to-all: ranks p and q trade (p + q) % 3 + 1 elements each way; a block is at its peer's slot of 5
 * elements on the send side, of 6 on the receive side. */
static int acount(int peer)
{
    return (rank + peer) % 3 + 1;
}

static int sslot(int k)
{
    return 5 * k;
}

static int rslot(int k)
{
    return 6 * k + 1;
}

static void alltoallv(int stride, int in_place)
{
    static int send[SPAN], ref[SPAN], got[SPAN], want[SPAN];
    struct varr s, r;
    varr_fill(&s, size, acount, sslot, 0);
    varr_fill(&r, size, acount, rslot, 0);
    gaps(send, SPAN);
    gaps(want, SPAN);
    for (int k = 0; k < size; k++)
        for (int i = 0; i < acount(k); i++) {
            send[sslot(k) + i] = value(rank, k, i);
            want[stride * (rslot(k) + i)] = value(k, rank, i);
        }
    int variant = stride * 4 + in_place * 2;
    MPI_Datatype t = vtype(stride);
    const void *sb = in_place ? MPI_IN_PLACE : send;
    /* In place, each block is sent from where its answer is to arrive. */
    static int start[SPAN];
    gaps(start, SPAN);
    for (int k = 0; in_place && k < size; k++)
        for (int i = 0; i < acount(k); i++)
            start[stride * (rslot(k) + i)] = value(rank, k, i);
    memcpy(ref, start, sizeof ref);
    CHECK_MPI(MPI_Alltoallv(sb, s.icnt, s.idsp, MPI_INT, ref, r.icnt, r.idsp, t, MPI_COMM_WORLD));
    check_all(ref, want, SPAN, "Alltoallv", variant);
    for (enum form f = BLOCKING; f <= PERSISTENT; f++) {
        MPI_Request q;
        memcpy(got, start, sizeof got);
        if (f == BLOCKING)
            CHECK_MPI(MPI_Alltoallv_c(sb, s.lcnt, s.ldsp, MPI_INT, got, r.lcnt, r.ldsp, t, MPI_COMM_WORLD));
        else if (f == NONBLOCKING)
            CHECK_MPI(MPI_Ialltoallv_c(sb, s.lcnt, s.ldsp, MPI_INT, got, r.lcnt, r.ldsp, t, MPI_COMM_WORLD, &q));
        else
            CHECK_MPI(MPI_Alltoallv_init_c(sb, s.lcnt, s.ldsp, MPI_INT, got, r.lcnt, r.ldsp, t, MPI_COMM_WORLD,
                                           MPI_INFO_NULL, &q));
        complete(f, &q);
        check_all(got, want, SPAN, "Alltoallv_c", variant * 4 + (int)f);
    }
}

/* Alltoallw: a type per peer (the odd peers' blocks spaced), byte displacements; far: every receive
 * displacement BIG bytes larger, the buffer moved back by as much. */
static void alltoallw(int in_place, int far)
{
    static int send[SPAN], ref[SPAN], got[SPAN], want[SPAN], start[SPAN];
    int icnt[MAXP], isd[MAXP], ird[MAXP];
    MPI_Count lcnt[MAXP];
    MPI_Aint lsd[MAXP], lrd[MAXP], shift = far ? (MPI_Aint)BIG : 0;
    MPI_Datatype st[MAXP], rt[MAXP];
    gaps(send, SPAN);
    gaps(want, SPAN);
    gaps(start, SPAN);
    for (int k = 0; k < size; k++) {
        int stride = k % 2 ? 2 : 1;
        icnt[k] = acount(k);
        lcnt[k] = acount(k);
        isd[k] = (int)sizeof(int) * sslot(k);
        lsd[k] = isd[k];
        ird[k] = (int)sizeof(int) * 2 * rslot(k);
        lrd[k] = ird[k] + shift;
        st[k] = MPI_INT;
        rt[k] = vtype(stride);
        for (int i = 0; i < acount(k); i++) {
            send[sslot(k) + i] = value(rank, k, i);
            want[2 * rslot(k) + stride * i] = value(k, rank, i);
            if (in_place)
                start[2 * rslot(k) + stride * i] = value(rank, k, i);
        }
    }
    const void *sb = in_place ? MPI_IN_PLACE : send;
    int variant = in_place * 2 + far;
    if (in_place) /* MPI_IN_PLACE: the send side takes the receive side's types */
        for (int k = 0; k < size; k++)
            st[k] = rt[k];
    if (!far) {
        memcpy(ref, start, sizeof ref);
        CHECK_MPI(MPI_Alltoallw(sb, icnt, isd, st, ref, icnt, ird, rt, MPI_COMM_WORLD));
        check_all(ref, want, SPAN, "Alltoallw", variant);
    }
    for (enum form f = BLOCKING; f <= PERSISTENT; f++) {
        MPI_Request q;
        memcpy(got, start, sizeof got);
        void *rb = moved_back(got, shift, 1);
        if (f == BLOCKING)
            CHECK_MPI(MPI_Alltoallw_c(sb, lcnt, lsd, st, rb, lcnt, lrd, rt, MPI_COMM_WORLD));
        else if (f == NONBLOCKING)
            CHECK_MPI(MPI_Ialltoallw_c(sb, lcnt, lsd, st, rb, lcnt, lrd, rt, MPI_COMM_WORLD, &q));
        else
            CHECK_MPI(MPI_Alltoallw_init_c(sb, lcnt, lsd, st, rb, lcnt, lrd, rt, MPI_COMM_WORLD, MPI_INFO_NULL, &q));
        complete(f, &q);
        check_all(got, want, SPAN, "Alltoallw_c", variant * 4 + (int)f);
    }
}

/* ---------------------------------------------------------------- neighbourhoods */

/* On a ring the neighbours are (left, right): block 0 comes from the left neighbour, which sent it to its
 * right; a process sends 2 elements to its left and 3 to its right. Below 3 processes the ring is open
 * (the ends' outer neighbours MPI_PROC_NULL): a process that is its neighbour's neighbour on both sides
 * pairs its messages differently in MPICH 4.0. */
static void neighbors(int stride)
{
    MPI_Comm ring;
    int periodic = size >= 3, dims[1] = {size}, periods[1] = {periodic};
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int left = rank > 0 || periodic ? (rank + size - 1) % size : MPI_PROC_NULL;
    int right = rank < size - 1 || periodic ? (rank + 1) % size : MPI_PROC_NULL;
    MPI_Datatype t = vtype(stride);
    static int ref[SPAN], got[SPAN], want[SPAN];
    int send[16];
    /* allgatherv: 3 elements each, the right neighbour's block first (displacements 0 and 5) */
    int ic[2] = {3, 3}, id[2] = {5, 0};
    MPI_Count lc[2] = {3, 3};
    MPI_Aint ld[2] = {5, 0};
    for (int i = 0; i < 3; i++)
        send[i] = value(rank, 7, i);
    gaps(want, SPAN);
    for (int i = 0; i < 3; i++) {
        if (left != MPI_PROC_NULL)
            want[stride * (5 + i)] = value(left, 7, i);
        if (right != MPI_PROC_NULL)
            want[stride * i] = value(right, 7, i);
    }
    gaps(ref, SPAN);
    CHECK_MPI(MPI_Neighbor_allgatherv(send, 3, MPI_INT, ref, ic, id, t, ring));
    check_all(ref, want, SPAN, "Neighbor_allgatherv", stride);
    for (enum form f = BLOCKING; f <= PERSISTENT; f++) {
        MPI_Request r;
        gaps(got, SPAN);
        if (f == BLOCKING)
            CHECK_MPI(MPI_Neighbor_allgatherv_c(send, 3, MPI_INT, got, lc, ld, t, ring));
        else if (f == NONBLOCKING)
            CHECK_MPI(MPI_Ineighbor_allgatherv_c(send, 3, MPI_INT, got, lc, ld, t, ring, &r));
        else
            CHECK_MPI(MPI_Neighbor_allgatherv_init_c(send, 3, MPI_INT, got, lc, ld, t, ring, MPI_INFO_NULL, &r));
        complete(f, &r);
        check_all(got, want, SPAN, "Neighbor_allgatherv_c", stride * 4 + (int)f);
    }
    /* alltoallv: 2 elements left (at 0), 3 right (at 4); received 3 from the left (at 8), 2 from the right
     * (at 1) */
    int sc[2] = {2, 3}, sd[2] = {0, 4}, rc[2] = {3, 2}, rd[2] = {8, 1};
    MPI_Count lsc[2] = {2, 3}, lrc[2] = {3, 2};
    MPI_Aint lsd[2] = {0, 4}, lrd[2] = {8, 1};
    for (int i = 0; i < 2; i++)
        send[i] = value(rank, 0, i);
    for (int i = 0; i < 3; i++)
        send[4 + i] = value(rank, 1, i);
    gaps(want, SPAN);
    for (int i = 0; left != MPI_PROC_NULL && i < 3; i++)
        want[stride * (8 + i)] = value(left, 1, i);
    for (int i = 0; right != MPI_PROC_NULL && i < 2; i++)
        want[stride * (1 + i)] = value(right, 0, i);
    gaps(ref, SPAN);
    CHECK_MPI(MPI_Neighbor_alltoallv(send, sc, sd, MPI_INT, ref, rc, rd, t, ring));
    check_all(ref, want, SPAN, "Neighbor_alltoallv", stride);
    for (enum form f = BLOCKING; f <= PERSISTENT; f++) {
        MPI_Request r;
        gaps(got, SPAN);
        if (f == BLOCKING)
            CHECK_MPI(MPI_Neighbor_alltoallv_c(send, lsc, lsd, MPI_INT, got, lrc, lrd, t, ring));
        else if (f == NONBLOCKING)
            CHECK_MPI(MPI_Ineighbor_alltoallv_c(send, lsc, lsd, MPI_INT, got, lrc, lrd, t, ring, &r));
        else
            CHECK_MPI(MPI_Neighbor_alltoallv_init_c(send, lsc, lsd, MPI_INT, got, lrc, lrd, t, ring, MPI_INFO_NULL,
                                                    &r));
        complete(f, &r);
        check_all(got, want, SPAN, "Neighbor_alltoallv_c", stride * 4 + (int)f);
    }
    /* alltoallw: the same blocks, byte displacements, the left neighbour's block received as t */
    MPI_Aint wsd[2] = {0, 16}, wrd[2] = {(MPI_Aint)sizeof(int) * stride * 8, 4};
    MPI_Datatype wst[2] = {MPI_INT, MPI_INT}, wrt[2] = {t, MPI_INT};
    gaps(want, SPAN);
    for (int i = 0; left != MPI_PROC_NULL && i < 3; i++)
        want[stride * 8 + stride * i] = value(left, 1, i);
    for (int i = 0; right != MPI_PROC_NULL && i < 2; i++)
        want[1 + i] = value(right, 0, i);
    gaps(ref, SPAN);
    CHECK_MPI(MPI_Neighbor_alltoallw(send, sc, wsd, wst, ref, rc, wrd, wrt, ring));
    check_all(ref, want, SPAN, "Neighbor_alltoallw", stride);
    for (enum form f = BLOCKING; f <= PERSISTENT; f++) {
        MPI_Request r;
        gaps(got, SPAN);
        if (f == BLOCKING)
            CHECK_MPI(MPI_Neighbor_alltoallw_c(send, lsc, wsd, wst, got, lrc, wrd, wrt, ring));
        else if (f == NONBLOCKING)
            CHECK_MPI(MPI_Ineighbor_alltoallw_c(send, lsc, wsd, wst, got, lrc, wrd, wrt, ring, &r));
        else
            CHECK_MPI(MPI_Neighbor_alltoallw_init_c(send, lsc, wsd, wst, got, lrc, wrd, wrt, ring, MPI_INFO_NULL,
                                                    &r));
        complete(f, &r);
        check_all(got, want, SPAN, "Neighbor_alltoallw_c", stride * 4 + (int)f);
    }
    CHECK_MPI(MPI_Comm_free(&ring));
}

/* ---------------------------------------------------------------- intercommunicators */

/* Even and odd world ranks as the two groups; the v calls across, each against its int form. */
static void inter(void)
{
    if (size < 2)
        return;
    MPI_Comm half, ic;
    int color = rank % 2;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half));
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 11, &ic));
    int me, rsize;
    CHECK_MPI(MPI_Comm_rank(ic, &me));
    CHECK_MPI(MPI_Comm_remote_size(ic, &rsize));
    struct varr a;
    varr_fill(&a, rsize, vcount, vdispl, 0);
    static int ref[SPAN], got[SPAN];
    int send[MAXP + 1];
    for (int i = 0; i < vcount(me); i++)
        send[i] = value(rank, 5, i);
    /* gatherv to rank 0 of the even group */
    int root = color == 0 ? (me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    gaps(ref, SPAN);
    gaps(got, SPAN);
    CHECK_MPI(MPI_Gatherv(send, vcount(me), MPI_INT, ref, a.icnt, a.idsp, MPI_INT, root, ic));
    CHECK_MPI(MPI_Gatherv_c(send, vcount(me), MPI_INT, got, a.lcnt, a.ldsp, MPI_INT, root, ic));
    check_all(got, ref, SPAN, "Gatherv_c (intercommunicator)", 0);
    if (root == MPI_ROOT)
        for (int k = 0; k < rsize; k++)
            CHECK_EQ(value(2 * k + 1, 5, 0), got[vdispl(k)]);
    /* allgatherv: every process gets the remote group's blocks */
    gaps(ref, SPAN);
    gaps(got, SPAN);
    CHECK_MPI(MPI_Allgatherv(send, vcount(me), MPI_INT, ref, a.icnt, a.idsp, MPI_INT, ic));
    CHECK_MPI(MPI_Allgatherv_c(send, vcount(me), MPI_INT, got, a.lcnt, a.ldsp, MPI_INT, ic));
    check_all(got, ref, SPAN, "Allgatherv_c (intercommunicator)", 0);
    CHECK_EQ(value(1 - color, 5, 0), got[0]);
    /* alltoallv and alltoallw: one element to and from each remote process */
    int icnt[MAXP], isd[MAXP], ird[MAXP], sbuf[MAXP];
    MPI_Count lcnt[MAXP];
    MPI_Aint lsd[MAXP], lrd[MAXP];
    MPI_Datatype ts[MAXP];
    for (int k = 0; k < rsize; k++) {
        icnt[k] = 1;
        lcnt[k] = 1;
        isd[k] = k;
        lsd[k] = k;
        ird[k] = 2 * k;
        lrd[k] = 2 * k;
        sbuf[k] = value(rank, k, 0);
        ts[k] = MPI_INT;
    }
    gaps(ref, SPAN);
    gaps(got, SPAN);
    CHECK_MPI(MPI_Alltoallv(sbuf, icnt, isd, MPI_INT, ref, icnt, ird, MPI_INT, ic));
    CHECK_MPI(MPI_Alltoallv_c(sbuf, lcnt, lsd, MPI_INT, got, lcnt, lrd, MPI_INT, ic));
    check_all(got, ref, SPAN, "Alltoallv_c (intercommunicator)", 0);
    CHECK_EQ(value(1 - color, me, 0), got[0]);
    for (int k = 0; k < rsize; k++) {
        isd[k] *= (int)sizeof(int);
        lsd[k] *= (MPI_Aint)sizeof(int);
        ird[k] *= (int)sizeof(int);
        lrd[k] *= (MPI_Aint)sizeof(int);
    }
    gaps(got, SPAN);
    MPI_Request r;
    CHECK_MPI(MPI_Ialltoallw_c(sbuf, lcnt, lsd, ts, got, lcnt, lrd, ts, ic, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    check_all(got, ref, SPAN, "Ialltoallw_c (intercommunicator)", 0);
    CHECK_MPI(MPI_Comm_free(&ic));
    CHECK_MPI(MPI_Comm_free(&half));
}

/* ---------------------------------------------------------------- array constructors */

/* Two types must lay out the same data: same size, extent, true extent and packed bytes. */
static void same_type(MPI_Datatype c, MPI_Datatype i, const char *what)
{
    CHECK_MPI(MPI_Type_commit(&c));
    CHECK_MPI(MPI_Type_commit(&i));
    MPI_Count sc, si, lc, li, ec, ei, tlc, tli, tec, tei;
    CHECK_MPI(MPI_Type_size_c(c, &sc));
    CHECK_MPI(MPI_Type_size_c(i, &si));
    CHECK_MSG(sc == si, "%s: size %lld, the int form's %lld", what, (long long)sc, (long long)si);
    CHECK_MPI(MPI_Type_get_extent_c(c, &lc, &ec));
    CHECK_MPI(MPI_Type_get_extent_c(i, &li, &ei));
    CHECK_MSG(lc == li && ec == ei, "%s: lb/extent %lld/%lld, the int form's %lld/%lld", what, (long long)lc,
              (long long)ec, (long long)li, (long long)ei);
    CHECK_MPI(MPI_Type_get_true_extent_c(c, &tlc, &tec));
    CHECK_MPI(MPI_Type_get_true_extent_c(i, &tli, &tei));
    CHECK_MSG(tlc == tli && tec == tei, "%s: true lb/extent %lld/%lld, the int form's %lld/%lld", what,
              (long long)tlc, (long long)tec, (long long)tli, (long long)tei);
    static int src[1024];
    static char pc[4096], pi[4096];
    for (int k = 0; k < 1024; k++)
        src[k] = k * 7 + 1;
    int posc = 0, posi = 0;
    CHECK_MPI(MPI_Pack(src, 1, c, pc, (int)sizeof pc, &posc, MPI_COMM_SELF));
    CHECK_MPI(MPI_Pack(src, 1, i, pi, (int)sizeof pi, &posi, MPI_COMM_SELF));
    CHECK_EQ(posi, posc);
    CHECK_MSG(memcmp(pc, pi, (size_t)posi) == 0, "%s: packs other bytes than the int form", what);
}

/* MPI_Type_get_envelope_c/get_contents_c of a type a _c constructor made: ni integers, nl large counts
 * (MPI-4.1 5.1.13), one datatype. */
static void check_contents(MPI_Datatype t, int combiner, int ni, const int *wi, int nl, const MPI_Count *wl,
                           const char *what)
{
    MPI_Count gi, ga, gl, gd;
    int comb;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &gi, &ga, &gl, &gd, &comb));
    CHECK_MSG(comb == combiner && gi == ni && ga == 0 && gl == nl && gd == 1,
              "%s: envelope combiner %d, %lld integers, %lld addresses, %lld large counts, %lld types; expected "
              "%d, %d, 0, %d, 1", what, comb, (long long)gi, (long long)ga, (long long)gl, (long long)gd, combiner, ni,
              nl);
    int ints[64];
    MPI_Count large[64];
    MPI_Datatype old;
    CHECK_MPI(MPI_Type_get_contents_c(t, ni, 0, nl, 1, ints, NULL, large, &old));
    for (int k = 0; k < ni; k++)
        CHECK_MSG(ints[k] == wi[k], "%s: integer %d is %d, expected %d", what, k, ints[k], wi[k]);
    for (int k = 0; k < nl; k++)
        CHECK_MSG(large[k] == wl[k], "%s: large count %d is %lld, expected %lld", what, k, (long long)large[k],
                  (long long)wl[k]);
    CHECK(old == MPI_INT || old == MPI_BYTE);
}

static void arrays(void)
{
    MPI_Datatype c, i;
    /* subarray: a 3 x 4 block at (1, 2) of a 6 x 9 array, both orders */
    const int isz[2] = {6, 9}, isub[2] = {3, 4}, ist[2] = {1, 2};
    const MPI_Count lsz[2] = {6, 9}, lsub[2] = {3, 4}, lst[2] = {1, 2};
    for (int order = 0; order < 2; order++) {
        int o = order ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
        CHECK_MPI(MPI_Type_create_subarray_c(2, lsz, lsub, lst, o, MPI_INT, &c));
        CHECK_MPI(MPI_Type_create_subarray(2, isz, isub, ist, o, MPI_INT, &i));
        check_contents(c, MPI_COMBINER_SUBARRAY, 2, (const int[]){2, o}, 6, (const MPI_Count[]){6, 9, 3, 4, 1, 2},
                       "Type_create_subarray_c");
        same_type(c, i, "Type_create_subarray_c");
        CHECK_MPI(MPI_Type_free(&c));
        CHECK_MPI(MPI_Type_free(&i));
    }
    /* darray: 10 x 7 ints, block rows and cyclic(2) columns over a size x 1 grid, this rank's part */
    const int dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC}, darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2};
    const int psz[2] = {size, 1}, igs[2] = {10, 7};
    const MPI_Count lgs[2] = {10, 7};
    CHECK_MPI(MPI_Type_create_darray_c(size, rank, 2, lgs, dist, darg, psz, MPI_ORDER_C, MPI_INT, &c));
    CHECK_MPI(MPI_Type_create_darray(size, rank, 2, igs, dist, darg, psz, MPI_ORDER_C, MPI_INT, &i));
    const int dints[10] = {size, rank, 2, dist[0], dist[1], darg[0], darg[1], psz[0], psz[1], MPI_ORDER_C};
    check_contents(c, MPI_COMBINER_DARRAY, 10, dints, 2, lgs, "Type_create_darray_c");
    same_type(c, i, "Type_create_darray_c");
    CHECK_MPI(MPI_Type_free(&c));
    CHECK_MPI(MPI_Type_free(&i));
    /* beyond INT_MAX: 4 bytes at BIG of a BIG + 8-byte array; a 2^32-byte array in blocks over the ranks */
    const MPI_Count bsz[1] = {BIG + 8}, bsub[1] = {4}, bst[1] = {BIG};
    CHECK_MPI(MPI_Type_create_subarray_c(1, bsz, bsub, bst, MPI_ORDER_C, MPI_BYTE, &c));
    CHECK_MPI(MPI_Type_commit(&c));
    MPI_Count sz, lb, ext;
    CHECK_MPI(MPI_Type_size_c(c, &sz));
    CHECK_EQ(4, sz);
    CHECK_MPI(MPI_Type_get_extent_c(c, &lb, &ext));
    CHECK_EQ(0, lb);
    CHECK_EQ(BIG + 8, ext);
    CHECK_MPI(MPI_Type_get_true_extent_c(c, &lb, &ext));
    CHECK_EQ(BIG, lb);
    CHECK_EQ(4, ext);
    check_contents(c, MPI_COMBINER_SUBARRAY, 2, (const int[]){1, MPI_ORDER_C}, 3, (const MPI_Count[]){BIG + 8, 4, BIG},
                   "Type_create_subarray_c beyond INT_MAX");
    CHECK_MPI(MPI_Type_free(&c));
    const MPI_Count g32[1] = {(MPI_Count)1 << 32};
    const int bdist[1] = {MPI_DISTRIBUTE_BLOCK}, bdarg[1] = {MPI_DISTRIBUTE_DFLT_DARG}, bps[1] = {size};
    CHECK_MPI(MPI_Type_create_darray_c(size, rank, 1, g32, bdist, bdarg, bps, MPI_ORDER_C, MPI_BYTE, &c));
    CHECK_MPI(MPI_Type_commit(&c));
    MPI_Count blk = (g32[0] + size - 1) / size, first = blk * rank;
    MPI_Count mine = g32[0] - first < blk ? g32[0] - first : blk;
    CHECK_MPI(MPI_Type_size_c(c, &sz));
    CHECK_EQ(mine, sz);
    CHECK_MPI(MPI_Type_get_extent_c(c, &lb, &ext));
    CHECK_EQ(g32[0], ext);
    CHECK_MPI(MPI_Type_get_true_extent_c(c, &lb, &ext));
    CHECK_EQ(first, lb);
    CHECK_MPI(MPI_Type_free(&c));
}

#ifdef MPI_ABI_VERSION
/* skiff: a type a _c constructor made decodes only through the _c calls. */
static void int_decoder_refuses(void)
{
    const MPI_Count lsz[1] = {4}, lsub[1] = {2}, lst[1] = {1};
    MPI_Datatype c;
    CHECK_MPI(MPI_Type_create_subarray_c(1, lsz, lsub, lst, MPI_ORDER_C, MPI_INT, &c));
    int ni, na, nd, comb, cls = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Type_get_envelope(c, &ni, &na, &nd, &comb);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(MPI_ERR_TYPE, cls);
    CHECK_MPI(MPI_Type_free(&c));
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    rank = tu_rank();
    size = tu_size();
    CHECK_MSG(size <= MAXP, "at most %d processes", MAXP);
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &spaced));
    CHECK_MPI(MPI_Type_commit(&spaced));
    for (int root = 0; root < size; root += size > 1 ? size - 1 : 1)
        for (int stride = 1; stride <= 2; stride++)
            for (int in_place = 0; in_place <= 1; in_place++) {
                gatherv(root, stride, in_place, 0);
                scatterv(root, stride, in_place);
            }
    gatherv(0, 1, 0, 1);
    gatherv(size - 1, 2, 1, 1);
    for (int stride = 1; stride <= 2; stride++)
        for (int in_place = 0; in_place <= 1; in_place++) {
            allgatherv(stride, in_place);
            alltoallv(stride, in_place);
        }
    for (int in_place = 0; in_place <= 1; in_place++)
        for (int far = 0; far <= 1; far++)
            alltoallw(in_place, far);
    neighbors(1);
    neighbors(2);
    inter();
    arrays();
#ifdef MPI_ABI_VERSION
    int_decoder_refuses();
#endif
    CHECK_MPI(MPI_Type_free(&spaced));
    if (rank == 0)
        printf("large_count_v: the v, w and array _c calls agree with their int forms at np %d\nOK large_count_v\n",
               size);
    MPI_Finalize();
    return 0;
}

#else /* an MPI-3 library (Open MPI 4.1): no _c calls */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (tu_rank() == 0)
        printf("large_count_v: skipped, MPI %d.%d has no large-count calls\nOK large_count_v\n", MPI_VERSION,
               MPI_SUBVERSION);
    MPI_Finalize();
    return 0;
}
#endif
