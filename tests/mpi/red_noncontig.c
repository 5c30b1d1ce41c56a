/* Reductions on non-contiguous derived datatypes of one predefined type: a vector and an indexed type
 * of ints, a struct of two doubles with a gap, a vector of MPI_DOUBLE_INT pairs (MPI_MAXLOC, whose basic
 * type has padding of its own). Every reduction in every form: Reduce, Allreduce, Reduce_scatter(_block),
 * Scan, Exscan, blocking, nonblocking and persistent, with and without MPI_IN_PLACE, and MPI_Reduce_local;
 * Allreduce, Iallreduce, Allreduce_init and Reduce on an intercommunicator.
 * The gaps between the data must come through untouched, and a persistent reduction must reduce what its
 * buffers hold at each start.
 *
 * The same forms also run on the predefined types (MPI_INT, MPI_DOUBLE, MPI_DOUBLE_INT), which checks the
 * expected values under any MPI. MPICH and Open MPI refuse predefined ops on derived datatypes
 * (MPI_ERR_OP): there the derived layouts are accepted as refused, and only the predefined ones checked. */
#include "testutil.h"

#include <stddef.h>

enum kind { KINT, KDBL, KDI };

struct layout {
    const char *name;
    MPI_Datatype t;
    enum kind kind;
    int n;             /* basic elements per element */
    MPI_Aint off[3];   /* their offsets in an element */
    MPI_Aint extent;
    int derived;
};

struct di {
    double v;
    int i;
};

static int rank, size, refusals;
static int parity = -1; /* >= 0: only the world ranks of this parity contribute (intercommunicators) */
static MPI_Comm comm;

static size_t basic_size(const struct layout *l)
{
    return l->kind == KINT ? sizeof(int) : l->kind == KDBL ? sizeof(double) : offsetof(struct di, i) + sizeof(int);
}

/* The value rank r contributes at (global) element e, basic element k. */
static double value(const struct layout *l, int r, int e, int k)
{
    if (l->kind == KDI)
        return (double)((r * 3 + e + k) % size);
    return 1000.0 * r + 10.0 * e + k;
}

static void put(const struct layout *l, char *buf, int e, int k, int r)
{
    char *p = buf + e * l->extent + l->off[k];
    double v = value(l, r, e, k);
    if (l->kind == KINT) {
        int x = (int)v;
        memcpy(p, &x, sizeof x);
    } else if (l->kind == KDBL) {
        memcpy(p, &v, sizeof v);
    } else {
        struct di x = {v, r};
        memcpy(p, &x, basic_size(l));
    }
}

/* count elements as rank r gives them, from global element e0; everything else 0xa5. */
static char *make(const struct layout *l, int count, int e0, int r)
{
    size_t bytes = (size_t)(count + 1) * (size_t)l->extent;
    char *buf = tu_malloc(bytes);
    memset(buf, 0xa5, bytes);
    for (int e = 0; e < count; e++)
        for (int k = 0; k < l->n; k++)
            put(l, buf - e0 * l->extent, e0 + e, k, r);
    return buf;
}

/* The reduction of ranks lo..hi at (e, k): SUM, or MAXLOC's value and lowest index. */
static void expect(const struct layout *l, int e, int k, int lo, int hi, double *v, int *idx)
{
    *v = l->kind == KDI ? -1 : 0;
    *idx = -1;
    for (int r = lo; r <= hi; r++) {
        if (parity >= 0 && r % 2 != parity)
            continue;
        double x = value(l, r, e, k);
        if (l->kind != KDI)
            *v += x;
        else if (x > *v)
            *v = x, *idx = r;
    }
}

/* count elements from global e0 hold the reduction of ranks lo..hi; the gaps are still 0xa5. */
static void check(const char *what, const struct layout *l, const char *buf, int count, int e0, int lo, int hi)
{
    size_t bytes = (size_t)(count + 1) * (size_t)l->extent, bs = basic_size(l);
    char *data = tu_malloc(bytes);
    memset(data, 0, bytes);
    for (int e = 0; e < count; e++)
        for (int k = 0; k < l->n; k++) {
            const char *p = buf + e * l->extent + l->off[k];
            /* a pair's padding is its own: an MPI may write it (MPICH does) */
            memset(data + e * l->extent + l->off[k], 1, l->kind == KDI ? sizeof(struct di) : bs);
            double want, got;
            int idx, gi = -1;
            expect(l, e0 + e, k, lo, hi, &want, &idx);
            if (l->kind == KINT) {
                int x;
                memcpy(&x, p, sizeof x);
                got = x;
            } else if (l->kind == KDBL) {
                memcpy(&got, p, sizeof got);
            } else {
                struct di x;
                memcpy(&x, p, bs);
                got = x.v, gi = x.i;
            }
            CHECK_MSG(got == want && gi == idx, "%s on %s: element %d.%d is %g (index %d), expected %g (index %d)",
                      what, l->name, e0 + e, k, got, gi, want, idx);
        }
    for (size_t i = 0; i < bytes; i++)
        CHECK_MSG(data[i] || (unsigned char)buf[i] == 0xa5, "%s on %s: gap byte %zu was written", what, l->name, i);
    free(data);
}

/* Whether the library refused the call (only allowed of a derived datatype outside skiff). */
static int refused(int rc, const struct layout *l, const char *what)
{
    if (rc == MPI_SUCCESS)
        return 0;
    int cls = -1;
    MPI_Error_class(rc, &cls);
#ifdef SKIFF_MPI
    TU_FAIL("%s on %s: error class %d", what, l->name, cls);
#endif
    CHECK_MSG(l->derived && (cls == MPI_ERR_OP || cls == MPI_ERR_TYPE), "%s on %s: error class %d", what, l->name,
              cls);
    refusals++;
    return 1;
}

static MPI_Op op_of(const struct layout *l)
{
    return l->kind == KDI ? MPI_MAXLOC : MPI_SUM;
}

static int wait_if(int rc, MPI_Request *req)
{
    return rc == MPI_SUCCESS ? MPI_Wait(req, MPI_STATUS_IGNORE) : rc;
}

enum form { BLOCKING, NONBLOCKING, PERSISTENT };
static const char *form_name[] = {"blocking", "nonblocking", "persistent"};

#if MPI_VERSION >= 4
#define HAVE_PERSISTENT 1
#endif

/* The persistent form starts twice: first on other data, then on the right data written into the same
 * buffers (and recvbuf spoiled), which the second start must pick up. */
static int allreduce_persistent(const struct layout *l, char *s, char *r, int n, int in_place, MPI_Comm on)
{
#ifdef HAVE_PERSISTENT
    MPI_Request req;
    size_t bytes = (size_t)(n + 1) * (size_t)l->extent;
    char *other = make(l, n, 0, rank + 100);
    char *right = make(l, n, 0, rank);
    memcpy(in_place ? r : s, other, bytes);
    int rc = MPI_Allreduce_init(in_place ? MPI_IN_PLACE : s, r, n, l->t, op_of(l), on, MPI_INFO_NULL, &req);
    if (rc == MPI_SUCCESS)
        rc = wait_if(MPI_Start(&req), &req);
    if (rc == MPI_SUCCESS) {
        if (in_place)
            memcpy(r, right, bytes);
        else
            memcpy(s, right, bytes), memset(r, 0xa5, (size_t)n * (size_t)l->extent); /* gaps stay 0xa5 */
        rc = wait_if(MPI_Start(&req), &req);
        MPI_Request_free(&req);
    }
    free(other);
    free(right);
    return rc;
#else
    (void)l, (void)s, (void)r, (void)n, (void)in_place, (void)on;
    return -1; /* no persistent collectives before MPI-4 */
#endif
}

static void allreduce(const struct layout *l, enum form f, int in_place)
{
    const int n = 3;
    char *s = make(l, n, 0, rank), *r = in_place ? make(l, n, 0, rank) : make(l, n, 0, -1000);
    const void *sb = in_place ? MPI_IN_PLACE : s;
    MPI_Request req;
    int rc;
    if (f == BLOCKING)
        rc = MPI_Allreduce(sb, r, n, l->t, op_of(l), comm);
    else if (f == NONBLOCKING)
        rc = wait_if(MPI_Iallreduce(sb, r, n, l->t, op_of(l), comm, &req), &req);
    else
        rc = allreduce_persistent(l, s, r, n, in_place, comm);
    if (rc != -1 && !refused(rc, l, "allreduce"))
        check(in_place ? "allreduce in place" : "allreduce", l, r, n, 0, 0, size - 1);
    free(s);
    free(r);
}

static void reduce(const struct layout *l, enum form f, int in_place)
{
    const int n = 3, root = size - 1;
    int me_root = rank == root;
    char *s = make(l, n, 0, rank), *r = me_root && in_place ? make(l, n, 0, rank) : make(l, n, 0, -1000);
    const void *sb = in_place && me_root ? MPI_IN_PLACE : s;
    MPI_Request req;
    int rc;
    if (f == BLOCKING)
        rc = MPI_Reduce(sb, r, n, l->t, op_of(l), root, comm);
    else if (f == NONBLOCKING)
        rc = wait_if(MPI_Ireduce(sb, r, n, l->t, op_of(l), root, comm, &req), &req);
    else {
#ifdef HAVE_PERSISTENT
        rc = MPI_Reduce_init(sb, r, n, l->t, op_of(l), root, comm, MPI_INFO_NULL, &req);
        if (rc == MPI_SUCCESS) {
            rc = MPI_Start(&req);
            rc = wait_if(rc, &req);
            MPI_Request_free(&req);
        }
#else
        rc = MPI_SUCCESS;
        free(s), free(r);
        return;
#endif
    }
    if (!refused(rc, l, "reduce")) {
        char *was = make(l, n, 0, -1000);
        if (me_root)
            check(in_place ? "reduce in place" : "reduce", l, r, n, 0, 0, size - 1);
        else /* recvbuf is the root's alone */
            CHECK_MSG(memcmp(r, was, (size_t)(n + 1) * (size_t)l->extent) == 0, "reduce on %s: a non-root's "
                      "recvbuf changed", l->name);
        free(was);
    }
    free(s);
    free(r);
}

/* Reduce_scatter_block: block elements per rank; Reduce_scatter: rank i gets i % 3 + 1. */
static void reduce_scatter(const struct layout *l, enum form f, int in_place, int vary)
{
    const int block = 2;
    int *counts = tu_malloc((size_t)size * sizeof *counts), total = 0, first = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = vary ? i % 3 + 1 : block;
        if (i < rank)
            first += counts[i];
        total += counts[i];
    }
    int mine = counts[rank];
    char *s = make(l, total, 0, rank), *r = in_place ? make(l, total, 0, rank) : make(l, mine, 0, -1000);
    const void *sb = in_place ? MPI_IN_PLACE : s;
    MPI_Request req;
    int rc;
    if (f == BLOCKING)
        rc = vary ? MPI_Reduce_scatter(sb, r, counts, l->t, op_of(l), comm)
                  : MPI_Reduce_scatter_block(sb, r, block, l->t, op_of(l), comm);
    else if (f == NONBLOCKING)
        rc = wait_if(vary ? MPI_Ireduce_scatter(sb, r, counts, l->t, op_of(l), comm, &req)
                          : MPI_Ireduce_scatter_block(sb, r, block, l->t, op_of(l), comm, &req),
                     &req);
    else {
#ifdef HAVE_PERSISTENT
        rc = vary ? MPI_Reduce_scatter_init(sb, r, counts, l->t, op_of(l), comm, MPI_INFO_NULL, &req)
                  : MPI_Reduce_scatter_block_init(sb, r, block, l->t, op_of(l), comm, MPI_INFO_NULL, &req);
        if (rc == MPI_SUCCESS) {
            rc = wait_if(MPI_Start(&req), &req);
            MPI_Request_free(&req);
        }
#else
        rc = MPI_SUCCESS;
        free(s), free(r), free(counts);
        return;
#endif
    }
    if (!refused(rc, l, "reduce_scatter")) {
        /* the result is this rank's block, global elements first..first+mine-1, at the start of recvbuf */
        size_t bytes = (size_t)(mine + 1) * (size_t)l->extent;
        char *res = tu_malloc(bytes);
        memcpy(res, r, bytes);
        if (in_place) /* beyond the result, recvbuf is scratch now: check only the result's elements */
            memset(res + (size_t)mine * (size_t)l->extent, 0xa5, (size_t)l->extent);
        check(vary ? "reduce_scatter" : "reduce_scatter_block", l, res, mine, first, 0, size - 1);
        free(res);
    }
    free(s);
    free(r);
    free(counts);
}

static void scan(const struct layout *l, enum form f, int in_place, int excl)
{
    const int n = 3;
    char *s = make(l, n, 0, rank), *r = in_place ? make(l, n, 0, rank) : make(l, n, 0, -1000);
    const void *sb = in_place ? MPI_IN_PLACE : s;
    MPI_Request req;
    int rc;
    if (f == BLOCKING)
        rc = excl ? MPI_Exscan(sb, r, n, l->t, op_of(l), comm) : MPI_Scan(sb, r, n, l->t, op_of(l), comm);
    else if (f == NONBLOCKING)
        rc = wait_if(excl ? MPI_Iexscan(sb, r, n, l->t, op_of(l), comm, &req)
                          : MPI_Iscan(sb, r, n, l->t, op_of(l), comm, &req),
                     &req);
    else {
#ifdef HAVE_PERSISTENT
        rc = excl ? MPI_Exscan_init(sb, r, n, l->t, op_of(l), comm, MPI_INFO_NULL, &req)
                  : MPI_Scan_init(sb, r, n, l->t, op_of(l), comm, MPI_INFO_NULL, &req);
        if (rc == MPI_SUCCESS) {
            rc = wait_if(MPI_Start(&req), &req);
            MPI_Request_free(&req);
        }
#else
        rc = MPI_SUCCESS;
        free(s), free(r);
        return;
#endif
    }
    if (!refused(rc, l, excl ? "exscan" : "scan") && !(excl && rank == 0))
        check(excl ? "exscan" : "scan", l, r, n, 0, 0, excl ? rank - 1 : rank);
    free(s);
    free(r);
}

/* inoutbuf = inbuf op inoutbuf, here rank 1's data onto rank 0's, on every rank. */
static void reduce_local(const struct layout *l)
{
    const int n = 3;
    char *in = make(l, n, 0, 1), *io = make(l, n, 0, 0);
    int rc = MPI_Reduce_local(in, io, n, l->t, op_of(l));
    if (!refused(rc, l, "reduce_local"))
        check("reduce_local", l, io, n, 0, 0, 1);
    free(in);
    free(io);
}

/* On an intercommunicator of the even and the odd world ranks, every process gets the reduction of the
 * other group's data: Allreduce (blocking, nonblocking, persistent), and Reduce to world rank 0 (MPI_ROOT in its group). */
static void inter(const struct layout *l, MPI_Comm ic)
{
    const int n = 3;
    char *s = make(l, n, 0, rank), *r = make(l, n, 0, -1000);
    MPI_Request req;
    parity = 1 - rank % 2;
    int rc = MPI_Allreduce(s, r, n, l->t, op_of(l), ic);
    if (!refused(rc, l, "intercommunicator allreduce"))
        check("intercommunicator allreduce", l, r, n, 0, 0, size - 1);
    free(r);
    r = make(l, n, 0, -1000);
    rc = wait_if(MPI_Iallreduce(s, r, n, l->t, op_of(l), ic, &req), &req);
    if (!refused(rc, l, "intercommunicator iallreduce"))
        check("intercommunicator iallreduce", l, r, n, 0, 0, size - 1);
    free(r);
    r = make(l, n, 0, -1000);
    rc = allreduce_persistent(l, s, r, n, 0, ic);
    if (rc != -1 && !refused(rc, l, "intercommunicator allreduce_init"))
        check("intercommunicator allreduce_init", l, r, n, 0, 0, size - 1);
    free(r);
    r = make(l, n, 0, -1000);
    int root = rank % 2 ? 0 : rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    rc = MPI_Reduce(s, r, n, l->t, op_of(l), root, ic);
    if (!refused(rc, l, "intercommunicator reduce") && rank == 0)
        check("intercommunicator reduce", l, r, n, 0, 0, size - 1);
    parity = -1;
    free(s);
    free(r);
}

static void run(const struct layout *l)
{
    for (int f = BLOCKING; f <= PERSISTENT; f++)
        for (int in_place = 0; in_place < 2; in_place++) {
            allreduce(l, (enum form)f, in_place);
            reduce(l, (enum form)f, in_place);
            reduce_scatter(l, (enum form)f, in_place, 0);
            reduce_scatter(l, (enum form)f, in_place, 1);
            scan(l, (enum form)f, in_place, 0);
            scan(l, (enum form)f, in_place, 1);
        }
    reduce_local(l);
    (void)form_name;
}

static struct layout layouts[8];
static int nlayouts;

static void add(struct layout l)
{
    if (l.derived)
        CHECK_MPI(MPI_Type_commit(&l.t));
    MPI_Aint lb, ext;
    CHECK_MPI(MPI_Type_get_extent(l.t, &lb, &ext));
    CHECK_MSG(lb == 0 && ext == l.extent, "%s: extent %ld, expected %ld", l.name, (long)ext, (long)l.extent);
    layouts[nlayouts++] = l;
}

static void build(void)
{
    MPI_Datatype t;
    add((struct layout){"MPI_INT", MPI_INT, KINT, 1, {0}, sizeof(int), 0});
    add((struct layout){"MPI_DOUBLE", MPI_DOUBLE, KDBL, 1, {0}, sizeof(double), 0});
    add((struct layout){"MPI_DOUBLE_INT", MPI_DOUBLE_INT, KDI, 1, {0}, sizeof(struct di), 0});
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &t));
    add((struct layout){"vector(3,1,2,int)", t, KINT, 3, {0, 8, 16}, 20, 1});
    int bl[2] = {2, 1}, dp[2] = {0, 4};
    CHECK_MPI(MPI_Type_indexed(2, bl, dp, MPI_INT, &t));
    add((struct layout){"indexed({2,1},{0,4},int)", t, KINT, 3, {0, 4, 16}, 20, 1});
    int sbl[2] = {1, 1};
    MPI_Aint sd[2] = {0, 16};
    MPI_Datatype st[2] = {MPI_DOUBLE, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(2, sbl, sd, st, &t));
    add((struct layout){"struct{double@0,double@16}", t, KDBL, 2, {0, 16}, 24, 1});
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_DOUBLE_INT, &t));
    add((struct layout){"vector(2,1,2,double_int)", t, KDI, 2, {0, 2 * (MPI_Aint)sizeof(struct di)},
                        3 * (MPI_Aint)sizeof(struct di), 1});
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)); /* MPI_Reduce_local's, MPI-3 */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));  /* and MPI-4 */
    build();
    for (int i = 0; i < nlayouts; i++)
        run(&layouts[i]);
    if (size >= 2) {
        MPI_Comm local, ic;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local));
        CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - rank % 2, 7, &ic));
        CHECK_MPI(MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN));
        for (int i = 0; i < nlayouts; i++)
            inter(&layouts[i], ic);
        CHECK_MPI(MPI_Comm_free(&ic));
        CHECK_MPI(MPI_Comm_free(&local));
    }
    for (int i = 0; i < nlayouts; i++)
        if (layouts[i].derived)
            CHECK_MPI(MPI_Type_free(&layouts[i].t));
    CHECK_MPI(MPI_Comm_free(&comm));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
#ifdef SKIFF_MPI
    CHECK_EQ(0, refusals);
#endif
    if (rank == 0 && refusals)
        printf("this MPI refused %d reductions on derived datatypes (MPI_ERR_OP)\n", refusals);
    return tu_finish("red_noncontig");
}
