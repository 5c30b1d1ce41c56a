/* skiff bench/coll.c — collective latency microbenchmark.
 *
 * Written against the MPI API only, so the same source builds with skiff, MPICH and Open MPI.
 * Any number of ranks (compare.sh runs 2, 4 and 8).
 *
 *   barrier   : back-to-back MPI_Barrier; usec per barrier
 *   bcast     : MPI_Bcast of <bytes> (MPI_BYTE) from root 0
 *   allreduce : MPI_Allreduce of <bytes>/8 doubles, MPI_SUM
 *   alltoall  : MPI_Alltoall with <bytes> per pair (MPI_BYTE), so each rank sends np*<bytes>
 *   iallreduce: MPI_Iallreduce + MPI_Wait, as allreduce        (only when --ops names it)
 *   pallreduce: MPI_Start + MPI_Wait of an MPI_Allreduce_init request made once per size, as
 *               allreduce: what a persistent collective saves per call (only when --ops names it;
 *               MPI-4 libraries only, others say so on stderr and print no line for it)
 *   nalltoall : MPI_Neighbor_alltoall with <bytes> per neighbour (MPI_BYTE) on a 2-D periodic
 *               Cartesian communicator (MPI_Dims_create(np, 2), no reordering): four neighbours,
 *               the halo exchange of a 2-D stencil code  (only when --ops names it)
 *   pnalltoall: MPI_Start + MPI_Wait of an MPI_Neighbor_alltoall_init request, as nalltoall
 *               (only when --ops names it; MPI-4 libraries only, as pallreduce)
 * Sizes 8 B, 1 KiB, 64 KiB, 1 MiB (barrier: 0).
 *
 * Method (as the OSU collective benchmarks): bcast/allreduce/alltoall time each call on its own,
 * with an untimed MPI_Barrier between calls so a fast root cannot run ahead into the next
 * iteration; barrier is timed as a back-to-back loop. Each rank averages its own times, and
 * the reported value is the MAXIMUM over ranks of that average (the collective is done when its
 * last rank is), in microseconds, lower is better.
 *
 * Iteration counts are adaptive: rank 0 doubles a trial count (1, 2, 4, ...) until one trial
 * lasts calib_s -- these trials are also the warm-up -- then picks a count for about target_s of
 * wall time *including* the untimed barriers (so a peer whose barrier takes 50 ms oversubscribed
 * does not turn 0.3 s of 3-us broadcasts into an hour), capped by --max-iters; every count is
 * broadcast, so all ranks run the same loop. A first call
 * checks the results (bcast payload, allreduce sum, alltoall blocks), so a broken library is not
 * benchmarked.
 *
 * Rank 0 prints only "coll <name> <np> <bytes> <usec>" lines on stdout; diagnostics go to stderr.
 *
 * Usage: coll [--quick] [--max-iters N] [--ops a,b,...] [--max-bytes B]
 *   --quick        about 10x shorter runs
 *   --max-iters N  at most N timed iterations per measurement (for slow oversubscribed peers)
 *   --ops LIST     subset of barrier,bcast,allreduce,alltoall,iallreduce,pallreduce,nalltoall,
 *                  pnalltoall
 *                  (default the first four)
 *   --max-bytes B  skip sizes above B
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const long sizes[] = {8, 1024, 64 << 10, 1 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

struct cfg {
    double target_s; /* wall time wanted per measurement */
    double calib_s;  /* calibration trials double until one lasts this long */
    long max_iters;
    long max_bytes;
};

static int rank, np;
static char *sbuf, *rbuf;
static double *dsend, *drecv;

static void die(const char *msg)
{
    fprintf(stderr, "coll: rank %d: %s\n", rank, msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    memset(p, 0, n ? n : 1); /* fault pages in before timing */
    return p;
}

enum op { BARRIER, BCAST, ALLREDUCE, ALLTOALL, IALLREDUCE, PALLREDUCE, NALLTOALL, PNALLTOALL, NOPS };
static const char *const op_names[NOPS] = {"barrier",    "bcast",      "allreduce", "alltoall",
                                           "iallreduce", "pallreduce", "nalltoall", "pnalltoall"};
#define NNEIGHBORS 4 /* a 2-D Cartesian grid: -x, +x, -y, +y */
#define NDEFAULT_OPS 4 /* what runs without --ops */

static MPI_Request persistent = MPI_REQUEST_NULL; /* pallreduce's, for the size being measured */
static MPI_Comm grid = MPI_COMM_NULL;              /* nalltoall's 2-D periodic grid */

/* One call of the collective. */
static void call(enum op op, long bytes)
{
    switch (op) {
    case BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    case BCAST:
        MPI_Bcast(sbuf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case ALLREDUCE:
        MPI_Allreduce(dsend, drecv, (int)(bytes / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    case IALLREDUCE: {
        MPI_Request r;
        MPI_Iallreduce(dsend, drecv, (int)(bytes / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        break;
    }
    case PALLREDUCE:
    case PNALLTOALL:
        MPI_Start(&persistent);
        MPI_Wait(&persistent, MPI_STATUS_IGNORE);
        break;
    case NALLTOALL:
        MPI_Neighbor_alltoall(sbuf, (int)bytes, MPI_BYTE, rbuf, (int)bytes, MPI_BYTE, grid);
        break;
    default:
        MPI_Alltoall(sbuf, (int)bytes, MPI_BYTE, rbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
        break;
    }
}

/* The persistent op's request for this size; 0 where the library has no persistent collectives. */
static int persistent_begin(enum op op, long bytes)
{
#if MPI_VERSION >= 4
    if (op == PNALLTOALL)
        return MPI_Neighbor_alltoall_init(sbuf, (int)bytes, MPI_BYTE, rbuf, (int)bytes, MPI_BYTE, grid,
                                          MPI_INFO_NULL, &persistent) == MPI_SUCCESS;
    return MPI_Allreduce_init(dsend, drecv, (int)(bytes / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &persistent) == MPI_SUCCESS;
#else
    (void)op;
    (void)bytes;
    return 0;
#endif
}

/* The grid rank's four neighbours in MPI_Neighbor_alltoall's order (dimension 0 -/+, then 1 -/+). */
static void grid_neighbors(int nb[NNEIGHBORS])
{
    for (int d = 0; d < 2; d++)
        MPI_Cart_shift(grid, d, 1, &nb[2 * d], &nb[2 * d + 1]);
}

/* n iterations. op: this rank's mean seconds per call (what is reported); wall: seconds for the
 * whole trial including the untimed barriers (what the iteration count is chosen from, so a
 * slow barrier cannot stretch a run of fast calls). */
struct trial {
    double op, wall;
};

static struct trial timed(enum op op, long bytes, long n)
{
    struct trial r;
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    if (op == BARRIER) {
        for (long i = 0; i < n; i++)
            MPI_Barrier(MPI_COMM_WORLD);
        r.wall = MPI_Wtime() - start;
        r.op = r.wall / (double)n;
        return r;
    }
    double sum = 0;
    for (long i = 0; i < n; i++) {
        double t0 = MPI_Wtime();
        call(op, bytes);
        sum += MPI_Wtime() - t0;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    r.wall = MPI_Wtime() - start;
    r.op = sum / (double)n;
    return r;
}

/* Max over ranks of both (everyone gets them). */
static struct trial slowest(struct trial t)
{
    double in[2] = {t.op, t.wall}, out[2] = {0, 0};
    MPI_Allreduce(in, out, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    t.op = out[0];
    t.wall = out[1];
    return t;
}

static long share(long n)
{
    MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    return n;
}

/* Set up the buffers for a check, run one call, verify. */
static void check_once(enum op op, long bytes)
{
    long i;
    switch (op) {
    case BCAST:
        for (i = 0; i < bytes; i++)
            sbuf[i] = rank == 0 ? (char)(i * 7 + 1) : 0;
        call(op, bytes);
        for (i = 0; i < bytes; i++)
            if (sbuf[i] != (char)(i * 7 + 1))
                die("bcast delivered wrong data");
        break;
    case ALLREDUCE:
    case IALLREDUCE:
    case PALLREDUCE:
        for (i = 0; i < bytes / 8; i++)
            dsend[i] = rank + 1 + (double)(i % 3);
        call(op, bytes);
        for (i = 0; i < bytes / 8; i++)
            if (drecv[i] != (double)np * (np + 1) / 2 + (double)np * (double)(i % 3))
                die("allreduce computed a wrong sum");
        break;
    case NALLTOALL:
    case PNALLTOALL: {
        /* Block k goes to neighbour k, which receives it in its block for the opposite direction
         * (k ^ 1); the byte names sender and direction, so a swapped block is caught. */
        int nb[NNEIGHBORS], me;
        MPI_Comm_rank(grid, &me);
        grid_neighbors(nb);
        for (int k = 0; k < NNEIGHBORS; k++)
            memset(sbuf + (size_t)k * (size_t)bytes, (me * 8 + k) & 0x7f, (size_t)bytes);
        call(op, bytes);
        for (int k = 0; k < NNEIGHBORS; k++)
            for (i = 0; i < bytes; i++)
                if (rbuf[(size_t)k * (size_t)bytes + (size_t)i] != (char)((nb[k] * 8 + (k ^ 1)) & 0x7f))
                    die("neighbor_alltoall delivered a wrong block");
        break;
    }
    case ALLTOALL:
        for (int p = 0; p < np; p++)
            memset(sbuf + (size_t)p * (size_t)bytes, (rank * 16 + p) & 0x7f, (size_t)bytes);
        call(op, bytes);
        for (int p = 0; p < np; p++)
            for (i = 0; i < bytes; i++)
                if (rbuf[(size_t)p * (size_t)bytes + (size_t)i] != (char)((p * 16 + rank) & 0x7f))
                    die("alltoall delivered a wrong block");
        break;
    default:
        call(op, bytes);
        break;
    }
}

static void measure(const struct cfg *c, enum op op, long bytes)
{
    if ((op == PALLREDUCE || op == PNALLTOALL) && !persistent_begin(op, bytes)) {
        if (rank == 0)
            fprintf(stderr, "%s: this library has no persistent collectives (MPI %d)\n", op_names[op], MPI_VERSION);
        return;
    }
    check_once(op, bytes);
    /* Calibration doubles as the warm-up: trials of 1, 2, 4, ... iterations until one lasts
     * calib_s (or would exceed max_iters); rank 0 decides from the slowest rank's time. */
    long n = 1;
    struct trial t;
    for (;;) {
        t = slowest(timed(op, bytes, n));
        long next = share(t.wall < c->calib_s && 2 * n <= c->max_iters ? 2 * n : 0);
        if (next == 0)
            break;
        n = next;
    }
    long iters = (long)(c->target_s * (double)n / (t.wall > 0 ? t.wall : 1e-9));
    if (iters < 1)
        iters = 1;
    if (iters > c->max_iters)
        iters = c->max_iters;
    iters = share(iters);
    t = slowest(timed(op, bytes, iters));
    if (rank == 0) {
        printf("coll %s %d %ld %.3f\n", op_names[op], np, op == BARRIER ? 0 : bytes, t.op * 1e6);
        fflush(stdout);
    }
    if (persistent != MPI_REQUEST_NULL)
        MPI_Request_free(&persistent);
}

static int want_op(const char *list, const char *name)
{
    if (!list) {
        for (int i = 0; i < NDEFAULT_OPS; i++)
            if (strcmp(name, op_names[i]) == 0)
                return 1;
        return 0;
    }
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    static const struct cfg normal = {.target_s = 0.3, .calib_s = 0.03, .max_iters = 1000000,
                                      .max_bytes = 1 << 20};
    static const struct cfg quick = {.target_s = 0.03, .calib_s = 0.005, .max_iters = 1000000,
                                     .max_bytes = 1 << 20};
    struct cfg c = normal;
    const char *ops = NULL;
    long max_iters = 0, max_bytes = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            c = quick;
        } else if (strcmp(argv[i], "--max-iters") == 0 && i + 1 < argc) {
            max_iters = atol(argv[++i]);
        } else if (strcmp(argv[i], "--max-bytes") == 0 && i + 1 < argc) {
            max_bytes = atol(argv[++i]);
        } else if (strcmp(argv[i], "--ops") == 0 && i + 1 < argc) {
            ops = argv[++i];
        } else {
            if (rank == 0)
                fprintf(stderr, "usage: %s [--quick] [--max-iters N] [--ops LIST] "
                                "[--max-bytes B]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    if (max_iters > 0)
        c.max_iters = max_iters;
    if (max_bytes > 0)
        c.max_bytes = max_bytes;

    long top = 0;
    for (int s = 0; s < NSIZES; s++)
        if (sizes[s] <= c.max_bytes && sizes[s] > top)
            top = sizes[s];
    size_t blocks = (size_t)(np > NNEIGHBORS ? np : NNEIGHBORS);
    sbuf = xmalloc((size_t)top * blocks);
    rbuf = xmalloc((size_t)top * blocks);
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Dims_create(np, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    dsend = xmalloc((size_t)top);
    drecv = xmalloc((size_t)top);

    if (want_op(ops, "barrier"))
        measure(&c, BARRIER, 0);
    for (int op = BCAST; op < NOPS; op++) {
        if (!want_op(ops, op_names[op]))
            continue;
        for (int s = 0; s < NSIZES; s++)
            if (sizes[s] <= c.max_bytes)
                measure(&c, (enum op)op, sizes[s]);
    }
    MPI_Comm_free(&grid);
    free(sbuf);
    free(rbuf);
    free(dsend);
    free(drecv);
    MPI_Finalize();
    return 0;
}
