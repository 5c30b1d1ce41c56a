/* coll.c — collectives with results every rank can check.
 *
 * Each member's contribution is a function of (collective key, its MPI_COMM_WORLD rank[, peer]),
 * so the expected result of a gather, alltoall or reduction is computed locally. Reductions use
 * flavours whose results are exact (integer sums and maxima, XOR, sums of small integers as
 * doubles). The v-variants leave holes between blocks that must stay untouched, and every receive
 * buffer has guard bytes after its end.
 */
#include "soak.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sk_coll_run {
    struct sk_coll c;
    const struct sk_group *g;
    int root;
    MPI_Request req;
    uint8_t *send, *recv;
    size_t send_bytes, recv_bytes; /* without the guard */
    int *scounts, *sdispls, *rcounts, *rdispls;
};

/* ---------------------------------------------------------------- groups */

void sk_group_world(struct sk_group *g)
{
    g->comm = MPI_COMM_WORLD;
    g->size = sk_np;
    g->rank = sk_rank;
    g->world = sk_alloc(sizeof(int) * (size_t)sk_np);
    for (int i = 0; i < sk_np; i++)
        g->world[i] = i;
}

/* MPI_Comm_split with the round's colours and keys; the membership and order the library gives
 * must be the one MPI defines (by key, ties by old rank). */
void sk_group_split(struct sk_group *g, const struct sk_round *r)
{
    int mine = r->color[sk_rank];
    sk_where("round %ld: MPI_Comm_split color %d key %d", r->round, mine, r->key[sk_rank]);
    SK_MPI(MPI_Comm_split(MPI_COMM_WORLD, mine, r->key[sk_rank], &g->comm));
    g->world = sk_alloc(sizeof(int) * (size_t)sk_np);
    g->size = 0;
    g->rank = -1;
    if (mine == MPI_UNDEFINED) {
        if (g->comm != MPI_COMM_NULL)
            sk_fail("MPI_Comm_split with MPI_UNDEFINED returned a communicator");
        return;
    }
    for (int k = 0; k < 4; k++) /* keys are 0..3: members in key order, ties by world rank */
        for (int w = 0; w < sk_np; w++)
            if (r->color[w] == mine && r->key[w] == k)
                g->world[g->size++] = w;
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == sk_rank)
            g->rank = i;
    int size = -1, rank = -1;
    SK_MPI(MPI_Comm_size(g->comm, &size));
    SK_MPI(MPI_Comm_rank(g->comm, &rank));
    if (size != g->size || rank != g->rank)
        sk_fail("MPI_Comm_split(color %d, key %d): size %d rank %d, expected size %d rank %d", mine, r->key[sk_rank],
                size, rank, g->size, g->rank);
}

void sk_group_free(struct sk_group *g)
{
    if (g->comm != MPI_COMM_NULL && g->comm != MPI_COMM_WORLD)
        SK_MPI(MPI_Comm_free(&g->comm));
    free(g->world);
    g->world = NULL;
}

/* ---------------------------------------------------------------- reductions */

static MPI_Datatype red_type(int red)
{
    switch (red) {
    case R_I64_SUM:
    case R_I64_MAX: return MPI_INT64_T;
    case R_U64_BXOR: return MPI_UINT64_T;
    case R_DBL_SUM: return MPI_DOUBLE;
    default: return MPI_INT;
    }
}

static MPI_Op red_op(int red)
{
    switch (red) {
    case R_I64_SUM:
    case R_DBL_SUM: return MPI_SUM;
    case R_I64_MAX: return MPI_MAX;
    case R_U64_BXOR: return MPI_BXOR;
    default: return MPI_MIN;
    }
}

static size_t red_size(int red)
{
    return red == R_INT_MIN ? sizeof(int) : 8;
}

union elem {
    int64_t i64;
    uint64_t u64;
    double dbl;
    int i;
};

/* Small integers for the sums, so no order of summation can change the result. */
static union elem red_value(int red, uint64_t key, int wrank, size_t j)
{
    uint64_t h = sk_key(key, (uint64_t)wrank, j, 7);
    union elem e;
    memset(&e, 0, sizeof e);
    switch (red) {
    case R_I64_SUM:
    case R_I64_MAX: e.i64 = (int64_t)(h % (1u << 21)) - (1 << 20); break;
    case R_U64_BXOR: e.u64 = h; break;
    case R_DBL_SUM: e.dbl = (double)((int64_t)(h % (1u << 21)) - (1 << 20)); break;
    default: e.i = (int)(h % (1u << 30)) - (1 << 29); break;
    }
    return e;
}

static union elem red_combine(int red, union elem a, union elem b)
{
    switch (red) {
    case R_I64_SUM: a.i64 += b.i64; break;
    case R_I64_MAX: a.i64 = b.i64 > a.i64 ? b.i64 : a.i64; break;
    case R_U64_BXOR: a.u64 ^= b.u64; break;
    case R_DBL_SUM: a.dbl += b.dbl; break;
    default: a.i = b.i < a.i ? b.i : a.i; break;
    }
    return a;
}

static int red_equal(int red, union elem a, const uint8_t *p)
{
    union elem b;
    memset(&b, 0, sizeof b);
    memcpy(&b, p, red_size(red));
    switch (red) {
    case R_I64_SUM:
    case R_I64_MAX: return a.i64 == b.i64;
    case R_U64_BXOR: return a.u64 == b.u64;
    case R_DBL_SUM: return a.dbl == b.dbl;
    default: return a.i == b.i;
    }
}

static void red_fill(const struct sk_coll_run *run, uint8_t *buf)
{
    for (size_t j = 0; j < run->c.count; j++) {
        union elem e = red_value(run->c.red, run->c.key, sk_rank, j);
        memcpy(buf + j * red_size(run->c.red), &e, red_size(run->c.red));
    }
}

/* The reduction over members 0..upto-1, in rank order. */
static void red_check(const struct sk_coll_run *run, const uint8_t *got, int upto)
{
    size_t es = red_size(run->c.red);
    for (size_t j = 0; j < run->c.count; j++) {
        union elem want = red_value(run->c.red, run->c.key, run->g->world[0], j);
        for (int i = 1; i < upto; i++)
            want = red_combine(run->c.red, want, red_value(run->c.red, run->c.key, run->g->world[i], j));
        if (!red_equal(run->c.red, want, got + j * es)) {
            union elem g;
            memset(&g, 0, sizeof g);
            memcpy(&g, got + j * es, es);
            sk_fail("%s on %s (size %d, root %d, %zu elements, flavour %d%s): element %zu is 0x%016llx, expected "
                    "0x%016llx", sk_coll_name[run->c.kind], run->c.on_sub ? "sub" : "world", run->g->size, run->root,
                    run->c.count, run->c.red, run->c.in_place ? ", in place" : "", j, (unsigned long long)g.u64,
                    (unsigned long long)want.u64);
        }
    }
}

/* ---------------------------------------------------------------- byte blocks */

static uint64_t block_key(const struct sk_coll_run *run, int from, int to)
{
    return sk_key(run->c.key, (uint64_t)from, (uint64_t)to, 3);
}

static void check_block(const struct sk_coll_run *run, const uint8_t *got, size_t n, int from, int to)
{
    struct sk_verdict v;
    if (sk_verify(got, n, block_key(run, from, to), NULL, &v))
        return;
    sk_fail("%s on %s (size %d, root %d, count %zu; this rank is member %d): block from world rank %d, %zu bytes: "
            "%zu differ, first bad offset %zu (expected 0x%02x, got 0x%02x); checksum expected 0x%016llx, actual "
            "0x%016llx", sk_coll_name[run->c.kind], run->c.on_sub ? "sub" : "world", run->g->size, run->root,
            run->c.count, run->g->rank, from, n, v.bad, v.first, v.want, v.got, (unsigned long long)v.sum_want,
            (unsigned long long)v.sum_got);
}

static void check_untouched(const struct sk_coll_run *run, const uint8_t *p, size_t n, const char *what)
{
    size_t at = sk_untouched(p, n, SK_GUARD_BYTE);
    if (at < n)
        sk_fail("%s on %s (size %d, root %d, count %zu): %s overwritten at byte %zu (0x%02x)",
                sk_coll_name[run->c.kind], run->c.on_sub ? "sub" : "world", run->g->size, run->root, run->c.count,
                what, at, p[at]);
}

static uint8_t *guarded(size_t n)
{
    uint8_t *p = sk_alloc(n + SK_GUARD);
    memset(p, SK_GUARD_BYTE, n + SK_GUARD);
    return p;
}

/* Per-pair counts of the v-variants: some zero, the rest up to count bytes; holes of 0..7 bytes. */
static int v_count(const struct sk_coll_run *run, int from, int to)
{
    uint64_t h = sk_key(run->c.key, (uint64_t)from, (uint64_t)to, 11);
    return h % 5 == 0 ? 0 : (int)((h >> 8) % (run->c.count + 1));
}

static int v_hole(const struct sk_coll_run *run, int from, int to)
{
    return (int)(sk_key(run->c.key, (uint64_t)from, (uint64_t)to, 13) % 8);
}

/* Lays out size blocks with holes; returns the buffer bytes. */
static size_t v_layout(const struct sk_coll_run *run, int *counts, int *displs, int mine_is_from)
{
    size_t off = 0;
    for (int i = 0; i < run->g->size; i++) {
        int w = run->g->world[i];
        int from = mine_is_from ? sk_rank : w, to = mine_is_from ? w : sk_rank;
        off += (size_t)v_hole(run, from, to);
        counts[i] = v_count(run, from, to);
        displs[i] = (int)off;
        off += (size_t)counts[i];
    }
    return off;
}

/* Every byte not in a block must still be the guard byte. */
static void check_holes(const struct sk_coll_run *run, const uint8_t *buf, size_t len, const int *counts,
                        const int *displs)
{
    size_t prev = 0;
    for (int i = 0; i < run->g->size; i++) {
        check_untouched(run, buf + prev, (size_t)displs[i] - prev, "a hole between blocks");
        prev = (size_t)displs[i] + (size_t)counts[i];
    }
    check_untouched(run, buf + prev, len - prev + SK_GUARD, "the guard after the buffer");
}

/* ---------------------------------------------------------------- start */

static void start_rooted(struct sk_coll_run *run)
{
    const struct sk_group *g = run->g;
    size_t n = run->c.count;
    int me = g->rank, root = run->root;
    MPI_Comm comm = g->comm;
    switch (run->c.kind) {
    case C_BCAST:
    case C_IBCAST:
        run->recv = guarded(n);
        run->recv_bytes = n;
        if (me == root)
            sk_fill_plain(run->recv, n, block_key(run, g->world[root], 0));
        if (run->c.kind == C_BCAST)
            SK_MPI(MPI_Bcast(run->recv, (int)n, MPI_BYTE, root, comm));
        else
            SK_MPI(MPI_Ibcast(run->recv, (int)n, MPI_BYTE, root, comm, &run->req));
        break;
    case C_GATHER:
        run->send = sk_alloc(n);
        sk_fill_plain(run->send, n, block_key(run, sk_rank, 0));
        run->recv_bytes = me == root ? n * (size_t)g->size : 0;
        run->recv = guarded(run->recv_bytes);
        SK_MPI(MPI_Gather(run->send, (int)n, MPI_BYTE, run->recv, (int)n, MPI_BYTE, root, comm));
        break;
    default: { /* C_GATHERV */
        int mine = v_count(run, sk_rank, 0);
        run->send = sk_alloc((size_t)mine);
        sk_fill_plain(run->send, (size_t)mine, block_key(run, sk_rank, 0));
        run->rcounts = sk_alloc(sizeof(int) * (size_t)g->size);
        run->rdispls = sk_alloc(sizeof(int) * (size_t)g->size);
        for (int i = 0, off = 0; i < g->size; i++) {
            off += v_hole(run, g->world[i], 0);
            run->rcounts[i] = v_count(run, g->world[i], 0);
            run->rdispls[i] = off;
            off += run->rcounts[i];
            run->recv_bytes = (size_t)off;
        }
        run->recv = guarded(me == root ? run->recv_bytes : 0);
        SK_MPI(MPI_Gatherv(run->send, mine, MPI_BYTE, run->recv, run->rcounts, run->rdispls, MPI_BYTE, root, comm));
        break;
    }
    }
}

static void start_reduction(struct sk_coll_run *run)
{
    size_t bytes = run->c.count * red_size(run->c.red);
    int n = (int)run->c.count, root = run->root;
    MPI_Datatype t = red_type(run->c.red);
    MPI_Op op = red_op(run->c.red);
    MPI_Comm comm = run->g->comm;
    int in_place = run->c.in_place && (run->c.kind == C_ALLREDUCE || run->c.kind == C_IALLREDUCE);
    run->send = sk_alloc(bytes);
    run->recv = guarded(bytes);
    run->recv_bytes = bytes;
    red_fill(run, in_place ? run->recv : run->send);
    const void *sb = in_place ? MPI_IN_PLACE : run->send;
    switch (run->c.kind) {
    case C_REDUCE: SK_MPI(MPI_Reduce(sb, run->recv, n, t, op, root, comm)); break;
    case C_IREDUCE: SK_MPI(MPI_Ireduce(sb, run->recv, n, t, op, root, comm, &run->req)); break;
    case C_ALLREDUCE: SK_MPI(MPI_Allreduce(sb, run->recv, n, t, op, comm)); break;
    case C_IALLREDUCE: SK_MPI(MPI_Iallreduce(sb, run->recv, n, t, op, comm, &run->req)); break;
    default: SK_MPI(MPI_Scan(sb, run->recv, n, t, op, comm)); break;
    }
}

static void start_all(struct sk_coll_run *run)
{
    const struct sk_group *g = run->g;
    size_t n = run->c.count, size = (size_t)g->size;
    MPI_Comm comm = g->comm;
    if (run->c.kind == C_ALLGATHER) {
        run->send = sk_alloc(n);
        sk_fill_plain(run->send, n, block_key(run, sk_rank, 0));
        run->recv_bytes = n * size;
        run->recv = guarded(run->recv_bytes);
        SK_MPI(MPI_Allgather(run->send, (int)n, MPI_BYTE, run->recv, (int)n, MPI_BYTE, comm));
    } else if (run->c.kind == C_ALLTOALL) {
        run->send = sk_alloc(n * size);
        for (size_t i = 0; i < size; i++)
            sk_fill_plain(run->send + i * n, n, block_key(run, sk_rank, g->world[i]));
        run->recv_bytes = n * size;
        run->recv = guarded(run->recv_bytes);
        SK_MPI(MPI_Alltoall(run->send, (int)n, MPI_BYTE, run->recv, (int)n, MPI_BYTE, comm));
    } else { /* C_ALLTOALLV */
        run->scounts = sk_alloc(sizeof(int) * size);
        run->sdispls = sk_alloc(sizeof(int) * size);
        run->rcounts = sk_alloc(sizeof(int) * size);
        run->rdispls = sk_alloc(sizeof(int) * size);
        run->send_bytes = v_layout(run, run->scounts, run->sdispls, 1);
        run->recv_bytes = v_layout(run, run->rcounts, run->rdispls, 0);
        run->send = sk_alloc(run->send_bytes);
        memset(run->send, SK_GAP_BYTE, run->send_bytes);
        for (size_t i = 0; i < size; i++)
            sk_fill_plain(run->send + run->sdispls[i], (size_t)run->scounts[i], block_key(run, sk_rank, g->world[i]));
        run->recv = guarded(run->recv_bytes);
        SK_MPI(MPI_Alltoallv(run->send, run->scounts, run->sdispls, MPI_BYTE, run->recv, run->rcounts, run->rdispls,
                             MPI_BYTE, comm));
    }
}

struct sk_coll_run *sk_coll_start(const struct sk_coll *c, const struct sk_group *g)
{
    if (g->comm == MPI_COMM_NULL)
        return NULL;
    struct sk_coll_run *run = calloc(1, sizeof *run);
    run->c = *c;
    run->g = g;
    run->root = (int)(c->root_pick % (uint64_t)g->size);
    run->req = MPI_REQUEST_NULL;
    sk_where("round %ld: %s on %s (size %d, root %d, count %zu)", sk_cur_round, sk_coll_name[c->kind],
             c->on_sub ? "sub" : "world", g->size, run->root, c->count);
    switch (c->kind) {
    case C_BARRIER: SK_MPI(MPI_Barrier(g->comm)); break;
    case C_IBARRIER: SK_MPI(MPI_Ibarrier(g->comm, &run->req)); break;
    case C_BCAST:
    case C_IBCAST:
    case C_GATHER:
    case C_GATHERV: start_rooted(run); break;
    case C_REDUCE:
    case C_IREDUCE:
    case C_ALLREDUCE:
    case C_IALLREDUCE:
    case C_SCAN: start_reduction(run); break;
    default: start_all(run); break;
    }
    return run;
}

MPI_Request *sk_coll_request(struct sk_coll_run *run)
{
    return &run->req;
}

/* ---------------------------------------------------------------- finish */

static void check_rooted(const struct sk_coll_run *run)
{
    const struct sk_group *g = run->g;
    size_t n = run->c.count;
    if (run->c.kind == C_BCAST || run->c.kind == C_IBCAST) {
        check_block(run, run->recv, n, g->world[run->root], 0);
        check_untouched(run, run->recv + n, SK_GUARD, "the guard after the buffer");
    } else if (g->rank != run->root) {
        check_untouched(run, run->recv, SK_GUARD, "a non-root's receive buffer");
    } else if (run->c.kind == C_GATHER) {
        for (int i = 0; i < g->size; i++)
            check_block(run, run->recv + (size_t)i * n, n, g->world[i], 0);
        check_untouched(run, run->recv + run->recv_bytes, SK_GUARD, "the guard after the buffer");
    } else {
        for (int i = 0; i < g->size; i++)
            check_block(run, run->recv + run->rdispls[i], (size_t)run->rcounts[i], g->world[i], 0);
        check_holes(run, run->recv, run->recv_bytes, run->rcounts, run->rdispls);
    }
}

static void check_all(const struct sk_coll_run *run)
{
    const struct sk_group *g = run->g;
    size_t n = run->c.count;
    if (run->c.kind == C_ALLTOALLV) {
        for (int i = 0; i < g->size; i++)
            check_block(run, run->recv + run->rdispls[i], (size_t)run->rcounts[i], g->world[i], sk_rank);
        check_holes(run, run->recv, run->recv_bytes, run->rcounts, run->rdispls);
        return;
    }
    for (int i = 0; i < g->size; i++)
        check_block(run, run->recv + (size_t)i * n, n, g->world[i], run->c.kind == C_ALLTOALL ? sk_rank : 0);
    check_untouched(run, run->recv + run->recv_bytes, SK_GUARD, "the guard after the buffer");
}

static void check_result(const struct sk_coll_run *run)
{
    switch (run->c.kind) {
    case C_BARRIER:
    case C_IBARRIER: break;
    case C_BCAST:
    case C_IBCAST:
    case C_GATHER:
    case C_GATHERV: check_rooted(run); break;
    case C_REDUCE:
    case C_IREDUCE:
        if (run->g->rank == run->root) {
            red_check(run, run->recv, run->g->size);
            check_untouched(run, run->recv + run->recv_bytes, SK_GUARD, "the guard after the buffer");
        } else { /* significant only at the root: a non-root may even pass NULL */
            check_untouched(run, run->recv, run->recv_bytes + SK_GUARD, "a non-root's receive buffer");
        }
        break;
    case C_ALLREDUCE:
    case C_IALLREDUCE:
    case C_SCAN:
        red_check(run, run->recv, run->c.kind == C_SCAN ? run->g->rank + 1 : run->g->size);
        check_untouched(run, run->recv + run->recv_bytes, SK_GUARD, "the guard after the buffer");
        break;
    default: check_all(run); break;
    }
}

/* For nonblocking kinds the caller has completed the request already. */
void sk_coll_finish(struct sk_coll_run *run)
{
    if (!run)
        return;
    check_result(run);
    free(run->send);
    free(run->recv);
    free(run->scounts);
    free(run->sdispls);
    free(run->rcounts);
    free(run->rdispls);
    free(run);
}
