/* Every rank at once: --pattern's loops and the plumbing --pairs shares with them. Rank 0 decides
 * every job (MPI_Bcast), every rank times its own loop after a common MPI_Barrier, and rank 0 gathers
 * the times, failures and CPU figures after the run (outside every clock).
 *
 * Patterns (docs/skiff-pipe.md): in each step every rank posts an MPI_Irecv per incoming and an
 * MPI_Isend per outgoing message of `bytes`, then one MPI_Waitall:
 *   ring         to rank+1, from rank-1 (mod np)
 *   bisection    with (rank + np/2) mod np, both ways (np even)
 *   alltoall     to and from every other rank (point-to-point, not MPI_Alltoall)
 *   neighbour2d  with the 4 neighbours on a periodic grid of MPI_Dims_create(np, 2), row-major */
#include "skiff_pipe_mpi.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_BASE = 20, NFIELDS = 7 };

struct pat_ctx {
    int rank, np, nout, nin;
    int *to, *from, *tag_out, *tag_in, *flow_out, *flow_in;
    struct pipe_buf sbuf, rbuf;
    MPI_Request *req;
    MPI_Status *st; /* not MPI_STATUSES_IGNORE: MPICH's (pointer 1) trips gcc's -Wstringop-overflow */
    unsigned char **rp;
    int check, corrupt;
    char who[40];
    struct pipe_work *work;
    int with_work;
};

void pipe_mpi_agree_all(void *ctx, struct pipe_job *job)
{
    (void)ctx;
    long long v[2] = {job->bytes, job->reps};
    MPI_Bcast(v, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    job->bytes = v[0];
    job->reps = v[1];
}

struct pipe_result pipe_mpi_gather(const struct pipe_result *mine, int timed)
{
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    double v[NFIELDS] = {timed ? mine->seconds : -1, mine->comm_seconds, mine->work_seconds, (double)mine->failures,
                         mine->cpu[0].user, mine->cpu[0].sys, mine->cpu[0].wall};
    double *all = rank == 0 ? malloc((size_t)np * NFIELDS * sizeof *all) : NULL;
    if (rank == 0 && !all) {
        fprintf(stderr, "skiff-pipe: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gather(v, NFIELDS, MPI_DOUBLE, all, NFIELDS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank != 0)
        return *mine;
    struct pipe_result r;
    memset(&r, 0, sizeof r);
    int flows = 0, busiest = 0;
    for (int i = 0; i < np; i++) {
        const double *a = all + (size_t)i * NFIELDS;
        if (a[0] >= 0) {
            flows++;
            r.mean_seconds += a[0];
            if (a[0] > r.seconds)
                r.seconds = a[0];
            if (a[1] > r.comm_seconds)
                r.comm_seconds = a[1];
            if (a[2] > r.work_seconds)
                r.work_seconds = a[2];
        }
        r.failures += (long)a[3];
        r.cpu[0].user += a[4] / np;
        r.cpu[0].sys += a[5] / np;
        r.cpu[0].wall += a[6] / np;
        const double *b = all + (size_t)busiest * NFIELDS;
        if (a[4] + a[5] > b[4] + b[5])
            busiest = i;
    }
    const double *b = all + (size_t)busiest * NFIELDS;
    r.cpu[1].user = b[4];
    r.cpu[1].sys = b[5];
    r.cpu[1].wall = b[6];
    r.mean_seconds = flows ? r.mean_seconds / flows : 0;
    free(all);
    return r;
}

/* One step of the pattern, reps times; this rank's time from the common start. */
static double steps(struct pat_ctx *c, size_t bytes, long reps, long *fails)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++) {
        for (int k = 0; k < c->nin; k++) {
            c->rp[k] = pipe_buf_next(&c->rbuf, bytes);
            if (c->check)
                pipe_clear(c->rp[k], bytes);
            MPI_Irecv(c->rp[k], (int)bytes, MPI_BYTE, c->from[k], TAG_BASE + c->tag_in[k], MPI_COMM_WORLD, &c->req[k]);
        }
        for (int k = 0; k < c->nout; k++) {
            unsigned char *p = pipe_buf_next(&c->sbuf, bytes);
            if (c->check)
                pipe_fill(p, bytes, i, c->flow_out[k]);
            MPI_Isend(p, (int)bytes, MPI_BYTE, c->to[k], TAG_BASE + c->tag_out[k], MPI_COMM_WORLD, &c->req[c->nin + k]);
        }
        if (c->with_work)
            pipe_work_do(c->work);
        MPI_Waitall(c->nin + c->nout, c->req, c->st);
        for (int k = 0; c->check && k < c->nin; k++)
            *fails += pipe_check_received(c->rp[k], bytes, i, c->flow_in[k], c->who, c->corrupt && k == 0);
    }
    return MPI_Wtime() - t0;
}

static struct pipe_result pat_run(void *ctx, const struct pipe_job *job)
{
    struct pat_ctx *c = ctx;
    struct pipe_result res;
    memset(&res, 0, sizeof res);
    size_t bytes = (size_t)job->bytes;
    long reps = (long)job->reps;
    if (c->work) { /* the steps alone, the work alone, then both (the result) */
        c->with_work = 0;
        res.comm_seconds = steps(c, bytes, reps, &res.failures);
        if (c->work->automatic && reps > 0)
            pipe_work_match(c->work, res.comm_seconds / (double)reps);
        double t0 = MPI_Wtime();
        for (long i = 0; i < reps; i++)
            pipe_work_do(c->work);
        res.work_seconds = MPI_Wtime() - t0;
        pipe_work_observed(c->work, res.work_seconds, reps);
        c->with_work = 1;
    }
    pipe_cpu_now(&res.cpu[0]);
    res.seconds = steps(c, bytes, reps, &res.failures);
    pipe_cpu_since(&res.cpu[0]);
    return pipe_mpi_gather(&res, 1);
}

/* Integrity directions: one number per (sender, receiver, direction slot). */
static int flow_id(int from, int to, int slot, int np)
{
    return (from * np + to) * 4 + slot;
}

static void add_flow(struct pat_ctx *c, int peer, int tag_out, int tag_in)
{
    int k = c->nout++;
    c->nin++;
    c->to[k] = c->from[k] = peer;
    c->tag_out[k] = tag_out;
    c->tag_in[k] = tag_in;
    c->flow_out[k] = flow_id(c->rank, peer, tag_out, c->np);
    c->flow_in[k] = flow_id(peer, c->rank, tag_in, c->np);
}

/* The peers of this rank; returns 0, or -1 with a message (rank 0) if the pattern needs another np. */
static int neighbours(struct pat_ctx *c, enum pipe_pattern p)
{
    int r = c->rank, np = c->np;
    switch (p) {
    case PIPE_PAT_RING: /* out to r+1, in from r-1: one flow each, different peers */
        c->nout = c->nin = 1;
        c->to[0] = (r + 1) % np;
        c->from[0] = (r - 1 + np) % np;
        c->tag_out[0] = c->tag_in[0] = 0;
        c->flow_out[0] = flow_id(r, c->to[0], 0, np);
        c->flow_in[0] = flow_id(c->from[0], r, 0, np);
        return 0;
    case PIPE_PAT_BISECTION:
        if (np % 2) {
            if (r == 0)
                fprintf(stderr, "skiff-pipe: --pattern bisection needs an even number of ranks, not %d\n", np);
            return -1;
        }
        add_flow(c, (r + np / 2) % np, 0, 0);
        return 0;
    case PIPE_PAT_ALLTOALL:
        for (int k = 1; k < np; k++) {
            int i = c->nout++;
            c->nin++;
            c->to[i] = (r + k) % np;
            c->from[i] = (r - k + np) % np;
            c->tag_out[i] = c->tag_in[i] = 0;
            c->flow_out[i] = flow_id(r, c->to[i], 0, np);
            c->flow_in[i] = flow_id(c->from[i], r, 0, np);
        }
        return 0;
    case PIPE_PAT_NEIGHBOUR2D: {
        int dims[2] = {0, 0};
        MPI_Dims_create(np, 2, dims);
        int rows = dims[0], cols = dims[1], row = r / cols, col = r % cols;
        /* directions 0 west, 1 east, 2 north, 3 south; a message sent east arrives from the west */
        int peer[4] = {row * cols + (col + cols - 1) % cols, row * cols + (col + 1) % cols,
                       ((row + rows - 1) % rows) * cols + col, ((row + 1) % rows) * cols + col};
        static const int opposite[4] = {1, 0, 3, 2};
        for (int d = 0; d < 4; d++)
            add_flow(c, peer[d], d, opposite[d]);
        return 0;
    }
    case PIPE_PAT_NONE:
        break;
    }
    return -1;
}

static int alloc_ctx(struct pat_ctx *c, int np)
{
    int **arrays[6] = {&c->to, &c->from, &c->tag_out, &c->tag_in, &c->flow_out, &c->flow_in};
    int ok = 1;
    for (int i = 0; i < 6; i++)
        ok &= (*arrays[i] = calloc((size_t)np + 4, sizeof(int))) != NULL;
    c->req = calloc(2 * ((size_t)np + 4), sizeof *c->req);
    c->st = calloc(2 * ((size_t)np + 4), sizeof *c->st);
    c->rp = calloc((size_t)np + 4, sizeof *c->rp);
    return ok && c->req && c->st && c->rp ? 0 : -1;
}

static void free_ctx(struct pat_ctx *c)
{
    free(c->to);
    free(c->from);
    free(c->tag_out);
    free(c->tag_in);
    free(c->flow_out);
    free(c->flow_in);
    free(c->req);
    free(c->st);
    free(c->rp);
    pipe_buf_free(&c->sbuf);
    pipe_buf_free(&c->rbuf);
}

int pipe_pattern_main(const struct pipe_opts *o, const char *what, struct pipe_work *work)
{
    struct pat_ctx c;
    memset(&c, 0, sizeof c);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.np);
    c.check = o->integrity;
    c.corrupt = c.rank == 1 && o->integrity && pipe_corrupt_requested();
    c.work = work;
    snprintf(c.who, sizeof c.who, "rank %d received", c.rank);
    int bad = 0, any;
    if (c.np < 2) {
        if (c.rank == 0)
            fprintf(stderr, "skiff-pipe: --pattern needs at least 2 ranks, not %d\n", c.np);
        bad = 2;
    } else if (alloc_ctx(&c, c.np) != 0) {
        fprintf(stderr, "skiff-pipe: out of memory\n");
        bad = 1;
    } else if (neighbours(&c, o->pattern) != 0) {
        bad = 2;
    } else if (pipe_buf_init(&c.sbuf, o->end, o->soffset, 0, c.nout) != 0 ||
               pipe_buf_init(&c.rbuf, o->end, o->roffset, 0, c.nin) != 0) {
        bad = 1;
    }
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int rc = any;
    if (!any) {
        struct pipe_link l = {.ctx = &c, .leader = c.rank == 0, .agree = pipe_mpi_agree_all, .run = pat_run,
                              .legs = 1, .dirs = c.nout, .check = o->integrity, .flows = c.np,
                              .workload = work != NULL};
        if (c.rank != 0)
            pipe_follow(&l);
        else
            rc = pipe_measure(&l, o, what);
    }
    free_ctx(&c);
    return c.rank == 0 ? rc : 0;
}
