/* One-sided by the transport's RDMA (rma/rdma.h; docs/design.md, "One-sided").
 *
 * A put or get whose origin data is contiguous becomes one transport put or get per contiguous run of the
 * target type's blocks (adjacent blocks merged), from or into the origin buffer itself; a non-contiguous
 * origin, accumulates and the atomics stay messages the target applies, so accumulates keep the
 * standard's atomicity among themselves (nothing of them is done with the fabric's atomics). The
 * transport finishes each transfer by itself; the window only flushes before it reports completion or
 * tells the target (flush, unlock, fence, complete: rma/win.c). */
#include "rma/rdma.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/core.h"
#include "core/datatype.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/pt2pt.h"
#include "core/request.h"
#include "core/stats.h"
#include "rma/win.h"
#include "util/log.h"

/* An Rput or Rget: its request completes when every transfer it started is done. */
struct skiff_rma_rreq {
    struct skiff_rdma_done d;
    struct skiff_request *user;
    struct skiff_rma_rreq *next;
};

static const struct skiff_transport *offering(void)
{
    for (int i = 0; i < skiff.nactive; i++)
        if (skiff.active[i]->put)
            return skiff.active[i];
    return NULL;
}

int skiff_rma_rdma_offered(void)
{
    return offering() != NULL;
}

static const struct skiff_transport *transport_of(const struct skiff_rma_rdma *r, int t)
{
    return skiff_transport_for(r->world[t]);
}

/* Opens the keys of the targets this process reaches by a transport that offers RDMA, except those single
 * copy already reaches. keys holds every process's, at displs, counts[t] bytes each (0: none). */
static void open_keys(struct skiff_win *w, const char *keys, const size_t *counts, const size_t *displs)
{
    struct skiff_rma_rdma *r = w->rdma;
    for (int t = 0; t < w->size; t++) {
        const struct skiff_transport *tp = transport_of(r, t);
        if (t == w->rank || !counts[t] || (w->cma && w->cma[t]) || !tp->rkey_open)
            continue;
        if (tp->rkey_open(r->world[t], keys + displs[t], counts[t], &r->rkey[t]) != 0)
            r->rkey[t] = NULL; /* logged: messages to that target */
    }
}

static int alloc_parts(struct skiff_rma_rdma *r, size_t n)
{
    r->rkey = calloc(n, sizeof *r->rkey);
    r->raddr = calloc(n, sizeof *r->raddr);
    r->world = calloc(n, sizeof *r->world);
    r->dirty = calloc(n, 1);
    r->await = calloc(n, 1);
    return r->rkey && r->raddr && r->world && r->dirty && r->await;
}

int skiff_rma_rdma_setup(struct skiff_win *w, int failed)
{
    const struct skiff_transport *tr = offering();
    size_t n = (size_t)w->size;
    struct skiff_rma_rdma *r = calloc(1, sizeof *r);
    int ok = !failed && r && alloc_parts(r, n);
    const void *key = NULL;
    size_t keylen = 0;
    w->rdma = r;
    /* Win_allocate: memory the transport allocates, which its wires may reach better (UCX's shared
     * memory segments, mapped by peers of this machine), in place of the window's own. */
    void *base = w->flavor == MPI_WIN_FLAVOR_ALLOCATE && w->owned ? NULL : w->base;
    if (ok && w->bytes > 0 && tr && tr->mem_register(&base, (size_t)w->bytes, &r->mem, &key, &keylen) == 0) {
        r->mine = tr;
        if (base != w->base) {
            free(w->owned);
            w->owned = NULL;
            w->base = base;
        }
    } else {
        keylen = 0; /* no memory, or the transport refused (logged): origins send messages here */
    }
    /* Every process joins both exchanges, even one that failed, so that none waits forever. */
    uint64_t mine[3] = {keylen, (uint64_t)(uintptr_t)w->base, !ok}, *all = malloc(sizeof mine * n);
    size_t *counts = calloc(n, sizeof *counts), *displs = calloc(n, sizeof *displs);
    int rc = skiff_coll_allgather(mine, sizeof mine, all, w->comm);
    size_t total = 0;
    int bad = !all || !counts || !displs, peer_failed = -1;
    for (size_t t = 0; !rc && !bad && t < n; t++) {
        if (all[3 * t + 2] != 0 && peer_failed < 0)
            peer_failed = (int)t;
        counts[t] = (size_t)all[3 * t];
        displs[t] = total;
        total += counts[t];
        if (ok)
            r->raddr[t] = all[3 * t + 1];
    }
    char *keys = malloc(total + 1);
    int rc2 = rc ? rc : skiff_coll_allgatherv(key, keylen, keys ? keys : NULL, counts, displs, w->comm);
    if (!rc && !rc2 && keys && ok && !bad && peer_failed < 0) {
        for (int t = 0; t < w->size; t++)
            r->world[t] = skiff_comm_world_rank(w->comm, t);
        open_keys(w, keys, counts, displs);
    }
    free(all);
    free(counts);
    free(displs);
    free(keys);
    if (rc || rc2)
        return rc ? rc : rc2;
    if (failed)
        return MPI_SUCCESS; /* the caller reports its own failure */
    if (!ok || bad || !keys)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory exchanging the remote keys of a window over %d processes",
                         w->size);
    if (peer_failed >= 0)
        return skiff_err(MPI_ERR_OTHER, "rank %d of the window's communicator could not set up its part of the "
                         "window (its own error says why)", peer_failed);
    return MPI_SUCCESS;
}

/* Starts one contiguous run; counts it in d when someone waits for this operation alone. */
static int start(struct skiff_win *w, int put, int t, char *local, uint64_t raddr, size_t len,
                 struct skiff_rdma_done *d, unsigned *nops)
{
    struct skiff_rma_rdma *r = w->rdma;
    const struct skiff_transport *tp = transport_of(r, t);
    int rc = put ? tp->put(r->world[t], local, len, raddr, r->rkey[t], d)
                 : tp->get(r->world[t], local, len, raddr, r->rkey[t], d);
    (*nops)++;
    if (rc)
        return skiff_err(MPI_ERR_OTHER, "%s of %zu bytes %s rank %d by the %s transport's RDMA failed",
                         put ? "put" : "get", len, put ? "to" : "from", t, tp->name);
    return MPI_SUCCESS;
}

/* The target blocks of op, adjacent ones merged, each started with the origin bytes that match it. */
static int start_blocks(struct skiff_win *w, const struct skiff_rma_op *op, struct skiff_rdma_done *d, unsigned *nops)
{
    const struct skiff_type *tt = op->tt;
    int t = op->target, put = op->kind == SKIFF_RMA_PUT;
    uint64_t at = w->rdma->raddr[t] + (uint64_t)(op->disp * (MPI_Aint)w->units[t]), run = 0;
    char *local = skiff_type_data(op->oaddr, op->ot), *from = local;
    size_t len = 0;
    int rc = MPI_SUCCESS;
    for (size_t e = 0; !rc && e < op->tcount; e++)
        for (size_t i = 0; !rc && i < tt->nblocks; i++) {
            uint64_t p = at + (uint64_t)((ptrdiff_t)e * tt->extent + tt->blocks[i].off);
            size_t bl = tt->blocks[i].len;
            if (!bl)
                continue;
            if (len && run + len == p) {
                len += bl;
                continue;
            }
            if (len)
                rc = start(w, put, t, from, run, len, d, nops);
            from += len;
            run = p;
            len = bl;
        }
    if (!rc && len)
        rc = start(w, put, t, from, run, len, d, nops);
    return rc;
}

int skiff_rma_rdma_issue(struct skiff_win *w, const struct skiff_rma_op *op, int *done)
{
    *done = 0;
    if ((op->kind != SKIFF_RMA_PUT && op->kind != SKIFF_RMA_GET) || !op->ot->contiguous)
        return MPI_SUCCESS;
    struct skiff_rma_rdma *r = w->rdma;
    struct skiff_rma_rreq *q = NULL;
    if (op->user && !(q = calloc(1, sizeof *q)))
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a request-based one-sided operation");
    unsigned nops = 0;
    int get = op->kind == SKIFF_RMA_GET;
    int rc = start_blocks(w, op, q ? &q->d : get ? &r->gets : NULL, &nops);
    if (!get || q) /* a get's own completion is all a flush needs of it: r->gets */
        r->dirty[op->target] = 1;
    skiff_stats.rma_rdma += nops;
    *done = 1;
    if (q) {
        q->user = op->user;
        q->next = r->reqs;
        r->reqs = q;
        if (rc) /* what did start finishes by itself; the request is not the caller's any more */
            q->user = NULL;
        skiff_rma_rdma_reap(w);
    }
    return rc;
}

int skiff_rma_rdma_reap(struct skiff_win *w)
{
    int n = 0;
    for (struct skiff_rma_rreq **l = &w->rdma->reqs; *l;) {
        struct skiff_rma_rreq *q = *l;
        if (q->d.pending) {
            l = &q->next;
            continue;
        }
        if (q->user) {
            if (q->d.failed) {
                skiff_error("one-sided: a request-based transfer with the transport's RDMA failed");
                q->user->st_error = MPI_ERR_OTHER;
            }
            skiff_req_complete(q->user);
        }
        *l = q->next;
        free(q);
        n++;
    }
    return n;
}

/* One flush: of target's endpoint, or of every peer of the transport tp (target -1). */
static int flush_one(struct skiff_win *w, const struct skiff_transport *tp, int target, struct skiff_rdma_done *d)
{
    if (tp->flush(target < 0 ? -1 : w->rdma->world[target], d) == 0)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_OTHER, "flushing the one-sided transfers to %s%d failed",
                     target < 0 ? "every rank; rank " : "rank ", target < 0 ? w->rank : target);
}

/* Puts (and request-based transfers) need the transport's flush to be complete at the target; a plain
 * get is complete, at both ends, when its own completion is counted in r->gets, so targets that only
 * had gets are not flushed: a get + flush is one round trip, not two. */
int skiff_rma_rdma_flush_start(struct skiff_win *w, int target, struct skiff_rdma_done *d)
{
    struct skiff_rma_rdma *r = w->rdma;
    int rc = MPI_SUCCESS, ndirty = 0, last = -1;
    int lo = target < 0 ? 0 : target, hi = target < 0 ? w->size : target + 1;
    *d = (struct skiff_rdma_done){0, 0};
    for (int t = lo; t < hi; t++)
        if (r->dirty[t])
            ndirty++, last = t;
    if (ndirty == 1) {
        rc = flush_one(w, transport_of(r, last), last, d);
    } else if (ndirty) { /* one flush of all its peers per transport (there is one that offers RDMA, today) */
        const struct skiff_transport *done[SKIFF_MAX_ACTIVE];
        int nd = 0;
        for (int t = 0; !rc && t < w->size; t++) {
            const struct skiff_transport *tp = transport_of(r, t);
            int seen = 0;
            for (int k = 0; k < nd; k++)
                seen |= done[k] == tp;
            if (!r->dirty[t] || seen || nd == SKIFF_MAX_ACTIVE)
                continue;
            done[nd++] = tp;
            rc = flush_one(w, tp, -1, d);
        }
    }
    for (int t = lo; t < hi; t++)
        r->dirty[t] = 0;
    return rc;
}

int skiff_rma_rdma_flush_wait(struct skiff_win *w, int target, struct skiff_rdma_done *d, int rc)
{
    struct skiff_rma_rdma *r = w->rdma;
    struct skiff_waiter wt = SKIFF_WAITER_INIT;
    while (d->pending || r->gets.pending)
        skiff_wait_step(&wt);
    if (!rc && (d->failed || r->gets.failed))
        rc = skiff_err(MPI_ERR_OTHER, "the one-sided transfers to %s%d did not complete",
                       target < 0 ? "every target of rank " : "rank ", target < 0 ? w->rank : target);
    r->gets.failed = 0;
    return rc;
}

int skiff_rma_rdma_flush(struct skiff_win *w, int target)
{
    struct skiff_rdma_done d;
    int rc = skiff_rma_rdma_flush_start(w, target, &d);
    return skiff_rma_rdma_flush_wait(w, target, &d, rc);
}

void skiff_rma_rdma_free(struct skiff_win *w)
{
    struct skiff_rma_rdma *r = w->rdma;
    if (!r)
        return;
    for (int t = 0; r->rkey && t < w->size; t++)
        if (r->rkey[t])
            transport_of(r, t)->rkey_close(r->rkey[t]);
    if (r->mem)
        r->mine->mem_deregister(r->mem);
    while (r->reqs) { /* finished ones go; one a transport still holds (a window never freed) is left */
        struct skiff_rma_rreq *q = r->reqs;
        r->reqs = q->next;
        if (!q->d.pending)
            free(q);
    }
    w->rdma = NULL;
    if (r->gets.pending) /* a window never freed, with gets in flight: their counter stays */
        return;
    free(r->rkey);
    free(r->raddr);
    free(r->world);
    free(r->dirty);
    free(r->await);
    free(r);
}
