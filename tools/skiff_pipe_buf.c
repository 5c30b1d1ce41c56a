/* Message buffers: page-aligned plus the requested misalignment, fixed or moving through memory. */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "skiff_pipe.h"

#include "cachesize.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { LINE = 64, MAX_WINDOW = 1 << 30 };

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

size_t pipe_window(const struct pipe_opts *o)
{
    if (o->window)
        return o->window;
    /* Four times the cache, so that by the time the walk comes back nothing of it is left; capped
     * because some hypervisors report a whole socket's cache. */
    size_t w = 4 * m_llc_bytes();
    return w > MAX_WINDOW ? MAX_WINDOW : w;
}

int pipe_buf_init(struct pipe_buf *b, size_t max, size_t offset, size_t window, int nslots)
{
    size_t page = page_size();
    memset(b, 0, sizeof *b);
    b->offset = offset;
    b->slot = round_up(max + offset + PIPE_GUARD, page);
    b->nslots = nslots < 1 ? 1 : nslots;
    b->window = window;
    b->len = window ? round_up(window, page) : b->slot * (size_t)b->nslots;
    if (window && b->len < 2 * b->slot) /* two messages in flight must never share memory */
        b->len = 2 * b->slot;
    b->base = aligned_alloc(page, b->len);
    if (!b->base) {
        fprintf(stderr, "skiff-pipe: cannot allocate %zu bytes of buffer\n", b->len);
        return -1;
    }
    /* Touch every page now, so that page faults never land in a timed loop. */
    memset(b->base, 0, b->len);
    return 0;
}

/* Moving window: each message gets the next piece, whole pages for page-sized messages and whole
 * cache lines for smaller ones, so the misalignment relative to pages (or lines) stays the same and
 * small messages also walk through more memory than the cache holds before coming back. */
static unsigned char *next_moving(struct pipe_buf *b, size_t bytes)
{
    size_t stride = round_up(bytes + b->offset + PIPE_GUARD, bytes < page_size() ? LINE : page_size());
    if (b->pos + stride > b->len)
        b->pos = 0;
    unsigned char *p = b->base + b->pos + b->offset;
    b->pos += stride;
    return p;
}

unsigned char *pipe_buf_next(struct pipe_buf *b, size_t bytes)
{
    if (b->window)
        return next_moving(b, bytes);
    unsigned char *p = b->base + (size_t)b->next_slot * b->slot + b->offset;
    b->next_slot = (b->next_slot + 1) % b->nslots;
    return p;
}

void pipe_buf_free(struct pipe_buf *b)
{
    free(b->base);
    b->base = NULL;
}
