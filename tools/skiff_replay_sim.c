/* skiff-replay's loader and simulator: every rank's records interpreted in order, each rank with a model
 * clock; a rank stops (and another runs) when it needs a message or an answer not yet simulated.
 *
 * The model (docs/trace.md, "The model"):
 *   - a computation interval (from the end of one call to the start of the next) takes what it took;
 *     so does a call that moved no message (Comm_rank, Type_commit, ...), and, inside a call, the
 *     stretch from a completion to the next message posted or to the call's end (a collective's
 *     reduction of what it received, an unpack);
 *   - a send starts at max(now, the sender's next free slot), costs the sender o, and arrives at
 *     start + o + L + (s-1)G; the sender's next send may start g + (s-1)G after this one;
 *   - a receive taken complete (Wait, Recv, a collective's round) waits for its message's arrival, plus o;
 *   - a rendezvous (larger than the eager limit of the pair's transport) or synchronous send: the request
 *     reaches the receiver at start + o + L; data leaves once the receive is posted and the answer is back
 *     (+L), arrives o + L + (s-1)G later; the sender's request completes when its data has left;
 *   - messages are matched in order per (context, source, destination, tag);
 *   - collectives are the messages their schedules sent, as recorded; a shared-memory barrier (no
 *     messages; also the whole of a shared-slot allreduce) waits for every member, then costs
 *     2 ceil(log2 n) (o + L) of the within-node parameters. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skiff_replay.h"

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "skiff-replay: out of memory\n");
        exit(1);
    }
    return p;
}

static int load_rank(const char *path, struct rp_rank *r, struct rp_trace *t, int want)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "skiff-replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = -1;
    if (fread(&r->head, sizeof r->head, 1, f) != 1 || memcmp(r->head.magic, SKIFF_TRACE_MAGIC, 8)) {
        fprintf(stderr, "skiff-replay: %s: not a skiff trace (or another version of the format)\n", path);
        goto out;
    }
    if (want >= 0 && ((int)r->head.rank != want || (int)r->head.size != t->size || r->head.jobid != t->rank[0].head.jobid)) {
        fprintf(stderr, "skiff-replay: %s: rank %u of %u (job %016llx), expected rank %d of %d of rank 0's job\n",
                path, r->head.rank, r->head.size, (unsigned long long)r->head.jobid, want, t->size);
        goto out;
    }
    r->n = (size_t)r->head.nrecs;
    r->rec = xcalloc(r->n, sizeof *r->rec);
    if (fread(r->rec, sizeof *r->rec, r->n, f) != r->n) {
        fprintf(stderr, "skiff-replay: %s: cut short (%llu records announced)\n", path,
                (unsigned long long)r->head.nrecs);
        goto out;
    }
    if (want < 0) { /* rank 0: the call names */
        t->ncalls = (int)r->head.ncalls;
        t->names = xcalloc((size_t)t->ncalls, sizeof *t->names);
        char buf[256];
        for (int i = 0; i < t->ncalls; i++) {
            size_t k = 0;
            int c;
            while ((c = fgetc(f)) != EOF && c && k < sizeof buf - 1)
                buf[k++] = (char)c;
            buf[k] = 0;
            t->names[i] = strdup(buf);
        }
    }
    r->node = (int)r->head.node;
    rc = 0;
out:
    fclose(f);
    return rc;
}

/* Each DONE to the SEND or RECV that started its request (the latest one with that id before it). */
static void link_done(struct rp_rank *r)
{
    size_t cap = 1024;
    while (cap < 2 * r->n)
        cap *= 2;
    uint64_t *key = xcalloc(cap, sizeof *key);
    long *val = xcalloc(cap, sizeof *val);
    r->link = xcalloc(r->n, sizeof *r->link);
    for (size_t i = 0; i < r->n; i++) {
        const struct skiff_trace_rec *x = &r->rec[i];
        r->link[i] = -1;
        if ((x->kind != SKIFF_TR_SEND && x->kind != SKIFF_TR_RECV && x->kind != SKIFF_TR_DONE) || !x->x)
            continue;
        uint64_t k = (x->x ^ (x->x >> 29)) * 0xbf58476d1ce4e5b9ull; /* ids differ in their high half too */
        size_t h = (size_t)(k ^ (k >> 32)) & (cap - 1);
        while (key[h] && key[h] != x->x)
            h = (h + 1) & (cap - 1);
        if (x->kind == SKIFF_TR_DONE) {
            if (key[h])
                r->link[i] = val[h];
        } else {
            key[h] = x->x;
            val[h] = (long)i;
        }
    }
    free(key);
    free(val);
}

int rp_load(const char *prefix, struct rp_trace *t)
{
    memset(t, 0, sizeof *t);
    char path[4200];
    size_t len = strlen(prefix);
    char *base = strdup(prefix);
    if (len > 2 && strcmp(prefix + len - 2, ".0") == 0)
        base[len - 2] = 0; /* the first file named instead of the prefix */
    struct rp_rank r0;
    memset(&r0, 0, sizeof r0);
    snprintf(path, sizeof path, "%s.0", base);
    t->rank = &r0;
    if (load_rank(path, &r0, t, -1)) {
        free(base);
        t->rank = NULL;
        return -1;
    }
    t->size = (int)r0.head.size;
    t->rank = xcalloc((size_t)t->size, sizeof *t->rank);
    t->rank[0] = r0;
    for (int i = 1; i < t->size; i++) {
        snprintf(path, sizeof path, "%s.%d", base, i);
        if (load_rank(path, &t->rank[i], t, i)) {
            free(base);
            return -1;
        }
    }
    free(base);
    for (int i = 0; i < t->size; i++) {
        link_done(&t->rank[i]);
        t->truncated |= (t->rank[i].head.flags & SKIFF_TRACE_HEAD_TRUNCATED) != 0;
        double w = (double)t->rank[i].head.wall_ns * 1e-9;
        if (w > t->recorded)
            t->recorded = w;
    }
    return 0;
}

void rp_free(struct rp_trace *t)
{
    for (int i = 0; t->rank && i < t->size; i++) {
        free(t->rank[i].rec);
        free(t->rank[i].link);
    }
    free(t->rank);
    for (int i = 0; i < t->ncalls; i++)
        free(t->names[i]);
    free(t->names);
    memset(t, 0, sizeof *t);
}

void rp_set_ppn(struct rp_trace *t, int ppn)
{
    for (int i = 0; i < t->size; i++)
        t->rank[i].node = ppn > 0 ? i / ppn : (int)t->rank[i].head.node;
}

/* ---- simulation ---- */

struct msg {
    double start, arr, rts, send_done;
    uint64_t bytes;
    int rndv, sync, resolved;
};

struct chan {
    uint32_t ctx;
    int src, dst, tag;
    long *m;      /* message indices, in send order */
    size_t n, cap, next;
    int used;
};

struct sync_point {
    uint32_t ctx;
    int first, seq;     /* the communicator's first member, the rank's count of syncs on it */
    int size, arrived;
    double tmax, release;
    int what;
    uint64_t bytes;
    int used;
};

struct rstate {
    size_t pc;
    double T;            /* model clock, seconds */
    double nic_free;
    uint64_t prev_end;   /* recorded end of the previous call (ns) */
    long call;           /* open CALL record */
    uint64_t after_done; /* recorded time of the last DONE of the open call, while no post followed (0: none) */
    double call_T0;
    int call_msgs;
    int done;
    double final;
    double compute;
    double *post_time;   /* per record: a RECV's post time */
    long *msg_of;        /* per record: a SEND's message */
    long *match;         /* per record: a SEND's receive at the destination (its RECV, else its DONE), or -1 */
    long sync_wait;      /* sync point being waited at, or -1 */
    /* communicators seen: ctx -> first member, size */
    uint32_t *cctx;
    int *cfirst, *csize, *cseq;
    size_t nc, ccap;
};

struct sim {
    const struct rp_trace *t;
    const struct rp_loggp *p;
    struct msg *msg;
    size_t nmsg, capmsg;
    struct chan *ch;
    size_t chcap, chused;
    struct sync_point *sp;
    size_t spcap;
    struct rstate *rs;
    struct rp_result *res;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

static void grow_chans(struct sim *s);

static struct chan *chan_of(struct sim *s, uint32_t ctx, int src, int dst, int tag)
{
    size_t h = (size_t)mix(mix(mix(mix(0, ctx), (uint64_t)src), (uint64_t)dst), (uint64_t)(uint32_t)tag);
    for (size_t i = h & (s->chcap - 1);; i = (i + 1) & (s->chcap - 1)) {
        struct chan *c = &s->ch[i];
        if (!c->used) {
            if (2 * (s->chused + 1) > s->chcap) {
                grow_chans(s);
                return chan_of(s, ctx, src, dst, tag);
            }
            *c = (struct chan){ctx, src, dst, tag, NULL, 0, 0, 0, 1};
            s->chused++;
            return c;
        }
        if (c->ctx == ctx && c->src == src && c->dst == dst && c->tag == tag)
            return c;
    }
}

static void grow_chans(struct sim *s)
{
    struct chan *old = s->ch;
    size_t oldcap = s->chcap;
    s->chcap *= 2;
    s->ch = xcalloc(s->chcap, sizeof *s->ch);
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].used)
            continue;
        size_t h = (size_t)mix(mix(mix(mix(0, old[i].ctx), (uint64_t)old[i].src), (uint64_t)old[i].dst),
                               (uint64_t)(uint32_t)old[i].tag);
        size_t j = h & (s->chcap - 1);
        while (s->ch[j].used)
            j = (j + 1) & (s->chcap - 1);
        s->ch[j] = old[i];
    }
    free(old);
}

static const struct rp_loggp *pair(const struct sim *s, int a, int b, int *cls)
{
    *cls = s->t->rank[a].node != s->t->rank[b].node;
    return &s->p[*cls];
}

static int eager_limit_exceeded(const struct sim *s, int src, int dst, uint64_t bytes)
{
    const struct skiff_trace_head *h = &s->t->rank[src].head;
    uint64_t lim = s->t->rank[src].node == s->t->rank[dst].node && h->shm_eager ? h->shm_eager : h->tcp_eager;
    return src != dst && bytes > lim;
}

static void send_post(struct sim *s, int r, const struct skiff_trace_rec *x, size_t i)
{
    struct rstate *st = &s->rs[r];
    int dst = x->peer, cls;
    if (dst < 0 || dst >= s->t->size)
        return;
    const struct rp_loggp *p = pair(s, r, dst, &cls);
    double wire = (x->bytes ? (double)(x->bytes - 1) : 0.0) * p->G;
    double start = st->T > st->nic_free ? st->T : st->nic_free;
    if (s->nmsg == s->capmsg) {
        s->capmsg = s->capmsg ? 2 * s->capmsg : 4096;
        s->msg = realloc(s->msg, s->capmsg * sizeof *s->msg);
        if (!s->msg) {
            fprintf(stderr, "skiff-replay: out of memory\n");
            exit(1);
        }
    }
    struct msg *m = &s->msg[s->nmsg];
    memset(m, 0, sizeof *m);
    m->bytes = x->bytes;
    m->start = start;
    if (dst == r) {
        m->arr = start + p->o;
    } else {
        m->arr = start + p->o + p->L + wire;
        m->rts = start + p->o + p->L;
        m->rndv = eager_limit_exceeded(s, r, dst, x->bytes);
        m->sync = (x->flags & SKIFF_TRF_SYNC) != 0;
        s->res->msgs[cls]++;
        s->res->bytes[cls] += x->bytes;
    }
    st->T = start + p->o;
    st->nic_free = start + p->g + wire;
    st->msg_of[i] = (long)s->nmsg;
    struct chan *c = chan_of(s, x->comm, r, dst, x->tag);
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->m = realloc(c->m, c->cap * sizeof *c->m);
        if (!c->m) {
            fprintf(stderr, "skiff-replay: out of memory\n");
            exit(1);
        }
    }
    c->m[c->n++] = (long)s->nmsg++;
}

/* A rendezvous or synchronous message whose receive was posted at `posted`: when its data arrives and when
 * the send completes. */
static void resolve(struct msg *m, double posted, const struct rp_loggp *p)
{
    if (m->resolved)
        return;
    if (m->rndv) {
        double cts = m->rts > posted ? m->rts : posted;
        double data = cts + p->L;
        double wire = (m->bytes ? (double)(m->bytes - 1) : 0.0) * p->G;
        m->arr = data + p->o + p->L + wire;
        m->send_done = data + p->o + wire;
    } else if (m->sync) {
        m->send_done = (m->arr > posted ? m->arr : posted) + p->L;
    }
    m->resolved = 1;
}

/* 0: blocked (the message is not sent yet in the model). */
static int recv_done(struct sim *s, int r, const struct skiff_trace_rec *x, size_t i)
{
    struct rstate *st = &s->rs[r];
    int src = x->peer, cls;
    if (src < 0 || src >= s->t->size)
        return 1; /* MPI_PROC_NULL or cancelled: nothing arrives */
    struct chan *c = chan_of(s, x->comm, src, r, x->tag);
    if (c->next >= c->n) {
        snprintf(s->res->why, sizeof s->res->why,
                 "rank %d waits for message %zu from rank %d (context %u, tag %d) that the trace does not have", r,
                 c->next + 1, src, x->comm, x->tag);
        return 0;
    }
    struct msg *m = &s->msg[c->m[c->next++]];
    const struct rp_loggp *p = pair(s, src, r, &cls);
    long post = s->t->rank[r].link[i];
    resolve(m, post >= 0 ? st->post_time[post] : st->T, p);
    double arr = m->arr;
    st->T = (st->T > arr ? st->T : arr) + (src == r ? 0.0 : p->o);
    return 1;
}

static int send_done(struct sim *s, int r, size_t i)
{
    struct rstate *st = &s->rs[r];
    long post = s->t->rank[r].link[i];
    if (post < 0 || st->msg_of[post] < 0)
        return 1;
    struct msg *m = &s->msg[st->msg_of[post]];
    if (!m->rndv && !m->sync)
        return 1;
    /* The receive may be posted already in the model though not yet taken complete (both sides of an
     * exchange post, then wait): the answer goes out as soon as it is posted. */
    const struct skiff_trace_rec *x = &s->t->rank[r].rec[post];
    long j = st->match[post];
    int q = x->peer, cls;
    if (!m->resolved && j >= 0 && s->t->rank[q].rec[j].kind == SKIFF_TR_RECV && s->rs[q].pc > (size_t)j)
        resolve(m, s->rs[q].post_time[j], pair(s, r, q, &cls));
    if (!m->resolved) {
        snprintf(s->res->why, sizeof s->res->why, "rank %d waits for the receiver of a %s send of %llu bytes", r,
                 m->rndv ? "rendezvous" : "synchronous", (unsigned long long)m->bytes);
        return 0;
    }
    if (m->send_done > st->T)
        st->T = m->send_done;
    return 1;
}

static void comm_seen(struct rstate *st, const struct skiff_trace_rec *x)
{
    const struct skiff_trace_members *m = (const struct skiff_trace_members *)(x + 1);
    int first = m->kind == SKIFF_TR_MEMBERS && m->n ? m->rank[0] : -1;
    for (size_t k = 0; k < st->nc; k++)
        if (st->cctx[k] == x->comm) {
            if (st->cfirst[k] != first || st->csize[k] != x->peer)
                st->cseq[k] = 0;
            st->cfirst[k] = first;
            st->csize[k] = x->peer;
            return;
        }
    if (st->nc == st->ccap) {
        st->ccap = st->ccap ? 2 * st->ccap : 16;
        st->cctx = realloc(st->cctx, st->ccap * sizeof *st->cctx);
        st->cfirst = realloc(st->cfirst, st->ccap * sizeof *st->cfirst);
        st->csize = realloc(st->csize, st->ccap * sizeof *st->csize);
        st->cseq = realloc(st->cseq, st->ccap * sizeof *st->cseq);
        if (!st->cctx || !st->cfirst || !st->csize || !st->cseq) {
            fprintf(stderr, "skiff-replay: out of memory\n");
            exit(1);
        }
    }
    st->cctx[st->nc] = x->comm;
    st->cfirst[st->nc] = first;
    st->csize[st->nc] = x->peer;
    st->cseq[st->nc++] = 0;
}

static int ceil_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

/* A shared-memory barrier or allreduce: 0 while members are missing. */
static int sync_at(struct sim *s, int r, const struct skiff_trace_rec *x)
{
    struct rstate *st = &s->rs[r];
    if (st->sync_wait < 0) {
        int first = -1, seq = 0;
        for (size_t k = 0; k < st->nc; k++)
            if (st->cctx[k] == x->comm) {
                first = st->cfirst[k];
                seq = st->cseq[k]++;
            }
        size_t h = (size_t)mix(mix(mix(0, x->comm), (uint64_t)(uint32_t)first), (uint64_t)seq) & (s->spcap - 1);
        while (s->sp[h].used && !(s->sp[h].ctx == x->comm && s->sp[h].first == first && s->sp[h].seq == seq))
            h = (h + 1) & (s->spcap - 1);
        struct sync_point *p = &s->sp[h];
        if (!p->used)
            *p = (struct sync_point){x->comm, first, seq, x->tag, 0, 0, 0, x->peer, x->bytes, 1};
        p->arrived++;
        if (st->T > p->tmax)
            p->tmax = st->T;
        if (p->arrived == p->size) {
            const struct rp_loggp *q = &s->p[0];
            int k = ceil_log2(p->size);
            p->release = p->tmax + 2.0 * k * (q->o + q->L);
        }
        st->sync_wait = (long)h;
    }
    struct sync_point *p = &s->sp[st->sync_wait];
    if (p->arrived < p->size) {
        snprintf(s->res->why, sizeof s->res->why, "rank %d waits in a shared-memory collective for %d of %d ranks",
                 r, p->size - p->arrived, p->size);
        return 0;
    }
    st->T = p->release;
    st->sync_wait = -1;
    return 1;
}

/* Local work inside a call: from a completion to the next message posted (a collective reducing what it
 * received before it sends it on) or to the call's end, as recorded. */
static void local_after_done(struct rstate *st, uint64_t t)
{
    if (st->after_done && t > st->after_done) {
        st->T += (double)(t - st->after_done) * 1e-9;
        st->compute += (double)(t - st->after_done) * 1e-9;
    }
    st->after_done = 0;
}

static void close_call(struct sim *s, int r)
{
    struct rstate *st = &s->rs[r];
    if (st->call < 0)
        return;
    const struct skiff_trace_rec *c = &s->t->rank[r].rec[st->call];
    local_after_done(st, c->x);
    if (!st->call_msgs && c->x > c->t) {
        st->T = st->call_T0 + (double)(c->x - c->t) * 1e-9;
        st->compute += (double)(c->x - c->t) * 1e-9;
    }
    st->prev_end = c->x > c->t ? c->x : c->t;
    st->call = -1;
}

static int is_finalize(const struct sim *s, const struct skiff_trace_rec *x)
{
    return x->call < s->t->ncalls && strcmp(s->t->names[x->call], "MPI_Finalize") == 0;
}

/* Runs rank r as far as it can; returns the records it got through. */
static size_t run(struct sim *s, int r)
{
    const struct rp_rank *rk = &s->t->rank[r];
    struct rstate *st = &s->rs[r];
    size_t start = st->pc;
    while (!st->done && st->pc < rk->n) {
        const struct skiff_trace_rec *x = &rk->rec[st->pc];
        size_t i = st->pc;
        switch (x->kind) {
        case SKIFF_TR_CALL:
            close_call(s, r);
            if (x->t > st->prev_end) {
                st->T += (double)(x->t - st->prev_end) * 1e-9;
                st->compute += (double)(x->t - st->prev_end) * 1e-9;
            }
            if (is_finalize(s, x)) {
                st->done = 1;
                st->final = st->T;
                return st->pc - start + 1;
            }
            st->call = (long)i;
            st->call_T0 = st->T;
            st->call_msgs = 0;
            break;
        case SKIFF_TR_SEND:
            st->call_msgs = 1;
            local_after_done(st, x->t);
            send_post(s, r, x, i);
            break;
        case SKIFF_TR_RECV:
            st->call_msgs = 1;
            local_after_done(st, x->t);
            st->post_time[i] = st->T;
            break;
        case SKIFF_TR_DONE:
            st->call_msgs = 1;
            if (x->flags & SKIFF_TRF_RECV) {
                if (!recv_done(s, r, x, i))
                    return st->pc - start;
            } else if (!send_done(s, r, i)) {
                return st->pc - start;
            }
            st->after_done = x->t ? x->t : 1;
            break;
        case SKIFF_TR_SYNC:
            st->call_msgs = 1;
            if (!sync_at(s, r, x))
                return st->pc - start;
            break;
        case SKIFF_TR_COMM:
            comm_seen(st, x);
            break;
        case SKIFF_TR_COLL:
            st->call_msgs = 1;
            break;
        default:
            break;
        }
        st->pc++;
    }
    if (!st->done && st->pc >= rk->n) {
        close_call(s, r);
        st->done = 1;
        st->final = st->T;
        return st->pc - start + 1;
    }
    return st->pc - start;
}

/* Which receive takes each send: the k-th send on a channel (context, source, destination, tag) goes to
 * the k-th receive completed on it, as in the replay itself; recorded into rs[].match. */
static void match_sends(struct sim *s)
{
    const struct rp_trace *t = s->t;
    for (int r = 0; r < t->size; r++) {
        const struct rp_rank *rk = &t->rank[r];
        for (size_t i = 0; i < rk->n; i++) {
            const struct skiff_trace_rec *x = &rk->rec[i];
            int dst = x->peer;
            if (x->kind != SKIFF_TR_SEND || dst < 0 || dst >= t->size)
                continue;
            struct chan *c = chan_of(s, x->comm, r, dst, x->tag);
            if (c->n == c->cap) {
                c->cap = c->cap ? 2 * c->cap : 16;
                c->m = realloc(c->m, c->cap * sizeof *c->m);
                if (!c->m) {
                    fprintf(stderr, "skiff-replay: out of memory\n");
                    exit(1);
                }
            }
            c->m[c->n++] = (long)i;
        }
    }
    for (int q = 0; q < t->size; q++) {
        const struct rp_rank *rk = &t->rank[q];
        for (size_t i = 0; i < rk->n; i++) {
            const struct skiff_trace_rec *x = &rk->rec[i];
            int src = x->peer;
            if (x->kind != SKIFF_TR_DONE || !(x->flags & SKIFF_TRF_RECV) || src < 0 || src >= t->size)
                continue;
            struct chan *c = chan_of(s, x->comm, src, q, x->tag);
            if (c->next < c->n)
                s->rs[src].match[c->m[c->next++]] = rk->link[i] >= 0 ? rk->link[i] : (long)i;
        }
    }
    for (size_t i = 0; i < s->chcap; i++) {
        free(s->ch[i].m);
        s->ch[i] = (struct chan){0};
    }
    s->chused = 0;
}

int rp_replay(const struct rp_trace *t, const struct rp_loggp p[2], struct rp_result *res)
{
    memset(res, 0, sizeof *res);
    struct sim s = {.t = t, .p = p, .res = res};
    s.chcap = 1024;
    s.ch = xcalloc(s.chcap, sizeof *s.ch);
    s.spcap = 1024;
    size_t nsync = 0;
    for (int r = 0; r < t->size; r++)
        for (size_t i = 0; i < t->rank[r].n; i++)
            nsync += t->rank[r].rec[i].kind == SKIFF_TR_SYNC;
    while (s.spcap < 2 * nsync + 16)
        s.spcap *= 2;
    s.sp = xcalloc(s.spcap, sizeof *s.sp);
    s.rs = xcalloc((size_t)t->size, sizeof *s.rs);
    for (int r = 0; r < t->size; r++) {
        s.rs[r].call = -1;
        s.rs[r].sync_wait = -1;
        s.rs[r].post_time = xcalloc(t->rank[r].n, sizeof(double));
        s.rs[r].msg_of = xcalloc(t->rank[r].n, sizeof(long));
        s.rs[r].match = xcalloc(t->rank[r].n, sizeof(long));
        for (size_t i = 0; i < t->rank[r].n; i++)
            s.rs[r].msg_of[i] = s.rs[r].match[i] = -1;
    }
    match_sends(&s);
    for (;;) {
        size_t moved = 0;
        int left = 0;
        for (int r = 0; r < t->size; r++) {
            moved += run(&s, r);
            left += !s.rs[r].done;
        }
        if (!left)
            break;
        if (!moved) {
            res->blocked = left;
            break;
        }
    }
    for (int r = 0; r < t->size; r++) {
        double f = s.rs[r].done ? s.rs[r].final : s.rs[r].T;
        if (f > res->time || r == 0) {
            res->time = f;
            res->last_rank = r;
        }
        if (s.rs[r].compute > res->compute)
            res->compute = s.rs[r].compute;
        free(s.rs[r].post_time);
        free(s.rs[r].msg_of);
        free(s.rs[r].match);
        free(s.rs[r].cctx);
        free(s.rs[r].cfirst);
        free(s.rs[r].csize);
        free(s.rs[r].cseq);
    }
    for (size_t i = 0; i < s.chcap; i++)
        free(s.ch[i].m);
    free(s.ch);
    free(s.sp);
    free(s.rs);
    free(s.msg);
    return 0;
}
