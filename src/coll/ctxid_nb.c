#include "coll/ctxid_nb.h"

#include <stdlib.h>

#include "coll/sched.h"
#include "core/comm.h"
#include "core/ctxid.h"
#include "core/error.h"

#define MAX_ROUNDS 32 /* ceil(log2 m) for any int m */

struct agree {
    int acc[2];                /* [offer, vote]: MAX over the members once a cycle is done */
    int got[MAX_ROUNDS][2];    /* one receive per round */
    int (*far)[2];             /* intercommunicator: one per remote process, then [0] their maximum */
    int near[2];               /* intercommunicator: the maximum over this group, from the remote side */
    int offer;                 /* this process's reservation offered in the last cycle */
    int cand, have_cand;
    const int *members;
    int m, me;
    skiff_ctx_done_fn *done;
    void *arg;
};

static void decide(struct skiff_sched *s, void *arg);

/* The allreduce(MAX) over both groups of an intercommunicator: every process sends acc to every remote
 * one and takes their maximum; the remote rank 0 sends that (this group's maximum) back. */
static void add_inter_max(struct skiff_sched *s, struct agree *a)
{
    int m = s->comm->peers;
    for (int r = 0; r < m; r++) {
        skiff_sched_send(s, a->acc, sizeof a->acc, r);
        skiff_sched_recv(s, a->far[r], sizeof a->far[r], r);
    }
    for (int r = 1; r < m; r++)
        skiff_sched_reduce(s, a->far[r], a->far[0], 2);
    skiff_sched_round(s);
    if (s->comm->rank == 0)
        for (int r = 0; r < m; r++)
            skiff_sched_send(s, a->far[0], sizeof a->far[0], r);
    skiff_sched_recv(s, a->near, sizeof a->near, 0);
    skiff_sched_copy(s, a->acc, a->near, sizeof a->acc);
    skiff_sched_reduce(s, a->far[0], a->acc, 2);
    skiff_sched_round(s);
}

/* One allreduce(MAX) of acc over the members, then decide. */
static void add_cycle(struct skiff_sched *s, struct agree *a)
{
    if (a->far)
        add_inter_max(s, a);
    for (int d = 1, k = 0; !a->far && d < a->m; d *= 2, k++) {
        skiff_sched_send(s, a->acc, sizeof a->acc, a->members[(a->me + d) % a->m]);
        skiff_sched_recv(s, a->got[k], sizeof a->got[k], a->members[(a->me - d + a->m) % a->m]);
        skiff_sched_reduce(s, a->got[k], a->acc, 2);
        skiff_sched_round(s);
    }
    skiff_sched_then(s, decide, a);
    skiff_sched_round(s);
}

/* Reserves the lowest unused id and offers it. */
static int offer(struct agree *a)
{
    uint32_t ctx;
    a->offer = skiff_ctx_nb_next();
    return skiff_ctx_nb_claim(a->offer, &ctx);
}

static void decide(struct skiff_sched *s, void *arg)
{
    struct agree *a = arg;
    uint32_t ctx = 0;
    int rc = s->error;
    if (!rc && a->have_cand && a->acc[1] == 0) {
        a->done(s, a->arg, (uint32_t)a->cand, MPI_SUCCESS);
        return;
    }
    if (!rc) {
        a->cand = a->acc[0];
        a->have_cand = 1;
        int free_here = a->cand == a->offer || a->cand >= skiff_ctx_nb_next();
        if (free_here)
            rc = skiff_ctx_nb_claim(a->cand, &ctx);
        if (!rc)
            rc = offer(a);
        a->acc[0] = a->offer;
        a->acc[1] = !free_here;
    }
    if (rc) {
        /* Out of ids (every member sees the same maximum, so all fail in the same cycle), or a message
         * failed: the request reports it. */
        if (!s->error)
            s->error = rc;
        a->done(s, a->arg, 0, rc);
        return;
    }
    add_cycle(s, a);
}

int skiff_ctx_agree_sched(struct skiff_sched *s, const int *members, int m, int me, skiff_ctx_done_fn *done,
                          void *arg)
{
    struct agree *a = skiff_sched_scratch(s, sizeof *a);
    if (!a)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory agreeing on a context id");
    *a = (struct agree){.members = members, .m = m, .me = me, .done = done, .arg = arg};
    if (s->comm->remote && !(a->far = skiff_sched_scratch(s, sizeof *a->far * (size_t)s->comm->peers)))
        return skiff_err(MPI_ERR_NO_MEM, "out of memory agreeing on a context id");
    s->op = MPI_MAX;
    s->dt = MPI_INT;
    int rc = offer(a);
    if (rc)
        return rc;
    a->acc[0] = a->offer;
    a->acc[1] = 1; /* no candidate to vote on yet */
    add_cycle(s, a);
    return MPI_SUCCESS;
}

int skiff_ctx_agree_all_sched(struct skiff_sched *s, skiff_ctx_done_fn *done, void *arg)
{
    struct skiff_comm *c = s->comm;
    int m = c->remote ? 0 : c->size, *members = skiff_sched_scratch(s, sizeof(int) * (size_t)(m + 1));
    if (!members)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory agreeing on a context id over %s", skiff_comm_label(c));
    for (int r = 0; r < m; r++)
        members[r] = r;
    return skiff_ctx_agree_sched(s, members, m, c->rank, done, arg);
}

struct result {
    uint32_t ctx;
    int rc;
};

static void store(struct skiff_sched *s, void *arg, uint32_t ctx, int rc)
{
    struct result *res = arg;
    (void)s;
    res->ctx = ctx;
    res->rc = rc;
}

int skiff_ctx_agree_run(struct skiff_sched *s, const int *members, int m, int me, uint32_t *ctx)
{
    struct result res = {0, MPI_SUCCESS};
    int rc = members ? skiff_ctx_agree_sched(s, members, m, me, store, &res) : skiff_ctx_agree_all_sched(s, store, &res);
    if (rc)
        skiff_sched_release(s);
    else
        rc = skiff_sched_run(s, NULL); /* releases s */
    free(s);
    *ctx = res.ctx;
    return rc ? rc : res.rc;
}
