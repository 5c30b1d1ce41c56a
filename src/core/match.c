#include "core/match.h"
#include "core/stats.h"

#include <stdlib.h>

static struct {
    struct skiff_request *head, *tail;
} posted;

static struct {
    struct skiff_unexp *head, *tail;
    int count;
} unexp;

void skiff_posted_add(struct skiff_request *r)
{
    r->next = NULL;
    r->prev = posted.tail;
    if (posted.tail)
        posted.tail->next = r;
    else
        posted.head = r;
    posted.tail = r;
}

void skiff_posted_remove(struct skiff_request *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        posted.head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        posted.tail = r->prev;
    r->next = r->prev = NULL;
}

struct skiff_request *skiff_posted_take(uint32_t ctx, int src, int tag)
{
    for (struct skiff_request *r = posted.head; r; r = r->next) {
        if (skiff_match(ctx, src, tag, r->ctx, r->peer, r->tag)) {
            skiff_posted_remove(r);
            return r;
        }
    }
    return NULL;
}

void skiff_unexp_add(struct skiff_unexp *u)
{
    u->next = NULL;
    if (unexp.tail)
        unexp.tail->next = u;
    else
        unexp.head = u;
    unexp.tail = u;
    unexp.count++;
    skiff_stats.unexp_msgs++;
    if ((unsigned long long)unexp.count > skiff_stats.unexp_hwm)
        skiff_stats.unexp_hwm = (unsigned long long)unexp.count;
}

static void unexp_unlink(struct skiff_unexp *u, struct skiff_unexp *prev)
{
    if (prev)
        prev->next = u->next;
    else
        unexp.head = u->next;
    if (unexp.tail == u)
        unexp.tail = prev;
    unexp.count--;
}

struct skiff_unexp *skiff_unexp_find(uint32_t ctx, int src, int tag, int take)
{
    struct skiff_unexp *prev = NULL;
    for (struct skiff_unexp *u = unexp.head; u; prev = u, u = u->next) {
        if (!skiff_match(u->h.ctx, u->h.src, u->h.tag, ctx, src, tag))
            continue;
        if (take)
            unexp_unlink(u, prev);
        return u;
    }
    return NULL;
}

struct skiff_unexp *skiff_unexp_take_awaiting(int peer, uint64_t sreq)
{
    struct skiff_unexp *prev = NULL;
    for (struct skiff_unexp *u = unexp.head; u; prev = u, u = u->next) {
        int awaits = u->h.type == SKIFF_MSG_RTS || (u->h.flags & SKIFF_MSG_F_SYNC);
        if (awaits && (peer < 0 || (u->peer == peer && u->h.sreq == sreq))) {
            unexp_unlink(u, prev);
            return u;
        }
    }
    return NULL;
}

int skiff_unexp_count(void)
{
    return unexp.count;
}

void skiff_match_finalize(void)
{
    while (unexp.head) {
        struct skiff_unexp *u = unexp.head;
        unexp.head = u->next;
        free(u->data);
        free(u);
    }
    unexp.tail = NULL;
    unexp.count = 0;
    posted.head = posted.tail = NULL;
}
