#include "core/request.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_SHIFT 8
#define CHUNK (1u << CHUNK_SHIFT)
#define MAX_CHUNKS 4096

static struct {
    struct skiff_request *chunk[MAX_CHUNKS];
    uint32_t nchunks;
    struct skiff_request *free; /* linked through next */
} pool;

static int grow(void)
{
    if (pool.nchunks == MAX_CHUNKS)
        return -1;
    struct skiff_request *c = calloc(CHUNK, sizeof *c);
    if (!c)
        return -1;
    for (uint32_t i = CHUNK; i-- > 0;) {
        c[i].idx = (pool.nchunks << CHUNK_SHIFT) | i;
        c[i].gen = 1;
        c[i].next = pool.free;
        pool.free = &c[i];
    }
    pool.chunk[pool.nchunks++] = c;
    return 0;
}

struct skiff_request *skiff_req_alloc(int kind)
{
    if (!pool.free && grow())
        return NULL;
    struct skiff_request *r = pool.free;
    pool.free = r->next;
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
    r->kind = 0;
    r->gen++; /* ids held by peers for this slot are now stale */
    if (r->gen == 0)
        r->gen = 1;
    r->next = pool.free;
    pool.free = r;
}

uint64_t skiff_req_id(const struct skiff_request *r)
{
    return (uint64_t)r->gen << 32 | r->idx;
}

struct skiff_request *skiff_req_lookup(uint64_t id)
{
    uint32_t idx = (uint32_t)id, gen = (uint32_t)(id >> 32);
    if ((idx >> CHUNK_SHIFT) >= pool.nchunks)
        return NULL;
    struct skiff_request *r = &pool.chunk[idx >> CHUNK_SHIFT][idx & (CHUNK - 1)];
    return r->gen == gen && r->kind ? r : NULL;
}

void skiff_req_foreach(void (*fn)(struct skiff_request *r, void *arg), void *arg)
{
    for (uint32_t c = 0; c < pool.nchunks; c++)
        for (uint32_t i = 0; i < CHUNK; i++)
            if (pool.chunk[c][i].kind)
                fn(&pool.chunk[c][i], arg);
}

void skiff_req_finalize(void)
{
    for (uint32_t c = 0; c < pool.nchunks; c++)
        free(pool.chunk[c]);
    memset(&pool, 0, sizeof pool);
}
