#include "core/match.h"
#include "core/comm.h"
#include "core/stats.h"

#include <stdlib.h>

/* Both queues are kept per context id: a message can only match a receive of its own context, so each
 * context's entries in arrival (posting) order are all the order MPI asks for, and a receive or an arrival
 * on one communicator never walks past what waits on another (a library's duplicated communicator beside
 * the application's traffic; bench/match_comms.c). Contexts share a list only when they share a bucket
 * (ctx modulo NCTX: communicators' ids are 4 apart, so 64 communicators before two meet), which costs walks,
 * never order. Per-context lists are also the state a lock per communicator would guard (docs/design.md,
 * "Threads").
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

#define NCTX 256
static struct plist posted[NCTX];

static inline struct plist *posted_of(uint32_t ctx)
{
    return &posted[ctx % NCTX];
}

#define NBUCKETS 256
enum { BY_TAG = 1, BY_SOURCE = 2 }; /* request->bucketed */
static struct plist by_tag[NBUCKETS], by_source[NBUCKETS];
static int nbucketed; /* receives in buckets: 0 keeps the arrival path to one test */

static inline unsigned hash(uint32_t ctx, int key)
{
    return (ctx * 0x9E3779B1u ^ (uint32_t)key * 0x85EBCA6Bu) >> 24;
}

static inline struct plist *bucket_of(int kind, uint32_t ctx, int src, int tag)
{
    return kind == BY_TAG ? &by_tag[hash(ctx, tag)] : &by_source[hash(ctx, src)];
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

void skiff_posted_add(struct skiff_request *r)
{
    r->bucketed = (uint8_t)wants_bucket(r);
    if (SKIFF_UNLIKELY(r->bucketed)) {
        list_append(bucket_of(r->bucketed, r->ctx, r->peer, r->tag), r);
        nbucketed++;
        return;
    }
    list_append(posted_of(r->ctx), r);
}

/* Takes r off l, the list it is on. */
static void posted_unlink(struct plist *l, struct skiff_request *r)
{
    list_unlink(l, r);
    if (SKIFF_UNLIKELY(r->bucketed)) {
        r->bucketed = 0;
        nbucketed--;
    }
}

void skiff_posted_remove(struct skiff_request *r)
{
    posted_unlink(SKIFF_UNLIKELY(r->bucketed) ? bucket_of(r->bucketed, r->ctx, r->peer, r->tag) : posted_of(r->ctx),
                  r);
}

static struct skiff_request *take_from(struct plist *l, uint32_t ctx, int src, int tag)
{
    for (struct skiff_request *r = l->head; r; r = r->next) {
        if (skiff_match(ctx, src, tag, r->ctx, r->peer, r->tag)) {
            posted_unlink(l, r); /* the list it was found on: no need to find it again */
            return r;
        }
    }
    return NULL;
}

struct skiff_request *skiff_posted_take(uint32_t ctx, int src, int tag)
{
    /* A context's receives are all in one place (its communicator's assertions decide where), so the
     * first match found in any of the three is the oldest. */
    if (SKIFF_UNLIKELY(nbucketed)) {
        struct skiff_request *r = take_from(bucket_of(BY_TAG, ctx, src, tag), ctx, src, tag);
        if (r || (r = take_from(bucket_of(BY_SOURCE, ctx, src, tag), ctx, src, tag)))
            return r;
    }
    return take_from(posted_of(ctx), ctx, src, tag);
}

/* Unexpected messages: one list per context in arrival order, and their count. */
struct ulist {
    struct skiff_unexp *head, *tail;
};
static struct ulist unexp[NCTX];
static int unexp_count;

static inline struct ulist *unexp_of(uint32_t ctx)
{
    return &unexp[ctx % NCTX];
}

void skiff_unexp_add(struct skiff_unexp *u)
{
    struct ulist *l = unexp_of(u->h.ctx);
    u->next = NULL;
    if (l->tail)
        l->tail->next = u;
    else
        l->head = u;
    l->tail = u;
    unexp_count++;
    skiff_stats.unexp_msgs++;
    if ((unsigned long long)unexp_count > skiff_stats.unexp_hwm)
        skiff_stats.unexp_hwm = (unsigned long long)unexp_count;
}

static void unexp_unlink(struct ulist *l, struct skiff_unexp *u, struct skiff_unexp *prev)
{
    if (prev)
        prev->next = u->next;
    else
        l->head = u->next;
    if (l->tail == u)
        l->tail = prev;
    unexp_count--;
}

struct skiff_unexp *skiff_unexp_find(uint32_t ctx, int src, int tag, int take)
{
    if (!unexp_count) /* the usual case of a receive posted first: as cheap as one list */
        return NULL;
    struct ulist *l = unexp_of(ctx);
    struct skiff_unexp *prev = NULL;
    for (struct skiff_unexp *u = l->head; u; prev = u, u = u->next) {
        if (!skiff_match(u->h.ctx, u->h.src, u->h.tag, ctx, src, tag))
            continue;
        if (take)
            unexp_unlink(l, u, prev);
        return u;
    }
    return NULL;
}

/* A withdrawn send is looked for in its context's list; the end of the job (peer < 0) looks at all. */
struct skiff_unexp *skiff_unexp_take_awaiting(int peer, uint32_t ctx, uint64_t sreq)
{
    struct ulist *first = peer < 0 ? unexp : unexp_of(ctx), *last = peer < 0 ? unexp + NCTX - 1 : first;
    for (struct ulist *l = first; unexp_count && l <= last; l++) {
        struct skiff_unexp *prev = NULL;
        for (struct skiff_unexp *u = l->head; u; prev = u, u = u->next) {
            int awaits = u->h.type == SKIFF_MSG_RTS || (u->h.flags & SKIFF_MSG_F_SYNC);
            if (awaits && (peer < 0 || (u->peer == peer && u->h.ctx == ctx && u->h.sreq == sreq))) {
                unexp_unlink(l, u, prev);
                return u;
            }
        }
    }
    return NULL;
}

int skiff_unexp_count(void)
{
    return unexp_count;
}

void skiff_match_finalize(void)
{
    for (int i = 0; i < NCTX; i++) {
        while (unexp[i].head) {
            struct skiff_unexp *u = unexp[i].head;
            unexp[i].head = u->next;
            free(u->data);
            free(u);
        }
        unexp[i].tail = NULL;
        posted[i].head = posted[i].tail = NULL;
    }
    unexp_count = 0;
    for (int i = 0; i < NBUCKETS; i++) {
        by_tag[i].head = by_tag[i].tail = NULL;
        by_source[i].head = by_source[i].tail = NULL;
    }
    nbucketed = 0;
}
