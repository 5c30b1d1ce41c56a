#include "core/match.h"
#include "core/comm.h"
#include "core/stats.h"

#include <stdalign.h>
#include <stdlib.h>

/* Both queues are kept per context id: a message can only match a receive of its own context, so each
 * context's entries in arrival (posting) order are all the order MPI asks for, and a receive or an arrival
 * on one communicator never walks past what waits on another (a library's duplicated communicator beside
 * the application's traffic; bench/match_comms.c). Contexts share lists only when they share a slot
 * (below), which costs walks, never order.
 *
 * Posted receives: one list per context in posting order, except on communicators that assert mpi_assert_no_any_tag,
 * whose receives go to a bucket chosen by (context, tag), or (failing that) mpi_assert_no_any_source,
 * whose receives go to a bucket chosen by (context, source). No receive there can match another tag (or
 * source), so the oldest match in the bucket is the oldest match of all, and a message finds it without
 * walking past the receives for other tags or sources: a rank with thousands of receives posted with
 * distinct tags (a halo exchange posting all its receives first) matches each arrival in constant time,
 * not in a walk of the list. */
struct plist {
    struct skiff_request *head, *tail;
};
struct ulist {
    struct skiff_unexp *head, *tail;
};

/* The matching state of the contexts that share a slot (ctx modulo NSLOTS): their posted receives and
 * unexpected messages, with the counts that keep the common paths to one test. Nothing here is shared
 * between slots, so a slot is the unit a lock of its own would guard (docs/per-communicator-locks.md,
 * step 5): communicators' ids are 4 apart, so 64 communicators before two share one. */
#define NSLOTS 256
#define NBUCKETS 256
struct slot {
    alignas(64) struct plist posted; /* a line each: indexing is a shift, and slots never share a line */
    struct ulist unexp;
    int unexp_count; /* 0: a receive posted before its message looks no further */
    int nbucketed;   /* receives in the buckets: 0 keeps the arrival path to one test */
    struct plist *by_tag, *by_source; /* NBUCKETS each, made for the first receive a bucket takes */
};
static struct slot slots[NSLOTS];
static int unexp_total; /* every slot's, for the high-water mark */

static inline struct slot *slot_of(uint32_t ctx)
{
    return &slots[ctx % NSLOTS];
}

enum { BY_TAG = 1, BY_SOURCE = 2 }; /* request->bucketed */

static inline unsigned hash(uint32_t ctx, int key)
{
    return (ctx * 0x9E3779B1u ^ (uint32_t)key * 0x85EBCA6Bu) >> 24;
}

/* Only for a slot whose buckets exist (nbucketed > 0, or a receive that is in one). */
static inline struct plist *bucket_of(const struct slot *sl, int kind, uint32_t ctx, int src, int tag)
{
    return kind == BY_TAG ? &sl->by_tag[hash(ctx, tag)] : &sl->by_source[hash(ctx, src)];
}

/* 0, or -1 when memory is out: the receive then waits in the slot's one list, which costs walks, never
 * order (a context's receives must all be in one place, which the caller's test keeps: see below). */
static int make_buckets(struct slot *sl)
{
    if (sl->by_tag)
        return 0;
    struct plist *b = calloc(2 * NBUCKETS, sizeof *b);
    if (!b)
        return -1;
    sl->by_tag = b;
    sl->by_source = b + NBUCKETS;
    return 0;
}

/* The assertions are read when the receive is posted; a wildcard receive (erroneous under them) stays in
 * the one list. Only the communicator's own point-to-point context: collectives and partitioned traffic
 * use others. */
static inline int wants_bucket(const struct skiff_request *r)
{
    const struct skiff_comm *c = r->comm;
    if (!c || !(c->hints & (SKIFF_HINT_NO_ANY_TAG | SKIFF_HINT_NO_ANY_SOURCE)) || r->ctx != c->ctx)
        return 0;
    if ((c->hints & SKIFF_HINT_NO_ANY_TAG) && r->tag != MPI_ANY_TAG)
        return BY_TAG;
    if ((c->hints & SKIFF_HINT_NO_ANY_SOURCE) && r->peer != MPI_ANY_SOURCE)
        return BY_SOURCE;
    return 0;
}

static void list_append(struct plist *l, struct skiff_request *r)
{
    r->next = NULL;
    r->prev = l->tail;
    if (l->tail)
        l->tail->next = r;
    else
        l->head = r;
    l->tail = r;
}

static void list_unlink(struct plist *l, struct skiff_request *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        l->head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        l->tail = r->prev;
    r->next = r->prev = NULL;
}

/* r in the bucket kind says, if it can go there. Out of line, and reached by a tail call: the
 * allocation would otherwise make every post save and restore registers. */
static __attribute__((noinline)) void post_bucketed(struct skiff_request *r, int kind)
{
    struct slot *sl = slot_of(r->ctx);
    /* A slot with receives in its one list keeps adding there: a receive in a bucket could otherwise
     * match before an older one of its context in the list (the assertions changed, say). */
    if (sl->posted.head || make_buckets(sl) != 0) {
        list_append(&sl->posted, r);
        return;
    }
    r->bucketed = (uint8_t)kind;
    list_append(bucket_of(sl, kind, r->ctx, r->peer, r->tag), r);
    sl->nbucketed++;
}

void skiff_posted_add(struct skiff_request *r)
{
    int kind = wants_bucket(r);
    r->bucketed = 0;
    if (SKIFF_UNLIKELY(kind)) {
        post_bucketed(r, kind);
        return;
    }
    list_append(&slot_of(r->ctx)->posted, r);
}

/* Takes r off l, the list of slot sl it is on. */
static void posted_unlink(struct slot *sl, struct plist *l, struct skiff_request *r)
{
    list_unlink(l, r);
    if (SKIFF_UNLIKELY(r->bucketed)) {
        r->bucketed = 0;
        sl->nbucketed--;
    }
}

void skiff_posted_remove(struct skiff_request *r)
{
    struct slot *sl = slot_of(r->ctx);
    posted_unlink(sl, SKIFF_UNLIKELY(r->bucketed) ? bucket_of(sl, r->bucketed, r->ctx, r->peer, r->tag) : &sl->posted,
                  r);
}

static struct skiff_request *take_from(struct slot *sl, struct plist *l, uint32_t ctx, int src, int tag)
{
    for (struct skiff_request *r = l->head; r; r = r->next) {
        if (skiff_match(ctx, src, tag, r->ctx, r->peer, r->tag)) {
            posted_unlink(sl, l, r); /* the list it was found on: no need to find it again */
            return r;
        }
    }
    return NULL;
}

struct skiff_request *skiff_posted_take(uint32_t ctx, int src, int tag)
{
    struct slot *sl = slot_of(ctx);
    /* A context's receives are all in one place (its communicator's assertions decide where), so the
     * first match found in any of the three is the oldest. */
    if (SKIFF_UNLIKELY(sl->nbucketed)) {
        struct skiff_request *r = take_from(sl, bucket_of(sl, BY_TAG, ctx, src, tag), ctx, src, tag);
        if (r || (r = take_from(sl, bucket_of(sl, BY_SOURCE, ctx, src, tag), ctx, src, tag)))
            return r;
    }
    return take_from(sl, &sl->posted, ctx, src, tag);
}

/* Unexpected messages: one list per slot in arrival order. */
void skiff_unexp_add(struct skiff_unexp *u)
{
    struct slot *sl = slot_of(u->h.ctx);
    struct ulist *l = &sl->unexp;
    u->next = NULL;
    if (l->tail)
        l->tail->next = u;
    else
        l->head = u;
    l->tail = u;
    sl->unexp_count++;
    skiff_stats.unexp_msgs++;
    if ((unsigned long long)++unexp_total > skiff_stats.unexp_hwm)
        skiff_stats.unexp_hwm = (unsigned long long)unexp_total;
}

static void unexp_unlink(struct slot *sl, struct skiff_unexp *u, struct skiff_unexp *prev)
{
    struct ulist *l = &sl->unexp;
    if (prev)
        prev->next = u->next;
    else
        l->head = u->next;
    if (l->tail == u)
        l->tail = prev;
    sl->unexp_count--;
    unexp_total--;
}

struct skiff_unexp *skiff_unexp_find(uint32_t ctx, int src, int tag, int take)
{
    if (!unexp_total) /* the usual case of a receive posted first: one test */
        return NULL;
    struct slot *sl = slot_of(ctx);
    if (!sl->unexp_count)
        return NULL;
    struct skiff_unexp *prev = NULL;
    for (struct skiff_unexp *u = sl->unexp.head; u; prev = u, u = u->next) {
        if (!skiff_match(u->h.ctx, u->h.src, u->h.tag, ctx, src, tag))
            continue;
        if (take)
            unexp_unlink(sl, u, prev);
        return u;
    }
    return NULL;
}

/* A withdrawn send is looked for in its context's slot; the end of the job (peer < 0) looks at all. */
struct skiff_unexp *skiff_unexp_take_awaiting(int peer, uint32_t ctx, uint64_t sreq)
{
    struct slot *first = peer < 0 ? slots : slot_of(ctx), *last = peer < 0 ? slots + NSLOTS - 1 : first;
    for (struct slot *sl = first; unexp_total && sl <= last; sl++) {
        struct skiff_unexp *prev = NULL;
        for (struct skiff_unexp *u = sl->unexp.head; u; prev = u, u = u->next) {
            int awaits = u->h.type == SKIFF_MSG_RTS || (u->h.flags & SKIFF_MSG_F_SYNC);
            if (awaits && (peer < 0 || (u->peer == peer && u->h.ctx == ctx && u->h.sreq == sreq))) {
                unexp_unlink(sl, u, prev);
                return u;
            }
        }
    }
    return NULL;
}

int skiff_unexp_count(void)
{
    return unexp_total;
}

void skiff_match_finalize(void)
{
    for (int i = 0; i < NSLOTS; i++) {
        struct slot *sl = &slots[i];
        while (sl->unexp.head) {
            struct skiff_unexp *u = sl->unexp.head;
            sl->unexp.head = u->next;
            free(u->data);
            free(u);
        }
        free(sl->by_tag); /* by_source lives in the same block */
        *sl = (struct slot){0};
    }
    unexp_total = 0;
}
