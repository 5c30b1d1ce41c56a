/* MPI_Alltoallw: a datatype and a byte displacement per peer on both sides. Each block is staged on
 * its own (coll_plan.h) and travels as one message (coll/alltoallw_linear.c). The blocking call runs
 * the same schedule as the nonblocking and persistent forms. On an intercommunicator the peers are the
 * remote group's processes (counts, displacements and types index it) and there is no block to oneself. */
#include <stdlib.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "core/error.h"
#include "mpi/coll_check.h"
#include "mpi/coll_plan.h"
#include "mpi/mpi_impl.h"

/* One side: n counts, byte displacements (an int call's or a _c call's) and datatypes; t gets the checked
 * types. */
struct wside {
    const void *buf;
    struct skiff_cnts counts;
    struct skiff_dsps displs;
    const MPI_Datatype *types;
    const struct skiff_type **t;
};

static int check_wside(struct wside *w, int n, const char *buf, const char *counts, const char *displs,
                       const char *types)
{
    size_t total;
    int rc = skiff_check_cnts(n, w->counts, counts, &total);
    if (!rc)
        rc = skiff_check_array(n, skiff_dsps_ptr(w->displs), displs);
    if (!rc)
        rc = skiff_check_array(n, w->types, types);
    for (int i = 0; !rc && i < n; i++) {
        rc = skiff_check_dtype(w->types[i], 1, &w->t[i]);
        if (!rc)
            rc = skiff_check_named_buf((const char *)w->buf + skiff_dsp_at(w->displs, i),
                                       (size_t)skiff_cnt_at(w->counts, i), w->t[i], buf);
    }
    return rc;
}

/* Only the block a rank sends itself can be matched against what it expects here. */
static int check_alltoallw(struct wside *sd, struct wside *r, MPI_Comm comm, struct skiff_comm **c)
{
    int rc = skiff_check_comm(comm, c);
    if (!rc)
        rc = skiff_check_not_in_place(r->buf, "recvbuf");
    if (!rc && (*c)->remote && SKIFF_UNLIKELY(sd->buf == MPI_IN_PLACE))
        rc = skiff_err(MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE, which intercommunicator collectives do not take");
    if (rc)
        return rc;
    int inter = (*c)->remote != NULL, n = inter ? (*c)->peers : (*c)->size, me = (*c)->rank;
    if (!(r->t = malloc(2 * (size_t)n * sizeof *r->t)))
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for %d datatypes", 2 * n);
    sd->t = r->t + n;
    rc = check_wside(r, n, "recvbuf", "recvcounts", "rdispls", "recvtypes");
    if (rc || sd->buf == MPI_IN_PLACE)
        return rc;
    rc = check_wside(sd, n, "sendbuf", "sendcounts", "sdispls", "sendtypes");
    if (!rc)
        rc = skiff_ck_alias(sd->buf, r->buf, 1, SEND_RECV, FIX_SENDBUF);
    return rc || inter ? rc
              : skiff_ck_match(skiff_packed(sd->t[me], skiff_cnt_at(sd->counts, me)),
                               skiff_packed(r->t[me], skiff_cnt_at(r->counts, me)), V_SEND, me);
}

/* Across an intercommunicator: a block to and from every remote process, all in one round. */
static void inter_exchange(struct skiff_sched *s, char *const *sptr, const size_t *sbytes, char *const *rptr,
                           const size_t *rbytes)
{
    for (int i = 0; i < s->comm->peers; i++) {
        skiff_sched_recv(s, rptr[i], rbytes[i], i);
        skiff_sched_send(s, sptr[i], sbytes[i], i);
    }
    skiff_sched_round(s);
}

static void plan(struct skiff_sched *s, const struct wside *sd, const struct wside *r)
{
    int inter = s->comm->remote != NULL, n = inter ? s->comm->peers : s->comm->size;
    int in_place = sd->buf == MPI_IN_PLACE;
    const struct wside *from = in_place ? r : sd;
    char **ptr = skiff_sched_scratch(s, 2 * (size_t)n * sizeof *ptr);
    size_t *bytes = skiff_sched_scratch(s, 2 * (size_t)n * sizeof *bytes);
    struct skiff_pk **u = skiff_sched_scratch(s, (size_t)n * sizeof *u);
    for (int i = 0; i < n; i++) {
        /* In place every block is both sent and overwritten: send from a copy. */
        MPI_Count nf = skiff_cnt_at(from->counts, i), nr = skiff_cnt_at(r->counts, i);
        ptr[i] = skiff_plan_in(s, (const char *)from->buf + skiff_dsp_at(from->displs, i), (size_t)nf, from->t[i],
                               in_place);
        bytes[i] = skiff_packed(from->t[i], nf);
        ptr[n + i] = skiff_plan_out(s, (char *)r->buf + skiff_dsp_at(r->displs, i), (size_t)nr, r->t[i], &u[i]);
        bytes[n + i] = skiff_packed(r->t[i], nr);
    }
    skiff_sched_round(s);
    (inter ? inter_exchange : skiff_alltoallw_linear)(s, ptr, bytes, ptr + n, bytes + n);
    for (int i = 0; i < n; i++)
        skiff_plan_unpack(s, u[i]);
    skiff_sched_round(s);
}

int skiff_plan_alltoallw(const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps sdispls,
                         const MPI_Datatype sendtypes[], void *recvbuf, struct skiff_cnts recvcounts,
                         struct skiff_dsps rdispls, const MPI_Datatype recvtypes[], MPI_Comm comm,
                         struct skiff_sched **out)
{
    struct skiff_comm *c = NULL;
    struct wside sd = {sendbuf, sendcounts, sdispls, sendtypes, NULL};
    struct wside r = {recvbuf, recvcounts, rdispls, recvtypes, NULL};
    int rc = check_alltoallw(&sd, &r, comm, &c);
    if (!rc && (*out = skiff_plan_new_any(c, &rc)) != NULL)
        plan(*out, &sd, &r);
    free(r.t);
    return rc;
}

/* The profiler's message size: what this rank sends, or with MPI_IN_PLACE what it receives. */
static size_t prof_wbytes(struct skiff_cnts counts, const MPI_Datatype types[], MPI_Comm comm)
{
    const struct skiff_comm *c = skiff_comm_get(comm);
    size_t sum = 0;
    for (int i = 0; skiff_cnts_ptr(counts) && types && c && i < (c->remote ? c->peers : c->size); i++)
        sum += skiff_prof_bytes(skiff_cnt_at(counts, i), types[i]);
    return sum;
}

/* The body of MPI_Alltoallw (int arrays) and MPI_Alltoallw_c (large: MPI_Count counts, MPI_Aint
 * displacements). */
static int alltoallw_call(int large, const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps sdispls,
                          const MPI_Datatype sendtypes[], void *recvbuf, struct skiff_cnts recvcounts,
                          struct skiff_dsps rdispls, const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Alltoallw, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? prof_wbytes(recvcounts, recvtypes, comm)
                                                : prof_wbytes(sendcounts, sendtypes, comm));
    int rc = skiff_plan_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                  comm, &s);
    return skiff_blocking_run(comm, rc, s);
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm)
{
    return alltoallw_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(sdispls), sendtypes, recvbuf,
                          skiff_icnts(recvcounts), skiff_idsps(rdispls), recvtypes, comm);
}
SKIFF_ALIAS(MPI_Alltoallw)

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(sdispls), sendtypes, recvbuf,
                          skiff_lcnts(recvcounts), skiff_ldsps(rdispls), recvtypes, comm);
}
SKIFF_ALIAS(MPI_Alltoallw_c)

/* The body of MPI_Ialltoallw (int arrays) and MPI_Ialltoallw_c (large). */
static int ialltoallw_call(int large, const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps sdispls,
                           const MPI_Datatype sendtypes[], void *recvbuf, struct skiff_cnts recvcounts,
                           struct skiff_dsps rdispls, const MPI_Datatype recvtypes[], MPI_Comm comm,
                           MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Ialltoallw, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? prof_wbytes(recvcounts, recvtypes, comm)
                                                : prof_wbytes(sendcounts, sendtypes, comm));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                              &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                    void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                    MPI_Comm comm, MPI_Request *request)
{
    return ialltoallw_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(sdispls), sendtypes, recvbuf,
                           skiff_icnts(recvcounts), skiff_idsps(rdispls), recvtypes, comm, request);
}
SKIFF_ALIAS(MPI_Ialltoallw)

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    return ialltoallw_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(sdispls), sendtypes, recvbuf,
                           skiff_lcnts(recvcounts), skiff_ldsps(rdispls), recvtypes, comm, request);
}
SKIFF_ALIAS(MPI_Ialltoallw_c)
