/* What each collective call writes into a schedule that outlives it (nonblocking and persistent
 * forms): staging of the user's buffers, the algorithm the blocking call would choose, unstaging.
 * Everything the schedule does happens in its steps, never at build time, so a replay redoes all of it. */
#include <stdlib.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "core/error.h"
#include "mpi/coll_check.h"
#include "mpi/coll_plan.h"
#include "mpi/mpi_impl.h"
#include "mpi/red_stage.h"

int skiff_plan_barrier(MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_comm *c = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (!rc && (*out = skiff_plan_new(c, &rc)) != NULL)
        skiff_build_barrier(*out);
    return rc;
}

int skiff_plan_bcast(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    struct skiff_pk *u = NULL;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_ck_root(c, root)) ||
        (rc = skiff_check_not_in_place(buf, "buffer")) || (rc = skiff_ck_side(buf, count, dt, "buffer", &t)))
        return rc;
    struct skiff_sched *s = *out = skiff_plan_new(c, &rc);
    if (!s)
        return rc;
    char *data = c->rank == root ? skiff_plan_in(s, buf, (size_t)count, t, 0)
                                 : skiff_plan_out(s, buf, (size_t)count, t, &u);
    skiff_sched_round(s);
    skiff_build_bcast(s, data, skiff_packed(t, count), root);
    skiff_plan_out_done(s, u);
    return MPI_SUCCESS;
}

/* Reductions run on the user's memory, or on staged copies of non-contiguous data: s gets dt and op. */
static struct skiff_sched *red_sched(struct skiff_comm *c, const struct skiff_red *red, MPI_Op op, int *rc)
{
    struct skiff_sched *s = skiff_plan_new(c, rc);
    if (s) {
        s->dt = red->dt;
        s->op = op;
    }
    return s;
}

/* A builder's error (after the schedule was made) frees the schedule. */
static int built(int rc, struct skiff_sched **out)
{
    if (rc) {
        skiff_sched_free(*out);
        *out = NULL;
    }
    return rc;
}

int skiff_plan_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                      MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_rooted x = {0};
    struct skiff_red red;
    int rc = skiff_ck_rooted(comm, root, sendbuf, recvbuf, 0, &x);
    if (!rc)
        rc = skiff_ck_reduction(count, dt, op, &red);
    if (!rc)
        rc = x.is_root ? skiff_ck_red_bufs(sendbuf, recvbuf, (size_t)count, (size_t)count, &red)
                       : skiff_check_named_buf(sendbuf, (size_t)count, red.t, "sendbuf");
    if (rc || !(*out = red_sched(x.c, &red, op, &rc)))
        return rc;
    struct skiff_red_pk *u = NULL;
    if (skiff_red_staged(&red))
        skiff_red_plan(*out, &red, &sendbuf, &recvbuf, (size_t)count, x.is_root ? (size_t)count : 0, 0, &u);
    if (x.in_place)
        sendbuf = recvbuf;
    rc = skiff_build_reduce(*out, skiff_shifted(sendbuf, &red), (void *)skiff_shifted(recvbuf, &red), red.count, root);
    if (!rc)
        skiff_red_plan_done(*out, u);
    return built(rc, out);
}

int skiff_plan_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                         MPI_Comm comm,
                         struct skiff_sched **out)
{
    struct skiff_comm *c = NULL;
    struct skiff_red red;
    int rc = skiff_ck_each_reduces(sendbuf, recvbuf, count, dt, op, comm, &c, &red);
    if (rc || !(*out = red_sched(c, &red, op, &rc)))
        return rc;
    struct skiff_red_pk *u = NULL;
    if (skiff_red_staged(&red))
        skiff_red_plan(*out, &red, &sendbuf, &recvbuf, (size_t)count, (size_t)count, 0, &u);
    rc = skiff_build_allreduce(*out, skiff_red_input(sendbuf, recvbuf, &red), (void *)skiff_shifted(recvbuf, &red),
                               red.count);
    if (!rc)
        skiff_red_plan_done(*out, u);
    return built(rc, out);
}

int skiff_plan_gather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_rooted x = {0};
    struct skiff_side own = {sendbuf, sendcount, sendtype, NULL}, all = {recvbuf, recvcount, recvtype, NULL};
    struct skiff_pk *u = NULL;
    int rc = skiff_ck_rooted_blocks(&own, &all, NULL, root, comm, 0, &x);
    struct skiff_sched *s = rc ? NULL : (*out = skiff_plan_new(x.c, &rc));
    if (!s)
        return rc;
    char *in = x.in_place ? NULL : skiff_plan_in(s, sendbuf, (size_t)sendcount, own.t, 0), *rb = NULL;
    if (x.is_root) {
        rb = skiff_plan_out(s, recvbuf, (size_t)recvcount * (size_t)x.c->size, all.t, &u);
        if (x.in_place)
            skiff_plan_keep(s, u, root, (size_t)recvcount);
    }
    skiff_sched_round(s);
    skiff_gather_binomial(s, in, x.is_root ? skiff_packed(all.t, recvcount) : skiff_packed(own.t, sendcount), rb,
                          root);
    skiff_plan_out_done(s, u);
    return MPI_SUCCESS;
}

int skiff_plan_gatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       struct skiff_cnts recvcounts, struct skiff_dsps displs, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_rooted x = {0};
    struct skiff_side own = {sendbuf, sendcount, sendtype, NULL}, all = {recvbuf, 0, recvtype, NULL};
    struct skiff_vside v = {recvbuf, recvcounts, displs, recvtype, NULL, 0};
    struct skiff_vplan o = {0};
    int rc = skiff_ck_rooted_blocks(&own, &all, &v, root, comm, 0, &x);
    struct skiff_sched *s = rc ? NULL : (*out = skiff_plan_new(x.c, &rc));
    if (!s)
        return rc;
    if (x.is_root)
        skiff_plan_v(s, &o, recvbuf, recvcounts, displs, all.t, x.in_place ? 3 : 0, root);
    char *in = x.in_place ? NULL : skiff_plan_in(s, sendbuf, (size_t)sendcount, own.t, 0);
    skiff_sched_round(s);
    skiff_gatherv_linear(s, in, x.in_place ? 0 : skiff_packed(own.t, sendcount), o.data, o.bc, o.bd, root);
    skiff_plan_v_done(s, &o);
    return MPI_SUCCESS;
}

int skiff_plan_scatter(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_rooted x = {0};
    struct skiff_side own = {recvbuf, recvcount, recvtype, NULL}, all = {sendbuf, sendcount, sendtype, NULL};
    struct skiff_pk *u = NULL;
    int rc = skiff_ck_rooted_blocks(&own, &all, NULL, root, comm, 1, &x);
    struct skiff_sched *s = rc ? NULL : (*out = skiff_plan_new(x.c, &rc));
    if (!s)
        return rc;
    char *in = x.is_root ? skiff_plan_in(s, sendbuf, (size_t)sendcount * (size_t)x.c->size, all.t, 0) : NULL;
    char *rb = x.in_place ? NULL : skiff_plan_out(s, recvbuf, (size_t)recvcount, own.t, &u);
    skiff_sched_round(s);
    skiff_scatter_binomial(s, in, x.is_root ? skiff_packed(all.t, sendcount) : skiff_packed(own.t, recvcount), rb,
                           root);
    skiff_plan_out_done(s, u);
    return MPI_SUCCESS;
}

int skiff_plan_scatterv(const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps displs,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_rooted x = {0};
    struct skiff_side own = {recvbuf, recvcount, recvtype, NULL}, all = {sendbuf, 0, sendtype, NULL};
    struct skiff_vside v = {sendbuf, sendcounts, displs, sendtype, NULL, 0};
    struct skiff_vplan in = {0};
    struct skiff_pk *u = NULL;
    int rc = skiff_ck_rooted_blocks(&own, &all, &v, root, comm, 1, &x);
    struct skiff_sched *s = rc ? NULL : (*out = skiff_plan_new(x.c, &rc));
    if (!s)
        return rc;
    if (x.is_root)
        skiff_plan_v(s, &in, sendbuf, sendcounts, displs, all.t, 1, -1);
    char *rb = x.in_place ? NULL : skiff_plan_out(s, recvbuf, (size_t)recvcount, own.t, &u);
    skiff_sched_round(s);
    skiff_scatterv_linear(s, in.data, in.bc, in.bd, rb, x.in_place ? 0 : skiff_packed(own.t, recvcount), root);
    skiff_plan_out_done(s, u);
    return MPI_SUCCESS;
}

int skiff_plan_allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_comm *c = NULL;
    struct skiff_side sd = {sendbuf, sendcount, sendtype, NULL}, r = {recvbuf, recvcount, recvtype, NULL};
    struct skiff_pk *u = NULL;
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_ck_all_blocks(&sd, &r, comm, &c);
    struct skiff_sched *s = rc ? NULL : (*out = skiff_plan_new(c, &rc));
    if (!s)
        return rc;
    char *in = in_place ? NULL : skiff_plan_in(s, sendbuf, (size_t)sendcount, sd.t, 0);
    char *rb = skiff_plan_out(s, recvbuf, (size_t)recvcount * (size_t)c->size, r.t, &u);
    if (in_place)
        skiff_plan_keep(s, u, c->rank, (size_t)recvcount);
    skiff_sched_round(s);
    skiff_build_allgather(s, in, skiff_packed(r.t, recvcount), rb);
    skiff_plan_out_done(s, u);
    return MPI_SUCCESS;
}

int skiff_plan_allgatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          struct skiff_cnts recvcounts, struct skiff_dsps displs, MPI_Datatype recvtype,
                          MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_comm *c = NULL;
    struct skiff_side sd = {sendbuf, sendcount, sendtype, NULL};
    struct skiff_vside r = {recvbuf, recvcounts, displs, recvtype, NULL, 0};
    struct skiff_vplan o;
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_ck_allgatherv(&sd, &r, comm, &c);
    struct skiff_sched *s = rc ? NULL : (*out = skiff_plan_new(c, &rc));
    if (!s)
        return rc;
    skiff_plan_v(s, &o, recvbuf, recvcounts, displs, r.t, in_place ? 3 : 0, c->rank);
    char *in = in_place ? NULL : skiff_plan_in(s, sendbuf, (size_t)sendcount, sd.t, 0);
    skiff_sched_round(s);
    skiff_build_allgatherv(s, in, o.bc[c->rank], o.data, o.bc, o.bd);
    skiff_plan_v_done(s, &o);
    return MPI_SUCCESS;
}

int skiff_plan_alltoall(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_comm *c = NULL;
    struct skiff_side sd = {sendbuf, sendcount, sendtype, NULL}, r = {recvbuf, recvcount, recvtype, NULL};
    struct skiff_pk *u = NULL;
    int rc = skiff_ck_all_blocks(&sd, &r, comm, &c);
    struct skiff_sched *s = rc ? NULL : (*out = skiff_plan_new(c, &rc));
    if (!s)
        return rc;
    size_t n = (size_t)c->size;
    /* In place every block is both sent and overwritten: send from a copy. */
    char *in = sendbuf == MPI_IN_PLACE ? skiff_plan_in(s, recvbuf, (size_t)recvcount * n, r.t, 1)
                                       : skiff_plan_in(s, sendbuf, (size_t)sendcount * n, sd.t, 0);
    char *rb = skiff_plan_out(s, recvbuf, (size_t)recvcount * n, r.t, &u);
    skiff_sched_round(s);
    skiff_build_alltoall(s, in, skiff_packed(r.t, recvcount), rb);
    skiff_plan_out_done(s, u);
    return MPI_SUCCESS;
}

int skiff_plan_alltoallv(const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps sdispls,
                         MPI_Datatype sendtype, void *recvbuf, struct skiff_cnts recvcounts, struct skiff_dsps rdispls,
                         MPI_Datatype recvtype, MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_comm *c = NULL;
    struct skiff_vside sd = {sendbuf, sendcounts, sdispls, sendtype, NULL, 0};
    struct skiff_vside r = {recvbuf, recvcounts, rdispls, recvtype, NULL, 0};
    struct skiff_vplan in, o;
    int rc = skiff_ck_alltoallv(&sd, &r, comm, &c);
    struct skiff_sched *s = rc ? NULL : (*out = skiff_plan_new(c, &rc));
    if (!s)
        return rc;
    if (sendbuf == MPI_IN_PLACE)
        skiff_plan_v(s, &in, recvbuf, recvcounts, rdispls, r.t, 2, -1);
    else
        skiff_plan_v(s, &in, sendbuf, sendcounts, sdispls, sd.t, 1, -1);
    skiff_plan_v(s, &o, recvbuf, recvcounts, rdispls, r.t, 0, -1);
    skiff_sched_round(s);
    skiff_build_alltoallv(s, in.data, in.bc, in.bd, o.data, o.bc, o.bd);
    skiff_plan_v_done(s, &o);
    return MPI_SUCCESS;
}

int skiff_plan_reduce_scatter(const void *sendbuf, void *recvbuf, const MPI_Count counts[], MPI_Count block,
                              MPI_Datatype dt,
                              MPI_Op op, MPI_Comm comm, struct skiff_sched **out)
{
    struct skiff_comm *c = NULL;
    struct skiff_red red;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_ck_reduce_scatter(sendbuf, recvbuf, counts, block, dt, op, c, &red);
    struct skiff_sched *s = rc ? NULL : (*out = red_sched(c, &red, op, &rc));
    if (!s)
        return rc;
    size_t *sc = skiff_sched_scratch(s, (size_t)c->size * sizeof *sc), total = 0;
    for (int i = 0; i < c->size; i++) {
        total += (size_t)(counts ? counts[i] : block);
        sc[i] = (size_t)(counts ? counts[i] : block) * red.scale;
    }
    struct skiff_red_pk *u = NULL;
    if (skiff_red_staged(&red))
        skiff_red_plan(s, &red, &sendbuf, &recvbuf, total, (size_t)(counts ? counts[c->rank] : block), 0, &u);
    rc = skiff_build_reduce_scatter(s, sendbuf == MPI_IN_PLACE ? NULL : skiff_shifted(sendbuf, &red),
                                    (void *)skiff_shifted(recvbuf, &red), sc);
    if (!rc)
        skiff_red_plan_done(s, u);
    return built(rc, out);
}

int skiff_plan_scan(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                    int exclusive, struct skiff_sched **out)
{
    struct skiff_comm *c = NULL;
    struct skiff_red red;
    int rc = skiff_ck_each_reduces(sendbuf, recvbuf, count, dt, op, comm, &c, &red);
    if (rc || !(*out = red_sched(c, &red, op, &rc)))
        return rc;
    struct skiff_red_pk *u = NULL;
    if (skiff_red_staged(&red)) /* Exscan: rank 0's recvbuf is scattered back as it was */
        skiff_red_plan(*out, &red, &sendbuf, &recvbuf, (size_t)count, (size_t)count, exclusive, &u);
    rc = skiff_build_scan(*out, skiff_red_input(sendbuf, recvbuf, &red), (void *)skiff_shifted(recvbuf, &red),
                          red.count, exclusive);
    if (!rc)
        skiff_red_plan_done(*out, u);
    return built(rc, out);
}
