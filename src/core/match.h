/* The matching engine: posted receives and unexpected messages, both in arrival order, so MPI's
 * non-overtaking rule holds as long as each sender's messages arrive in order (the transports
 * guarantee that). */
#ifndef SKIFF_MATCH_H
#define SKIFF_MATCH_H

#include "core/proto.h"
#include "core/request.h"

struct skiff_unexp {
    struct skiff_unexp *next;
    struct skiff_hdr h;
    int peer;         /* job rank of the sender */
    void *data;       /* eager payload (h.len bytes), NULL for RTS */
};

static inline int skiff_match(uint32_t ctx, int src, int tag, uint32_t want_ctx, int want_src, int want_tag)
{
    return ctx == want_ctx && (want_src == MPI_ANY_SOURCE || want_src == src) &&
           (want_tag == MPI_ANY_TAG || want_tag == tag);
}

void skiff_posted_add(struct skiff_request *r);
void skiff_posted_remove(struct skiff_request *r);
/* The oldest posted receive that matches, removed from the list; NULL if none. */
struct skiff_request *skiff_posted_take(uint32_t ctx, int src, int tag);

void skiff_unexp_add(struct skiff_unexp *u);
/* The oldest matching unexpected message; removed when take is 1. */
struct skiff_unexp *skiff_unexp_find(uint32_t ctx, int src, int tag, int take);
/* The oldest unexpected message whose sender waits for an answer (an RTS or a synchronous eager),
 * removed; only the one from peer on context ctx with sender request sreq unless peer < 0. NULL if none. */
struct skiff_unexp *skiff_unexp_take_awaiting(int peer, uint32_t ctx, uint64_t sreq);
int skiff_unexp_count(void);
void skiff_match_finalize(void);

#endif
