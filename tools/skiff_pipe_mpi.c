/* The MPI link: two ranks, rank 0 leads (decides, times, writes), rank 1 follows. MPI's default error
 * handler (errors are fatal) stands in for checking return codes: a failed call ends the job. */
#include "skiff_pipe_mpi.h"

#include <mpi.h>
#include <string.h>

enum { TAG_JOB = 1, TAG_READY, TAG_DATA, TAG_ACK, TAG_RESULT };

struct mpi_ctx {
    MPI_Comm comm;       /* MPI_COMM_WORLD, or with --pairs this pair's own communicator */
    int rank, peer;      /* in comm: rank 0 leads */
    int dir_out, dir_in; /* integrity pattern of what this rank sends / receives: the sender's world rank */
    enum pipe_mode mode;
    int async, check, corrupt;
    struct pipe_buf sbuf, rbuf;
    const char *who; /* names the receiver in integrity notes */
    int all_start;   /* --pairs: every pair starts together (MPI_Barrier on MPI_COMM_WORLD) */
    struct pipe_work *work; /* --workload, else NULL */
    int with_work;   /* this run computes between each exchange's start and its wait */
};

static void mpi_agree(void *ctx, struct pipe_job *job)
{
    struct mpi_ctx *c = ctx;
    long long v[2] = {job->bytes, job->reps};
    if (c->rank == 0) {
        MPI_Send(v, 2, MPI_LONG_LONG, 1, TAG_JOB, c->comm);
        return;
    }
    MPI_Recv(v, 2, MPI_LONG_LONG, 0, TAG_JOB, c->comm, MPI_STATUS_IGNORE);
    job->bytes = v[0];
    job->reps = v[1];
}

/* Both sides are in the loop before the clock starts: the follower says it is ready (after posting
 * its first receive with --async), the leader waits for that. Returns the leader's start time. */
static double start(struct mpi_ctx *c)
{
    if (c->rank == 1) {
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, c->comm);
        return c->work ? MPI_Wtime() : 0; /* --workload auto sizes the follower's work by its own time */
    }
    MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_READY, c->comm, MPI_STATUS_IGNORE);
    return MPI_Wtime();
}

static unsigned char *recv_slot(struct mpi_ctx *c, size_t bytes)
{
    unsigned char *p = pipe_buf_next(&c->rbuf, bytes);
    if (c->check)
        pipe_clear(p, bytes);
    return p;
}

static unsigned char *send_slot(struct mpi_ctx *c, size_t bytes, long rep)
{
    unsigned char *p = pipe_buf_next(&c->sbuf, bytes);
    if (c->check)
        pipe_fill(p, bytes, rep, c->dir_out);
    return p;
}

static long got(struct mpi_ctx *c, unsigned char *p, size_t bytes, long rep)
{
    return c->check ? pipe_check_received(p, bytes, rep, c->dir_in, c->who, c->corrupt) : 0;
}

/* --async: the next receive, posted ahead of its message. */
static unsigned char *post(struct mpi_ctx *c, size_t bytes, MPI_Request *req)
{
    unsigned char *p = recv_slot(c, bytes);
    MPI_Irecv(p, (int)bytes, MPI_BYTE, c->peer, TAG_DATA, c->comm, req);
    return p;
}

/* The next message: the pre-posted receive's buffer, or a blocking receive's. */
static unsigned char *receive(struct mpi_ctx *c, size_t bytes, unsigned char *posted, MPI_Request *req)
{
    if (c->async) {
        MPI_Wait(req, MPI_STATUS_IGNORE);
        return posted;
    }
    unsigned char *p = recv_slot(c, bytes);
    MPI_Recv(p, (int)bytes, MPI_BYTE, c->peer, TAG_DATA, c->comm, MPI_STATUS_IGNORE);
    return p;
}

static void send_msg(struct mpi_ctx *c, size_t bytes, long rep)
{
    MPI_Send(send_slot(c, bytes, rep), (int)bytes, MPI_BYTE, c->peer, TAG_DATA, c->comm);
}

/* Rank 0 sends, rank 1 sends back: the leader times whole round trips. */
static long pingpong(struct mpi_ctx *c, size_t bytes, long reps, double *secs)
{
    MPI_Request req = MPI_REQUEST_NULL;
    unsigned char *r = c->async ? post(c, bytes, &req) : NULL;
    long fails = 0;
    double t0 = start(c);
    for (long i = 0; i < reps; i++) {
        if (c->rank == 0)
            send_msg(c, bytes, i);
        r = receive(c, bytes, r, &req);
        fails += got(c, r, bytes, i);
        if (c->async && i + 1 < reps)
            r = post(c, bytes, &req);
        if (c->rank == 1)
            send_msg(c, bytes, i);
    }
    *secs = MPI_Wtime() - t0;
    return fails;
}

/* Rank 0 sends reps messages back to back, rank 1 acknowledges the last one. */
static long stream(struct mpi_ctx *c, size_t bytes, long reps, double *secs)
{
    MPI_Request req = MPI_REQUEST_NULL;
    unsigned char *r = c->rank == 1 && c->async ? post(c, bytes, &req) : NULL;
    long fails = 0;
    double t0 = start(c);
    for (long i = 0; i < reps; i++) {
        if (c->rank == 0 && c->work) { /* --workload: the sender computes while its message is in flight */
            MPI_Request sreq;
            MPI_Isend(send_slot(c, bytes, i), (int)bytes, MPI_BYTE, c->peer, TAG_DATA, c->comm, &sreq);
            if (c->with_work)
                pipe_work_do(c->work);
            MPI_Wait(&sreq, MPI_STATUS_IGNORE);
            continue;
        }
        if (c->rank == 0) {
            send_msg(c, bytes, i);
            continue;
        }
        unsigned char *cur = receive(c, bytes, r, &req);
        if (c->async && i + 1 < reps)
            r = post(c, bytes, &req); /* the other slot: cur is still being checked */
        fails += got(c, cur, bytes, i);
    }
    if (c->rank == 0)
        MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_ACK, c->comm, MPI_STATUS_IGNORE);
    else
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_ACK, c->comm);
    *secs = MPI_Wtime() - t0;
    return fails;
}

/* Both ranks send and receive at once, reps times. */
static long bidir(struct mpi_ctx *c, size_t bytes, long reps, double *secs)
{
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: MPICH's (pointer 1) trips gcc's -Wstringop-overflow */
    unsigned char *r = c->async ? post(c, bytes, &req[0]) : NULL;
    long fails = 0;
    double t0 = start(c);
    for (long i = 0; i < reps; i++) {
        if (!c->async)
            r = post(c, bytes, &req[0]);
        MPI_Isend(send_slot(c, bytes, i), (int)bytes, MPI_BYTE, c->peer, TAG_DATA, c->comm, &req[1]);
        if (c->with_work)
            pipe_work_do(c->work); /* --workload: computation while both transfers are in flight */
        MPI_Waitall(2, req, st);
        fails += got(c, r, bytes, i);
        if (c->async && i + 1 < reps)
            r = post(c, bytes, &req[0]);
    }
    *secs = MPI_Wtime() - t0;
    return fails;
}

/* One run of the mode's loop with this rank's CPU time around it (outside the timed loop). */
static struct pipe_result run_once(struct mpi_ctx *c, const struct pipe_job *job)
{
    struct pipe_result res;
    memset(&res, 0, sizeof res);
    size_t bytes = (size_t)job->bytes;
    if (c->all_start)
        MPI_Barrier(MPI_COMM_WORLD);
    pipe_cpu_now(&res.cpu[0]);
    if (c->mode == PIPE_PINGPONG)
        res.failures = pingpong(c, bytes, (long)job->reps, &res.seconds);
    else if (c->mode == PIPE_STREAM)
        res.failures = stream(c, bytes, (long)job->reps, &res.seconds);
    else
        res.failures = bidir(c, bytes, (long)job->reps, &res.seconds);
    pipe_cpu_since(&res.cpu[0]);
    res.mean_seconds = res.seconds;
    return res;
}

/* --workload: the exchanges alone, the work alone (no MPI), then both; the last is the result (its
 * time and CPU), the first two its comm_ and work_seconds. */
static struct pipe_result run_measured(struct mpi_ctx *c, const struct pipe_job *job)
{
    if (!c->work)
        return run_once(c, job);
    c->with_work = 0;
    struct pipe_result comm = run_once(c, job);
    if (c->work->automatic && job->reps > 0)
        pipe_work_match(c->work, comm.seconds / (double)job->reps);
    double t0 = MPI_Wtime();
    for (long long i = 0; i < job->reps; i++)
        pipe_work_do(c->work);
    double work = MPI_Wtime() - t0;
    pipe_work_observed(c->work, work, job->reps);
    c->with_work = 1;
    struct pipe_result res = run_once(c, job);
    res.comm_seconds = comm.seconds;
    res.work_seconds = work;
    res.failures += comm.failures;
    return res;
}

/* Two ranks: the follower's failures and CPU go to the leader after the run, outside its clock. */
static struct pipe_result mpi_run(void *ctx, const struct pipe_job *job)
{
    struct mpi_ctx *c = ctx;
    struct pipe_result res = run_measured(c, job);
    double v[4] = {(double)res.failures, res.cpu[0].user, res.cpu[0].sys, res.cpu[0].wall};
    if (c->rank == 1) {
        MPI_Send(v, 4, MPI_DOUBLE, 0, TAG_RESULT, c->comm);
        return res;
    }
    MPI_Recv(v, 4, MPI_DOUBLE, 1, TAG_RESULT, c->comm, MPI_STATUS_IGNORE);
    res.failures += (long)v[0];
    res.cpu[1].user = v[1];
    res.cpu[1].sys = v[2];
    res.cpu[1].wall = v[3];
    return res;
}

/* --pairs: every pair runs at once; results meet at world rank 0 (pair 0's leader). */
static struct pipe_result pairs_run(void *ctx, const struct pipe_job *job)
{
    struct mpi_ctx *c = ctx;
    struct pipe_result res = run_measured(c, job);
    return pipe_mpi_gather(&res, c->rank == 0);
}

/* "MPI (skiff 0.1.0)", "MPI (Open MPI v4.1.4)": the version's first line up to a comma or parenthesis. */
static void describe(char *out, size_t len)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    MPI_Get_library_version(v, &n);
    v[strcspn(v, "\n,(")] = 0;
    char *w = v;
    for (char *r = v; *r; r++) /* tabs and runs of blanks become one space */
        if ((*r != ' ' && *r != '\t') || (w > v && w[-1] != ' '))
            *w++ = (*r == '\t') ? ' ' : *r;
    while (w > v && w[-1] == ' ')
        w--;
    *w = 0;
    snprintf(out, len, "MPI (%.48s)", v);
}

/* Buffers on every rank; every rank learns whether all succeeded. */
static int setup(struct mpi_ctx *c, const struct pipe_opts *o)
{
    size_t window = o->nocache ? pipe_window(o) : 0;
    /* Only a pre-posted stream has two receives pending (the next one while the last is checked);
     * everywhere else one receive buffer keeps the footprint that of one message. */
    int rslots = o->async && o->mode == PIPE_STREAM ? 2 : 1;
    int bad = pipe_buf_init(&c->sbuf, o->end, o->soffset, window, 1) != 0 ||
              pipe_buf_init(&c->rbuf, o->end, o->roffset, window, rslots) != 0;
    int any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

/* Every rank runs the same loop; only world rank 0 talks. */
static int session(struct mpi_ctx *c, const struct pipe_opts *o, const char *what, int world_rank, int np)
{
    struct pipe_link l = {.ctx = c, .leader = world_rank == 0, .agree = mpi_agree, .run = mpi_run,
                          .legs = o->mode == PIPE_PINGPONG ? 2 : 1, .dirs = o->mode == PIPE_BIDIR ? 2 : 1,
                          .check = o->integrity, .workload = c->work != NULL};
    if (o->pairs) {
        l.agree = pipe_mpi_agree_all;
        l.run = pairs_run;
        l.flows = np / 2;
    }
    if (world_rank != 0) {
        pipe_follow(&l);
        return 0;
    }
    return pipe_measure(&l, o, what);
}

/* --pairs: rank i and np-1-i (NetPIPE 5's pairing), the lower one leading, on a communicator of their
 * own, so the two-rank loops run unchanged and no pair can receive another's messages. */
static void pair_up(struct mpi_ctx *c, int rank, int np)
{
    int partner = np - 1 - rank, lower = rank < partner ? rank : partner;
    MPI_Comm_split(MPI_COMM_WORLD, lower, rank == lower ? 0 : 1, &c->comm);
    c->rank = rank == lower ? 0 : 1;
    c->peer = 1 - c->rank;
    c->dir_out = rank;
    c->dir_in = partner;
    c->all_start = 1;
}

static const char *RECEIVED[2] = {"rank 0 received", "rank 1 received"};

int pipe_mpi_main(int argc, char **argv, const struct pipe_opts *o)
{
    int rank, size, rc = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct pipe_work work = {0, 0, 0, 0};
    char what[200], desc[80];
    describe(desc, sizeof desc);
    if (o->workload > 0)
        pipe_work_calibrate(&work, o->workload); /* before anything is timed, on every rank */
    int n = snprintf(what, sizeof what, "%s", desc);
    if (o->pairs)
        n += snprintf(what + n, sizeof what - (size_t)n, ", %d pairs at once (rank i with %d-i)", size / 2, size - 1);
    if (o->pattern)
        n += snprintf(what + n, sizeof what - (size_t)n, ", %d ranks", size);
    work.automatic = o->workload_auto;
    if (o->workload_auto)
        snprintf(what + n, sizeof what - (size_t)n, ", workload auto (daxpy as long as each exchange alone, "
                 "%.1f ns per pass of 512 doubles on rank 0)", work.pass_ns);
    else if (o->workload > 0)
        snprintf(what + n, sizeof what - (size_t)n, ", workload %g us (%ld daxpy passes of 512 doubles on rank 0)",
                 o->workload, work.passes);
    if (o->rma) {
        rc = pipe_rma_main(o, what);
        MPI_Finalize();
        return rc;
    }
    if (o->pattern) {
        rc = pipe_pattern_main(o, what, o->workload > 0 ? &work : NULL);
        MPI_Finalize();
        return rc;
    }
    struct mpi_ctx c;
    memset(&c, 0, sizeof c);
    c.comm = MPI_COMM_WORLD;
    c.rank = rank;
    c.peer = 1 - rank;
    c.dir_out = rank;
    c.dir_in = 1 - rank;
    c.mode = o->mode;
    c.async = o->async;
    c.check = o->integrity;
    c.work = o->workload > 0 ? &work : NULL;
    int ok_size = o->pairs ? size >= 2 && size % 2 == 0 : size == 2;
    if (!ok_size) {
        if (rank == 0)
            fprintf(stderr, "skiff-pipe: %s, not %d\n",
                    o->pairs ? "--pairs needs an even number of ranks" : "needs exactly 2 ranks (mpiexec -n 2)", size);
        rc = 2;
    } else {
        if (o->pairs)
            pair_up(&c, rank, size);
        c.corrupt = c.rank == 1 && o->integrity && pipe_corrupt_requested();
        c.who = RECEIVED[c.rank];
        if (setup(&c, o) == 0)
            rc = session(&c, o, what, rank, size);
    }
    pipe_buf_free(&c.sbuf);
    pipe_buf_free(&c.rbuf);
    if (c.comm != MPI_COMM_WORLD)
        MPI_Comm_free(&c.comm);
    MPI_Finalize();
    return rc;
}
