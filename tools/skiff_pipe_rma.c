/* skiff-pipe's one-sided link (docs/skiff-pipe.md, "One-sided"): rank 0 is the origin, rank 1 the
 * target, both ranks own an MPI_Win_allocate window (so a library that places such windows in shared
 * memory on one node, as skiff does, is measured on that path). Modes:
 *   --put            MPI_Put by rank 0, then MPI_Win_fence on both: the target has the data when its
 *                    fence returns (NetPIPE's one-sided module with fences)
 *   --put --nofence  MPI_Win_lock_all once; a ping-pong of puts, each followed by MPI_Win_flush and an
 *                    8-byte flag written with MPI_Accumulate(MPI_REPLACE) and flushed; the receiver polls
 *                    its flag with MPI_Fetch_and_op(MPI_NO_OP) on its own window. Polling the data's last
 *                    byte, as NetPIPE does, is not correct MPI: nothing orders the bytes of one put, and a
 *                    plain load racing a put is a conflicting access. Flag and poll are both accumulate
 *                    operations on one basic type, which the standard makes atomic against each other,
 *                    and the flush before the flag completes the data at the target first.
 *   --get            MPI_Get by rank 0, then MPI_Win_fence on both
 *   --get --nofence  MPI_Win_lock_all once; MPI_Get + MPI_Win_flush by rank 0, the target passive
 *   --fop, --cas     MPI_Fetch_and_op (MPI_SUM) / MPI_Compare_and_swap of 8 bytes on rank 1's window +
 *                    MPI_Win_flush, within MPI_Win_lock_all: the round trip of one atomic operation
 *   --cacheline      no MPI inside the loop: an 8-byte counter in an MPI_Win_allocate_shared window
 *                    bounced between the ranks with C11 atomics, the floor under any shared-memory put
 * MPI API and C11 only, so the same file builds with MPICH's and Open MPI's mpicc. Errors are fatal
 * (MPI's default handler), as in skiff_pipe_mpi.c. */
#include "skiff_pipe_mpi.h"

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

enum { TAG_JOB = 1, TAG_READY, TAG_DONE, TAG_ACK, TAG_RESULT };
enum { LINE = 64, MAX_NOTES = 10 };

struct rma_ctx {
    int rank, peer;
    enum pipe_rma kind;
    int fence, check, corrupt; /* corrupt: this rank checks and flips a byte of rep 0 (tests only) */
    MPI_Win win;
    unsigned char *base;   /* this rank's window: data at 0 .. end + guard, then the flag */
    MPI_Aint flag_disp;    /* --put --nofence: the 8-byte arrival flag, a line of its own */
    long long sent, seen;  /* --put --nofence: flags written to the peer / seen in our window */
    long long tick;        /* --cacheline: the counter's value both ranks expect next */
    _Atomic long long *line; /* --cacheline: the shared counter */
    struct pipe_buf lbuf;  /* the origin's local buffer: put's source, get's destination */
    const char *who;
};

static const char *RECEIVED[2] = {"rank 0 received", "rank 1 received"};

static void rma_agree(void *ctx, struct pipe_job *job)
{
    struct rma_ctx *c = ctx;
    long long v[2] = {job->bytes, job->reps};
    if (c->rank == 0) {
        MPI_Send(v, 2, MPI_LONG_LONG, 1, TAG_JOB, MPI_COMM_WORLD);
        return;
    }
    MPI_Recv(v, 2, MPI_LONG_LONG, 0, TAG_JOB, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    job->bytes = v[0];
    job->reps = v[1];
}

/* The follower says it is ready (after preparing its window), then, with fences, both open the
 * epoch; the leader's clock starts after that. */
static double start(struct rma_ctx *c)
{
    if (c->rank == 1)
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD);
    else
        MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (c->fence)
        MPI_Win_fence(0, c->win);
    return MPI_Wtime();
}

/* After the leader's clock stopped: the passive follower waits here (inside MPI, so a library that
 * needs the target's calls to apply operations gets them). */
static void finish(struct rma_ctx *c)
{
    if (c->rank == 0)
        MPI_Send(NULL, 0, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD);
    else
        MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static unsigned char *source(struct rma_ctx *c, size_t bytes, long rep)
{
    unsigned char *p = pipe_buf_next(&c->lbuf, bytes);
    if (c->check)
        pipe_fill(p, bytes, rep, c->rank);
    return p;
}

static long check(struct rma_ctx *c, unsigned char *p, size_t bytes, long rep, int dir)
{
    return c->check ? pipe_check_received(p, bytes, rep, dir, c->who, c->corrupt) : 0;
}

/* --put: one epoch per transfer. With --integrity the target checks and clears its window after the
 * closing fence, and one more fence keeps the next put from landing before the clear. */
static long put_fence(struct rma_ctx *c, size_t bytes, long reps, double *secs)
{
    long fails = 0;
    if (c->check && c->rank == 1)
        pipe_clear(c->base, bytes);
    double t0 = start(c);
    for (long i = 0; i < reps; i++) {
        if (c->rank == 0)
            MPI_Put(source(c, bytes, i), (int)bytes, MPI_BYTE, 1, 0, (int)bytes, MPI_BYTE, c->win);
        MPI_Win_fence(0, c->win);
        if (c->check) {
            if (c->rank == 1) {
                fails += check(c, c->base, bytes, i, 0);
                pipe_clear(c->base, bytes);
            }
            MPI_Win_fence(0, c->win);
        }
    }
    *secs = MPI_Wtime() - t0;
    return fails;
}

/* --get: one epoch per transfer. With --integrity the target first writes rep i's pattern into its
 * window in an epoch of its own, so a get that returned stale data fails. */
static long get_fence(struct rma_ctx *c, size_t bytes, long reps, double *secs)
{
    long fails = 0;
    double t0 = start(c);
    for (long i = 0; i < reps; i++) {
        if (c->check) {
            if (c->rank == 1)
                pipe_fill(c->base, bytes, i, 1);
            MPI_Win_fence(0, c->win);
        }
        unsigned char *r = NULL;
        if (c->rank == 0) {
            r = pipe_buf_next(&c->lbuf, bytes);
            if (c->check)
                pipe_clear(r, bytes);
            MPI_Get(r, (int)bytes, MPI_BYTE, 1, 0, (int)bytes, MPI_BYTE, c->win);
        }
        MPI_Win_fence(0, c->win);
        if (r)
            fails += check(c, r, bytes, i, 1);
    }
    *secs = MPI_Wtime() - t0;
    return fails;
}

/* --put --nofence, sending side: the data, complete at the target (flush), then the flag. */
static void put_notify(struct rma_ctx *c, size_t bytes, long rep)
{
    MPI_Put(source(c, bytes, rep), (int)bytes, MPI_BYTE, c->peer, 0, (int)bytes, MPI_BYTE, c->win);
    MPI_Win_flush(c->peer, c->win);
    c->sent++;
    MPI_Accumulate(&c->sent, 1, MPI_LONG_LONG, c->peer, c->flag_disp, 1, MPI_LONG_LONG, MPI_REPLACE, c->win);
    MPI_Win_flush(c->peer, c->win);
}

/* This rank's own flag, read atomically against the peer's MPI_Accumulate. */
static long long own_flag(struct rma_ctx *c)
{
    long long v = 0, none = 0;
    MPI_Fetch_and_op(&none, &v, MPI_LONG_LONG, c->rank, c->flag_disp, MPI_NO_OP, c->win);
    MPI_Win_flush(c->rank, c->win);
    return v;
}

/* --put --nofence, receiving side: until the flag says the next put has arrived; then MPI_Win_sync
 * makes the data the flush completed visible to this process's loads (unified model). */
static long put_await(struct rma_ctx *c, size_t bytes, long rep)
{
    c->seen++;
    while (own_flag(c) < c->seen)
        ;
    MPI_Win_sync(c->win);
    if (!c->check)
        return 0;
    long f = check(c, c->base, bytes, rep, c->peer);
    pipe_clear(c->base, bytes); /* before this rank answers, so the peer's next put lands on it */
    MPI_Win_sync(c->win);
    return f;
}

/* --put --nofence: a ping-pong of notified puts; the leader times whole round trips. */
static long put_flush(struct rma_ctx *c, size_t bytes, long reps, double *secs)
{
    long fails = 0;
    if (c->check) {
        pipe_clear(c->base, bytes);
        MPI_Win_sync(c->win);
    }
    double t0 = start(c);
    for (long i = 0; i < reps; i++) {
        if (c->rank == 0) {
            put_notify(c, bytes, i);
            fails += put_await(c, bytes, i);
        } else {
            fails += put_await(c, bytes, i);
            put_notify(c, bytes, i);
        }
    }
    *secs = MPI_Wtime() - t0;
    return fails;
}

/* --get --nofence: the origin gets and flushes; the target waits in finish(). With --integrity each
 * get is bracketed by messages: the target writes rep i's pattern before it says so, and leaves it
 * until the origin has checked it. */
static long get_flush(struct rma_ctx *c, size_t bytes, long reps, double *secs)
{
    long fails = 0;
    double t0 = start(c);
    for (long i = 0; i < reps && (c->rank == 0 || c->check); i++) {
        if (c->check && c->rank == 1) {
            pipe_fill(c->base, bytes, i, 1);
            MPI_Win_sync(c->win);
            MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD);
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            continue;
        }
        if (c->check)
            MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        unsigned char *r = pipe_buf_next(&c->lbuf, bytes);
        if (c->check)
            pipe_clear(r, bytes);
        MPI_Get(r, (int)bytes, MPI_BYTE, 1, 0, (int)bytes, MPI_BYTE, c->win);
        MPI_Win_flush(1, c->win);
        fails += check(c, r, bytes, i, 1);
        if (c->check)
            MPI_Send(NULL, 0, MPI_BYTE, 1, TAG_DONE, MPI_COMM_WORLD);
    }
    *secs = MPI_Wtime() - t0;
    finish(c);
    return fails;
}

/* The counter the atomics start from in a run: a value both ranks compute, different per run length. */
static long long atomic_base(long reps)
{
    return 1000003LL * (long long)reps + 7;
}

static void atomic_note(const struct rma_ctx *c, const char *what, long rep, long long got, long long want)
{
    static int notes;
    if (notes++ < MAX_NOTES)
        fprintf(stderr, "skiff-pipe: integrity: %s, %s %ld returned %lld, expected 0x%llx (%lld)\n", c->who,
                what, rep, got, (unsigned long long)want, want);
}

/* --fop, --cas: rank 0 applies reps atomics to rank 1's first 8 bytes, each completed by a flush.
 * fetch_and_op adds 1, compare_and_swap replaces base + i by base + i + 1; each must return base + i,
 * and with --integrity the target checks the final value base + reps. */
static long atomics(struct rma_ctx *c, long reps, double *secs)
{
    long fails = 0;
    long long base = atomic_base(reps), got = 0;
    if (c->rank == 1) { /* set the start value atomically, as every later access is */
        MPI_Accumulate(&base, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, MPI_REPLACE, c->win);
        MPI_Win_flush(1, c->win);
    }
    double t0 = start(c);
    for (long i = 0; c->rank == 0 && i < reps; i++) {
        long long one = 1, cmp = base + i, next = base + i + 1;
        if (c->kind == PIPE_RMA_FOP)
            MPI_Fetch_and_op(&one, &got, MPI_LONG_LONG, 1, 0, MPI_SUM, c->win);
        else
            MPI_Compare_and_swap(&next, &cmp, &got, MPI_LONG_LONG, 1, 0, c->win);
        MPI_Win_flush(1, c->win);
        if (c->check && c->corrupt && i == 0)
            got ^= 1;
        if (c->check && got != base + i) {
            atomic_note(c, c->kind == PIPE_RMA_FOP ? "fetch_and_op" : "compare_and_swap", i, got, base + i);
            fails++;
        }
    }
    *secs = MPI_Wtime() - t0;
    finish(c);
    if (c->check && c->rank == 1) {
        long long none = 0;
        MPI_Fetch_and_op(&none, &got, MPI_LONG_LONG, 1, 0, MPI_NO_OP, c->win);
        MPI_Win_flush(1, c->win);
        if (got != base + reps) {
            atomic_note(c, "the target's final value after", reps, got, base + reps);
            fails++;
        }
    }
    return fails;
}

/* --cacheline: rank 0 writes an odd value, rank 1 answers with the next even one. Nothing but the
 * line moves: the time any notification through shared memory must take at least. */
static void cacheline(struct rma_ctx *c, long reps, double *secs)
{
    double t0 = start(c);
    for (long i = 0; i < reps; i++) {
        long long ping = c->tick + 1, pong = c->tick + 2;
        if (c->rank == 0) {
            atomic_store_explicit(c->line, ping, memory_order_release);
            while (atomic_load_explicit(c->line, memory_order_acquire) != pong)
                ;
        } else {
            while (atomic_load_explicit(c->line, memory_order_acquire) != ping)
                ;
            atomic_store_explicit(c->line, pong, memory_order_release);
        }
        c->tick = pong;
    }
    *secs = MPI_Wtime() - t0;
}

/* One run with this rank's CPU time around it; the follower's failures and CPU go to the leader
 * afterwards, outside its clock. */
static struct pipe_result rma_run(void *ctx, const struct pipe_job *job)
{
    struct rma_ctx *c = ctx;
    struct pipe_result res;
    memset(&res, 0, sizeof res);
    size_t bytes = (size_t)job->bytes;
    long reps = (long)job->reps;
    pipe_cpu_now(&res.cpu[0]);
    switch (c->kind) {
    case PIPE_RMA_PUT:
        res.failures = c->fence ? put_fence(c, bytes, reps, &res.seconds) : put_flush(c, bytes, reps, &res.seconds);
        break;
    case PIPE_RMA_GET:
        res.failures = c->fence ? get_fence(c, bytes, reps, &res.seconds) : get_flush(c, bytes, reps, &res.seconds);
        break;
    case PIPE_RMA_FOP:
    case PIPE_RMA_CAS:
        res.failures = atomics(c, reps, &res.seconds);
        break;
    default:
        cacheline(c, reps, &res.seconds);
        break;
    }
    pipe_cpu_since(&res.cpu[0]);
    res.mean_seconds = res.seconds;
    double v[4] = {(double)res.failures, res.cpu[0].user, res.cpu[0].sys, res.cpu[0].wall};
    if (c->rank == 1) {
        MPI_Send(v, 4, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
        return res;
    }
    MPI_Recv(v, 4, MPI_DOUBLE, 1, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    res.failures += (long)v[0];
    res.cpu[1].user = v[1];
    res.cpu[1].sys = v[2];
    res.cpu[1].wall = v[3];
    return res;
}

/* --cacheline: a 2-line shared window made by rank 0, the counter in its first whole line. Returns
 * nonzero (after a message) where the two ranks share no memory. */
static int open_shared(struct rma_ctx *c)
{
    MPI_Comm node;
    int n = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &n);
    if (n != 2) {
        MPI_Comm_free(&node);
        if (c->rank == 0)
            fprintf(stderr, "skiff-pipe: --cacheline needs both ranks on one node with shared memory "
                            "(MPI_COMM_TYPE_SHARED has %d rank)\n", n);
        MPI_Barrier(MPI_COMM_WORLD); /* the other rank exits only after rank 0 has said why */
        return 1;
    }
    void *mine = NULL, *p = NULL;
    MPI_Aint size = 0;
    int unit = 0;
    MPI_Win_allocate_shared(c->rank == 0 ? 2 * LINE : 0, 1, MPI_INFO_NULL, node, &mine, &c->win);
    MPI_Win_shared_query(c->win, 0, &size, &unit, &p);
    uintptr_t at = ((uintptr_t)p + LINE - 1) / LINE * LINE;
    c->line = (_Atomic long long *)at;
    if (c->rank == 0)
        atomic_store(c->line, 0);
    MPI_Comm_free(&node);
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
}

/* Windows and buffers on both ranks; both learn whether everything succeeded. */
static int setup(struct rma_ctx *c, const struct pipe_opts *o)
{
    if (c->kind == PIPE_RMA_CACHELINE)
        return open_shared(c);
    int bad = pipe_buf_init(&c->lbuf, o->end, 0, 0, 1) != 0, any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any)
        return 1;
    c->flag_disp = (MPI_Aint)((o->end + PIPE_GUARD + LINE - 1) / LINE * LINE);
    MPI_Aint size = c->flag_disp + LINE;
    MPI_Win_allocate(size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &c->base, &c->win);
    memset(c->base, 0, (size_t)size); /* every page touched before timing, and the flag 0 */
    if (c->fence) {
        MPI_Win_fence(0, c->win); /* the stores above happen before anyone's first epoch */
    } else {
        MPI_Win_lock_all(0, c->win); /* once for the whole session: each transfer only flushes */
        MPI_Win_sync(c->win);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return 0;
}

static void teardown(struct rma_ctx *c)
{
    if (c->win == MPI_WIN_NULL)
        return;
    if (c->kind != PIPE_RMA_CACHELINE && !c->fence)
        MPI_Win_unlock_all(c->win);
    MPI_Win_free(&c->win);
}

int pipe_rma_main(const struct pipe_opts *o, const char *what)
{
    int rank, size, rc = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "skiff-pipe: the one-sided modes need exactly 2 ranks (mpiexec -n 2), not %d\n", size);
        MPI_Barrier(MPI_COMM_WORLD); /* the others exit only after rank 0 has said why */
        return 2;
    }
    struct rma_ctx c;
    memset(&c, 0, sizeof c);
    c.win = MPI_WIN_NULL;
    c.rank = rank;
    c.peer = 1 - rank;
    c.kind = o->rma;
    c.fence = (o->rma == PIPE_RMA_PUT || o->rma == PIPE_RMA_GET) && !o->nofence;
    c.check = o->integrity;
    c.who = RECEIVED[rank];
    /* The side that checks is the one a corruption test flips: put's target, everyone else's origin
     * (--put --nofence checks on both sides; flipping on the target is enough to fail every size). */
    int checker = o->rma == PIPE_RMA_PUT ? 1 : 0;
    c.corrupt = rank == checker && o->integrity && pipe_corrupt_requested();
    char full[300];
    snprintf(full, sizeof full, "%s, %s", what,
             o->rma == PIPE_RMA_CACHELINE ? "MPI_Win_allocate_shared window, C11 atomics" : "MPI_Win_allocate windows");
    if (setup(&c, o) == 0) {
        struct pipe_link l = {.ctx = &c, .leader = rank == 0, .agree = rma_agree, .run = rma_run,
                              .legs = (o->rma == PIPE_RMA_PUT && o->nofence) || o->rma == PIPE_RMA_CACHELINE ? 2 : 1,
                              .dirs = 1, .check = o->integrity};
        if (rank != 0) {
            pipe_follow(&l);
            rc = 0;
        } else {
            rc = pipe_measure(&l, o, full);
        }
    } else {
        rc = 2;
    }
    teardown(&c);
    pipe_buf_free(&c.lbuf);
    return rc;
}
