/* One-sided over ucx: put and get as UCP RMA (ucp_put_nbx, ucp_get_nbx) into memory a window registered
 * with ucp_mem_map, whose packed key the window's processes exchanged (rma/rdma.c), and flush as
 * ucp_ep_flush_nbx / ucp_worker_flush_nbx. On a wire with RDMA (InfiniBand and RoCE verbs, and between
 * processes of one machine UCX's cma) the target's CPU takes no part; over UCX's tcp wire UCP emulates
 * RMA with active messages that the target's worker answers in its progress (skiff's progress engine
 * progresses it on every MPI call that waits), still without the target's core or window code. */
#include "ucx/rma.h"

#include <stdlib.h>

#include "util/config.h"
#include "util/log.h"

static struct {
    ucp_context_h ctx;
    ucp_worker_h worker;
    ucp_ep_h *ep;
} R;

/* A registration: UCP's handle and the packed key that goes with it. */
struct reg {
    ucp_mem_h memh;
    void *key;
};

uint64_t skiff_ucx_rma_features(void)
{
    return skiff_cfg.ucx_rdma ? UCP_FEATURE_RMA : 0;
}

/* Memory UCP allocates (UCP_MEM_MAP_ALLOCATE) comes from its shared-memory transports' segments where
 * they are on (sysv, posix), which a peer of this machine maps from the key: put and get there are plain
 * copies by the origin, no longer emulated with messages the target's worker answers. */
static int mem_register(void **base, size_t len, void **mem, const void **key, size_t *keylen)
{
    struct reg *r = calloc(1, sizeof *r);
    ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                                             UCP_MEM_MAP_PARAM_FIELD_FLAGS,
                               .address = *base, .length = len, .flags = *base ? 0 : UCP_MEM_MAP_ALLOCATE};
    ucs_status_t st = r ? ucp_mem_map(R.ctx, &mp, &r->memh) : UCS_ERR_NO_MEMORY;
    if (st != UCS_OK) {
        skiff_error("ucx: cannot %s %zu bytes of window memory: %s", *base ? "register" : "allocate", len,
                    ucs_status_string(st));
        free(r);
        return -1;
    }
    ucp_mem_attr_t a = {.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS};
    if (!*base && (st = ucp_mem_query(r->memh, &a)) == UCS_OK)
        *base = a.address;
    if (st == UCS_OK)
        st = ucp_rkey_pack(R.ctx, r->memh, &r->key, keylen);
    if (st != UCS_OK) {
        skiff_error("ucx: cannot pack the remote key of %zu bytes of window memory: %s", len, ucs_status_string(st));
        ucp_mem_unmap(R.ctx, r->memh);
        free(r);
        return -1;
    }
    *mem = r;
    *key = r->key;
    return 0;
}

static void mem_deregister(void *mem)
{
    struct reg *r = mem;
    ucp_rkey_buffer_release(r->key);
    ucp_mem_unmap(R.ctx, r->memh);
    free(r);
}

static int rkey_open(int peer, const void *key, size_t keylen, void **rkey)
{
    (void)keylen;
    ucp_rkey_h k;
    ucs_status_t st = ucp_ep_rkey_unpack(R.ep[peer], key, &k);
    if (st != UCS_OK) {
        skiff_error("ucx: cannot open rank %d's remote key (%zu bytes): %s", peer, keylen, ucs_status_string(st));
        return -1;
    }
    *rkey = k;
    return 0;
}

static void rkey_close(void *rkey)
{
    ucp_rkey_destroy(rkey);
}

static void op_done(void *req, ucs_status_t st, void *user)
{
    struct skiff_rdma_done *d = user;
    if (st != UCS_OK)
        d->failed = 1;
    d->pending--;
    ucp_request_free(req);
}

/* What UCP answered a start: done at once (NULL), in flight (counted in d, or left to the next flush
 * when nobody counts it: UCP finishes a freed request by itself), or failed. */
static int started(ucs_status_ptr_t s, struct skiff_rdma_done *d, const char *what, int peer, size_t len)
{
    if (s == NULL)
        return 0;
    if (UCS_PTR_IS_ERR(s)) {
        skiff_error("ucx: %s of %zu bytes with rank %d failed: %s", what, len, peer,
                    ucs_status_string(UCS_PTR_STATUS(s)));
        return -1;
    }
    if (d)
        d->pending++;
    else
        ucp_request_free(s);
    return 0;
}

/* Host memory, said rather than detected: UCP skips its memory-type lookup. */
static ucp_request_param_t params(struct skiff_rdma_done *d)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_MEMORY_TYPE, .memory_type = UCS_MEMORY_TYPE_HOST};
    if (d) {
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
        p.cb.send = op_done;
        p.user_data = d;
    }
    return p;
}

static int put(int peer, const void *src, size_t len, uint64_t raddr, void *rkey, struct skiff_rdma_done *done)
{
    ucp_request_param_t p = params(done);
    return started(ucp_put_nbx(R.ep[peer], src, len, raddr, rkey, &p), done, "put", peer, len);
}

static int get(int peer, void *dst, size_t len, uint64_t raddr, void *rkey, struct skiff_rdma_done *done)
{
    ucp_request_param_t p = params(done);
    return started(ucp_get_nbx(R.ep[peer], dst, len, raddr, rkey, &p), done, "get", peer, len);
}

static int flush(int peer, struct skiff_rdma_done *done)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                             .cb.send = op_done, .user_data = done};
    ucs_status_ptr_t s = peer >= 0 ? ucp_ep_flush_nbx(R.ep[peer], &p) : ucp_worker_flush_nbx(R.worker, &p);
    return started(s, done, "flush", peer, 0);
}

void skiff_ucx_rma_offer(struct skiff_transport *ops, ucp_context_h ctx, ucp_worker_h worker, ucp_ep_h *ep)
{
    R.ctx = ctx;
    R.worker = worker;
    R.ep = ep;
    if (!skiff_cfg.ucx_rdma)
        return;
    ops->mem_register = mem_register;
    ops->mem_deregister = mem_deregister;
    ops->rkey_open = rkey_open;
    ops->rkey_close = rkey_close;
    ops->put = put;
    ops->get = get;
    ops->flush = flush;
}
