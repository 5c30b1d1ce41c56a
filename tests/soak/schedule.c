/* schedule.c — one round's traffic, derived from (seed, round, np) alone.
 *
 * Every rank computes the same schedule, so each receiver knows how many messages to expect, from
 * whom, and how large. The rules below are what keep a random mix of blocking calls and wildcards
 * free of deadlock without any extra synchronisation:
 *
 *  - A receiver's receives form a laminar family per communicator: exact (src, tag) sets inside
 *    partial wildcards (this round either (ANY_SOURCE, tag) or (src, ANY_TAG), never both) inside
 *    (ANY_SOURCE, ANY_TAG). They are issued innermost first, so a wildcard can never take a message
 *    an exact receive still needs, and every receive finds a message.
 *  - Of the messages of one (comm, src, dst, tag) class, the first k in send order get the exact
 *    receives and the rest wildcards; by non-overtaking the i-th exact receive must get the i-th
 *    message, which the receiver checks.
 *  - Only a message whose exact receive is posted before any send (an "early" receive) may use a
 *    blocking mode (Send, Ssend, Rsend) or a ready mode (Rsend/Irsend, and then only in rounds with a
 *    barrier between posting and sending). All other sends are nonblocking or buffered, so a
 *    blocking call only ever waits for a peer's early receives, which never wait for anything.
 */
#include "soak.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sk_mode_name[SM_COUNT] = {"Send", "Ssend", "Rsend", "Isend", "Issend", "Irsend", "Bsend", "Ibsend"};
const char *const sk_how_name[RH_COUNT] = {"Irecv(early)", "Irecv", "Recv", "Probe+Recv", "Iprobe+Recv",
                                           "Irecv+Test"};
const char *const sk_complete_name[CM_COUNT] = {"Wait",    "Waitall", "Waitany", "Waitsome",
                                                "Test",    "Testall", "Testany", "Testsome"};
const char *const sk_coll_name[C_NKINDS] = {"Barrier",  "Bcast",     "Reduce",   "Allreduce", "Gather",
                                            "Gatherv",  "Allgather", "Alltoall", "Alltoallv", "Scan",
                                            "Ibarrier", "Ibcast",    "Iallreduce", "Ireduce"};

/* Memory bounds of one round, whatever np and --max-bytes are: about 2 x ROUND_BYTES of payload
 * buffers in the whole job, plus WILD_BYTES of wildcard receive buffers per rank. */
#define ROUND_BYTES (32 * SK_MIB)
#define WILD_BYTES (16 * SK_MIB)

/* Sizes where the protocols change: header, shm fast box page, shm eager limit, shm cell, tcp eager
 * limit, tcp stripe piece. */
static const size_t thresholds[] = {SK_HDR, 4096, 16384, 32768, 65536, 262144};
static const long deltas[] = {-8, -1, 0, 0, 1, 8};

struct gen {
    struct sk_rng rng;
    const struct sk_opts *o;
    struct sk_round *r;
    size_t budget;         /* payload bytes left in this round */
    size_t *bsend_bytes;   /* per sender */
    int *bsend_msgs;
};

size_t sk_bsend_limit(size_t max_bytes)
{
    size_t b = 2 * max_bytes;
    return b < SK_MIB ? SK_MIB : b > 16 * SK_MIB ? 16 * SK_MIB : b;
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

static size_t pick_size(struct gen *g, int storm)
{
    struct sk_rng *rng = &g->rng;
    size_t max = g->o->max_bytes, n;
    int p = (int)sk_below(rng, 100);
    if (storm) {
        n = sk_log_uniform(rng, min_size(max, 256));
    } else if (p < 8) {
        n = 0;
    } else if (p < 28) {
        size_t t = thresholds[sk_below(rng, sizeof thresholds / sizeof *thresholds)];
        long d = deltas[sk_below(rng, sizeof deltas / sizeof *deltas)];
        n = d < 0 && t < (size_t)-d ? 0 : (size_t)((long)t + d);
    } else if (p < 31) {
        n = max;
    } else {
        n = sk_log_uniform(rng, max);
    }
    n = min_size(n, max);
    if (n > g->budget)
        n = sk_log_uniform(rng, min_size(g->budget, 4096));
    g->budget -= n;
    return n;
}

/* Who talks to whom: uniform, one hot receiver, one sender to all, or a ring. */
static void pick_ends(struct gen *g, int hot, int *src, int *dst)
{
    int np = g->r->np;
    *src = (int)sk_below(&g->rng, (uint64_t)np);
    *dst = (int)sk_below(&g->rng, (uint64_t)np);
    if (!strcmp(g->r->shape, "hotspot"))
        *dst = hot;
    else if (!strcmp(g->r->shape, "fan-out"))
        *src = hot;
    else if (!strcmp(g->r->shape, "ring"))
        *dst = (*src + (sk_chance(&g->rng, 50) ? 1 : np - 1)) % np;
}

/* ---------------------------------------------------------------- sorting helpers */

struct ord {
    uint64_t a, b, c, d;
    int i;
};

static int ord_cmp(const void *x, const void *y)
{
    const struct ord *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    if (p->c != q->c)
        return p->c < q->c ? -1 : 1;
    if (p->d != q->d)
        return p->d < q->d ? -1 : 1;
    return p->i - q->i;
}

/* ---------------------------------------------------------------- messages */

static void gen_messages(struct gen *g)
{
    struct sk_round *r = g->r;
    int np = r->np;
    int storm = sk_chance(&g->rng, 10);
    uint64_t shape = sk_below(&g->rng, 100);
    r->shape = storm ? "storm" : shape < 60 ? "random" : shape < 75 ? "hotspot" : shape < 85 ? "fan-out" : "ring";
    uint64_t unp = (uint64_t)np;
    r->nmsg = storm ? np * 8 + (int)sk_below(&g->rng, unp * 8 + 1) : (int)sk_below(&g->rng, unp * 4 + 1);
    r->m = calloc((size_t)r->nmsg + 1, sizeof *r->m);
    int hot = (int)sk_below(&g->rng, (uint64_t)np);
    for (int i = 0; i < r->nmsg; i++) {
        struct sk_msg *m = &r->m[i];
        m->seq = i;
        pick_ends(g, hot, &m->src, &m->dst);
        m->tag = (int)sk_below(&g->rng, (uint64_t)r->tag_range);
        m->comm = !g->o->no_dup && sk_chance(&g->rng, 20);
        m->n = pick_size(g, storm);
        m->send_vec = sk_chance(&g->rng, 8);
        if (m->send_vec)
            m->n -= m->n % (2 * (size_t)r->vec_k);
        r->bytes += m->n;
    }
}

/* A random send order per sender. */
static void order_sends(struct gen *g)
{
    struct sk_round *r = g->r;
    struct ord *o = calloc((size_t)r->nmsg + 1, sizeof *o);
    for (int i = 0; i < r->nmsg; i++)
        o[i] = (struct ord){(uint64_t)r->m[i].src, sk_next(&g->rng), 0, 0, i};
    qsort(o, (size_t)r->nmsg, sizeof *o, ord_cmp);
    for (int i = 0, pos = 0; i < r->nmsg; i++) {
        pos = i > 0 && o[i - 1].a == o[i].a ? pos + 1 : 0;
        r->m[o[i].i].send_pos = pos;
    }
    free(o);
}

/* ---------------------------------------------------------------- one receiver */

struct recv_plan {
    int cnt;
    int *idx;        /* messages to this receiver, in class order */
    int *class_id;   /* per entry of idx */
    int nclass;
    int *class_first, *class_len;
};

static int same_class(const struct sk_msg *a, const struct sk_msg *b)
{
    return a->comm == b->comm && a->src == b->src && a->tag == b->tag;
}

static void collect_classes(struct gen *g, int d, struct recv_plan *p)
{
    struct sk_round *r = g->r;
    struct ord *o = calloc((size_t)r->nmsg + 1, sizeof *o);
    p->cnt = 0;
    for (int i = 0; i < r->nmsg; i++)
        if (r->m[i].dst == d)
            o[p->cnt++] = (struct ord){(uint64_t)r->m[i].comm, (uint64_t)r->m[i].src, (uint64_t)r->m[i].tag,
                                       (uint64_t)r->m[i].send_pos, i};
    qsort(o, (size_t)p->cnt, sizeof *o, ord_cmp);
    p->idx = calloc((size_t)p->cnt + 1, sizeof(int));
    p->class_id = calloc((size_t)p->cnt + 1, sizeof(int));
    p->class_first = calloc((size_t)p->cnt + 1, sizeof(int));
    p->class_len = calloc((size_t)p->cnt + 1, sizeof(int));
    p->nclass = 0;
    for (int k = 0; k < p->cnt; k++) {
        p->idx[k] = o[k].i;
        if (k == 0 || !same_class(&r->m[p->idx[k - 1]], &r->m[p->idx[k]]))
            p->class_first[p->nclass++] = k;
        int c = p->nclass - 1;
        p->class_id[k] = c;
        r->m[o[k].i].class_pos = k - p->class_first[c];
        p->class_len[c]++;
    }
    free(o);
}

static size_t max_incoming(const struct sk_round *r, int d, int comm)
{
    size_t max = 0;
    for (int i = 0; i < r->nmsg; i++)
        if (r->m[i].dst == d && r->m[i].comm == comm && r->m[i].n > max)
            max = r->m[i].n;
    return max;
}

/* The last messages of a class (in send order) go to wildcard receives, within a byte budget. */
static void pick_wildcards(struct gen *g, int d, struct recv_plan *p, int wild_pct)
{
    struct sk_round *r = g->r;
    size_t used = 0;
    for (int c = 0; c < p->nclass; c++) {
        int first = p->class_first[c], len = p->class_len[c];
        size_t est = max_incoming(r, d, r->m[p->idx[first]].comm);
        for (int k = first + len - 1; k >= first; k--) {
            if (!sk_chance(&g->rng, wild_pct) || used + est > WILD_BYTES)
                break;
            used += est;
            r->m[p->idx[k]].level = sk_chance(&g->rng, 50) ? LV_PARTIAL : LV_ANY;
        }
    }
}

/* Whether message b could match the receive posted for message a. */
static int in_set(const struct sk_round *r, const struct sk_msg *a, const struct sk_msg *b)
{
    if (a->dst != b->dst || a->comm != b->comm)
        return 0;
    switch (a->level) {
    case LV_EXACT:
        return a->src == b->src && a->tag == b->tag;
    case LV_PARTIAL:
        return r->wild_src[a->dst] ? a->tag == b->tag : a->src == b->src;
    default:
        return 1;
    }
}

static void set_capacities(struct sk_round *r, struct recv_plan *p)
{
    for (int k = 0; k < p->cnt; k++) {
        struct sk_msg *a = &r->m[p->idx[k]];
        a->cap = 0;
        for (int j = 0; j < p->cnt; j++) {
            const struct sk_msg *b = &r->m[p->idx[j]];
            if (in_set(r, a, b) && b->n > a->cap)
                a->cap = b->n;
        }
    }
}

/* Innermost sets first; the exact receives of one class keep the class's send order. */
static void order_receives(struct gen *g, struct recv_plan *p)
{
    struct sk_round *r = g->r;
    struct ord *o = calloc((size_t)p->cnt + 1, sizeof *o);
    for (int k = 0; k < p->cnt; k++)
        o[k] = (struct ord){(uint64_t)r->m[p->idx[k]].level, sk_next(&g->rng), 0, 0, k};
    qsort(o, (size_t)p->cnt, sizeof *o, ord_cmp);
    int *next = calloc((size_t)p->nclass + 1, sizeof(int));
    for (int pos = 0; pos < p->cnt; pos++) {
        int k = o[pos].i;
        if (r->m[p->idx[k]].level == LV_EXACT) {
            int c = p->class_id[k];
            k = p->class_first[c] + next[c]++;
        }
        r->m[p->idx[k]].recv_pos = pos;
    }
    free(next);
    free(o);
}

static void pick_receive_calls(struct gen *g, int d, struct recv_plan *p)
{
    struct sk_round *r = g->r;
    uint64_t e = sk_below(&g->rng, 100);
    r->early[d] = e < 35 ? p->cnt : e < 50 ? 0 : (int)sk_below(&g->rng, (uint64_t)p->cnt + 1);
    for (int k = 0; k < p->cnt; k++) {
        struct sk_msg *m = &r->m[p->idx[k]];
        m->how = m->recv_pos < r->early[d] ? RH_EARLY : 1 + (int)sk_below(&g->rng, RH_COUNT - 1);
        m->recv_vec = m->level == LV_EXACT && p->class_len[p->class_id[k]] == 1 && m->how != RH_PROBE &&
                      m->how != RH_IPROBE && m->n % (2 * (size_t)r->vec_k) == 0 && sk_chance(&g->rng, 15);
    }
}

static void plan_receiver(struct gen *g, int d, int wild_pct)
{
    struct recv_plan p;
    g->r->wild_src[d] = sk_chance(&g->rng, 50);
    collect_classes(g, d, &p);
    pick_wildcards(g, d, &p, wild_pct);
    set_capacities(g->r, &p);
    order_receives(g, &p);
    pick_receive_calls(g, d, &p);
    free(p.idx);
    free(p.class_id);
    free(p.class_first);
    free(p.class_len);
}

/* ---------------------------------------------------------------- send modes */

static int bsend_fits(struct gen *g, const struct sk_msg *m)
{
    size_t limit = sk_bsend_limit(g->o->max_bytes);
    return g->bsend_msgs[m->src] < SK_BSEND_MSGS && g->bsend_bytes[m->src] + m->n <= limit;
}

static void pick_mode(struct gen *g, struct sk_msg *m)
{
    static const int safe[] = {SM_SEND, SM_SSEND, SM_ISEND, SM_ISSEND, SM_BSEND, SM_IBSEND, SM_RSEND, SM_IRSEND};
    static const int unsafe[] = {SM_ISEND, SM_ISSEND, SM_BSEND, SM_IBSEND};
    struct sk_round *r = g->r;
    int early_exact = m->level == LV_EXACT && m->how == RH_EARLY;
    if (early_exact)
        m->mode = safe[sk_below(&g->rng, r->ready ? 8 : 6)];
    else
        m->mode = unsafe[sk_below(&g->rng, 4)];
    if (m->mode == SM_BSEND || m->mode == SM_IBSEND) {
        if (!bsend_fits(g, m)) {
            m->mode = SM_ISEND;
            return;
        }
        g->bsend_msgs[m->src]++;
        g->bsend_bytes[m->src] += m->n;
    }
}

/* ---------------------------------------------------------------- collectives */

static size_t coll_count(struct gen *g, int kind)
{
    size_t max = g->o->max_bytes, np = (size_t)g->r->np;
    switch (kind) {
    case C_BCAST:
    case C_IBCAST:
        return sk_log_uniform(&g->rng, max);
    case C_REDUCE:
    case C_ALLREDUCE:
    case C_SCAN:
    case C_IALLREDUCE:
    case C_IREDUCE:
        return sk_log_uniform(&g->rng, min_size(max, SK_MIB) / 8);
    case C_GATHER:
    case C_GATHERV:
    case C_ALLGATHER:
        return sk_log_uniform(&g->rng, max / np);
    case C_ALLTOALL:
    case C_ALLTOALLV:
        return sk_log_uniform(&g->rng, max / np / np);
    default:
        return 0;
    }
}

static void gen_coll(struct gen *g, struct sk_coll *c, int kind)
{
    c->kind = kind;
    c->on_sub = sk_chance(&g->rng, 35);
    c->red = (int)sk_below(&g->rng, R_COUNT);
    c->in_place = sk_chance(&g->rng, 25);
    c->root_pick = sk_next(&g->rng);
    c->count = coll_count(g, kind);
    c->key = sk_next(&g->rng);
    g->r->need_sub |= c->on_sub;
}

static void gen_colls(struct gen *g)
{
    static const int nb[] = {C_IBARRIER, C_IBCAST, C_IALLREDUCE, C_IREDUCE};
    struct sk_round *r = g->r;
    r->nover = (int)sk_below(&g->rng, SK_MAX_OVER + 1);
    for (int i = 0; i < r->nover; i++)
        gen_coll(g, &r->over[i], nb[sk_below(&g->rng, 4)]);
    r->ncoll = (int)sk_below(&g->rng, SK_MAX_COLL + 1);
    for (int i = 0; i < r->ncoll; i++)
        gen_coll(g, &r->coll[i], (int)sk_below(&g->rng, C_SCAN + 1));
    /* The split: up to 3 colours, a few ranks left out, keys that reorder and tie. */
    int ncolors = 1 + (int)sk_below(&g->rng, 3);
    for (int w = 0; w < r->np; w++) {
        r->color[w] = sk_chance(&g->rng, 10) ? MPI_UNDEFINED : (int)sk_below(&g->rng, (uint64_t)ncolors);
        r->key[w] = (int)sk_below(&g->rng, 4);
    }
}

/* ---------------------------------------------------------------- the round */

static void gen_round_params(struct gen *g)
{
    static const int tag_ranges[] = {1, 3, 50, 32767};
    static const int vec_ks[] = {1, 3, 8, 64, 1000, 4096};
    struct sk_round *r = g->r;
    r->tag_range = tag_ranges[sk_below(&g->rng, 4)];
    r->vec_k = vec_ks[sk_below(&g->rng, 6)];
    r->vec_gap = 1 + (int)sk_below(&g->rng, (uint64_t)r->vec_k); /* holes at most double the buffer */
    r->ready = sk_chance(&g->rng, 30);
    r->complete = (int)sk_below(&g->rng, CM_COUNT);
}

struct sk_round *sk_schedule(const struct sk_opts *o, int np, long round)
{
    struct sk_round *r = calloc(1, sizeof *r);
    size_t unp = (size_t)np;
    struct gen g = {{sk_key(o->seed, (uint64_t)round, (uint64_t)np, 0x5c4ed01e)}, o, r, 0, NULL, NULL};
    size_t budget = 8 * o->max_bytes;
    g.budget = budget < 64 * SK_KIB ? 64 * SK_KIB : budget > ROUND_BYTES ? ROUND_BYTES : budget;
    g.bsend_bytes = calloc(unp, sizeof(size_t));
    g.bsend_msgs = calloc(unp, sizeof(int));
    r->round = round;
    r->np = np;
    r->early = calloc(unp, sizeof(int));
    r->wild_src = calloc(unp, sizeof(int));
    r->color = calloc(unp, sizeof(int));
    r->key = calloc(unp, sizeof(int));
    gen_round_params(&g);
    gen_messages(&g);
    order_sends(&g);
    static const int wild_pcts[] = {0, 30, 70};
    int wild_pct = wild_pcts[sk_below(&g.rng, 3)];
    for (int d = 0; d < np; d++)
        plan_receiver(&g, d, wild_pct);
    for (int i = 0; i < r->nmsg; i++)
        pick_mode(&g, &r->m[i]);
    gen_colls(&g);
    free(g.bsend_bytes);
    free(g.bsend_msgs);
    return r;
}

void sk_schedule_free(struct sk_round *r)
{
    if (!r)
        return;
    free(r->m);
    free(r->early);
    free(r->wild_src);
    free(r->color);
    free(r->key);
    free(r);
}

/* ---------------------------------------------------------------- printing (-v, -vv) */

static const char *level_name(const struct sk_round *r, const struct sk_msg *m, char *buf, size_t len)
{
    if (m->level == LV_EXACT)
        snprintf(buf, len, "(%d,%d)", m->src, m->tag);
    else if (m->level == LV_ANY)
        snprintf(buf, len, "(ANY,ANY)");
    else if (r->wild_src[m->dst])
        snprintf(buf, len, "(ANY,%d)", m->tag);
    else
        snprintf(buf, len, "(%d,ANY)", m->src);
    return buf;
}

static void print_colls(const char *what, const struct sk_coll *c, int n)
{
    printf(" %s=[", what);
    for (int i = 0; i < n; i++)
        printf("%s%s%s:%zu", i ? " " : "", sk_coll_name[c[i].kind], c[i].on_sub ? "(sub)" : "", c[i].count);
    printf("]");
}

void sk_schedule_print(const struct sk_round *r, int detail)
{
    printf("round %ld: %s msgs=%d bytes=%zu tags<%d vec=%dx%d+%d ready=%d complete=%s", r->round, r->shape, r->nmsg,
           r->bytes, r->tag_range, 2, r->vec_k, r->vec_gap, r->ready, sk_complete_name[r->complete]);
    print_colls("overlap", r->over, r->nover);
    print_colls("coll", r->coll, r->ncoll);
    printf("\n");
    if (detail < 2)
        return;
    for (int w = 0; w < r->np; w++)
        printf("  rank %d: early=%d partial=%s color=%d key=%d\n", w, r->early[w],
               r->wild_src[w] ? "(ANY,tag)" : "(src,ANY)", r->color[w], r->key[w]);
    for (int i = 0; i < r->nmsg; i++) {
        const struct sk_msg *m = &r->m[i];
        char env[48];
        printf("  msg %d: %d->%d %s tag=%d n=%zu %s%s send#%d | recv#%d %s %s%s cap=%zu class#%d\n", m->seq, m->src,
               m->dst, m->comm ? "dup" : "world", m->tag, m->n, sk_mode_name[m->mode], m->send_vec ? "(vector)" : "",
               m->send_pos, m->recv_pos, level_name(r, m, env, sizeof env), sk_how_name[m->how],
               m->recv_vec ? "(vector)" : "", m->cap, m->class_pos);
    }
}
