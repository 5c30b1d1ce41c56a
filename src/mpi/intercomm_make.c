#include "mpi/intercomm_make.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "coll/ctxid_agree.h"
#include "coll/coll.h"
#include "coll/sched.h"
#include "core/ctxid.h"
#include "core/error.h"
#include "core/group.h"
#include "core/mt.h"
#include "core/progress.h"
#include "core/pt2pt.h"

/* The leaders' side of MPI_Intercomm_create: a send and a receive with remote_leader on peer's
 * point-to-point context and the user's tag, both posted before either waits. */
static int leader_trade(struct skiff_comm *peer, int remote_leader, int tag, const void *out, size_t obytes,
                        void *in, size_t ibytes)
{
    struct skiff_request *rr = NULL, *sr = NULL;
    int rc = skiff_recv_start(in, ibytes, remote_leader, tag, peer, peer->ctx, &rr);
    if (!rc)
        rc = skiff_send_start(out, obytes, remote_leader, tag, peer, peer->ctx, SKIFF_SEND_STANDARD, 0, &sr);
    if (rr) {
        skiff_wait_req(rr);
        if (!rc)
            rc = rr->st_error;
        if (!rc && rr->st_bytes != ibytes)
            rc = skiff_err(MPI_ERR_OTHER, "the remote leader (rank %d of %s) sent %zu bytes where %zu belong: is "
                           "tag %d used by other messages between the leaders?", remote_leader,
                           skiff_comm_label(peer), rr->st_bytes, ibytes, tag);
        skiff_req_release(rr);
    }
    if (sr) {
        skiff_wait_req(sr);
        if (!rc)
            rc = sr->st_error;
        skiff_req_release(sr);
    }
    return rc;
}

/* What a group tells the other: the lowest id none of its members used, and its members' job ranks. */
struct side_info {
    int next, size;
};

/* Run by the local leader: trades the groups' descriptions; *remote gets the other group's job ranks. */
static int leaders_meet(struct skiff_comm *local, struct skiff_comm *peer, int remote_leader, int tag,
                        struct side_info *mine, struct side_info *theirs, int **remote)
{
    int rc = leader_trade(peer, remote_leader, tag, mine, sizeof *mine, theirs, sizeof *theirs);
    if (rc)
        return rc;
    if (theirs->size <= 0 || !(*remote = malloc(sizeof(int) * (size_t)theirs->size)))
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a remote group of %d processes", theirs->size);
    return leader_trade(peer, remote_leader, tag, local->group->world, sizeof(int) * (size_t)local->size, *remote,
                        sizeof(int) * (size_t)theirs->size);
}

/* Under MPI_THREAD_MULTIPLE another thread may take ids while this creation waits (with the lock let go),
 * so the maximum agreed on is only a candidate: every process of both groups votes whether it is still
 * free for it, taking it if so (skiff_ctx_try_claim, atomic under the lock), and all keep it only if all
 * could; else the next candidate is the maximum lowest unused id of them all. Two creations that overlap
 * on a process can never both take one id there, since the second to try finds it taken. A vote is an
 * allreduce over each group, a trade between the leaders and a broadcast; with no other creation
 * meanwhile the first passes. */
static int vote_mt(struct skiff_comm *local, int local_leader, struct skiff_comm *peer, int remote_leader, int tag,
                   int cand, uint32_t *ctx)
{
    for (;;) {
        if (cand > INT_MAX - SKIFF_CTX_STRIDE)
            return skiff_err(MPI_ERR_OTHER, "out of context ids: this job has created %d communicators",
                             cand / SKIFF_CTX_STRIDE);
        int v[2] = {!skiff_ctx_try_claim(cand), skiff_ctx_next()}, all[2] = {0, 0};
        int rc = skiff_coll_allreduce(v, all, 2, MPI_INT, MPI_MAX, local, NULL);
        if (rc)
            return rc;
        if (local->rank == local_leader) {
            int theirs[2];
            if (leader_trade(peer, remote_leader, tag, all, sizeof all, theirs, sizeof theirs) != MPI_SUCCESS)
                all[0] = -1; /* told to everyone, so no member waits for a vote that will not come */
            else
                for (int i = 0; i < 2; i++)
                    all[i] = theirs[i] > all[i] ? theirs[i] : all[i];
        }
        if ((rc = skiff_coll_bcast(all, sizeof all, local_leader, local, NULL, NULL)))
            return rc;
        if (all[0] < 0)
            return skiff_err(MPI_ERR_OTHER, "the local leader (rank %d of %s) could not reach the remote group",
                             local_leader, skiff_comm_label(local));
        if (all[0] == 0) {
            *ctx = (uint32_t)cand;
            return MPI_SUCCESS;
        }
        cand = all[1];
    }
}

int skiff_intercomm_create(struct skiff_comm *local, int local_leader, struct skiff_comm *peer, int remote_leader,
                           int tag, struct skiff_comm **out)
{
    struct side_info mine = {skiff_ctx_next(), local->size}, theirs = {0, 0};
    int *remote = NULL, lmax = 0;
    *out = NULL;
    int rc = skiff_coll_allreduce(&mine.next, &lmax, 1, MPI_INT, MPI_MAX, local, NULL);
    /* As in skiff_ctx_agree: ids the allreduce itself took for node-aware helpers count too. */
    mine.next = lmax > skiff_ctx_next() ? lmax : skiff_ctx_next();
    if (!rc && local->rank == local_leader)
        rc = leaders_meet(local, peer, remote_leader, tag, &mine, &theirs, &remote);
    /* The leader's outcome goes to everyone, also a failure (size 0), so no member waits forever. */
    int agreed[2] = {rc ? 0 : (mine.next > theirs.next ? mine.next : theirs.next), rc ? 0 : theirs.size};
    int brc = skiff_coll_bcast(agreed, sizeof agreed, local_leader, local, NULL, NULL);
    if (!rc && brc)
        rc = brc;
    if (!rc && agreed[1] <= 0)
        rc = skiff_err(MPI_ERR_OTHER, "the local leader (rank %d of %s) could not reach the remote group",
                       local_leader, skiff_comm_label(local));
    if (!rc && local->rank != local_leader && !(remote = malloc(sizeof(int) * (size_t)agreed[1])))
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for a remote group of %d processes", agreed[1]);
    if (!rc)
        rc = skiff_coll_bcast(remote, sizeof(int) * (size_t)agreed[1], local_leader, local, NULL, NULL);
    uint32_t ctx = 0;
    if (!rc)
        rc = SKIFF_UNLIKELY(skiff_mt_apps) ? vote_mt(local, local_leader, peer, remote_leader, tag, agreed[0], &ctx)
                                         : skiff_ctx_claim(agreed[0], &ctx);
    struct skiff_group *lg = NULL, *rg = NULL;
    if (!rc && (!(lg = skiff_group_from(local->group->world, local->size)) ||
                !(rg = skiff_group_from(remote, agreed[1]))))
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for the groups of an intercommunicator");
    free(remote);
    if (rc) {
        if (lg)
            skiff_group_free(lg);
        return rc;
    }
    rc = skiff_comm_make_inter(ctx, lg, rg, local->errhandler, out);
    if (!rc && *out)
        (*out)->session = local->session;
    return rc;
}

/* Every process learns k ints from every process of both groups: first from each remote process
 * (loc: n x k, rem: m x k, in rank order), then its own group's, which the remote rank 0 received
 * and sends back. One schedule of two rounds on c. */
static int exchange(struct skiff_comm *c, const int *mine, int k, int **loc, int **rem)
{
    size_t kb = sizeof(int) * (size_t)k;
    *loc = malloc(kb * (size_t)c->size);
    *rem = malloc(kb * (size_t)c->peers);
    if (!*loc || !*rem)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for %d values of an intercommunicator",
                         k * (c->size + c->peers));
    struct skiff_sched s;
    skiff_sched_init(&s, c);
    for (int r = 0; r < c->peers; r++) {
        skiff_sched_send(&s, mine, kb, r);
        skiff_sched_recv(&s, (char *)*rem + kb * (size_t)r, kb, r);
    }
    skiff_sched_round(&s);
    if (c->rank == 0)
        for (int r = 0; r < c->peers; r++)
            skiff_sched_send(&s, *rem, kb * (size_t)c->peers, r);
    skiff_sched_recv(&s, *loc, kb * (size_t)c->size, 0);
    return skiff_sched_run(&s, NULL);
}

/* The new id: above every id either group has used (field 0 of each exchanged record). Under
 * MPI_THREAD_MULTIPLE, where other threads may take ids meanwhile, the agreement that reserves and votes
 * (core/ctxid.c) over both groups of c instead. */
static int agree(struct skiff_comm *c, const int *loc, const int *rem, int k, uint32_t *ctx)
{
    if (SKIFF_UNLIKELY(skiff_mt_apps))
        return skiff_ctx_agree(c, ctx);
    int top = 0;
    for (int i = 0; i < c->size; i++)
        top = loc[i * k] > top ? loc[i * k] : top;
    for (int i = 0; i < c->peers; i++)
        top = rem[i * k] > top ? rem[i * k] : top;
    return skiff_ctx_claim(top, ctx);
}

int skiff_intercomm_merge(struct skiff_comm *c, int high, struct skiff_comm **out)
{
    int mine[2] = {skiff_ctx_next(), high != 0}, *loc = NULL, *rem = NULL;
    uint32_t ctx = 0;
    *out = NULL;
    int rc = exchange(c, mine, 2, &loc, &rem);
    if (!rc)
        rc = agree(c, loc, rem, 2, &ctx);
    /* The group's high is its first process's: the standard wants them equal, and all must see one. */
    int we_first = loc && rem && (loc[1] != rem[1] ? !loc[1] : c->group->world[0] < c->remote->world[0]);
    free(loc);
    free(rem);
    int n = c->size + c->peers, *world = rc ? NULL : malloc(sizeof(int) * (size_t)n);
    if (!rc && !world)
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for a group of %d processes", n);
    if (rc)
        return rc;
    const struct skiff_group *first = we_first ? c->group : c->remote, *second = we_first ? c->remote : c->group;
    memcpy(world, first->world, sizeof(int) * (size_t)first->size);
    memcpy(world + first->size, second->world, sizeof(int) * (size_t)second->size);
    rc = skiff_comm_make_ctx(ctx, world, n, c->errhandler, out);
    free(world);
    if (!rc && *out)
        (*out)->session = c->session;
    return rc;
}

/* An intercommunicator of the local processes lw[0..ln) and the remote rw[0..rn) on ctx; NULL if
 * either side is empty or this process is not among lw. */
static int make_pair(uint32_t ctx, const int *lw, int ln, const int *rw, int rn, MPI_Errhandler eh,
                     struct skiff_comm **out)
{
    *out = NULL;
    if (!ln || !rn)
        return MPI_SUCCESS;
    struct skiff_group *lg = skiff_group_from(lw, ln), *rg = lg ? skiff_group_from(rw, rn) : NULL;
    if (!rg) {
        if (lg)
            skiff_group_free(lg);
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for the groups of an intercommunicator");
    }
    if (lg->rank == MPI_UNDEFINED) {
        skiff_group_free(lg);
        skiff_group_free(rg);
        return MPI_SUCCESS;
    }
    return skiff_comm_make_inter(ctx, lg, rg, eh, out);
}

int skiff_intercomm_dup(struct skiff_comm *c, struct skiff_comm **out)
{
    int mine = skiff_ctx_next(), *loc = NULL, *rem = NULL;
    uint32_t ctx = 0;
    *out = NULL;
    int rc = exchange(c, &mine, 1, &loc, &rem);
    if (!rc)
        rc = agree(c, loc, rem, 1, &ctx);
    free(loc);
    free(rem);
    if (!rc && !(rc = make_pair(ctx, c->group->world, c->size, c->remote->world, c->peers, c->errhandler, out)) && *out)
        (*out)->session = c->session;
    return rc;
}

int skiff_intercomm_split(struct skiff_comm *c, int color, int key, struct skiff_comm **out)
{
    int mine[3] = {skiff_ctx_next(), color, key}, *loc = NULL, *rem = NULL;
    uint32_t ctx = 0;
    *out = NULL;
    int rc = exchange(c, mine, 3, &loc, &rem);
    if (!rc)
        rc = agree(c, loc, rem, 3, &ctx);
    int *lw = rc ? NULL : malloc(sizeof(int) * (size_t)c->size);
    int *rw = rc ? NULL : malloc(sizeof(int) * (size_t)c->peers);
    /* Every process took part in the agreement, so the id is used up even where the result is NULL. */
    int ln = 0, rn = 0;
    if (!rc && color != MPI_UNDEFINED &&
        (!lw || !rw || (ln = skiff_group_pick(c->group, loc, 3, color, lw)) < 0 ||
         (rn = skiff_group_pick(c->remote, rem, 3, color, rw)) < 0))
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory splitting an intercommunicator of %d + %d processes", c->size,
                       c->peers);
    if (!rc && color != MPI_UNDEFINED) {
        rc = make_pair(ctx, lw, ln, rw, rn, c->errhandler, out);
        if (!rc && *out)
            (*out)->session = c->session;
    }
    free(lw);
    free(rw);
    free(loc);
    free(rem);
    return rc;
}

int skiff_intercomm_subset(struct skiff_comm *c, const struct skiff_group *g, struct skiff_comm **out)
{
    int me = skiff_group_rank_of(g, c->group->world[c->rank]);
    return skiff_intercomm_split(c, me == MPI_UNDEFINED ? MPI_UNDEFINED : 0, me, out);
}
