#include "core/bsend.h"

#include <stdlib.h>

#include "core/error.h"
#include "core/progress.h"
#include "core/pt2pt.h"

#define LINE 64 /* copies start on a cache line: the shared-memory copies run fastest from there */

/* One message's share of the attached buffer; kept sorted by offset. */
struct seg {
    struct seg *next;
    size_t off, len;
};

static struct {
    char *base; /* MPI_BUFFER_AUTOMATIC: each message gets an allocation of its own */
    size_t size;
    struct seg *used;
} bb;

int skiff_bsend_attach(void *buf, size_t size)
{
    if (bb.base == MPI_BUFFER_AUTOMATIC)
        return skiff_err(MPI_ERR_BUFFER, "MPI_BUFFER_AUTOMATIC is already attached: detach it first");
    if (bb.base)
        return skiff_err(MPI_ERR_BUFFER, "a buffer of %zu bytes is already attached: detach it first", bb.size);
    bb.base = buf;
    bb.size = size;
    bb.used = NULL;
    return MPI_SUCCESS;
}

int skiff_bsend_detach(void **buf, size_t *size)
{
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    while (bb.used)
        skiff_wait_step(&w);
    *buf = bb.base;
    *size = bb.size;
    bb.base = NULL;
    bb.size = 0;
    return MPI_SUCCESS;
}

/* An automatic copy starts past its segment record, rounded up to a cache line: the allocation is
 * cache-line aligned, so the copy is too. */
#define AUTO_RECORD ((sizeof(struct seg) + LINE - 1) / LINE * LINE)

static struct seg *take_automatic(size_t len)
{
    void *p = NULL;
    if (posix_memalign(&p, LINE, AUTO_RECORD + len) != 0)
        return NULL;
    struct seg *n = p;
    n->off = 0;
    n->len = len;
    n->next = bb.used;
    bb.used = n;
    return n;
}

/* First fit between the segments in use. */
static struct seg *take_space(size_t len)
{
    if (bb.base == MPI_BUFFER_AUTOMATIC)
        return take_automatic(len);
    size_t off = 0;
    struct seg **link = &bb.used;
    for (struct seg *s = bb.used; s; link = &s->next, s = s->next) {
        if (s->off - off >= len)
            break;
        off = s->off + s->len;
    }
    if (off + len > bb.size)
        return NULL;
    struct seg *n = malloc(sizeof *n);
    if (!n)
        return NULL;
    n->off = off;
    n->len = len;
    n->next = *link;
    *link = n;
    return n;
}

static void give_back(struct skiff_request *r)
{
    struct seg *s = r->cookie;
    for (struct seg **link = &bb.used; *link; link = &(*link)->next) {
        if (*link == s) {
            *link = s->next;
            free(s);
            return;
        }
    }
}

static size_t used_bytes(void)
{
    size_t n = 0;
    for (struct seg *s = bb.used; s; s = s->next)
        n += s->len;
    return n;
}

int skiff_bsend(const void *buf, size_t count, const struct skiff_type *t, int dest, int tag, struct skiff_comm *c)
{
    size_t bytes = skiff_type_packed_size(t, count);
    size_t len = (bytes + LINE - 1) & ~(size_t)(LINE - 1); /* keep copies cache-line aligned */
    if (!bb.base)
        return skiff_err(MPI_ERR_BUFFER, "no buffer is attached for the %zu bytes to rank %d, tag %d: call "
                         "MPI_Buffer_attach first", bytes, dest, tag);
    struct seg *s = take_space(len ? len : LINE);
    if (!s && bb.base == MPI_BUFFER_AUTOMATIC)
        return skiff_err(MPI_ERR_NO_MEM, "cannot allocate %zu bytes to buffer the message to rank %d", bytes, dest);
    if (!s)
        return skiff_err(MPI_ERR_BUFFER,
                         "no room for %zu bytes in the attached buffer (%zu bytes, %zu in use) for rank %d, tag %d",
                         bytes, bb.size, used_bytes(), dest, tag);
    char *copy = bb.base == MPI_BUFFER_AUTOMATIC ? (char *)s + AUTO_RECORD : bb.base + s->off;
    skiff_type_pack(buf, count, t, copy);
    struct skiff_request *r;
    int rc = skiff_send_start(copy, bytes, dest, tag, c, c->ctx, SKIFF_SEND_STANDARD, 0, &r);
    if (rc != MPI_SUCCESS) {
        struct skiff_request tmp = {.cookie = s};
        give_back(&tmp);
        return rc;
    }
    r->cookie = s;
    r->on_complete = give_back;
    r->freed = 1;
    if (r->state == SKIFF_RS_DONE)
        skiff_req_complete(r); /* already gone: give the space back and the request with it */
    return MPI_SUCCESS;
}
