/* Windows and the message path of one-sided operations (docs/design.md, "One-sided").
 *
 * An origin sends each operation to the target on the window's private communicator, tag 0: a header, the
 * target datatype's blocks, the packed origin data. The target takes them out of its unexpected queue in
 * its progress engine (skiff_rma_progress_hook) and applies each origin's stream in order; a reply (the
 * data of a get, the old value of an accumulate, a lock grant, an unlock or flush acknowledgement) goes
 * back under a tag the origin chose and posted a receive for before it sent the request. */
#include "rma/win.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coll/ctxid_agree.h"
#include "coll/coll.h"
#include "core/core.h"
#include "core/errhandler.h"
#include "core/error.h"
#include "core/group.h"
#include "core/info.h"
#include "core/node.h"
#include "core/objpool.h"
#include "core/op.h"
#include "core/mt.h"
#include "core/progress.h"
#include "core/pt2pt.h"
#include "core/request.h"
#include "rma/atomic.h"
#include "rma/cma.h"
#include "rma/rdma.h"
#include "rma/seg_barrier.h"
#include "boot/boot.h"
#include "util/arch.h"
#include "util/log.h"

#define OP_TAG 0
#define MAX_REPLY_TAG (1 << 30)
#define SEG_ALIGN 64

/* On the wire: the header, nblocks blocks of the target type, then data bytes. */
struct rma_hdr {
    uint32_t kind;
    int32_t reply; /* the tag of the reply, 0 for none */
    int32_t aux;   /* LOCK: the lock type */
    int32_t pad;
    int64_t disp;
    uint64_t count;  /* target elements */
    int64_t extent;  /* the target type's */
    uint64_t tsize;  /* its bytes of data per element */
    uint64_t nblocks;
    uint64_t data;   /* bytes of origin data after the blocks */
    uint64_t op;     /* ABI value of a predefined op */
    uint64_t basic;  /* ABI value of the basic type the accumulate runs on */
};

struct rma_blk {
    int64_t off;
    uint64_t len;
};

/* An operation that arrived (or is arriving) at this target. */
struct skiff_rma_in {
    struct skiff_request *req;
    void *buf;
    size_t bytes;
    int origin;
    struct skiff_rma_in *next;
};

/* Something this process waits for: an operation's send, a reply's receive (unpacked into buf by t
 * when t is set), or a reply this target sends. */
struct skiff_rma_out {
    struct skiff_request *req;
    void *tmp; /* freed when done */
    void *buf;
    size_t count;
    const struct skiff_type *t;
    int target;
    struct skiff_request *user; /* a request-based operation's request, completed with this */
    struct skiff_rma_out *next;
};

static struct skiff_objpool pool = SKIFF_OBJPOOL_INIT(struct skiff_win);
static struct skiff_win *live;



int skiff_win_fail(MPI_Win h, int rc)
{
    struct skiff_win *w = skiff_win_get(h);
    if (!rc)
        return rc;
    if (!w)
        return skiff_err_handle(skiff_comm_get(MPI_COMM_WORLD), rc);
    char label[MPI_MAX_OBJECT_NAME + 16];
    snprintf(label, sizeof label, "window %s", w->name[0] ? w->name : "(unnamed)");
    return skiff_eh_invoke(w->errhandler, SKIFF_EH_WIN, &h, label, rc);
}

int skiff_rma_path(const struct skiff_win *w, int target)
{
    if (w->direct)
        return SKIFF_RMA_PATH_DIRECT;
    if (w->cma && w->cma[target])
        return SKIFF_RMA_PATH_CMA;
    return w->rdma && w->rdma->rkey[target] ? SKIFF_RMA_PATH_RDMA : SKIFF_RMA_PATH_MESSAGE;
}

/* The direct path's accumulate lock: the first word of the segment (zero, free, when it is made). A
 * holder keeps it for one operation's copy and combine; waiters yield after a short spin. */
static void seg_lock(struct skiff_win *w)
{
    atomic_int *l = w->seg;
    unsigned spins = 0;
    int expect = 0;
    while (!atomic_compare_exchange_weak_explicit(l, &expect, 1, memory_order_acquire, memory_order_relaxed)) {
        expect = 0;
        if (++spins > 64)
            sched_yield();
        else
            skiff_cpu_relax();
    }
}

static void seg_unlock(struct skiff_win *w)
{
    atomic_store_explicit((atomic_int *)w->seg, 0, memory_order_release);
}

/* Passive target on the direct path: rank t's lock is a word in the segment (0 free, -1 held exclusively,
 * n > 0 held shared by n), taken and given back by the origins alone, so a target that computes outside
 * MPI holds nobody up. A waiter keeps the progress engine going and yields between tries. */
static atomic_int *lock_word(struct skiff_win *w, int t)
{
    return (atomic_int *)((char *)w->seg + SEG_ALIGN) + t;
}

static void word_lock(struct skiff_win *w, int t, int type)
{
    atomic_int *l = lock_word(w, t);
    for (;;) {
        int v = atomic_load_explicit(l, memory_order_relaxed);
        if (type == MPI_LOCK_EXCLUSIVE ? v == 0 : v >= 0) {
            if (atomic_compare_exchange_weak_explicit(l, &v, type == MPI_LOCK_EXCLUSIVE ? -1 : v + 1,
                                                      memory_order_acquire, memory_order_relaxed))
                return;
            continue;
        }
        if (skiff_progress() && SKIFF_UNLIKELY(skiff_mt_on))
            skiff_mt_progressed();
        skiff_mt_yield(); /* other threads of this process run meanwhile (MPI_THREAD_MULTIPLE) */
    }
}

static void word_unlock(struct skiff_win *w, int t)
{
    atomic_int *l = lock_word(w, t);
    if (atomic_load_explicit(l, memory_order_relaxed) < 0)
        atomic_store_explicit(l, 0, memory_order_release);
    else
        atomic_fetch_sub_explicit(l, 1, memory_order_release);
}

/* ---- target side ---- */

static void add_out(struct skiff_rma_out **list, struct skiff_request *req, void *tmp, void *buf, size_t count,
                    const struct skiff_type *t, int target)
{
    struct skiff_rma_out *o = malloc(sizeof *o);
    if (!o) {
        skiff_error("one-sided: out of memory tracking a message to rank %d", target);
        abort();
    }
    *o = (struct skiff_rma_out){req, tmp, buf, count, t, target, NULL, *list};
    *list = o;
}

/* Sends a reply (data may be NULL for bytes 0); data is the target's to free once sent. */
static void reply(struct skiff_win *w, int origin, int tag, void *data, size_t bytes)
{
    struct skiff_request *r = NULL;
    int rc = skiff_send_start(data, bytes, origin, tag, w->comm, w->comm->ctx, SKIFF_SEND_STANDARD, 0, &r);
    if (rc || !r) {
        skiff_error("one-sided: could not answer rank %d (error %d)", origin, rc);
        free(data);
        return;
    }
    add_out(&w->replies, r, data, NULL, 0, NULL, origin);
}

/* The target range [lo, hi) of count elements, relative to the start of the window; 0 if it does not fit. */
static int target_range(const struct skiff_win *w, const struct rma_hdr *h, const struct rma_blk *b)
{
    if (!h->count || !h->nblocks)
        return 1;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint64_t i = 0; i < h->nblocks; i++) {
        if (b[i].len > (uint64_t)INT64_MAX / 2 || b[i].off < INT64_MIN / 4 || b[i].off > INT64_MAX / 4)
            return 0;
        if (b[i].off < lo)
            lo = b[i].off;
        if (b[i].off + (int64_t)b[i].len > hi)
            hi = b[i].off + (int64_t)b[i].len;
    }
    int64_t span, start;
    if (h->count > (uint64_t)INT64_MAX ||
        __builtin_mul_overflow((int64_t)(h->count - 1), h->extent, &span) ||
        __builtin_mul_overflow(h->disp, (int64_t)w->disp_unit, &start))
        return 0;
    if (span < 0)
        lo += span;
    else
        hi += span;
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) { /* start is an address: inside one attached region */
        for (int i = 0; i < w->nregions; i++)
            if (start + lo >= (int64_t)w->regions[i].base &&
                start + hi <= (int64_t)(w->regions[i].base + w->regions[i].bytes))
                return 1;
        return 0;
    }
    return start + lo >= 0 && start + hi <= (int64_t)w->bytes;
}

static void gather(const char *addr, const struct rma_hdr *h, const struct rma_blk *b, char *out)
{
    for (uint64_t k = 0; k < h->count; k++) {
        const char *e = addr + (int64_t)k * h->extent;
        for (uint64_t i = 0; i < h->nblocks; i++) {
            memcpy(out, e + b[i].off, b[i].len);
            out += b[i].len;
        }
    }
}

static void scatter(char *addr, const struct rma_hdr *h, const struct rma_blk *b, const char *in)
{
    for (uint64_t k = 0; k < h->count; k++) {
        char *e = addr + (int64_t)k * h->extent;
        for (uint64_t i = 0; i < h->nblocks; i++) {
            memcpy(e + b[i].off, in, b[i].len);
            in += b[i].len;
        }
    }
}

/* cur := in op cur, both packed bytes of the basic type bt (handle basic; bytes long). */
static int combine(MPI_Op op, MPI_Datatype basic, const struct skiff_type *bt, const char *in, char *cur, size_t bytes)
{
    if (op == MPI_NO_OP)
        return 0;
    if (op == MPI_REPLACE) {
        memcpy(cur, in, bytes);
        return 0;
    }
    size_t n = bytes / bt->size;
    if (bt->contiguous && bt->extent == (ptrdiff_t)bt->size) {
        skiff_op_apply(op, in, cur, n, basic);
        return 0;
    }
    /* A pair type with padding: the op steps by its extent, so lay both out as arrays first. */
    size_t room = n * (size_t)bt->extent + 1;
    char *a = malloc(room), *c = malloc(room);
    if (!a || !c) {
        free(a);
        free(c);
        return -1;
    }
    skiff_type_unpack(in, bytes, a, n, bt);
    skiff_type_unpack(cur, bytes, c, n, bt);
    skiff_op_apply(op, a, c, n, basic);
    skiff_type_pack(c, n, bt, cur);
    free(a);
    free(c);
    return 0;
}

static int grantable(const struct skiff_win *w, int type)
{
    return w->excl_holder < 0 && (type == MPI_LOCK_SHARED || w->shared_holders == 0);
}

/* Applies one arrived message; 0 if it must wait (a lock that cannot be granted yet). */
/* The writing half of every operation, the same at the target (apply) and on the direct path: cur
 * holds the elements at addr as they were (gathered; NULL for a put) and data what the origin sent.
 * A get writes nothing; what get, get_accumulate and compare_and_swap return is cur as it was before
 * this, which the caller has kept. */
static void update(char *addr, const struct rma_hdr *h, const struct rma_blk *b, const char *data, char *cur,
                   MPI_Op op, const struct skiff_type *bt, size_t bytes)
{
    MPI_Datatype basic = (MPI_Datatype)(uintptr_t)h->basic;
    switch (h->kind) {
    case SKIFF_RMA_PUT:
        scatter(addr, h, b, data);
        break;
    case SKIFF_RMA_ACC:
    case SKIFF_RMA_GACC: /* MPI_NO_OP sends no data and changes nothing */
        if (h->data && combine(op, basic, bt, data, cur, bytes) == 0)
            scatter(addr, h, b, cur);
        break;
    case SKIFF_RMA_CAS:
        if (memcmp(cur, data + bytes, bytes) == 0)
            scatter(addr, h, b, data);
        break;
    default:
        break;
    }
}

static int apply(struct skiff_win *w, struct skiff_rma_in *in)
{
    const struct rma_hdr *h = in->buf;
    int origin = in->origin;
    if (in->bytes < sizeof *h || h->nblocks > (in->bytes - sizeof *h) / sizeof(struct rma_blk) ||
        h->data != in->bytes - sizeof *h - h->nblocks * sizeof(struct rma_blk)) {
        skiff_error("one-sided: malformed operation of %zu bytes from rank %d dropped", in->bytes, origin);
        w->applied++;
        return 1;
    }
    const struct rma_blk *b = (const struct rma_blk *)(h + 1);
    const char *data = (const char *)(b + h->nblocks);
    switch (h->kind) {
    case SKIFF_RMA_LOCK:
        if (!grantable(w, h->aux))
            return 0;
        if (h->aux == MPI_LOCK_EXCLUSIVE)
            w->excl_holder = origin;
        else
            w->shared_holders++;
        reply(w, origin, h->reply, NULL, 0);
        return 1;
    case SKIFF_RMA_UNLOCK:
        if (w->excl_holder == origin)
            w->excl_holder = -1;
        else if (w->shared_holders > 0)
            w->shared_holders--;
        reply(w, origin, h->reply, NULL, 0);
        return 1;
    case SKIFF_RMA_FLUSH:
        reply(w, origin, h->reply, NULL, 0);
        return 1;
    case SKIFF_RMA_POST:
        w->posts[origin]++;
        return 1;
    case SKIFF_RMA_COMPLETE: /* every operation of origin's epoch was applied before this */
        w->completes[origin]++;
        return 1;
    default:
        break;
    }
    w->applied++;
    size_t bytes = (size_t)(h->count * h->tsize);
    const struct skiff_type *bt = NULL;
    int ok = h->kind >= SKIFF_RMA_PUT && h->kind <= SKIFF_RMA_CAS && target_range(w, h, b) &&
             (h->count == 0 || h->tsize <= SIZE_MAX / h->count);
    if (ok && (h->kind == SKIFF_RMA_ACC || h->kind == SKIFF_RMA_GACC))
        ok = (bt = skiff_type_get((MPI_Datatype)(uintptr_t)h->basic)) != NULL && bt->predefined && bt->size &&
             bytes % bt->size == 0;
    if (ok && (h->kind == SKIFF_RMA_PUT || h->kind == SKIFF_RMA_ACC))
        ok = h->data == bytes;
    if (ok && h->kind == SKIFF_RMA_GACC)
        ok = h->data == bytes || (h->data == 0 && (MPI_Op)(uintptr_t)h->op == MPI_NO_OP);
    if (ok && h->kind == SKIFF_RMA_CAS)
        ok = h->data == 2 * bytes;
    char *addr = w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? (char *)(uintptr_t)h->disp
                                                     : (char *)w->base + h->disp * (int64_t)w->disp_unit;
    if (!ok) {
        skiff_error("one-sided: operation %u from rank %d (displacement %lld, %llu elements of %llu bytes) is out "
                    "of this window's %lld bytes or malformed: dropped",
                    h->kind, origin, (long long)h->disp, (unsigned long long)h->count,
                    (unsigned long long)h->tsize, (long long)w->bytes);
        if (h->reply) /* the origin waits: it gets zeros */
            reply(w, origin, h->reply, calloc(1, bytes <= (1u << 30) ? bytes + 1 : 1), bytes <= (1u << 30) ? bytes : 0);
        return 1;
    }
    char *cur = NULL;
    if (h->kind != SKIFF_RMA_PUT) {
        if (!(cur = malloc(bytes ? bytes : 1))) {
            skiff_error("one-sided: out of memory applying %zu bytes from rank %d", bytes, origin);
            abort();
        }
        gather(addr, h, b, cur);
    }
    if (h->kind == SKIFF_RMA_GET) {
        reply(w, origin, h->reply, cur, bytes);
        return 1;
    }
    char *old = NULL;
    if (h->kind == SKIFF_RMA_GACC || h->kind == SKIFF_RMA_CAS) {
        if (!(old = malloc(bytes ? bytes : 1))) {
            skiff_error("one-sided: out of memory applying %zu bytes from rank %d", bytes, origin);
            abort();
        }
        memcpy(old, cur, bytes);
    }
    update(addr, h, b, data, cur, (MPI_Op)(uintptr_t)h->op, bt, bytes);
    if (old)
        reply(w, origin, h->reply, old, bytes);
    free(cur);
    return 1;
}

/* Finishes what is done in list; returns how many. */
static int reap(struct skiff_win *w, struct skiff_rma_out **list, int counted)
{
    int n = 0;
    for (struct skiff_rma_out **l = list; *l;) {
        struct skiff_rma_out *o = *l;
        if (o->req->state != SKIFF_RS_DONE) {
            l = &o->next;
            continue;
        }
        if (o->t) {
            skiff_type_unpack(o->tmp, o->req->st_bytes, o->buf, o->count, o->t);
            skiff_type_unref(o->t);
        }
        if (o->req->st_error)
            skiff_error("one-sided: a message to or from rank %d failed (error %d)", o->target, o->req->st_error);
        if (o->user) {
            o->user->st_error = o->req->st_error;
            skiff_req_complete(o->user);
        }
        skiff_req_release(o->req);
        free(o->tmp);
        *l = o->next;
        free(o);
        if (counted)
            w->nout--;
        n++;
    }
    return n;
}

static int serve(struct skiff_win *w)
{
    int n = 0;
    MPI_Status st;
    struct skiff_request *m = NULL;
    while (skiff_mprobe_once(MPI_ANY_SOURCE, OP_TAG, w->comm, &st, &m) == MPI_SUCCESS && m) {
        struct skiff_rma_in *in = malloc(sizeof *in);
        void *buf = malloc(m->bytes ? m->bytes : 1);
        if (!in || !buf) {
            skiff_error("one-sided: out of memory receiving an operation of %zu bytes", m->bytes);
            abort();
        }
        *in = (struct skiff_rma_in){m, buf, m->bytes, m->peer, NULL};
        skiff_mrecv_start(m, buf, m->bytes, NULL);
        if (w->in_tail)
            w->in_tail->next = in;
        else
            w->in_head = in;
        w->in_tail = in;
        n++;
    }
    if (w->in_head) {
        /* Each origin's stream in order; one that waits (still arriving, or a lock not granted) holds back
         * its later messages, not other origins'. */
        memset(w->blocked, 0, (size_t)w->size);
        struct skiff_rma_in *prev = NULL;
        for (struct skiff_rma_in *in = w->in_head; in;) {
            struct skiff_rma_in *next = in->next;
            if (w->blocked[in->origin] || in->req->state != SKIFF_RS_DONE || !apply(w, in)) {
                w->blocked[in->origin] = 1;
                prev = in;
                in = next;
                continue;
            }
            if (prev)
                prev->next = next;
            else
                w->in_head = next;
            if (w->in_tail == in)
                w->in_tail = prev;
            skiff_req_release(in->req);
            free(in->buf);
            free(in);
            n++;
            in = next;
        }
    }
    if (w->out)
        n += reap(w, &w->out, 1);
    if (w->replies)
        n += reap(w, &w->replies, 0);
    if (w->rdma && w->rdma->reqs)
        n += skiff_rma_rdma_reap(w);
    return n;
}

static int rma_progress(void)
{
    int n = 0;
    for (struct skiff_win *w = live; w; w = w->next)
        n += serve(w);
    return n;
}

/* One element of an accumulate whose basic type has atomics but whose address is misaligned: under the
 * lock word, which the caller holds (atomic.c says why the two never meet on one element). */
static void locked_elem(char *p, size_t es, const struct skiff_rma_op *op, const struct skiff_type *bt,
                        const char *in, const char *cmp, char *old)
{
    char tmp[8];
    memcpy(tmp, p, es);
    if (old)
        memcpy(old, tmp, es);
    if (cmp) {
        if (memcmp(tmp, cmp, es) == 0)
            memcpy(p, in, es);
    } else if (in && combine(op->op, bt->basic, bt, in, tmp, es) == 0) {
        memcpy(p, tmp, es);
    }
}

/* An accumulate on the direct path whose basic type has CPU atomics (class cls): element by element in
 * the packed order of h's blocks, each aligned element with one atomic step, misaligned ones under the
 * lock word. old (GACC, CAS) receives the values before, packed. */
static void direct_atomic(struct skiff_win *w, const struct skiff_rma_op *op, const struct rma_hdr *h, char *addr,
                          const struct skiff_type *bt, int cls, char *old)
{
    const struct rma_blk *b = (const struct rma_blk *)(h + 1);
    const char *data = h->data ? (const char *)(b + h->nblocks) : NULL;
    const char *cmp = h->kind == SKIFF_RMA_CAS ? data + bt->size : NULL;
    size_t es = bt->size, pos = 0;
    int held = 0;
    for (uint64_t k = 0; k < h->count; k++)
        for (uint64_t i = 0; i < h->nblocks; i++)
            for (uint64_t j = 0; j < b[i].len / es; j++, pos += es) {
                char *p = addr + (int64_t)k * h->extent + b[i].off + (int64_t)(j * es);
                const char *in = data ? data + pos : NULL;
                if (skiff_rma_atomic_aligned(p, es)) {
                    skiff_rma_atomic_elem(p, es, cls, op->op, bt->basic, in, cmp, old ? old + pos : NULL);
                    continue;
                }
                if (!held)
                    seg_lock(w);
                held = 1;
                locked_elem(p, es, op, bt, in, cmp, old ? old + pos : NULL);
            }
    if (held)
        seg_unlock(w);
}

/* The class of atomics h's elements take, or NONE (the lock word for the whole operation). */
static int atomic_class(const struct rma_hdr *h, const struct skiff_type *bt)
{
    if (!bt || !(h->kind == SKIFF_RMA_ACC || h->kind == SKIFF_RMA_GACC || h->kind == SKIFF_RMA_CAS))
        return SKIFF_ATOMIC_NONE;
    int cls = skiff_rma_atomic_class(bt->basic, bt->size);
    const struct rma_blk *b = (const struct rma_blk *)(h + 1);
    for (uint64_t i = 0; cls && i < h->nblocks; i++)
        if (b[i].len % bt->size) /* cannot happen for a type made of one basic type: said, not assumed */
            cls = SKIFF_ATOMIC_NONE;
    return cls;
}

/* The direct path: the origin applies h (as built for the message) to the target's part of the segment
 * itself; the result of a get lands in the origin's buffer at once. Accumulates on basic types with CPU
 * atomics use them; the others hold the window's lock word. */
static int direct(struct skiff_win *w, const struct skiff_rma_op *op, const struct rma_hdr *h)
{
    w->plain = 1; /* copies, or elements under the lock word */
    const struct rma_blk *b = (const struct rma_blk *)(h + 1);
    const char *data = (const char *)(b + h->nblocks);
    char *addr = (char *)w->seg + w->offsets[op->target] + h->disp * (int64_t)w->units[op->target];
    size_t bytes = (size_t)(h->count * h->tsize);
    const struct skiff_type *bt = skiff_type_get((MPI_Datatype)(uintptr_t)h->basic);
    int cls = atomic_class(h, bt);
    if (cls) {
        char *old = h->kind == SKIFF_RMA_ACC ? NULL : malloc(bytes + 1);
        if (h->kind != SKIFF_RMA_ACC && !old)
            return skiff_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes of a one-sided operation", bytes);
        direct_atomic(w, op, h, addr, bt, cls, old);
        if (old)
            skiff_type_unpack(old, bytes, op->raddr, op->rcount, op->rt);
        free(old);
        return MPI_SUCCESS;
    }
    int locked = h->kind == SKIFF_RMA_ACC || h->kind == SKIFF_RMA_GACC || h->kind == SKIFF_RMA_CAS;
    char *cur = NULL;
    if (h->kind != SKIFF_RMA_PUT && !(cur = malloc(bytes + 1)))
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes of a one-sided operation", bytes);
    if (locked)
        seg_lock(w);
    if (cur)
        gather(addr, h, b, cur);
    if (h->kind == SKIFF_RMA_GET)
        skiff_type_unpack(cur, bytes, (void *)(uintptr_t)op->oaddr, op->ocount, op->ot);
    else if (h->kind == SKIFF_RMA_GACC || h->kind == SKIFF_RMA_CAS)
        skiff_type_unpack(cur, bytes, op->raddr, op->rcount, op->rt);
    update(addr, h, b, data, cur, op->op, bt, bytes);
    if (locked)
        seg_unlock(w);
    free(cur);
    return MPI_SUCCESS;
}

/* The common cases on the direct path, without building a message: a contiguous put or get is one
 * copy; an accumulate of one predefined type on all sides, naturally aligned, is atomics straight on the
 * user's buffers (the same steps direct_atomic takes, so the two never differ on an element). 0: not
 * such a case. */
static int direct_fast(struct skiff_win *w, const struct skiff_rma_op *op)
{
    const struct skiff_type *tt = op->tt, *ot = op->ot;
    char *addr = (char *)w->seg + w->offsets[op->target] + op->disp * (MPI_Aint)w->units[op->target];
    size_t bytes = op->tcount * tt->size;
    if (op->kind == SKIFF_RMA_PUT || op->kind == SKIFF_RMA_GET) {
        if (!tt->contiguous || !ot->contiguous || op->ocount * ot->size != bytes)
            return 0;
        w->plain = 1;
        if (op->kind == SKIFF_RMA_PUT)
            memmove(skiff_type_data(addr, tt), skiff_type_data(op->oaddr, ot), bytes);
        else
            memmove(skiff_type_data(op->oaddr, ot), skiff_type_data(addr, tt), bytes);
        return 1;
    }
    int cls = tt->predefined ? skiff_rma_atomic_class(tt->basic, tt->size) : SKIFF_ATOMIC_NONE;
    int fetch = op->kind == SKIFF_RMA_GACC || op->kind == SKIFF_RMA_CAS;
    int no_in = op->kind == SKIFF_RMA_GACC && op->op == MPI_NO_OP;
    if (!cls || (!no_in && (ot != tt || op->ocount != op->tcount)) ||
        (fetch && (op->rt != tt || op->rcount != op->tcount)) || !skiff_rma_atomic_aligned(addr, tt->size))
        return 0;
    const char *in = no_in ? NULL : op->oaddr, *cmp = op->kind == SKIFF_RMA_CAS ? op->compare : NULL;
    char *old = fetch ? op->raddr : NULL;
    for (size_t i = 0, es = tt->size; i < op->tcount; i++)
        skiff_rma_atomic_elem(addr + i * es, es, cls, op->op, tt->basic, in ? in + i * es : NULL, cmp,
                              old ? old + i * es : NULL);
    return 1;
}

/* ---- origin side ---- */

static int next_tag(struct skiff_win *w)
{
    int t = w->next_tag;
    w->next_tag = t + 1 >= MAX_REPLY_TAG ? 1 : t + 1;
    return t;
}

/* Posts the receive of a reply of bytes into count elements of t at buf (NULL t: raw bytes at buf). */
static int expect_reply(struct skiff_win *w, int target, int tag, void *buf, size_t count, const struct skiff_type *t,
                        size_t bytes)
{
    void *tmp = NULL, *dst = buf;
    if (t && !t->contiguous) {
        if (!(tmp = malloc(bytes ? bytes : 1)))
            return skiff_err(MPI_ERR_NO_MEM, "out of memory for a reply of %zu bytes", bytes);
        dst = tmp;
        skiff_type_ref(t);
    } else if (t) {
        dst = skiff_type_data(buf, t);
        t = NULL;
    }
    struct skiff_request *r = NULL;
    int rc = skiff_recv_start(dst, bytes, target, tag, w->comm, w->comm->ctx, &r);
    if (rc) {
        if (t)
            skiff_type_unref(t);
        free(tmp);
        return rc;
    }
    add_out(&w->out, r, tmp, buf, count, t, target);
    w->nout++;
    return MPI_SUCCESS;
}

static int send_msg(struct skiff_win *w, int target, void *msg, size_t len)
{
    struct skiff_request *r = NULL;
    int rc = skiff_send_start(msg, len, target, OP_TAG, w->comm, w->comm->ctx, SKIFF_SEND_STANDARD, 0, &r);
    if (rc) {
        free(msg);
        return rc;
    }
    add_out(&w->out, r, msg, NULL, 0, NULL, target);
    w->nout++;
    return MPI_SUCCESS;
}

/* A control message; those that are answered (lock, unlock, flush) post the answer's receive first. */
static int control(struct skiff_win *w, int kind, int aux, int target)
{
    struct rma_hdr *h = calloc(1, sizeof *h);
    if (!h)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a one-sided control message");
    h->kind = (uint32_t)kind;
    h->aux = aux;
    if (kind == SKIFF_RMA_LOCK || kind == SKIFF_RMA_UNLOCK || kind == SKIFF_RMA_FLUSH) {
        h->reply = next_tag(w);
        int rc = expect_reply(w, target, h->reply, NULL, 0, NULL, 0);
        if (rc) {
            free(h);
            return rc;
        }
    }
    return send_msg(w, target, h, sizeof *h);
}

/* A put or get by single copy: MPI_SUCCESS with *done 1, or with *done 0 when it must go as a message
 * (an accumulate: the target applies those whole; or the kernel refused, and this target is not tried
 * again), or an error. */
static int by_cma(struct skiff_win *w, const struct skiff_rma_op *op, int *done)
{
    *done = 0;
    if (op->kind != SKIFF_RMA_PUT && op->kind != SKIFF_RMA_GET)
        return MPI_SUCCESS;
    int t = op->target;
    int rc = skiff_rma_cma(w->pids[t], w->rbase[t] + (uint64_t)(op->disp * (MPI_Aint)w->units[t]), op);
    *done = rc == 0;
    if (rc == -EPERM || rc == -ESRCH || rc == -ENOSYS) {
        skiff_log(SKIFF_LOG_INFO, "one-sided: process_vm_%s to rank %d refused (%s): messages from now on",
                  op->kind == SKIFF_RMA_PUT ? "writev" : "readv", t, strerror(-rc));
        w->cma[t] = 0;
        rc = 0;
    }
    if (!rc)
        return MPI_SUCCESS;
    return skiff_err(rc == -ENOMEM ? MPI_ERR_NO_MEM : MPI_ERR_OTHER, "single copy %s rank %d failed: %s",
                     op->kind == SKIFF_RMA_PUT ? "to" : "from", t, strerror(-rc));
}

static int send_op(struct skiff_win *w, const struct skiff_rma_op *op);
static void wait_outs(struct skiff_win *w, int target);

/* A put or get by the transport's RDMA; the rest as messages. A lock asked for on the message channel
 * is granted by the target in its own time: an RDMA transfer, which the target's library never sees,
 * must not reach its memory before the grant does (the lock's holder may still be at work there), so
 * the first one of a lock epoch waits for the grant (MPICH does the same). */
static int by_rdma(struct skiff_win *w, const struct skiff_rma_op *op)
{
    int t = op->target, done = 0;
    if ((op->kind == SKIFF_RMA_PUT || op->kind == SKIFF_RMA_GET) && w->rdma->await[t]) {
        wait_outs(w, t);
        w->rdma->await[t] = 0;
    }
    int rc = skiff_rma_rdma_issue(w, op, &done);
    return rc || done ? rc : send_op(w, op);
}

int skiff_rma_issue(struct skiff_win *w, const struct skiff_rma_op *op)
{
    int path = skiff_rma_path(w, op->target), done = 0;
    if (path == SKIFF_RMA_PATH_DIRECT) {
        done = direct_fast(w, op);
    } else if (path == SKIFF_RMA_PATH_CMA) {
        int rc = by_cma(w, op, &done);
        if (rc)
            return rc;
    } else if (path == SKIFF_RMA_PATH_RDMA) {
        return by_rdma(w, op);
    }
    if (done) {
        if (op->user)
            skiff_req_complete(op->user);
        return MPI_SUCCESS;
    }
    return send_op(w, op);
}

/* op as a message the target applies (or, on a direct window, built as one and applied here). */
static int send_op(struct skiff_win *w, const struct skiff_rma_op *op)
{
    const struct skiff_type *tt = op->tt;
    size_t tbytes = op->tcount * tt->size, data = 0;
    if (op->kind == SKIFF_RMA_PUT || op->kind == SKIFF_RMA_ACC ||
        (op->kind == SKIFF_RMA_GACC && op->op != MPI_NO_OP)) /* MPI_NO_OP ignores the origin */
        data = op->ocount * op->ot->size;
    else if (op->kind == SKIFF_RMA_CAS)
        data = 2 * op->ot->size;
    size_t len = sizeof(struct rma_hdr) + tt->nblocks * sizeof(struct rma_blk) + data;
    struct rma_hdr *h = malloc(len);
    if (!h)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a one-sided message of %zu bytes", len);
    *h = (struct rma_hdr){.kind = (uint32_t)op->kind,
                          .disp = (int64_t)op->disp,
                          .count = op->tcount,
                          .extent = (int64_t)tt->extent,
                          .tsize = tt->size,
                          .nblocks = tt->nblocks,
                          .data = data,
                          .op = (uint64_t)(uintptr_t)op->op,
                          .basic = (uint64_t)(uintptr_t)tt->basic};
    struct rma_blk *b = (struct rma_blk *)(h + 1);
    for (size_t i = 0; i < tt->nblocks; i++)
        b[i] = (struct rma_blk){tt->blocks[i].off, tt->blocks[i].len};
    char *d = (char *)(b + tt->nblocks);
    if (op->kind == SKIFF_RMA_CAS) {
        skiff_type_pack(op->oaddr, 1, op->ot, d);
        skiff_type_pack(op->compare, 1, op->ot, d + op->ot->size);
    } else if (data) {
        skiff_type_pack(op->oaddr, op->ocount, op->ot, d);
    }
    int rc = MPI_SUCCESS;
    if (skiff_rma_path(w, op->target) == SKIFF_RMA_PATH_DIRECT) {
        rc = direct(w, op, h);
        free(h);
        if (!rc && op->user)
            skiff_req_complete(op->user);
        return rc;
    }
    if (op->kind == SKIFF_RMA_GET)
        rc = expect_reply(w, op->target, h->reply = next_tag(w), (void *)(uintptr_t)op->oaddr, op->ocount, op->ot,
                          tbytes);
    else if (op->kind == SKIFF_RMA_GACC || op->kind == SKIFF_RMA_CAS)
        rc = expect_reply(w, op->target, h->reply = next_tag(w), op->raddr, op->rcount, op->rt, tbytes);
    if (rc) {
        free(h);
        return rc;
    }
    if (op->user && (op->kind == SKIFF_RMA_GET || op->kind == SKIFF_RMA_GACC || op->kind == SKIFF_RMA_CAS))
        w->out->user = op->user; /* the reply just posted (the list's head): done when it has landed */
    else if (op->user)
        skiff_req_complete(op->user); /* the origin data is packed: its buffer is free again */
    w->sent[op->target]++;
    if (op->kind == SKIFF_RMA_PUT || op->kind == SKIFF_RMA_ACC)
        w->blind[op->target]++;
    return send_msg(w, op->target, h, len);
}

/* Waits until nothing of this process's to target (-1: to anyone) is pending. */
static void wait_outs(struct skiff_win *w, int target)
{
    struct skiff_waiter wt = SKIFF_WAITER_INIT;
    for (;;) {
        int pending = 0;
        for (struct skiff_rma_out *o = w->out; o && !pending; o = o->next)
            pending = target < 0 || o->target == target;
        if (!pending)
            return;
        skiff_wait_step(&wt);
    }
}

/* Fence, message path: learn how many operations were sent to this process (a reduce-scatter of every
 * process's counts) and apply them all, and wait for this process's own to be answered. */
static int fence_drain(struct skiff_win *w)
{
    uint64_t expect = 0;
    size_t *ones = malloc(sizeof *ones * (size_t)w->size);
    if (!ones)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a fence over %d processes", w->size);
    for (int i = 0; i < w->size; i++)
        ones[i] = 1;
    int rc = skiff_coll_reduce_scatter(w->sent, &expect, ones, MPI_UINT64_T, MPI_SUM, w->comm);
    free(ones);
    if (rc)
        return rc;
    struct skiff_waiter wt = SKIFF_WAITER_INIT;
    while (w->applied < expect || w->nout)
        skiff_wait_step(&wt);
    memset(w->blind, 0, sizeof *w->blind * (size_t)w->size); /* every operation is applied */
    return MPI_SUCCESS;
}

/* Fence, every path but the direct one: RDMA transfers are complete in the targets' memory before the
 * barrier tells them so, and their flush runs while the counts are exchanged (one round trip, not two);
 * MPI_MODE_NOPRECEDE (given by all or none) says no operation was issued. */
__attribute__((noinline)) static int fence_complete(struct skiff_win *w, int assert)
{
    struct skiff_rdma_done d;
    int rc = MPI_SUCCESS, frc = w->rdma ? skiff_rma_rdma_flush_start(w, -1, &d) : MPI_SUCCESS;
    if (!(assert & MPI_MODE_NOPRECEDE))
        rc = fence_drain(w);
    if (w->rdma)
        frc = skiff_rma_rdma_flush_wait(w, -1, &d, frc);
    return rc ? rc : frc;
}

int skiff_rma_fence(struct skiff_win *w, int assert)
{
    int rc = MPI_SUCCESS;
    /* Nothing to drain where no operation is a message: on a direct window each one is complete when
     * its call returns. The barrier alone then separates the epochs: the segment's, whose release and
     * acquire steps already order every process's accesses before it with everyone's after it (a seq_cst
     * fence on either side would order nothing more that another process can observe, since all that
     * happens before the barrier on any process happens before all that follows it on every process). */
    if (w->seg_bar) {
        skiff_seg_barrier_wait(&w->bar);
        w->epoch = assert & MPI_MODE_NOSUCCEED ? SKIFF_EPOCH_NONE : SKIFF_EPOCH_FENCE;
        return MPI_SUCCESS;
    }
    atomic_thread_fence(memory_order_seq_cst); /* direct stores before the others may read them */
    if (!w->direct && (rc = fence_complete(w, assert)))
        return rc;
    if ((rc = skiff_coll_barrier(w->comm, NULL)))
        return rc;
    atomic_thread_fence(memory_order_seq_cst);
    w->epoch = assert & MPI_MODE_NOSUCCEED ? SKIFF_EPOCH_NONE : SKIFF_EPOCH_FENCE;
    return MPI_SUCCESS;
}

int skiff_rma_lock(struct skiff_win *w, int type, int target, int nocheck)
{
    if (w->direct) {
        if (!nocheck)
            word_lock(w, target, type);
        w->locks[target] = type | (nocheck ? SKIFF_LOCK_NOCHECK : 0);
        return MPI_SUCCESS;
    }
    /* With MPI_MODE_NOCHECK the program promises no conflicting lock: nothing is asked of the target. */
    int rc = nocheck ? MPI_SUCCESS : control(w, SKIFF_RMA_LOCK, type, target);
    if (rc)
        return rc;
    w->locks[target] = type | (nocheck ? SKIFF_LOCK_NOCHECK : 0);
    /* Local loads and stores in an epoch on our own window need the lock held, and so do the origin's
     * own writes into a single-copy target: there the grant is awaited (the target's next MPI call). */
    if (target == w->rank || (!nocheck && skiff_rma_path(w, target) == SKIFF_RMA_PATH_CMA))
        wait_outs(w, target);
    else if (!nocheck && skiff_rma_path(w, target) == SKIFF_RMA_PATH_RDMA)
        w->rdma->await[target] = 1; /* awaited by the first RDMA transfer, if any: by_rdma */
    atomic_thread_fence(memory_order_seq_cst);
    return MPI_SUCCESS;
}

int skiff_rma_unlock(struct skiff_win *w, int target)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (w->direct) { /* every operation is complete already */
        if (!(w->locks[target] & SKIFF_LOCK_NOCHECK))
            word_unlock(w, target);
        w->locks[target] = 0;
        return MPI_SUCCESS;
    }
    /* A lock taken with MPI_MODE_NOCHECK holds nothing at the target: its unlock is a flush. */
    int nocheck = w->locks[target] & SKIFF_LOCK_NOCHECK, rc = MPI_SUCCESS;
    if (w->rdma) { /* the transfers are complete in the target's memory before it hears of the unlock */
        w->rdma->await[target] = 0;
        if ((rc = skiff_rma_rdma_flush(w, w->lock_all ? -1 : target))) /* unlock_all: one flush for all */
            return rc;
    }
    if (!nocheck || w->blind[target])
        rc = control(w, nocheck ? SKIFF_RMA_FLUSH : SKIFF_RMA_UNLOCK, 0, target);
    if (rc)
        return rc;
    w->blind[target] = 0;
    wait_outs(w, target);
    w->locks[target] = 0;
    return MPI_SUCCESS;
}

int skiff_rma_flush(struct skiff_win *w, int target)
{
    int rc = MPI_SUCCESS;
    /* Direct: every operation is complete at the target already; only plain copies still need the
     * fence that orders them before whatever this process does next (a flag it sets, say). After
     * atomics alone (a fetch_and_op loop) it would be a second full barrier for nothing. */
    if (w->direct) {
        skiff_rma_flush_direct(w);
        return MPI_SUCCESS;
    }
    atomic_thread_fence(memory_order_seq_cst);
    if (w->rdma && (rc = skiff_rma_rdma_flush(w, target)))
        return rc;
    for (int t = target < 0 ? 0 : target; !rc && t < (target < 0 ? w->size : target + 1); t++) {
        if (!w->locks[t] && target < 0)
            continue;
        /* A fetching operation is complete at the target when its reply is here (the target answers
         * after applying it), and single copy when its call returns: only puts and accumulates sent as
         * messages since the last flush need the target's word. Without them the flush asks nothing of
         * the target and only waits for the replies (over tcp: one round trip per fetch_and_op, not two). */
        if (!w->blind[t])
            continue;
        if (!(rc = control(w, SKIFF_RMA_FLUSH, 0, t)))
            w->blind[t] = 0;
    }
    if (!rc)
        wait_outs(w, target);
    return rc;
}

int skiff_rma_post(struct skiff_win *w, const int *ranks, int n, int nocheck)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; !rc && i < n; i++)
        if (!nocheck) /* with MPI_MODE_NOCHECK the origins' starts do not wait for us */
            rc = control(w, SKIFF_RMA_POST, 0, ranks[i]);
    if (rc)
        return rc;
    memcpy(w->expose, ranks, sizeof *ranks * (size_t)n);
    w->nexpose = n;
    return MPI_SUCCESS;
}

int skiff_rma_start(struct skiff_win *w, const int *ranks, int n, int nocheck)
{
    struct skiff_waiter wt = SKIFF_WAITER_INIT;
    for (int i = 0; i < n && !nocheck; i++) {
        while (!w->posts[ranks[i]])
            skiff_wait_step(&wt);
        w->posts[ranks[i]]--;
    }
    memcpy(w->access, ranks, sizeof *ranks * (size_t)n);
    w->naccess = n;
    for (int i = 0; i < n; i++)
        w->in_access[ranks[i]] = 1;
    return MPI_SUCCESS;
}

int skiff_rma_complete(struct skiff_win *w)
{
    int rc = MPI_SUCCESS;
    atomic_thread_fence(memory_order_seq_cst);
    if (w->rdma) /* the transfers are in the targets' memory before the targets hear of the completion */
        rc = skiff_rma_rdma_flush(w, -1);
    for (int i = 0; !rc && i < w->naccess; i++)
        rc = control(w, SKIFF_RMA_COMPLETE, 0, w->access[i]);
    wait_outs(w, -1); /* gets have their data, sends have left */
    for (int i = 0; i < w->naccess; i++)
        w->in_access[w->access[i]] = 0;
    w->naccess = -1;
    return rc;
}

int skiff_rma_wait(struct skiff_win *w, int block)
{
    struct skiff_waiter wt = SKIFF_WAITER_INIT;
    for (;;) {
        int missing = 0;
        for (int i = 0; i < w->nexpose && !missing; i++)
            missing = !w->completes[w->expose[i]];
        if (!missing)
            break;
        if (!block) {
            skiff_progress();
            return 0;
        }
        skiff_wait_step(&wt);
    }
    for (int i = 0; i < w->nexpose; i++)
        w->completes[w->expose[i]]--;
    w->nexpose = -1;
    atomic_thread_fence(memory_order_seq_cst);
    return 1;
}

int skiff_win_attach(struct skiff_win *w, void *base, size_t bytes)
{
    if (w->nregions == w->cap_regions) {
        int cap = w->cap_regions ? 2 * w->cap_regions : 4;
        struct skiff_win_region *r = realloc(w->regions, sizeof *r * (size_t)cap);
        if (!r)
            return skiff_err(MPI_ERR_NO_MEM, "out of memory attaching region %d", w->nregions + 1);
        w->regions = r;
        w->cap_regions = cap;
    }
    w->regions[w->nregions++] = (struct skiff_win_region){(uintptr_t)base, bytes};
    return MPI_SUCCESS;
}

int skiff_win_detach(struct skiff_win *w, const void *base)
{
    for (int i = 0; i < w->nregions; i++)
        if (w->regions[i].base == (uintptr_t)base) {
            w->regions[i] = w->regions[--w->nregions];
            return MPI_SUCCESS;
        }
    return skiff_err(MPI_ERR_RMA_ATTACH, "no memory attached at %p (of %d regions attached)", base, w->nregions);
}

/* ---- making and freeing ---- */

/* The memory and arrays of a window, whether freed by the program or forgotten at finalize. */
static void free_parts(struct skiff_win *w)
{
    if (w->seg)
        munmap(w->seg, w->seg_bytes);
    skiff_seg_barrier_free(&w->bar);
    free(w->owned);
    free(w->sizes);
    free(w->units);
    free(w->offsets);
    free(w->sent);
    free(w->blind);
    free(w->locks);
    free(w->blocked);
    free(w->in_access);
    free(w->access);
    free(w->expose);
    free(w->posts);
    free(w->completes);
    free(w->regions);
    free(w->cma);
    free(w->rbase);
    free(w->pids);
    skiff_rma_rdma_free(w);
    if (w->info)
        skiff_info_free(w->info);
}

static void release(struct skiff_win *w)
{
    free_parts(w);
    skiff_eh_release(w->errhandler);
    skiff_attrs_drop(&w->attrs);
    skiff_objpool_put(&pool, w);
}

static void unlink_live(struct skiff_win *w)
{
    for (struct skiff_win **l = &live; *l; l = &(*l)->next)
        if (*l == w) {
            *l = w->next;
            break;
        }
    if (!live)
        skiff_rma_progress_hook = NULL;
}

/* Sets up the fence's barrier in the segment at area: 1 when this process can use it (the caller
 * makes sure all can before any does). */
static int seg_barrier_init(struct skiff_win *w, void *area)
{
    int *local = malloc(sizeof *local * (size_t)w->size);
    for (int r = 0; local && r < w->size; r++)
        local[r] = skiff_boot.map.local[skiff_comm_world_rank(w->comm, r)];
    int ok = local && skiff_seg_barrier_init(&w->bar, area, w->size, w->rank, local) == 0;
    free(local);
    return ok;
}

/* The shared segment: rank 0 makes a memfd, the others open it through /proc (nothing in /dev/shm). */
static int map_shared(struct skiff_win *w)
{
    size_t total = 0;
    if (!(w->offsets = malloc(sizeof *w->offsets * (size_t)w->size)))
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a shared window of %d processes", w->size);
    /* The window's accumulate lock on a line of its own, then each rank's passive-target lock word, then
     * the fence barrier's flags (rma/seg_barrier.c). */
    total = SEG_ALIGN + ((size_t)w->size * sizeof(atomic_int) + SEG_ALIGN - 1) / SEG_ALIGN * SEG_ALIGN;
    size_t bar_at = total;
    total += skiff_seg_barrier_bytes(w->size);
    for (int r = 0; r < w->size; r++) {
        w->offsets[r] = (MPI_Aint)total;
        total += ((size_t)w->sizes[r] + SEG_ALIGN - 1) / SEG_ALIGN * SEG_ALIGN;
    }
    long long card[2] = {0, -1}; /* pid, fd (-1: failed) */
    int fd = -1, err = 0;
    if (total && w->rank == 0) {
        fd = memfd_create("skiff-win", MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)total) != 0)
            err = errno;
        card[0] = getpid();
        card[1] = err ? -1 : fd;
    }
    int rc = skiff_coll_bcast(card, sizeof card, 0, w->comm, NULL, NULL);
    if (!rc && total && card[1] < 0)
        rc = skiff_err(MPI_ERR_NO_MEM, "could not make the shared segment of %zu bytes on rank 0: %s", total,
                       strerror(err ? err : EIO));
    if (!rc && total && w->rank != 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%lld/fd/%lld", card[0], card[1]);
        if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
            err = errno;
    }
    if (!rc && total && fd >= 0) {
        void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
            err = errno;
        else {
            w->seg = p;
            w->seg_bytes = total;
        }
    }
    /* Everyone holds a mapping (or failed) before rank 0 lets its descriptor go; the fence takes the
     * segment's barrier only if every process can (the processes of a node all have the node's shared
     * area or none do, but one may run out of memory). */
    int bad = !rc && total && !w->seg, any = 0;
    int mine[2] = {bad, !(w->seg && seg_barrier_init(w, (char *)w->seg + bar_at))}, all[2] = {0, 1};
    int rc2 = skiff_coll_allreduce(mine, all, 2, MPI_INT, MPI_MAX, w->comm, NULL);
    any = all[0];
    w->seg_bar = !rc2 && !all[1];
    if (fd >= 0)
        close(fd);
    if (rc)
        return rc;
    if (rc2)
        return rc2;
    if (any)
        return skiff_err(MPI_ERR_NO_MEM, "could not map the shared segment of %zu bytes%s%s", total,
                         bad ? ": " : " on another rank", bad ? strerror(err ? err : EIO) : "");
    w->base = (char *)w->seg + w->offsets[w->rank];
    return MPI_SUCCESS;
}

/* Win_create: which targets single copy reaches (the others of this node that can be reached so; not
 * this process, whose own operations are messages to itself as on the message path). */
static int cma_targets(struct skiff_win *w, const int64_t *all)
{
    size_t n = (size_t)w->size;
    int any = 0, me = skiff_node_of(skiff_comm_world_rank(w->comm, w->rank));
    w->cma = calloc(n, 1);
    w->rbase = calloc(n, sizeof *w->rbase);
    w->pids = calloc(n, sizeof *w->pids);
    if (!w->cma || !w->rbase || !w->pids)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a window over %d processes", w->size);
    for (int r = 0; r < w->size; r++) {
        int wr = skiff_comm_world_rank(w->comm, r);
        w->rbase[r] = (uint64_t)all[4 * r + 2];
        if (r == w->rank || !all[4 * r + 3] || skiff_node_of(wr) != me)
            continue;
        w->pids[r] = (int)skiff_boot_pid(wr); /* known for the ranks of this node only */
        w->cma[r] = w->pids[r] > 0;
        any |= w->cma[r];
    }
    if (!any) {
        free(w->cma);
        w->cma = NULL;
    }
    return MPI_SUCCESS;
}

int skiff_win_make(struct skiff_comm *c, int flavor, void *base, MPI_Aint bytes, int disp_unit,
                   const struct skiff_info *info, void **base_out, struct skiff_win **out)
{
    struct skiff_win *w = skiff_objpool_get(&pool);
    if (!w)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a window");
    w->errhandler = MPI_ERRORS_ARE_FATAL;
    w->excl_holder = -1;
    w->next_tag = 1;
    w->flavor = flavor;
    w->disp_unit = disp_unit;
    w->bytes = bytes;
    w->base = base;
    int rc = skiff_comm_make(c, c->group->world, c->size, &w->comm);
    if (rc) {
        w->comm = NULL;
        release(w);
        return rc;
    }
    w->rank = w->comm->rank;
    w->size = w->comm->size;
    size_t n = (size_t)w->size;
    /* Win_create memory is reached by single copy when both ends can (the flag), at the base given. */
    int64_t mine[4] = {(int64_t)bytes, disp_unit, (int64_t)(uintptr_t)base,
                       flavor == MPI_WIN_FLAVOR_CREATE && skiff_rma_cma_usable()},
            *all = malloc(sizeof mine * n);
    w->sizes = malloc(sizeof *w->sizes * n);
    w->units = malloc(sizeof *w->units * n);
    w->sent = calloc(n, sizeof *w->sent);
    w->blind = calloc(n, sizeof *w->blind);
    w->locks = calloc(n, sizeof *w->locks);
    w->blocked = calloc(n, 1);
    w->in_access = calloc(n, 1);
    w->access = calloc(n, sizeof *w->access);
    w->expose = calloc(n, sizeof *w->expose);
    w->posts = calloc(n, sizeof *w->posts);
    w->completes = calloc(n, sizeof *w->completes);
    w->naccess = w->nexpose = -1;
    w->info = skiff_info_dup(info);
    if (!all || !w->sizes || !w->units || !w->sent || !w->blind || !w->locks || !w->blocked || !w->info || !w->in_access ||
        !w->access || !w->expose || !w->posts || !w->completes)
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for a window over %d processes", w->size);
    /* Every process takes part in the collectives below, even one that failed, so none waits forever. */
    /* Every process on one node: Win_allocate's memory is a shared segment too, reached directly. */
    int one_node = 1;
    for (int r = 1; r < w->size && one_node; r++)
        one_node = skiff_node_of(skiff_comm_world_rank(w->comm, r)) == skiff_node_of(skiff_comm_world_rank(w->comm, 0));
    if (flavor == MPI_WIN_FLAVOR_ALLOCATE && !one_node && !rc) {
        size_t b = ((size_t)bytes + SEG_ALIGN - 1) / SEG_ALIGN * SEG_ALIGN;
        if (!(w->owned = aligned_alloc(SEG_ALIGN, b ? b : SEG_ALIGN)))
            rc = skiff_err(MPI_ERR_NO_MEM, "out of memory allocating a window of %lld bytes", (long long)bytes);
        w->base = w->owned;
    }
    int64_t fill[4] = {0, 1, 0, 0};
    int rc2 = skiff_coll_allgather(all ? (const void *)mine : fill, sizeof mine, all ? all : NULL, w->comm);
    if (!rc && rc2)
        rc = rc2;
    for (size_t r = 0; !rc && r < n; r++) {
        w->sizes[r] = (MPI_Aint)all[4 * r];
        w->units[r] = (int)all[4 * r + 1];
    }
    if (!rc && mine[3])
        rc = cma_targets(w, all);
    free(all);
    if (!rc && flavor == MPI_WIN_FLAVOR_SHARED) {
        for (int r = 0; !rc && r < w->size; r++)
            if (skiff_node_of(skiff_comm_world_rank(w->comm, r)) != skiff_node_of(skiff_comm_world_rank(w->comm, 0)))
                rc = skiff_err(MPI_ERR_RMA_SHARED, "ranks 0 and %d of the communicator are on different nodes: "
                               "a shared window needs every process on one node (split the communicator with "
                               "MPI_COMM_TYPE_SHARED first)", r);
        if (!rc)
            rc = map_shared(w);
    } else if (!rc && flavor == MPI_WIN_FLAVOR_ALLOCATE && one_node) {
        rc = map_shared(w);
    }
    w->direct = !rc && w->seg != NULL;
    /* Windows with their memory known now and not one shared segment: RDMA where a transport offers it.
     * Decided from what every process sees alike (the job's transports, the flavor, one node or not),
     * never from this process's own success, since the setup is collective. */
    if ((flavor == MPI_WIN_FLAVOR_CREATE || (flavor == MPI_WIN_FLAVOR_ALLOCATE && !one_node)) &&
        skiff_rma_rdma_offered()) {
        int rc3 = skiff_rma_rdma_setup(w, rc != MPI_SUCCESS);
        if (!rc)
            rc = rc3;
    }
    if (rc) {
        skiff_comm_free(w->comm);
        release(w);
        return rc;
    }
    if (base_out)
        *base_out = w->base;
    w->handle = (MPI_Win)(void *)w;
    w->magic = SKIFF_WIN_MAGIC;
    w->next = live;
    live = w;
    skiff_rma_progress_hook = rma_progress;
    *out = w;
    return MPI_SUCCESS;
}

int skiff_win_free(struct skiff_win *w)
{
    /* The standard asks every epoch to be closed: what this process still waits for is finished, then
     * everyone's replies are out before the private communicator goes. */
    wait_outs(w, -1);
    struct skiff_waiter wt = SKIFF_WAITER_INIT;
    int rc = w->rdma ? skiff_rma_rdma_flush(w, -1) : MPI_SUCCESS;
    while (w->rdma && w->rdma->reqs) /* Rput and Rget the program never waited for */
        if (!skiff_rma_rdma_reap(w))
            skiff_wait_step(&wt);
    /* After the barrier nobody's transfers reach this process's memory: free_parts deregisters it. */
    int rc3 = skiff_coll_barrier(w->comm, NULL);
    if (!rc)
        rc = rc3;
    while (w->replies) /* operations that arrive after the last synchronization are erroneous: dropped below */
        skiff_wait_step(&wt);
    int rc2 = skiff_win_attr_delete_all(&w->attrs, w->handle);
    if (!rc)
        rc = rc2;
    while (w->in_head) {
        struct skiff_rma_in *in = w->in_head;
        w->in_head = in->next;
        skiff_req_release(in->req);
        free(in->buf);
        free(in);
    }
    unlink_live(w);
    w->magic = 0;
    skiff_comm_free(w->comm);
    release(w);
    return rc;
}

int skiff_win_shared_query(struct skiff_win *w, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    if (rank == MPI_PROC_NULL) {
        rank = 0;
        for (int r = 0; r < w->size; r++)
            if (w->sizes[r]) {
                rank = r;
                break;
            }
    }
    *size = w->sizes[rank];
    *disp_unit = w->units[rank];
    void *p = w->seg ? (char *)w->seg + w->offsets[rank] : NULL;
    memcpy(baseptr, &p, sizeof p);
    return MPI_SUCCESS;
}

/* A window the program never freed: its arrays go; messages it may still have in flight keep their
 * buffers (leaked) rather than have the transports read freed memory while the job shuts down. */
static void forget(void *obj)
{
    struct skiff_win *w = obj;
    if (w->magic != SKIFF_WIN_MAGIC)
        return;
    w->magic = 0;
    free_parts(w);
    free(w->attrs.v);
}

void skiff_rma_finalize(void)
{
    skiff_rma_progress_hook = NULL;
    skiff_objpool_foreach(&pool, forget);
    skiff_objpool_destroy(&pool);
    live = NULL;
    skiff_rma_progress_hook = NULL;
}
