#include "core/ctxid.h"

#include <limits.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "core/error.h"

/* The lowest id no communicator of this process has used. */
static int next_free;

void skiff_ctx_init(void)
{
    uint32_t top = skiff_comm_world.ctx > skiff_comm_self.ctx ? skiff_comm_world.ctx : skiff_comm_self.ctx;
    next_free = (int)top + 2;
}

int skiff_ctx_agree(struct skiff_comm *parent, uint32_t *ctx)
{
    int mine = next_free, agreed = 0;
    int rc = skiff_coll_allreduce(&mine, &agreed, 1, MPI_INT, MPI_MAX, parent, NULL);
    if (rc)
        return rc;
    /* The allreduce may itself have built this communicator's node-aware helpers, agreeing on ids
     * of their own after `mine` was read; every member did the same, so next_free is then equal
     * everywhere and above all of them. */
    if (next_free > agreed)
        agreed = next_free;
    return skiff_ctx_claim(agreed, ctx);
}

int skiff_ctx_next(void)
{
    return next_free;
}

int skiff_ctx_claim(int agreed, uint32_t *ctx)
{
    /* Every process sees the same maximum, so all take the same id or all fail together. */
    if (agreed > INT_MAX - 2)
        return skiff_err(MPI_ERR_OTHER, "out of context ids: this job has created %d communicators", agreed / 2);
    *ctx = (uint32_t)agreed;
    if (next_free < agreed + 2)
        next_free = agreed + 2;
    return MPI_SUCCESS;
}
