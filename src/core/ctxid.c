#include "core/ctxid.h"

#include <limits.h>
#include <stdlib.h>

#include "core/comm.h"
#include "core/error.h"
#include "core/mt.h"

/* The lowest id of each space that no communicator of this process has used (or, in the nonblocking
 * space, reserved): multiples of 4 for the blocking agreements, 2 more than a multiple of 4 for the others. */
static int next_free, next_nb;

void skiff_ctx_init(void)
{
    uint32_t top = skiff_comm_world.ctx > skiff_comm_self.ctx ? skiff_comm_world.ctx : skiff_comm_self.ctx;
    next_free = ((int)top / SKIFF_CTX_STRIDE + 1) * SKIFF_CTX_STRIDE;
    next_nb = next_free + 2;
}

int skiff_ctx_next(void)
{
    return next_free;
}

/* Takes id in the space whose lowest unused id is *next. */
static int claim(int *next, int id, uint32_t *ctx)
{
    /* Every process sees the same maximum, so all take the same id or all fail together. */
    if (id > INT_MAX - SKIFF_CTX_STRIDE)
        return skiff_err(MPI_ERR_OTHER, "out of context ids: this job has created %d communicators",
                         id / SKIFF_CTX_STRIDE);
    *ctx = (uint32_t)id;
    if (*next < id + SKIFF_CTX_STRIDE)
        *next = id + SKIFF_CTX_STRIDE;
    return MPI_SUCCESS;
}

int skiff_ctx_try_claim(int id)
{
    uint32_t ctx;
    return id >= next_free && claim(&next_free, id, &ctx) == MPI_SUCCESS;
}

int skiff_ctx_claim(int agreed, uint32_t *ctx)
{
    return claim(&next_free, agreed, ctx);
}

int skiff_ctx_nb_next(void)
{
    return next_nb;
}

int skiff_ctx_nb_claim(int id, uint32_t *ctx)
{
    return claim(&next_nb, id, ctx);
}
