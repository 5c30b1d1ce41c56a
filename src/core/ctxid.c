#include "core/ctxid.h"

#include <limits.h>
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/sched.h"
#include "core/comm.h"
#include "core/ctxid_nb.h"
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

struct agreed {
    uint32_t ctx;
    int rc;
};

static void agreed(struct skiff_sched *s, void *arg, uint32_t ctx, int rc)
{
    struct agreed *a = arg;
    (void)s;
    a->ctx = ctx;
    a->rc = rc;
}

/* Under MPI_THREAD_MULTIPLE two threads may agree at once on distinct parents, each letting go of the
 * lock while its allreduce waits, so the maximum of lowest unused ids could hand both the same id. The
 * agreement with reservations and votes (core/ctxid_nb.h), which is built for agreements that overlap,
 * then does the blocking one too, in the parent's collective sequence. */
static int agree_overlapping(struct skiff_comm *parent, uint32_t *ctx)
{
    struct skiff_sched *s = skiff_sched_new(parent);
    if (!s)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory agreeing on a context id over %s", skiff_comm_label(parent));
    int m = parent->remote ? 0 : parent->size, *members = skiff_sched_scratch(s, sizeof(int) * (size_t)(m + 1));
    for (int r = 0; members && r < m; r++)
        members[r] = r;
    struct agreed a = {0, MPI_SUCCESS};
    int rc = members ? skiff_ctx_agree_sched(s, members, m, parent->rank, agreed, &a)
                     : skiff_err(MPI_ERR_NO_MEM, "out of memory agreeing on a context id over %s",
                                 skiff_comm_label(parent));
    if (rc)
        skiff_sched_release(s);
    else
        rc = skiff_sched_run(s, NULL); /* releases s */
    free(s);
    *ctx = a.ctx;
    return rc ? rc : a.rc;
}

int skiff_ctx_agree(struct skiff_comm *parent, uint32_t *ctx)
{
    if (SKIFF_UNLIKELY(skiff_mt_on))
        return agree_overlapping(parent, ctx);
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
