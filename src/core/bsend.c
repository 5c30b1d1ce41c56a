#include "core/bsend.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/progress.h"
#include "core/pt2pt.h"

#define LINE 64 /* copies start on a cache line: the shared-memory copies run fastest from there */

/* One message's share of a buffer; kept sorted by offset. seq orders the messages, so that a flush waits
 * for those buffered before it and not for those sent after. */
struct seg {
    struct seg *next;
    struct bbuf *owner;
    size_t off, len;
    uint64_t seq;
};

/* An attached buffer: the process's, or one communicator's or session's. */
struct bbuf {
    struct bbuf *next; /* the communicators' and sessions' buffers */
    enum skiff_bbuf_kind kind;
    const void *owner; /* NULL: the process's */
    char *base;              /* MPI_BUFFER_AUTOMATIC: each message gets an allocation of its own */
    size_t size;
    struct seg *used;
    uint64_t seq;                   /* the next message's */
    struct skiff_request *flushers; /* MPI_Buffer_iflush requests, linked through next; upto in done */
};

static struct bbuf process;
static struct bbuf *owned; /* few: a program attaches to a handful of communicators or sessions at most */

static struct bbuf *find(enum skiff_bbuf_kind kind, const void *owner)
{
    if (kind == SKIFF_BBUF_PROCESS)
        return &process;
    for (struct bbuf *b = owned; b; b = b->next)
        if (b->owner == owner && b->kind == kind)
            return b;
    return NULL;
}

static const char *owner_name(const struct bbuf *b)
{
    if (b->kind == SKIFF_BBUF_COMM)
        return skiff_comm_label(b->owner);
    return b->kind == SKIFF_BBUF_SESSION ? "the session" : "the process";
}

int skiff_bsend_attach(enum skiff_bbuf_kind kind, const void *owner, void *buf, size_t size)
{
    struct bbuf *b = find(kind, owner);
    if (b && b->base == MPI_BUFFER_AUTOMATIC)
        return skiff_err(MPI_ERR_BUFFER, "MPI_BUFFER_AUTOMATIC is already attached to %s: detach it first",
                         owner_name(b));
    if (b && b->base)
        return skiff_err(MPI_ERR_BUFFER, "a buffer of %zu bytes is already attached to %s: detach it first",
                         b->size, owner_name(b));
    if (!b) {
        if (!(b = calloc(1, sizeof *b)))
            return skiff_err(MPI_ERR_NO_MEM, "cannot allocate the record of an attached buffer");
        b->kind = kind;
        b->owner = owner;
        b->next = owned;
        owned = b;
    }
    b->base = buf;
    b->size = size;
    b->used = NULL;
    return MPI_SUCCESS;
}

/* The oldest message still in b, or b->seq when it is empty. */
static uint64_t oldest(const struct bbuf *b)
{
    uint64_t m = b->seq;
    for (const struct seg *s = b->used; s; s = s->next)
        if (s->seq < m)
            m = s->seq;
    return m;
}

static void wait_until_left(const struct bbuf *b, uint64_t upto)
{
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    while (oldest(b) < upto)
        skiff_wait_step(&w);
}

static void unlink_owned(struct bbuf *b)
{
    for (struct bbuf **link = &owned; *link; link = &(*link)->next) {
        if (*link == b) {
            *link = b->next;
            free(b);
            return;
        }
    }
}

int skiff_bsend_detach(enum skiff_bbuf_kind kind, const void *owner, void **buf, size_t *size)
{
    struct bbuf *b = find(kind, owner);
    *buf = NULL;
    *size = 0;
    if (!b)
        return MPI_SUCCESS;
    wait_until_left(b, b->seq);
    *buf = b->base;
    *size = b->size;
    b->base = NULL;
    b->size = 0;
    if (b != &process)
        unlink_owned(b);
    return MPI_SUCCESS;
}

int skiff_bsend_flush(enum skiff_bbuf_kind kind, const void *owner)
{
    struct bbuf *b = find(kind, owner);
    if (b)
        wait_until_left(b, b->seq);
    return MPI_SUCCESS;
}

int skiff_bsend_iflush(enum skiff_bbuf_kind kind, const void *owner, struct skiff_request **out)
{
    struct bbuf *b = find(kind, owner);
    struct skiff_request *r = skiff_req_alloc(SKIFF_REQ_COLL);
    if (!r)
        return skiff_err(MPI_ERR_NO_MEM, "no request object left for a buffer flush");
    r->comm = kind == SKIFF_BBUF_COMM ? (struct skiff_comm *)owner : &skiff_comm_world;
    r->peer = MPI_PROC_NULL;
    r->tag = MPI_ANY_TAG;
    *out = r;
    if (!b || oldest(b) >= b->seq) {
        r->state = SKIFF_RS_DONE;
        return MPI_SUCCESS;
    }
    r->state = SKIFF_RS_POSTED;
    r->done = (size_t)b->seq;
    r->next = b->flushers;
    b->flushers = r;
    return MPI_SUCCESS;
}

/* After a message left b: complete the flushes that waited for nothing newer. */
static void wake_flushers(struct bbuf *b)
{
    uint64_t m = oldest(b);
    for (struct skiff_request **link = &b->flushers; *link;) {
        struct skiff_request *r = *link;
        if ((uint64_t)r->done > m) {
            link = &r->next;
            continue;
        }
        *link = r->next;
        r->next = NULL;
        skiff_req_complete(r);
    }
}

void skiff_bsend_owner_freed(enum skiff_bbuf_kind kind, const void *owner)
{
    struct bbuf *b = kind == SKIFF_BBUF_PROCESS || !owned ? NULL : find(kind, owner);
    if (!b)
        return;
    wait_until_left(b, b->seq);
    unlink_owned(b);
}

void skiff_bsend_finalize(void)
{
    while (owned)
        unlink_owned(owned);
    memset(&process, 0, sizeof process);
}

/* An automatic copy starts past its segment record, rounded up to a cache line: the allocation is
 * cache-line aligned, so the copy is too. */
#define AUTO_RECORD ((sizeof(struct seg) + LINE - 1) / LINE * LINE)

static struct seg *take_automatic(struct bbuf *b, size_t len)
{
    void *p = NULL;
    if (posix_memalign(&p, LINE, AUTO_RECORD + len) != 0)
        return NULL;
    struct seg *n = p;
    n->off = 0;
    n->len = len;
    n->next = b->used;
    b->used = n;
    return n;
}

/* First fit between the segments in use. */
static struct seg *take_space(struct bbuf *b, size_t len)
{
    struct seg *n;
    if (b->base == MPI_BUFFER_AUTOMATIC) {
        n = take_automatic(b, len);
    } else {
        size_t off = 0;
        struct seg **link = &b->used;
        for (struct seg *s = b->used; s; link = &s->next, s = s->next) {
            if (s->off - off >= len)
                break;
            off = s->off + s->len;
        }
        if (off + len > b->size || !(n = malloc(sizeof *n)))
            return NULL;
        n->off = off;
        n->len = len;
        n->next = *link;
        *link = n;
    }
    if (n) {
        n->owner = b;
        n->seq = b->seq++;
    }
    return n;
}

static void give_back_seg(struct seg *s)
{
    struct bbuf *b = s->owner;
    for (struct seg **link = &b->used; *link; link = &(*link)->next) {
        if (*link == s) {
            *link = s->next;
            free(s);
            break;
        }
    }
    if (b->flushers)
        wake_flushers(b);
}

static void give_back(struct skiff_request *r)
{
    give_back_seg(r->cookie);
}

static size_t used_bytes(const struct bbuf *b)
{
    size_t n = 0;
    for (const struct seg *s = b->used; s; s = s->next)
        n += s->len;
    return n;
}

int skiff_bsend(const void *buf, size_t count, const struct skiff_type *t, int dest, int tag, struct skiff_comm *c)
{
    size_t bytes = skiff_type_packed_size(t, count);
    size_t len = (bytes + LINE - 1) & ~(size_t)(LINE - 1); /* keep copies cache-line aligned */
    struct bbuf *b = NULL;
    if (owned) {
        b = find(SKIFF_BBUF_COMM, c);
        if ((!b || !b->base) && c->session)
            b = find(SKIFF_BBUF_SESSION, c->session);
    }
    if (!b || !b->base)
        b = &process;
    if (!b->base)
        return skiff_err(MPI_ERR_BUFFER, "no buffer is attached for the %zu bytes to rank %d, tag %d: call "
                         "MPI_Buffer_attach, MPI_Comm_attach_buffer or MPI_Session_attach_buffer first", bytes, dest,
                         tag);
    struct seg *s = take_space(b, len ? len : LINE);
    if (!s && b->base == MPI_BUFFER_AUTOMATIC)
        return skiff_err(MPI_ERR_NO_MEM, "cannot allocate %zu bytes to buffer the message to rank %d", bytes, dest);
    if (!s)
        return skiff_err(MPI_ERR_BUFFER,
                         "no room for %zu bytes in the buffer attached to %s (%zu bytes, %zu in use) for rank %d, "
                         "tag %d", bytes, owner_name(b), b->size, used_bytes(b), dest, tag);
    char *copy = b->base == MPI_BUFFER_AUTOMATIC ? (char *)s + AUTO_RECORD : b->base + s->off;
    skiff_type_pack(buf, count, t, copy);
    struct skiff_request *r;
    /* The space goes back, and the request with it, when the message is gone (perhaps at once). */
    int rc = skiff_send_start_then(copy, bytes, dest, tag, c, c->ctx, SKIFF_SEND_STANDARD, 0,
                                   &(struct skiff_req_then){give_back, s, 1}, &r);
    if (rc != MPI_SUCCESS)
        give_back_seg(s);
    return rc;
}
