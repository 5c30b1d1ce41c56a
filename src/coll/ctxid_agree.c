/* Agreeing over a communicator on a new context id, and making a communicator with it. Collective
 * operations, so they live with the collectives: the core keeps only the ids' bookkeeping (core/ctxid.h)
 * and the communicator objects (core/comm.h), and never calls up into coll. */
#include "coll/ctxid_agree.h"


#include "coll/coll.h"
#include "coll/ctxid_nb.h"
#include "coll/sched.h"
#include "core/comm.h"
#include "core/ctxid.h"
#include "core/error.h"
#include "core/mt.h"

/* Under MPI_THREAD_MULTIPLE two threads may agree at once on distinct parents, each letting go of the
 * lock while its allreduce waits, so the maximum of lowest unused ids could hand both the same id. The
 * agreement with reservations and votes (coll/ctxid_nb.h), which is built for agreements that overlap,
 * then does the blocking one too, in the parent's collective sequence. */
static int agree_overlapping(struct skiff_comm *parent, uint32_t *ctx)
{
    struct skiff_sched *s = skiff_sched_new(parent);
    if (!s)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory agreeing on a context id over %s", skiff_comm_label(parent));
    return skiff_ctx_agree_run(s, NULL, 0, 0, ctx);
}

int skiff_ctx_agree(struct skiff_comm *parent, uint32_t *ctx)
{
    if (SKIFF_UNLIKELY(skiff_mt_apps))
        return agree_overlapping(parent, ctx);
    int mine = skiff_ctx_next(), agreed = 0;
    int rc = skiff_coll_allreduce(&mine, &agreed, 1, MPI_INT, MPI_MAX, parent, NULL);
    if (rc)
        return rc;
    /* The allreduce may itself have built this communicator's node-aware helpers, agreeing on ids
     * of their own after `mine` was read; every member did the same, so the lowest unused id is then
     * equal everywhere and above all of them. */
    if (skiff_ctx_next() > agreed)
        agreed = skiff_ctx_next();
    return skiff_ctx_claim(agreed, ctx);
}

int skiff_comm_make(struct skiff_comm *parent, const int *world, int n, struct skiff_comm **out)
{
    uint32_t ctx;
    *out = NULL;
    int rc = skiff_ctx_agree(parent, &ctx);
    if (rc || n == 0)
        return rc;
    rc = skiff_comm_make_ctx(ctx, world, n, parent->errhandler, out);
    if (!rc && *out)
        (*out)->session = parent->session;
    return rc;
}
