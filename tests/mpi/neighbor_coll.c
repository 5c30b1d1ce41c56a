/* neighbor_coll — the neighbourhood collectives, blocking and nonblocking, on every kind of topology.
 *   Topologies: a periodic ring (at np 1 and 2 a process is its own or its only neighbour on both sides),
 *   a 2-D grid from MPI_Dims_create with one periodic and one open dimension (MPI_PROC_NULL neighbours),
 *   a periodic n x 1 grid (a dimension of extent 1: the process itself on both sides), a periodic 5-D grid
 *   (20 blocks, mostly extents 1 and 2), a graph with a
 *   self-loop and repeated edges, a distributed graph (adjacent) whose in-edges are given in an order of
 *   their own and repeat, and one built by MPI_Dist_graph_create.
 *   Calls: allgather, allgatherv (blocks in reverse order with gaps), alltoall, alltoallv with a strided
 *   receive type (packing), alltoallw with a different datatype per block and byte displacements; each
 *   also as MPI_Ineighbor_* completed by MPI_Wait, and as MPI_Neighbor_*_init started for several rounds
 *   with new data each time (a start must send what the buffers hold then, also through packing; the
 *   strided type is freed after the init call); then two persistent requests on each topology started
 *   together by MPI_Startall and completed by polling MPI_Testall (MPI_Waitall under MPICH 4.0), newest
 *   made first.
 *   Every block carries (sender, sender's block index), so the receiver checks both who sent it and which
 *   of the sender's blocks arrived where: for a grid, the standard's rule (what goes to the negative
 *   side arrives in the receiver's positive slot); for graphs, the k-th edge from p to q meets q's k-th
 *   edge from p. Blocks from MPI_PROC_NULL stay untouched.
 */
#include "testutil.h"

/* The persistent forms are MPI-4; Open MPI 4.1 has them as MPIX_ in its pcollreq extension. */
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#endif
#if MPI_VERSION >= 4
#define HAVE_PERSIST 1
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define HAVE_PERSIST 1
#define MPI_Neighbor_allgather_init MPIX_Neighbor_allgather_init
#define MPI_Neighbor_allgatherv_init MPIX_Neighbor_allgatherv_init
#define MPI_Neighbor_alltoall_init MPIX_Neighbor_alltoall_init
#define MPI_Neighbor_alltoallv_init MPIX_Neighbor_alltoallv_init
#define MPI_Neighbor_alltoallw_init MPIX_Neighbor_alltoallw_init
#else
#define HAVE_PERSIST 0
#endif

#define NAME "neighbor_coll"
#define MAXN 16
#define UNTOUCHED (-77)

enum kind { RING, GRID, THIN, GRID5, GRAPH, DIST, DIST_GENERAL };

struct topo {
    MPI_Comm comm;
    int kind, me, n;
    int in, out;
    int src[MAXN], dst[MAXN];
    /* which of src[j]'s blocks lands in slot j: -1 for MPI_PROC_NULL, -2 when only the sender is known */
    int from_block[MAXN];
};

/* When two processes are neighbours more than once (a periodic grid dimension of extent 1 or 2, repeated
 * graph edges), the standard pairs the messages: in a grid what a process sends to its negative side
 * arrives in the receiver's slot for its positive side; in a graph the k-th edge from p to q meets q's k-th
 * edge from p. skiff does that. MPICH 4.0 and Open MPI 4.1 pair them in other ways (and differently from
 * call to call), so under them such a slot is only checked for its sender, with counts and types that fit
 * any pairing. */
#ifdef SKIFF_MPI
#define ANY_PAIRING 0
#else
#define ANY_PAIRING 1
#endif

static void loosen_repeated(struct topo *t)
{
    for (int j = 0; ANY_PAIRING && j < t->in; j++) {
        int times = 0;
        for (int i = 0; i < t->in; i++)
            times += t->src[i] == t->src[j];
        if (times > 1 && t->src[j] != MPI_PROC_NULL)
            t->from_block[j] = -2;
    }
}

/* ---------------------------------------------------------------- the graphs */

static int graph_adj(int i, int n, int *adj)
{
    adj[0] = (i + 1) % n;
    adj[1] = (i + n - 1) % n;
    adj[2] = i;
    adj[3] = (i + 1) % n;
    adj[4] = (i + n - 1) % n;
    return 5;
}

/* Distributed graph: i sends to i+1 twice and to i+2 once. */
static int dist_out(int i, int n, int *dst)
{
    dst[0] = (i + 1) % n;
    dst[1] = (i + 2) % n;
    dst[2] = (i + 1) % n;
    return 3;
}

/* Where slot j's block comes from when edges pair up by occurrence: the k-th time src[j] appears in the
 * in-list is the k-th time me appears in src[j]'s out-list. */
static void match_by_occurrence(struct topo *t, int (*out_of)(int, int, int *))
{
    for (int j = 0; j < t->in; j++) {
        int k = 0, d[MAXN];
        for (int i = 0; i < j; i++)
            k += t->src[i] == t->src[j];
        int nd = out_of(t->src[j], t->n, d), b = -1;
        for (int i = 0; i < nd && b < 0; i++)
            if (d[i] == t->me && k-- == 0)
                b = i;
        CHECK(b >= 0);
        t->from_block[j] = b;
    }
}

/* ---------------------------------------------------------------- making them */

static void cart(struct topo *t, int nd, const int *dims, const int *periods)
{
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &t->comm));
    CHECK_MPI(MPI_Comm_rank(t->comm, &t->me));
    t->in = t->out = 2 * nd;
    for (int d = 0; d < nd; d++) {
        CHECK_MPI(MPI_Cart_shift(t->comm, d, 1, &t->src[2 * d], &t->src[2 * d + 1]));
        t->dst[2 * d] = t->src[2 * d];
        t->dst[2 * d + 1] = t->src[2 * d + 1];
        /* The negative neighbour's positive block and the positive neighbour's negative one. */
        t->from_block[2 * d] = t->src[2 * d] == MPI_PROC_NULL ? -1 : 2 * d + 1;
        t->from_block[2 * d + 1] = t->src[2 * d + 1] == MPI_PROC_NULL ? -1 : 2 * d;
    }
}

static void make(struct topo *t, int kind)
{
    memset(t, 0, sizeof *t);
    t->kind = kind;
    MPI_Comm_size(MPI_COMM_WORLD, &t->n);
    MPI_Comm_rank(MPI_COMM_WORLD, &t->me);
    int n = t->n, me = t->me;
    if (kind == RING) {
        int dims[1] = {n}, periods[1] = {1};
        cart(t, 1, dims, periods);
    } else if (kind == GRID) {
        int dims[2] = {0, 0}, periods[2] = {1, 0};
        CHECK_MPI(MPI_Dims_create(n, 2, dims));
        cart(t, 2, dims, periods);
    } else if (kind == THIN) {
        int dims[2] = {n, 1}, periods[2] = {1, 1};
        cart(t, 2, dims, periods);
    } else if (kind == GRID5) { /* 20 blocks: more than an implementation may keep on its stack */
        int dims[5] = {0, 0, 0, 0, 0}, periods[5] = {1, 1, 1, 1, 1};
        CHECK_MPI(MPI_Dims_create(n, 5, dims));
        cart(t, 5, dims, periods);
    } else if (kind == GRAPH) {
        int index[MAXN], edges[MAXN * 5];
        for (int i = 0, e = 0; i < n; i++) {
            e += graph_adj(i, n, edges + e);
            index[i] = e;
        }
        CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &t->comm));
        CHECK_MPI(MPI_Graph_neighbors_count(t->comm, me, &t->in));
        t->out = t->in;
        CHECK_MPI(MPI_Graph_neighbors(t->comm, me, MAXN, t->src));
        memcpy(t->dst, t->src, sizeof t->src);
        match_by_occurrence(t, graph_adj);
    } else if (kind == DIST) {
        int d[MAXN], s[MAXN], ns = 0;
        t->out = dist_out(me, n, t->dst);
        /* In-edges in descending order of the sender. */
        for (int r = n - 1; r >= 0; r--)
            for (int k = 0, nd = dist_out(r, n, d); k < nd; k++)
                if (d[k] == me)
                    s[ns++] = r;
        t->in = ns;
        memcpy(t->src, s, sizeof s);
        /* Open MPI's MPI_UNWEIGHTED is an array of size 0, which gcc would warn about being read. */
        const int *volatile unweighted = MPI_UNWEIGHTED;
        CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, t->in, t->src, unweighted, t->out, t->dst,
                                                 unweighted, MPI_INFO_NULL, 0, &t->comm));
        match_by_occurrence(t, dist_out);
    } else {
        /* Each rank names its own out-edges; the order the library keeps them in is its own, so the
         * checks below use what MPI_Dist_graph_neighbors says, and only the sender of each block. */
        int d[MAXN], deg = dist_out(me, n, d), w, sw[MAXN], dw[MAXN];
        const int *volatile unweighted = MPI_UNWEIGHTED;
        CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, &deg, d, unweighted, MPI_INFO_NULL, 0, &t->comm));
        CHECK_MPI(MPI_Dist_graph_neighbors_count(t->comm, &t->in, &t->out, &w));
        CHECK_MPI(MPI_Dist_graph_neighbors(t->comm, MAXN, t->src, sw, MAXN, t->dst, dw));
        for (int j = 0; j < t->in; j++)
            t->from_block[j] = -2; /* unknown */
    }
}

/* ---------------------------------------------------------------- checks */

/* How each call is made: blocking, nonblocking, persistent (made once, started ROUNDS times). */
enum mode { BLOCKING, NONBLOCKING, PERSISTENT };
#define ROUNDS 3

/* Open MPI 4.1's persistent neighbourhood calls do not keep a datatype freed after the init call (the
 * next MPI_Start crashes), so there it is freed after the request. */
#ifdef OPEN_MPI
#define KEEP_TYPE(mode) ((mode) == PERSISTENT)
#else
#define KEEP_TYPE(mode) 0
#endif

static int round_no; /* each round of a persistent call sends other values */

static int rounds(int mode)
{
    return mode == PERSISTENT ? ROUNDS : 1;
}

/* What rank r puts in element e of its block b. */
static int value(int r, int b, int e)
{
    return 1000000 * round_no + 10000 * r + 100 * b + e;
}

static void check_block(const struct topo *t, int j, const int *got, int count, const char *call)
{
    for (int e = 0; e < count; e++) {
        int want;
        if (t->src[j] == MPI_PROC_NULL)
            want = UNTOUCHED;
        else if (t->from_block[j] == -2) /* only the sender is known: the value names its block */
            want = value(t->src[j], (got[e] % 10000) / 100, e);
        else
            want = value(t->src[j], t->from_block[j], e);
        CHECK_MSG(got[e] == want, "%s on topology %d: slot %d element %d: want %d, got %d", call, t->kind, j, e,
                  want, got[e]);
    }
}

/* After the call of round k: a persistent request is made (k == 0) by the caller, then started here. */
static void wait_if(MPI_Request *r, int mode)
{
    if (mode == PERSISTENT)
        CHECK_MPI(MPI_Start(r));
    if (mode != BLOCKING)
        CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
}

static void free_if(MPI_Request *r, int mode)
{
    if (mode == PERSISTENT)
        CHECK_MPI(MPI_Request_free(r));
}

#define CNT 3

static void fill_gather(int *sb, int *rb, int me)
{
    for (int e = 0; e < CNT; e++)
        sb[e] = value(me, 0, e);
    for (int i = 0; i < MAXN * CNT; i++)
        rb[i] = UNTOUCHED;
}

static void allgather(const struct topo *t, int mode)
{
    int sb[CNT], rb[MAXN * CNT], rc2[MAXN], displs[MAXN];
    MPI_Request req;
    /* allgather's block is the same for every neighbour: block index 0 */
    struct topo u = *t;
    for (int j = 0; j < u.in; j++)
        u.from_block[j] = u.src[j] == MPI_PROC_NULL ? -1 : 0;
    for (round_no = 0; round_no < rounds(mode); round_no++) {
        fill_gather(sb, rb, t->me);
        if (mode == NONBLOCKING)
            CHECK_MPI(MPI_Ineighbor_allgather(sb, CNT, MPI_INT, rb, CNT, MPI_INT, t->comm, &req));
        else if (mode == BLOCKING)
            CHECK_MPI(MPI_Neighbor_allgather(sb, CNT, MPI_INT, rb, CNT, MPI_INT, t->comm));
#if HAVE_PERSIST
        else if (!round_no)
            CHECK_MPI(MPI_Neighbor_allgather_init(sb, CNT, MPI_INT, rb, CNT, MPI_INT, t->comm, MPI_INFO_NULL, &req));
#endif
        wait_if(&req, mode);
        for (int j = 0; j < t->in; j++)
            check_block(&u, j, rb + CNT * j, CNT, "allgather");
    }
    free_if(&req, mode);
    /* allgatherv: slot j at the mirrored place, one int of gap after each */
    for (int j = 0; j < t->in; j++) {
        rc2[j] = CNT;
        displs[j] = (t->in - 1 - j) * (CNT + 1);
    }
    for (round_no = 0; round_no < rounds(mode); round_no++) {
        fill_gather(sb, rb, t->me);
        if (mode == NONBLOCKING)
            CHECK_MPI(MPI_Ineighbor_allgatherv(sb, CNT, MPI_INT, rb, rc2, displs, MPI_INT, t->comm, &req));
        else if (mode == BLOCKING)
            CHECK_MPI(MPI_Neighbor_allgatherv(sb, CNT, MPI_INT, rb, rc2, displs, MPI_INT, t->comm));
#if HAVE_PERSIST
        else if (!round_no)
            CHECK_MPI(MPI_Neighbor_allgatherv_init(sb, CNT, MPI_INT, rb, rc2, displs, MPI_INT, t->comm, MPI_INFO_NULL,
                                                   &req));
#endif
        wait_if(&req, mode);
        for (int j = 0; j < t->in; j++) {
            check_block(&u, j, rb + displs[j], CNT, "allgatherv");
            CHECK_EQ(UNTOUCHED, rb[displs[j] + CNT]);
        }
    }
    free_if(&req, mode);
}

static void alltoall(const struct topo *t, int mode)
{
    int sb[MAXN * CNT], rb[MAXN * CNT];
    MPI_Request req;
    for (round_no = 0; round_no < rounds(mode); round_no++) {
        for (int b = 0; b < t->out; b++)
            for (int e = 0; e < CNT; e++)
                sb[b * CNT + e] = value(t->me, b, e);
        for (int i = 0; i < MAXN * CNT; i++)
            rb[i] = UNTOUCHED;
        if (mode == NONBLOCKING)
            CHECK_MPI(MPI_Ineighbor_alltoall(sb, CNT, MPI_INT, rb, CNT, MPI_INT, t->comm, &req));
        else if (mode == BLOCKING)
            CHECK_MPI(MPI_Neighbor_alltoall(sb, CNT, MPI_INT, rb, CNT, MPI_INT, t->comm));
#if HAVE_PERSIST
        else if (!round_no)
            CHECK_MPI(MPI_Neighbor_alltoall_init(sb, CNT, MPI_INT, rb, CNT, MPI_INT, t->comm, MPI_INFO_NULL, &req));
#endif
        wait_if(&req, mode);
        for (int j = 0; j < t->in; j++)
            check_block(t, j, rb + CNT * j, CNT, "alltoall");
    }
    free_if(&req, mode);
}

/* Block b of the sender has b % 3 + 1 elements (any pairing: 3); the receiver takes them into every other
 * int. */
static int vcount(int b)
{
    return ANY_PAIRING ? 3 : b % 3 + 1;
}

static void alltoallv(const struct topo *t, int mode)
{
    int sb[MAXN * CNT], sc[MAXN], sd[MAXN], rb[MAXN * 8], rc[MAXN], rd[MAXN], got[CNT];
    MPI_Request req;
    MPI_Datatype strided;
    CHECK_MPI(MPI_Type_vector(1, 1, 2, MPI_INT, &strided)); /* one int; with the resize, every other one */
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_create_resized(strided, 0, 2 * sizeof(int), &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    for (int j = 0, at = 0; j < t->in; j++) {
        /* The count the sender uses for this block; unknown for MPI_Dist_graph_create's graph: take 3 */
        rc[j] = t->from_block[j] >= 0 ? vcount(t->from_block[j]) : t->from_block[j] == -2 ? 3 : 1;
        rd[j] = at;
        at += rc[j] + 1;
    }
    for (round_no = 0; round_no < rounds(mode); round_no++) {
        for (int b = 0, at = 0; b < t->out; b++) {
            sc[b] = vcount(b);
            sd[b] = at;
            for (int e = 0; e < sc[b]; e++)
                sb[at + e] = value(t->me, b, e);
            at += sc[b];
        }
        for (int i = 0; i < MAXN * 8; i++)
            rb[i] = UNTOUCHED;
        if (mode == NONBLOCKING)
            CHECK_MPI(MPI_Ineighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, every_other, t->comm, &req));
        else if (mode == BLOCKING)
            CHECK_MPI(MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, every_other, t->comm));
#if HAVE_PERSIST
        else if (!round_no)
            CHECK_MPI(MPI_Neighbor_alltoallv_init(sb, sc, sd, MPI_INT, rb, rc, rd, every_other, t->comm,
                                                  MPI_INFO_NULL, &req));
#endif
        if (!round_no && !KEEP_TYPE(mode)) { /* a pending or persistent call keeps using it */
            CHECK_MPI(MPI_Type_free(&every_other));
            CHECK_MPI(MPI_Type_free(&strided));
        }
        wait_if(&req, mode);
        for (int j = 0; j < t->in; j++) {
            int n = t->from_block[j] == -2 ? 0 : rc[j]; /* a shorter message leaves the rest alone */
            for (int e = 0; e < rc[j]; e++) {
                got[e] = rb[2 * rd[j] + 2 * e];
                CHECK_EQ(UNTOUCHED, rb[2 * rd[j] + 2 * e + 1]);
            }
            if (t->from_block[j] == -2) {
                n = vcount((got[0] % 10000) / 100);
                for (int e = n; e < rc[j]; e++)
                    CHECK_EQ(UNTOUCHED, got[e]);
            }
            check_block(t, j, got, n, "alltoallv");
        }
    }
    free_if(&req, mode);
    if (KEEP_TYPE(mode)) {
        CHECK_MPI(MPI_Type_free(&every_other));
        CHECK_MPI(MPI_Type_free(&strided));
    }
}

/* Blocks of ints and of doubles alternate (ints only where the pairing is not known); displacements in
 * bytes, blocks in reverse order in memory. */
static void fill_w(const struct topo *t, int known, char *sb, const MPI_Aint *sd, char *rb, size_t rbytes)
{
    for (int b = 0; b < t->out; b++)
        for (int e = 0; e < CNT; e++) {
            int v = value(t->me, b, e);
            double dv = v;
            if (known && b % 2)
                memcpy(sb + sd[b] + 8 * e, &dv, 8);
            else /* ints everywhere when the pairing is not known */
                memcpy(sb + sd[b] + 4 * e, &v, 4);
        }
    for (size_t i = 0; i < rbytes / sizeof(int); i++)
        ((int *)(void *)rb)[i] = UNTOUCHED;
}

static void alltoallw(const struct topo *t, int mode)
{
    char sb[MAXN * CNT * 8], rb[MAXN * CNT * 8];
    int sc[MAXN], rc[MAXN];
    MPI_Aint sd[MAXN], rd[MAXN];
    MPI_Datatype st[MAXN], rt[MAXN];
    MPI_Request req;
    int known = 1;
    for (int j = 0; j < t->in; j++)
        known &= t->from_block[j] != -2;
    /* Every rank must agree on whether doubles are sent. */
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &known, 1, MPI_INT, MPI_MIN, t->comm));
    for (int b = 0; b < t->out; b++) {
        sc[b] = CNT;
        sd[b] = (MPI_Aint)((t->out - 1 - b) * CNT * 8);
        st[b] = known && b % 2 ? MPI_DOUBLE : MPI_INT;
    }
    for (int j = 0; j < t->in; j++) {
        rc[j] = CNT;
        rd[j] = (MPI_Aint)(j * CNT * 8);
        /* The sender's block parity says the type; for MPI_Dist_graph_create's graph only ints are sent. */
        rt[j] = known && t->from_block[j] >= 0 && t->from_block[j] % 2 ? MPI_DOUBLE : MPI_INT;
    }
    for (round_no = 0; round_no < rounds(mode); round_no++) {
        fill_w(t, known, sb, sd, rb, sizeof rb);
        if (mode == NONBLOCKING)
            CHECK_MPI(MPI_Ineighbor_alltoallw(sb, sc, sd, st, rb, rc, rd, rt, t->comm, &req));
        else if (mode == BLOCKING)
            CHECK_MPI(MPI_Neighbor_alltoallw(sb, sc, sd, st, rb, rc, rd, rt, t->comm));
#if HAVE_PERSIST
        else if (!round_no)
            CHECK_MPI(MPI_Neighbor_alltoallw_init(sb, sc, sd, st, rb, rc, rd, rt, t->comm, MPI_INFO_NULL, &req));
#endif
        wait_if(&req, mode);
        for (int j = 0; j < t->in; j++) {
            int got[CNT];
            for (int e = 0; e < CNT; e++) {
                if (rt[j] == MPI_DOUBLE) {
                    double dv;
                    memcpy(&dv, rb + rd[j] + 8 * e, 8);
                    got[e] = (int)dv;
                } else
                    memcpy(&got[e], rb + rd[j] + 4 * e, 4);
            }
            check_block(t, j, got, CNT, "alltoallw");
        }
    }
    free_if(&req, mode);
}

#if HAVE_PERSIST
/* A persistent alltoall and allgather in flight together, round after round. */
static void startall(const struct topo *t)
{
    int sb[MAXN * CNT] = {0}, gb[CNT] = {0}, ra[MAXN * CNT], rg[MAXN * CNT];
    MPI_Request req[2];
    struct topo u = *t; /* allgather's block: index 0 */
    for (int j = 0; j < u.in; j++)
        u.from_block[j] = u.src[j] == MPI_PROC_NULL ? -1 : 0;
    CHECK_MPI(MPI_Neighbor_allgather_init(gb, CNT, MPI_INT, rg, CNT, MPI_INT, t->comm, MPI_INFO_NULL, &req[1]));
    CHECK_MPI(MPI_Neighbor_alltoall_init(sb, CNT, MPI_INT, ra, CNT, MPI_INT, t->comm, MPI_INFO_NULL, &req[0]));
    for (round_no = 0; round_no < ROUNDS; round_no++) {
        fill_gather(gb, rg, t->me);
        for (int b = 0; b < t->out; b++)
            for (int e = 0; e < CNT; e++)
                sb[b * CNT + e] = value(t->me, b, e);
        for (int i = 0; i < MAXN * CNT; i++)
            ra[i] = UNTOUCHED;
        CHECK_MPI(MPI_Startall(2, req));
        int done = 0;
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
        /* MPICH 4.0's MPI_Testall fails these with MPI_ERR_IN_STATUS (a status saying "pending request") */
        CHECK_MPI(MPI_Waitall(2, req, TU_STATUSES_IGNORE));
        done = 1;
#endif
        for (unsigned polls = 0; !done; tu_poll_pause(&polls))
            CHECK_MPI(MPI_Testall(2, req, &done, TU_STATUSES_IGNORE));
        for (int j = 0; j < t->in; j++) {
            check_block(t, j, ra + CNT * j, CNT, "alltoall (Startall)");
            check_block(&u, j, rg + CNT * j, CNT, "allgather (Startall)");
        }
    }
    CHECK_MPI(MPI_Request_free(&req[0]));
    CHECK_MPI(MPI_Request_free(&req[1]));
}
#endif

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= MAXN / 2);
    for (int kind = RING; kind <= DIST_GENERAL; kind++) {
        struct topo t;
        make(&t, kind);
        loosen_repeated(&t);
        for (int mode = BLOCKING; mode <= (HAVE_PERSIST ? PERSISTENT : NONBLOCKING); mode++) {
            allgather(&t, mode);
            alltoall(&t, mode);
            alltoallv(&t, mode);
            alltoallw(&t, mode);
        }
#if HAVE_PERSIST
        startall(&t);
#endif
        CHECK_MPI(MPI_Comm_free(&t.comm));
    }
    return tu_finish(NAME);
}
