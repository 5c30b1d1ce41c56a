#include "coll/sched.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/error.h"
#include "core/op.h"
#include "core/progress.h"
#include "core/pt2pt.h"
#include "core/stats.h"
#include "core/trace.h"

static struct skiff_sched *active; /* nonblocking schedules in flight */

/* Collective tags: one sequence per context, the same on every member because collectives are
 * called in the same order everywhere. Kept here, indexed by context, so communicators need no field. */
static struct {
    uint32_t *seq;
    size_t n;
} tags;

static int next_tag(uint32_t ctx)
{
    size_t i = ctx / 2;
    if (i >= tags.n) {
        size_t n = tags.n ? tags.n : 16;
        while (n <= i)
            n *= 2;
        uint32_t *p = realloc(tags.seq, n * sizeof *p);
        if (!p)
            skiff_abort_job(MPI_ERR_NO_MEM, "out of memory for collective tags");
        memset(p + tags.n, 0, (n - tags.n) * sizeof *p);
        tags.seq = p;
        tags.n = n;
    }
    return (int)(tags.seq[i]++ & 0x3fffffff);
}

static void init_tagged(struct skiff_sched *s, struct skiff_comm *c, int tag)
{
    memset(s, 0, offsetof(struct skiff_sched, inline_steps));
    s->comm = c;
    s->tag = tag;
    s->steps = s->inline_steps;
    s->cap = SKIFF_SCHED_INLINE;
    s->round_end = s->inline_rounds;
    s->rounds_cap = SKIFF_SCHED_INLINE;
}

void skiff_sched_init(struct skiff_sched *s, struct skiff_comm *c)
{
    init_tagged(s, c, next_tag(c->ctx));
}

struct skiff_sched *skiff_sched_new(struct skiff_comm *c)
{
    struct skiff_sched *s = malloc(sizeof *s);
    if (s)
        skiff_sched_init(s, c);
    return s;
}

struct skiff_sched *skiff_sched_new_tagged(struct skiff_comm *c, int tag)
{
    struct skiff_sched *s = malloc(sizeof *s);
    if (s)
        init_tagged(s, c, tag);
    return s;
}

static void *grow(void *inline_buf, void *cur, int *cap, size_t elem)
{
    int n = *cap * 2;
    void *p = cur == inline_buf ? malloc((size_t)n * elem) : realloc(cur, (size_t)n * elem);
    if (!p)
        skiff_abort_job(MPI_ERR_NO_MEM, "out of memory for a collective schedule");
    if (cur == inline_buf)
        memcpy(p, cur, (size_t)*cap * elem);
    *cap = n;
    return p;
}

static struct skiff_step *add(struct skiff_sched *s, int kind)
{
    if (s->nsteps == s->cap)
        s->steps = grow(s->inline_steps, s->steps, &s->cap, sizeof *s->steps);
    struct skiff_step *st = &s->steps[s->nsteps++];
    memset(st, 0, sizeof *st);
    st->kind = (uint8_t)kind;
    return st;
}

/* Scratch blocks form a list headed by s->scratch, each block prefixed by its header: the link, and
 * for a block that only holds a datatype, the type to let go of with the schedule. */
struct block {
    void *next;
    const struct skiff_type *held;
};
_Static_assert(sizeof(struct block) <= sizeof(max_align_t), "a scratch header fits the alignment unit");

static struct block *new_block(struct skiff_sched *s, size_t bytes)
{
    struct block *blk = malloc(sizeof(max_align_t) + (bytes ? bytes : 1));
    if (!blk)
        skiff_abort_job(MPI_ERR_NO_MEM, "out of memory for collective scratch space");
    blk->next = s->scratch;
    blk->held = NULL;
    s->scratch = blk;
    return blk;
}

void *skiff_sched_scratch(struct skiff_sched *s, size_t bytes)
{
    return (char *)new_block(s, bytes) + sizeof(max_align_t);
}

void skiff_sched_hold_type(struct skiff_sched *s, const struct skiff_type *t)
{
    if (!t || t->predefined)
        return;
    skiff_type_ref(t);
    new_block(s, 0)->held = t;
}

void skiff_sched_send(struct skiff_sched *s, const void *src, size_t bytes, int peer)
{
    struct skiff_step *st = add(s, SKIFF_STEP_SEND);
    st->src = src;
    st->bytes = bytes;
    st->peer = peer;
}

void skiff_sched_recv(struct skiff_sched *s, void *dst, size_t bytes, int peer)
{
    struct skiff_step *st = add(s, SKIFF_STEP_RECV);
    st->dst = dst;
    st->bytes = bytes;
    st->peer = peer;
}

void skiff_sched_reduce(struct skiff_sched *s, const void *in, void *inout, size_t count)
{
    struct skiff_step *st = add(s, SKIFF_STEP_REDUCE);
    st->src = in;
    st->dst = inout;
    st->bytes = count;
}

void skiff_sched_copy(struct skiff_sched *s, void *dst, const void *src, size_t bytes)
{
    struct skiff_step *st = add(s, SKIFF_STEP_COPY);
    st->src = src;
    st->dst = dst;
    st->bytes = bytes;
}

void skiff_sched_then(struct skiff_sched *s, skiff_sched_then_fn *fn, void *arg)
{
    struct skiff_step *st = add(s, SKIFF_STEP_THEN);
    st->then = fn;
    st->dst = arg;
}

void skiff_sched_copy_first(struct skiff_sched *s, void *dst, const void *src, size_t bytes)
{
    skiff_sched_copy(s, dst, src, bytes);
    skiff_sched_round(s);
}

void skiff_sched_call(struct skiff_sched *s, void (*fn)(void *arg), void *arg)
{
    struct skiff_step *st = add(s, SKIFF_STEP_CALL);
    st->fn = fn;
    st->dst = arg;
}

void skiff_sched_round(struct skiff_sched *s)
{
    int start = s->nrounds ? s->round_end[s->nrounds - 1] : 0;
    if (s->nsteps == start)
        return; /* empty rounds cost a pass of the progress engine for nothing */
    if (s->nrounds == s->rounds_cap)
        s->round_end = grow(s->inline_rounds, s->round_end, &s->rounds_cap, sizeof *s->round_end);
    s->round_end[s->nrounds++] = s->nsteps;
}

static int round_start(const struct skiff_sched *s, int r)
{
    return r ? s->round_end[r - 1] : 0;
}

static void post_round(struct skiff_sched *s)
{
    uint32_t ctx = skiff_coll_ctx(s->comm);
    for (int i = round_start(s, s->cur); i < s->round_end[s->cur]; i++) {
        struct skiff_step *st = &s->steps[i];
        int rc = MPI_SUCCESS;
        if (st->kind == SKIFF_STEP_SEND)
            rc = skiff_send_start(st->src, st->bytes, st->peer, s->tag, s->comm, ctx, SKIFF_SEND_STANDARD, 0,
                                  &st->req);
        else if (st->kind == SKIFF_STEP_RECV)
            rc = skiff_recv_start(st->dst, st->bytes, st->peer, s->tag, s->comm, ctx, &st->req);
        if (rc && !s->error)
            s->error = rc;
    }
    s->posted = 1;
}

/* 1 when every send and receive of the current round is done; reaps their requests then. */
static int round_done(struct skiff_sched *s)
{
    int lo = round_start(s, s->cur), hi = s->round_end[s->cur];
    for (int i = lo; i < hi; i++)
        if (s->steps[i].req && s->steps[i].req->state != SKIFF_RS_DONE)
            return 0;
    for (int i = lo; i < hi; i++) {
        struct skiff_step *st = &s->steps[i];
        if (!st->req)
            continue;
        if (st->req->st_error && !s->error)
            s->error = st->req->st_error;
        skiff_req_release(st->req);
        st->req = NULL;
    }
    return 1;
}

static void run_local(struct skiff_sched *s)
{
    for (int i = round_start(s, s->cur); i < s->round_end[s->cur]; i++) {
        struct skiff_step *st = &s->steps[i];
        if (st->kind == SKIFF_STEP_REDUCE)
            skiff_op_apply(s->op, st->src, st->dst, st->bytes, s->dt);
        else if (st->kind == SKIFF_STEP_COPY && st->bytes && st->dst != st->src)
            memmove(st->dst, st->src, st->bytes);
        else if (st->kind == SKIFF_STEP_CALL)
            st->fn(st->dst);
        else if (st->kind == SKIFF_STEP_THEN)
            st->then(s, st->dst); /* may grow s->steps: st is not used after this */
    }
}

/* Advances s as far as it can without waiting; returns 1 when it has finished. */
static int advance(struct skiff_sched *s)
{
    while (s->cur < s->nrounds) {
        if (!s->posted)
            post_round(s);
        if (!round_done(s))
            return 0;
        run_local(s);
        s->cur++;
        s->posted = 0;
    }
    return 1;
}

void skiff_sched_release(struct skiff_sched *s)
{
    if (s->held_op)
        skiff_op_release(s->op);
    if (s->held_type)
        skiff_type_unref(s->held_type);
    s->held_op = 0;
    s->held_type = NULL;
    if (s->steps != s->inline_steps)
        free(s->steps);
    if (s->round_end != s->inline_rounds)
        free(s->round_end);
    while (s->scratch) {
        struct block *blk = s->scratch;
        s->scratch = blk->next;
        if (blk->held)
            skiff_type_unref(blk->held);
        free(blk);
    }
    s->steps = NULL;
    s->round_end = NULL;
    s->scratch = NULL;
}

static int coll_progress(void)
{
    int n = 0;
    struct skiff_sched **link = &active;
    while (*link) {
        struct skiff_sched *s = *link;
        if (!advance(s)) {
            link = &s->next;
            continue;
        }
        *link = s->next;
        int keep = s->replay; /* completing may free a persistent request and its schedule with it */
        s->req->st_error = s->error;
        skiff_req_complete(s->req);
        if (!keep) {
            skiff_sched_release(s);
            free(s);
        }
        n++;
    }
    if (!active)
        skiff_progress_hook = NULL;
    return n;
}

int skiff_coll_progress(void)
{
    return active ? coll_progress() : 0;
}

/* A schedule that outlives the call holds op and dt, which the user may free before it completes. */
static void hold(struct skiff_sched *s)
{
    if (!s->nsteps || s->held_op || s->held_type)
        return;
    s->held_op = skiff_op_retain(s->op);
    if ((s->held_type = skiff_type_get(s->dt)) != NULL)
        skiff_type_ref(s->held_type);
}

/* Begins a run of s that completes r: finished at once, or left to the progress engine. */
static void launch(struct skiff_sched *s, struct skiff_request *r)
{
    s->req = r;
    if (advance(s)) {
        int keep = s->replay;
        r->st_error = s->error;
        skiff_req_complete(r);
        if (!keep) {
            skiff_sched_release(s);
            free(s);
        }
        return;
    }
    s->next = active;
    active = s;
    skiff_progress_hook = skiff_coll_progress;
}

int skiff_sched_run(struct skiff_sched *s, struct skiff_request **req)
{
    return skiff_sched_run_then(s, req, NULL);
}

int skiff_sched_run_then(struct skiff_sched *s, struct skiff_request **req, const struct skiff_req_then *then)
{
    skiff_stats.coll_scheds++;
    skiff_sched_round(s);
    if (!req) {
        SKIFF_TRACE_HOOK(skiff_trace_coll(s->comm, s->tag, NULL));
        struct skiff_waiter w = SKIFF_WAITER_INIT;
        while (!advance(s))
            skiff_wait_step(&w);
        int rc = s->error;
        skiff_sched_release(s);
        return rc;
    }
    struct skiff_request *r = skiff_req_alloc(SKIFF_REQ_COLL);
    if (!r) {
        skiff_sched_release(s);
        free(s);
        return skiff_err(MPI_ERR_NO_MEM, "out of request objects");
    }
    r->comm = s->comm;
    r->state = SKIFF_RS_POSTED;
    if (then)
        skiff_req_set_then(r, then);
    hold(s);
    *req = r;
    SKIFF_TRACE_HOOK(skiff_trace_coll(s->comm, s->tag, r));
    launch(s, r);
    return MPI_SUCCESS;
}

void skiff_sched_plan(struct skiff_sched *s)
{
    skiff_sched_round(s);
    hold(s);
    s->replay = 1;
}

int skiff_sched_start(struct skiff_sched *s, struct skiff_request *r)
{
    skiff_stats.coll_scheds++;
    s->cur = 0;
    s->posted = 0;
    s->error = 0;
    r->comm = s->comm;
    r->state = SKIFF_RS_POSTED;
    r->st_error = 0;
    SKIFF_TRACE_HOOK(skiff_trace_coll(s->comm, s->tag, r));
    launch(s, r);
    return MPI_SUCCESS;
}

void skiff_sched_free(struct skiff_sched *s)
{
    skiff_sched_release(s);
    free(s);
}
