#include "core/request.h"

#include <stdlib.h>
#include <string.h>

#include "core/trace.h"

#define CHUNK_SHIFT SKIFF_REQ_CHUNK_SHIFT
#define CHUNK SKIFF_REQ_CHUNK

struct skiff_req_pool skiff_req_pool;

const struct skiff_request skiff_req_sent = {.idx = SKIFF_REQ_SENT_ID, .gen = 0, .kind = SKIFF_REQ_SEND,
                                             .state = SKIFF_RS_DONE, .peer = MPI_ANY_SOURCE,
                                             .world_peer = -1, .st_source = MPI_ANY_SOURCE,
                                             .st_tag = MPI_ANY_TAG, .st_error = MPI_SUCCESS};

static int grow(void)
{
    if (skiff_req_pool.nchunks == SKIFF_REQ_MAX_CHUNKS)
        return -1;
    struct skiff_request *c = calloc(CHUNK, sizeof *c);
    if (!c)
        return -1;
    for (uint32_t i = CHUNK; i-- > 0;) {
        c[i].idx = (skiff_req_pool.nchunks << CHUNK_SHIFT) | i;
        c[i].gen = 1;
        c[i].next = skiff_req_pool.free;
        skiff_req_pool.free = &c[i];
    }
    skiff_req_pool.chunk[skiff_req_pool.nchunks++] = c;
    return 0;
}

struct skiff_request *skiff_req_alloc(int kind)
{
    if (!skiff_req_pool.free && grow())
        return NULL;
    struct skiff_request *r = skiff_req_pool.free;
    skiff_req_pool.free = r->next;
    uint32_t idx = r->idx, gen = r->gen;
    memset(r, 0, sizeof *r);
    r->idx = idx;
    r->gen = gen;
    r->kind = (uint8_t)kind;
    r->st_error = MPI_SUCCESS;
    return r;
}

void skiff_req_release(struct skiff_request *r)
{
    SKIFF_TRACE_HOOK(skiff_trace_done(r));
    r->kind = 0;
    r->gen++; /* ids held by peers for this slot are now stale */
    if (r->gen == 0)
        r->gen = 1;
    r->next = skiff_req_pool.free;
    skiff_req_pool.free = r;
}

void skiff_req_destroy(struct skiff_request *r)
{
    if (r->persist && r->persist->destroy)
        r->persist->destroy(r);
    skiff_req_release(r);
}

void skiff_req_foreach(void (*fn)(struct skiff_request *r, void *arg), void *arg)
{
    for (uint32_t c = 0; c < skiff_req_pool.nchunks; c++)
        for (uint32_t i = 0; i < CHUNK; i++)
            if (skiff_req_pool.chunk[c][i].kind)
                fn(&skiff_req_pool.chunk[c][i], arg);
}

static void destroy_persistent(struct skiff_request *r, void *arg)
{
    (void)arg;
    if (r->persist && r->persist->destroy)
        r->persist->destroy(r);
}

void skiff_req_finalize(void)
{
    /* Persistent requests the program never freed still own memory (packed copies, held types). */
    skiff_req_foreach(destroy_persistent, NULL);
    for (uint32_t c = 0; c < skiff_req_pool.nchunks; c++)
        free(skiff_req_pool.chunk[c]);
    memset(&skiff_req_pool, 0, sizeof skiff_req_pool);
}
