/* The ucx transport's one-sided half (ucx/rma.c, in the module only): the transport table's put, get
 * and flush (core/transport.h) as UCP RMA on the endpoints ucx.c opened. */
#ifndef SKIFF_UCX_RMA_H
#define SKIFF_UCX_RMA_H

#include <ucp/api/ucp.h>

#include "core/transport.h"

/* The UCP features the one-sided half needs beside ucx.c's (0 when SKIFF_UCX_RDMA=0). */
uint64_t skiff_ucx_rma_features(void);
/* Fills ops's one-sided fields (leaves them NULL when SKIFF_UCX_RDMA=0). ep is ucx.c's array of
 * endpoints per job rank, valid until the transport is finalized. */
void skiff_ucx_rma_offer(struct skiff_transport *ops, ucp_context_h ctx, ucp_worker_h worker, ucp_ep_h *ep);

#endif
