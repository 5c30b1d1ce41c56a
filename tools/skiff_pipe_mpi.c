/* The MPI link: two ranks, rank 0 leads (decides, times, writes), rank 1 follows. MPI's default error
 * handler (errors are fatal) stands in for checking return codes: a failed call ends the job. */
#include "skiff_pipe.h"

#include <mpi.h>
#include <string.h>

enum { TAG_JOB = 1, TAG_READY, TAG_DATA, TAG_ACK, TAG_FAILURES };

struct mpi_ctx {
    int rank, peer;
    enum pipe_mode mode;
    int async, check, corrupt;
    struct pipe_buf sbuf, rbuf;
    const char *who; /* names the receiver in integrity notes */
};

static void mpi_agree(void *ctx, struct pipe_job *job)
{
    struct mpi_ctx *c = ctx;
    long long v[2] = {job->bytes, job->reps};
    if (c->rank == 0) {
        MPI_Send(v, 2, MPI_LONG_LONG, 1, TAG_JOB, MPI_COMM_WORLD);
        return;
    }
    MPI_Recv(v, 2, MPI_LONG_LONG, 0, TAG_JOB, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    job->bytes = v[0];
    job->reps = v[1];
}

/* Both sides are in the loop before the clock starts: the follower says it is ready (after posting
 * its first receive with --async), the leader waits for that. Returns the leader's start time. */
static double start(struct mpi_ctx *c)
{
    if (c->rank == 1) {
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD);
        return 0;
    }
    MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
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
        pipe_fill(p, bytes, rep, c->rank);
    return p;
}

static long got(struct mpi_ctx *c, unsigned char *p, size_t bytes, long rep)
{
    return c->check ? pipe_check_received(p, bytes, rep, c->peer, c->who, c->corrupt) : 0;
}

/* --async: the next receive, posted ahead of its message. */
static unsigned char *post(struct mpi_ctx *c, size_t bytes, MPI_Request *req)
{
    unsigned char *p = recv_slot(c, bytes);
    MPI_Irecv(p, (int)bytes, MPI_BYTE, c->peer, TAG_DATA, MPI_COMM_WORLD, req);
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
    MPI_Recv(p, (int)bytes, MPI_BYTE, c->peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return p;
}

static void send_msg(struct mpi_ctx *c, size_t bytes, long rep)
{
    MPI_Send(send_slot(c, bytes, rep), (int)bytes, MPI_BYTE, c->peer, TAG_DATA, MPI_COMM_WORLD);
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
        MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
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
        MPI_Isend(send_slot(c, bytes, i), (int)bytes, MPI_BYTE, c->peer, TAG_DATA, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, st);
        fails += got(c, r, bytes, i);
        if (c->async && i + 1 < reps)
            r = post(c, bytes, &req[0]);
    }
    *secs = MPI_Wtime() - t0;
    return fails;
}

static struct pipe_result mpi_run(void *ctx, const struct pipe_job *job)
{
    struct mpi_ctx *c = ctx;
    struct pipe_result res = {0, 0};
    size_t bytes = (size_t)job->bytes;
    if (c->mode == PIPE_PINGPONG)
        res.failures = pingpong(c, bytes, (long)job->reps, &res.seconds);
    else if (c->mode == PIPE_STREAM)
        res.failures = stream(c, bytes, (long)job->reps, &res.seconds);
    else
        res.failures = bidir(c, bytes, (long)job->reps, &res.seconds);
    if (c->check && c->rank == 1) {
        MPI_Send(&res.failures, 1, MPI_LONG, 0, TAG_FAILURES, MPI_COMM_WORLD);
    } else if (c->check) {
        long theirs;
        MPI_Recv(&theirs, 1, MPI_LONG, 1, TAG_FAILURES, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        res.failures += theirs;
    }
    return res;
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

/* Buffers on both ranks; every rank learns whether all succeeded. */
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

/* Both ranks run the same loop; only rank 0 talks. */
static int session(struct mpi_ctx *c, const struct pipe_opts *o)
{
    struct pipe_link l = {c, c->rank == 0, mpi_agree, mpi_run, o->mode == PIPE_PINGPONG ? 2 : 1,
                          o->mode == PIPE_BIDIR ? 2 : 1, o->integrity};
    if (c->rank != 0) {
        pipe_follow(&l);
        return 0;
    }
    char what[80];
    describe(what, sizeof what);
    return pipe_measure(&l, o, what);
}

int pipe_mpi_main(int argc, char **argv, const struct pipe_opts *o)
{
    int rank, size, rc = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct mpi_ctx c = {rank, 1 - rank, o->mode, o->async, o->integrity, 0, {0}, {0}, NULL};
    c.corrupt = rank == 1 && o->integrity && pipe_corrupt_requested();
    c.who = rank == 0 ? "rank 0 received" : "rank 1 received";
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "skiff-pipe: needs exactly 2 ranks (mpiexec -n 2), not %d\n", size);
        rc = 2;
    } else if (setup(&c, o) == 0) {
        rc = session(&c, o);
    }
    pipe_buf_free(&c.sbuf);
    pipe_buf_free(&c.rbuf);
    MPI_Finalize();
    return rc;
}
