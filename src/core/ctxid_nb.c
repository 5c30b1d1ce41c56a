#include "core/ctxid_nb.h"

#include "coll/sched.h"
#include "core/ctxid.h"
#include "core/error.h"

#define MAX_ROUNDS 32 /* ceil(log2 m) for any int m */

struct agree {
    int acc[2];                /* [offer, vote]: MAX over the members once a cycle is done */
    int got[MAX_ROUNDS][2];    /* one receive per round */
    int offer;                 /* this process's reservation offered in the last cycle */
    int cand, have_cand;
    const int *members;
    int m, me;
    skiff_ctx_done_fn *done;
    void *arg;
};

static void decide(struct skiff_sched *s, void *arg);

/* One allreduce(MAX) of acc over the members, then decide. */
static void add_cycle(struct skiff_sched *s, struct agree *a)
{
    for (int d = 1, k = 0; d < a->m; d *= 2, k++) {
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
    *a = (struct agree){.members = members, .m = m, .me = me, .done = done, .arg = arg};
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
