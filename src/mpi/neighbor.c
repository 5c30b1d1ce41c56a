/* Neighbourhood collectives (MPI_Neighbor_*, MPI_Ineighbor_* and MPI_Neighbor_*_init): argument checks, and
 * each neighbour's block as contiguous bytes, packed and unpacked for other datatypes; src/coll/neighbor.c
 * moves them. The blocking and nonblocking calls pack when called; the persistent ones plan the packing
 * as steps of their schedule (coll_plan.h), so that each MPI_Start sends what the buffers hold then. */
#include <stdlib.h>
#include <string.h>

#include "coll/neighbor.h"
#include "core/request.h"
#include "core/topo.h"
#include "mpi/coll_counts.h"
#include "mpi/coll_plan.h"
#include "mpi/mpi_impl.h"
#include "mpi/topo_make.h"

/* How a side's blocks lie: one after the other (alltoall), all the same buffer (allgather's send side),
 * at displs[k] elements (the v calls), or at displs[k] bytes with a type each (alltoallw). */
enum form { FOLLOW, SAME, V, W };

/* One side of a call as the user gave it. */
struct side {
    enum form form;
    const void *buf;
    MPI_Count count;
    struct skiff_cnts counts; /* an int call's or a _c call's (V and W) */
    struct skiff_dsps displs; /* the same (V), always MPI_Aint (W) */
    MPI_Datatype dt;
    const MPI_Datatype *dts;
    const char *names[4]; /* buffer, counts (or count), displacements, types */
};

struct block {
    uintptr_t addr; /* integer arithmetic: the buffer may be MPI_BOTTOM */
    size_t count;
    const struct skiff_type *t;
};

/* The communicator, and how many blocks each side has. */
struct hood {
    struct skiff_comm *c;
    int in, out;
};

static int check_hood(MPI_Comm comm, struct hood *h)
{
    int rc = skiff_check_comm(comm, &h->c);
    if (!rc && !(rc = skiff_check_intra(h->c)) && SKIFF_UNLIKELY(!h->c->topo))
        rc = skiff_err(MPI_ERR_TOPOLOGY, "communicator %s has no topology, so no neighbours",
                       skiff_comm_label(h->c));
    if (!rc)
        skiff_topo_degrees(h->c->topo, h->c->rank, &h->in, &h->out);
    return rc;
}

static int check_counts(const struct side *s, int n)
{
    if (s->form >= V)
        return skiff_check_cnts(n, s->counts, s->names[1], NULL);
    return skiff_check_count(s->count);
}

static int check_types(const struct side *s, int n, struct block *b)
{
    int rc = s->form == W ? skiff_check_array(n, s->dts, s->names[3]) : MPI_SUCCESS;
    for (int k = 0; !rc && k < n; k++)
        rc = skiff_check_dtype(s->form == W ? s->dts[k] : s->dt, 1, &b[k].t);
    return rc;
}

/* Checks side s of n blocks and says where each block is. */
static int side_blocks(const struct side *s, int n, struct block *b)
{
    int rc = skiff_check_not_in_place(s->buf, s->names[0]);
    if (!rc && !(rc = check_counts(s, n)) && !(rc = check_types(s, n, b)) && s->form >= V)
        rc = skiff_check_array(n, skiff_dsps_ptr(s->displs), s->names[2]);
    for (int k = 0; !rc && k < n; k++) {
        const struct skiff_type *t = b[k].t;
        b[k].count = (size_t)(s->form >= V ? skiff_cnt_at(s->counts, k) : s->count);
        if (s->form == W)
            b[k].addr = (uintptr_t)s->buf + (uintptr_t)skiff_dsp_at(s->displs, k);
        else if (s->form == V)
            b[k].addr = (uintptr_t)s->buf + (uintptr_t)((ptrdiff_t)skiff_dsp_at(s->displs, k) * t->extent);
        else
            b[k].addr = (uintptr_t)s->buf + (uintptr_t)(s->form == SAME ? 0 : (ptrdiff_t)k * s->count * t->extent);
        rc = skiff_check_named_buf(s->buf, b[k].count, t, s->names[0]);
    }
    return rc;
}

/* ---------------------------------------------------------------- running */

struct unpack {
    uintptr_t addr;
    size_t count;
    const struct skiff_type *t; /* held until unpacked: the user may free it before the call completes */
    const char *from;
};

/* What outlives the call: packed blocks, and where received ones go. */
struct job {
    char *packed;
    int n;
    struct unpack u[];
};

static void finish(struct job *j, int unpack)
{
    for (int i = 0; i < j->n; i++) {
        struct unpack *u = &j->u[i];
        if (unpack)
            skiff_type_unpack(u->from, skiff_type_packed_size(u->t, u->count), (void *)u->addr, u->count, u->t);
        skiff_type_unref(u->t);
    }
    free(j->packed);
    free(j);
}

static void finish_on_complete(struct skiff_request *r)
{
    finish(r->cookie, !r->st_error);
    r->cookie = NULL;
}

static size_t bytes_of(const struct block *b)
{
    return skiff_type_packed_size(b->t, b->count);
}

/* The contiguous bytes of block b: the user's memory, or room at *p (holding a packed copy if pack is set). */
static void *place(const struct block *b, char **p, int pack)
{
    if (b->t->contiguous)
        return skiff_type_data((const void *)b->addr, b->t);
    void *at = *p;
    size_t n = bytes_of(b);
    if (!n) /* an empty block may have no room behind it: *p can be NULL */
        return at;
    if (pack)
        skiff_type_pack((const void *)b->addr, b->count, b->t, at);
    *p += n;
    return at;
}

/* Packed bytes for the non-contiguous blocks that move, and how many of them are received. */
static size_t packed_size(const struct block *b, const int *peer, int n, int *nrecv)
{
    size_t sum = 0;
    for (int k = 0; k < n; k++)
        if (peer[k] != MPI_PROC_NULL && !b[k].t->contiguous) {
            sum += bytes_of(&b[k]);
            if (nrecv)
                (*nrecv)++;
        }
    return sum;
}

static void plan_sends(const struct block *sb, const int *dst, int n, char **p, struct skiff_nbr_xfer *x)
{
    for (int k = 0; k < n; k++) {
        x[k] = (struct skiff_nbr_xfer){dst[k], NULL, 0};
        if (dst[k] == MPI_PROC_NULL)
            continue;
        int again = k > 0 && !sb[k].t->contiguous && sb[k].addr == sb[k - 1].addr && sb[k].t == sb[k - 1].t &&
                    sb[k].count == sb[k - 1].count && x[k - 1].buf; /* allgather: pack once */
        x[k].buf = again ? x[k - 1].buf : place(&sb[k], p, 1);
        x[k].bytes = bytes_of(&sb[k]);
    }
}

static void plan_recvs(const struct block *rb, const int *src, int n, char **p, struct skiff_nbr_xfer *x,
                       struct job *j)
{
    for (int k = 0; k < n; k++) {
        x[k] = (struct skiff_nbr_xfer){src[k], NULL, 0};
        if (src[k] == MPI_PROC_NULL)
            continue;
        /* Packed with what the buffer holds now: a shorter message then leaves the rest as it was when
         * the whole block is unpacked (the schedule does not say how much arrived). */
        x[k].buf = place(&rb[k], p, 1);
        x[k].bytes = bytes_of(&rb[k]);
        if (!rb[k].t->contiguous) {
            skiff_type_ref(rb[k].t);
            j->u[j->n++] = (struct unpack){rb[k].addr, rb[k].count, rb[k].t, x[k].buf};
        }
    }
}

/* In a grid a process can be its neighbour's neighbour on both sides of a dimension (extent 1 or 2,
 * periodic). What it sends towards its negative side arrives at the other's positive side, so per
 * dimension the positive side's receive is posted first: the k-th message then meets the k-th receive. */
static void cart_order(const struct skiff_topo *t, struct skiff_nbr_xfer *rx)
{
    if (t->kind != MPI_CART)
        return;
    for (int d = 0; d < t->ndims; d++) {
        struct skiff_nbr_xfer tmp = rx[2 * d];
        rx[2 * d] = rx[2 * d + 1];
        rx[2 * d + 1] = tmp;
    }
}

/* Per-call working memory: each neighbour's block, its peer and its transfer. Small neighbourhoods (a grid of
 * up to 4 dimensions, most graphs) fit on the stack, so a call on them allocates only what it packs. */
#define ON_STACK 16

struct work {
    struct skiff_nbr_xfer *x; /* receives, then sends */
    struct block *b;          /* the same order */
    int *peer;
};

/* The packed blocks and the unpack list; NULL when every block is contiguous. */
static int new_job(size_t bytes, int nrecv, struct job **j)
{
    *j = NULL;
    if (!bytes && !nrecv)
        return MPI_SUCCESS;
    if ((*j = malloc(sizeof **j + sizeof(struct unpack) * (size_t)nrecv)) && ((*j)->packed = malloc(bytes + 1))) {
        (*j)->n = 0;
        return MPI_SUCCESS;
    }
    free(*j);
    *j = NULL;
    return skiff_err(MPI_ERR_NO_MEM, "out of memory packing %zu bytes", bytes);
}

static int run(const struct hood *h, const struct work *w, struct skiff_request **req)
{
    int in = h->in, out = h->out, nrecv = 0;
    int *src = w->peer, *dst = w->peer + in;
    const struct block *rb = w->b, *sb = w->b + in;
    struct job *j = NULL;
    skiff_topo_neighbors(h->c->topo, h->c->rank, src, dst);
    size_t bytes = packed_size(sb, dst, out, NULL) + packed_size(rb, src, in, &nrecv);
    int rc = new_job(bytes, nrecv, &j);
    if (rc)
        return rc;
    char *p = j ? j->packed : NULL;
    plan_sends(sb, dst, out, &p, w->x + in);
    plan_recvs(rb, src, in, &p, w->x, j);
    cart_order(h->c->topo, w->x);
    /* A nonblocking call's packed blocks must outlive it: the request finishes with them. */
    int handed = j && req;
    rc = skiff_coll_neighbor(h->c, w->x, in, w->x + in, out, req,
                             handed ? &(struct skiff_req_then){finish_on_complete, j, 0} : NULL);
    if (j && !(handed && !rc))
        finish(j, !rc);
    return rc;
}

/* The persistent form's schedule: the same transfers, with non-contiguous blocks staged in its scratch by
 * steps before and after the round. A receive's staging is packed first, as run() does. */
static int plan(const struct hood *h, const struct work *w, struct skiff_sched **out)
{
    int in = h->in, nout = h->out, rc;
    int *src = w->peer, *dst = w->peer + in;
    const struct block *rb = w->b, *sb = w->b + in;
    struct skiff_nbr_xfer *rx = w->x, *sx = w->x + in;
    struct skiff_sched *s = *out = skiff_plan_new(h->c, &rc);
    struct skiff_pk **u = s ? skiff_sched_scratch(s, sizeof *u * (size_t)(in + 1)) : NULL;
    if (s && !u) {
        skiff_sched_free(s);
        *out = NULL;
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for %d neighbours", in);
    }
    if (!u)
        return rc;
    skiff_topo_neighbors(h->c->topo, h->c->rank, src, dst);
    for (int k = 0; k < nout; k++) {
        sx[k] = (struct skiff_nbr_xfer){dst[k], NULL, bytes_of(&sb[k])};
        int again = k > 0 && sb[k].addr == sb[k - 1].addr && sb[k].t == sb[k - 1].t && sb[k].count == sb[k - 1].count &&
                    sx[k - 1].buf; /* allgather: stage once */
        if (dst[k] != MPI_PROC_NULL)
            sx[k].buf = again ? sx[k - 1].buf : skiff_plan_in(s, (const void *)sb[k].addr, sb[k].count, sb[k].t, 0);
    }
    for (int k = 0; k < in; k++) {
        rx[k] = (struct skiff_nbr_xfer){src[k], NULL, bytes_of(&rb[k])};
        u[k] = NULL;
        if (src[k] == MPI_PROC_NULL)
            continue;
        rx[k].buf = skiff_plan_out(s, (void *)rb[k].addr, rb[k].count, rb[k].t, &u[k]);
        skiff_plan_keep(s, u[k], 0, rb[k].count);
    }
    skiff_sched_round(s);
    cart_order(h->c->topo, rx);
    skiff_build_neighbor(s, rx, in, sx, nout);
    for (int k = 0; k < in; k++)
        skiff_plan_unpack(s, u[k]);
    skiff_sched_round(s);
    return MPI_SUCCESS;
}

/* The whole call: checks both sides, then runs it (req NULL: blocking) or plans it into *sched. Returns an
 * MPI error code, not yet raised on comm. */
static int hood_call(MPI_Comm comm, const struct side *s, const struct side *r, struct skiff_request **req,
                     struct skiff_sched **sched)
{
    struct hood h;
    int rc = check_hood(comm, &h);
    if (rc)
        return rc;
    size_t n = (size_t)h.in + (size_t)h.out;
    struct skiff_nbr_xfer x[ON_STACK];
    struct block b[ON_STACK];
    int peer[ON_STACK];
    struct work w = {x, b, peer};
    void *heap = NULL;
    if (n > ON_STACK) {
        if (!(heap = malloc(n * (sizeof *w.x + sizeof *w.b + sizeof *w.peer))))
            return skiff_err(MPI_ERR_NO_MEM, "out of memory for %zu neighbours", n);
        w.x = heap;
        w.b = (struct block *)(void *)(w.x + n);
        w.peer = (int *)(void *)(w.b + n);
    }
    if (!(rc = side_blocks(s, h.out, w.b + h.in)) && !(rc = side_blocks(r, h.in, w.b)))
        rc = sched ? plan(&h, &w, sched) : run(&h, &w, req);
    free(heap);
    return rc;
}

static int neighbor(MPI_Comm comm, const struct side *s, const struct side *r, struct skiff_request **req)
{
    int rc = hood_call(comm, s, r, req, NULL);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

/* The request pointer of a nonblocking call: checked before anything starts, so an error leaks nothing. */
static int start(MPI_Comm comm, const struct side *s, const struct side *r, MPI_Request *request)
{
    struct skiff_request *req = NULL;
    int rc = skiff_check_ptr(request, "request");
    if (rc)
        return skiff_fail(comm, rc);
    if ((rc = neighbor(comm, s, r, &req)))
        return rc;
    *request = skiff_req_handle(req);
    return MPI_SUCCESS;
}

/* The persistent calls: planned once here, replayed by each MPI_Start (coll_persist.c). */
static int persist(MPI_Comm comm, const struct side *s, const struct side *r, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *sched = NULL;
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    rc = hood_call(comm, s, r, NULL, &sched);
    return skiff_persist_make(comm, rc, sched, request);
}

/* ---------------------------------------------------------------- the calls */

static struct side gather_send(const void *buf, MPI_Count count, MPI_Datatype dt)
{
    return (struct side){SAME, buf, count, {0}, {0}, dt, NULL, {"sendbuf", "sendcount", "", ""}};
}

static struct side plain(const void *buf, MPI_Count count, MPI_Datatype dt, int send)
{
    return (struct side){FOLLOW, buf, count, {0}, {0}, dt, NULL,
                         {send ? "sendbuf" : "recvbuf", send ? "sendcount" : "recvcount", "", ""}};
}

static struct side vside(const void *buf, struct skiff_cnts counts, struct skiff_dsps displs, MPI_Datatype dt,
                         int send, const char *displs_name)
{
    return (struct side){V, buf, 0, counts, displs, dt, NULL,
                         {send ? "sendbuf" : "recvbuf", send ? "sendcounts" : "recvcounts", displs_name, ""}};
}

static struct side wside(const void *buf, struct skiff_cnts counts, const MPI_Aint *displs, const MPI_Datatype *dts,
                         int send)
{
    return (struct side){W, buf, 0, counts, skiff_ldsps(displs), MPI_DATATYPE_NULL, dts,
                         {send ? "sendbuf" : "recvbuf", send ? "sendcounts" : "recvcounts",
                          send ? "sdispls" : "rdispls", send ? "sendtypes" : "recvtypes"}};
}

/* The body of MPI_Neighbor_allgather and MPI_Neighbor_allgather_c. */
static int neighbor_allgather_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Neighbor_allgather, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(sendcount, sendtype));
    struct side s = gather_send(sendbuf, sendcount, sendtype), r = plain(recvbuf, recvcount, recvtype, 0);
    return neighbor(comm, &s, &r, NULL);
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_allgather_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
SKIFF_ALIAS(MPI_Neighbor_allgather)

int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_allgather_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
SKIFF_ALIAS(MPI_Neighbor_allgather_c)

/* The body of MPI_Ineighbor_allgather and MPI_Ineighbor_allgather_c. */
static int ineighbor_allgather_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Request *request)
{
    SKIFF_ENTER_TWIN(MPI_Ineighbor_allgather, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(sendcount, sendtype));
    struct side s = gather_send(sendbuf, sendcount, sendtype), r = plain(recvbuf, recvcount, recvtype, 0);
    return start(comm, &s, &r, request);
}

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return ineighbor_allgather_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ineighbor_allgather)

int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return ineighbor_allgather_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ineighbor_allgather_c)

/* The body of MPI_Neighbor_allgatherv (int arrays) and MPI_Neighbor_allgatherv_c (large). */
static int neighbor_allgatherv_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, struct skiff_cnts recvcounts, struct skiff_dsps displs,
                                    MPI_Datatype recvtype, MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Neighbor_allgatherv, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(sendcount, sendtype));
    struct side s = gather_send(sendbuf, sendcount, sendtype),
                r = vside(recvbuf, recvcounts, displs, recvtype, 0, "displs");
    return neighbor(comm, &s, &r, NULL);
}

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_allgatherv_call(0, sendbuf, sendcount, sendtype, recvbuf, skiff_icnts(recvcounts),
                                    skiff_idsps(displs), recvtype, comm);
}
SKIFF_ALIAS(MPI_Neighbor_allgatherv)

int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    return neighbor_allgatherv_call(1, sendbuf, sendcount, sendtype, recvbuf, skiff_lcnts(recvcounts),
                                    skiff_ldsps(displs), recvtype, comm);
}
SKIFF_ALIAS(MPI_Neighbor_allgatherv_c)

/* The body of MPI_Ineighbor_allgatherv (int arrays) and MPI_Ineighbor_allgatherv_c (large). */
static int ineighbor_allgatherv_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                     void *recvbuf, struct skiff_cnts recvcounts, struct skiff_dsps displs,
                                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    SKIFF_ENTER_TWIN(MPI_Ineighbor_allgatherv, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(sendcount, sendtype));
    struct side s = gather_send(sendbuf, sendcount, sendtype),
                r = vside(recvbuf, recvcounts, displs, recvtype, 0, "displs");
    return start(comm, &s, &r, request);
}

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    return ineighbor_allgatherv_call(0, sendbuf, sendcount, sendtype, recvbuf, skiff_icnts(recvcounts),
                                     skiff_idsps(displs), recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ineighbor_allgatherv)

int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request)
{
    return ineighbor_allgatherv_call(1, sendbuf, sendcount, sendtype, recvbuf, skiff_lcnts(recvcounts),
                                     skiff_ldsps(displs), recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ineighbor_allgatherv_c)

/* The body of MPI_Neighbor_alltoall and MPI_Neighbor_alltoall_c. */
static int neighbor_alltoall_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Neighbor_alltoall, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(sendcount, sendtype));
    struct side s = plain(sendbuf, sendcount, sendtype, 1), r = plain(recvbuf, recvcount, recvtype, 0);
    return neighbor(comm, &s, &r, NULL);
}

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_alltoall_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
SKIFF_ALIAS(MPI_Neighbor_alltoall)

int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_alltoall_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
SKIFF_ALIAS(MPI_Neighbor_alltoall_c)

/* The body of MPI_Ineighbor_alltoall and MPI_Ineighbor_alltoall_c. */
static int ineighbor_alltoall_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Request *request)
{
    SKIFF_ENTER_TWIN(MPI_Ineighbor_alltoall, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(sendcount, sendtype));
    struct side s = plain(sendbuf, sendcount, sendtype, 1), r = plain(recvbuf, recvcount, recvtype, 0);
    return start(comm, &s, &r, request);
}

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return ineighbor_alltoall_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ineighbor_alltoall)

int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return ineighbor_alltoall_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ineighbor_alltoall_c)

/* The body of MPI_Neighbor_alltoallv (int arrays) and MPI_Neighbor_alltoallv_c (large). */
static int neighbor_alltoallv_call(int large, const void *sendbuf, struct skiff_cnts sendcounts,
                                   struct skiff_dsps sdispls, MPI_Datatype sendtype, void *recvbuf,
                                   struct skiff_cnts recvcounts, struct skiff_dsps rdispls, MPI_Datatype recvtype,
                                   MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Neighbor_alltoallv, large);
    SKIFF_REQUIRE_INIT();
    struct side s = vside(sendbuf, sendcounts, sdispls, sendtype, 1, "sdispls"),
                r = vside(recvbuf, recvcounts, rdispls, recvtype, 0, "rdispls");
    return neighbor(comm, &s, &r, NULL);
}

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    return neighbor_alltoallv_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(sdispls), sendtype, recvbuf,
                                   skiff_icnts(recvcounts), skiff_idsps(rdispls), recvtype, comm);
}
SKIFF_ALIAS(MPI_Neighbor_alltoallv)

int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_alltoallv_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(sdispls), sendtype, recvbuf,
                                   skiff_lcnts(recvcounts), skiff_ldsps(rdispls), recvtype, comm);
}
SKIFF_ALIAS(MPI_Neighbor_alltoallv_c)

/* The body of MPI_Ineighbor_alltoallv (int arrays) and MPI_Ineighbor_alltoallv_c (large). */
static int ineighbor_alltoallv_call(int large, const void *sendbuf, struct skiff_cnts sendcounts,
                                    struct skiff_dsps sdispls, MPI_Datatype sendtype, void *recvbuf,
                                    struct skiff_cnts recvcounts, struct skiff_dsps rdispls, MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Request *request)
{
    SKIFF_ENTER_TWIN(MPI_Ineighbor_alltoallv, large);
    SKIFF_REQUIRE_INIT();
    struct side s = vside(sendbuf, sendcounts, sdispls, sendtype, 1, "sdispls"),
                r = vside(recvbuf, recvcounts, rdispls, recvtype, 0, "rdispls");
    return start(comm, &s, &r, request);
}

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    return ineighbor_alltoallv_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(sdispls), sendtype, recvbuf,
                                    skiff_icnts(recvcounts), skiff_idsps(rdispls), recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ineighbor_alltoallv)

int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return ineighbor_alltoallv_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(sdispls), sendtype, recvbuf,
                                    skiff_lcnts(recvcounts), skiff_ldsps(rdispls), recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ineighbor_alltoallv_c)

/* The body of MPI_Neighbor_alltoallw (int counts) and MPI_Neighbor_alltoallw_c (large), both with MPI_Aint
 * displacements. */
static int neighbor_alltoallw_call(int large, const void *sendbuf, struct skiff_cnts sendcounts,
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                   struct skiff_cnts recvcounts, const MPI_Aint rdispls[],
                                   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Neighbor_alltoallw, large);
    SKIFF_REQUIRE_INIT();
    struct side s = wside(sendbuf, sendcounts, sdispls, sendtypes, 1),
                r = wside(recvbuf, recvcounts, rdispls, recvtypes, 0);
    return neighbor(comm, &s, &r, NULL);
}

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return neighbor_alltoallw_call(0, sendbuf, skiff_icnts(sendcounts), sdispls, sendtypes, recvbuf,
                                   skiff_icnts(recvcounts), rdispls, recvtypes, comm);
}
SKIFF_ALIAS(MPI_Neighbor_alltoallw)

int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return neighbor_alltoallw_call(1, sendbuf, skiff_lcnts(sendcounts), sdispls, sendtypes, recvbuf,
                                   skiff_lcnts(recvcounts), rdispls, recvtypes, comm);
}
SKIFF_ALIAS(MPI_Neighbor_alltoallw_c)

/* The body of MPI_Ineighbor_alltoallw (int counts) and MPI_Ineighbor_alltoallw_c (large), both with MPI_Aint
 * displacements. */
static int ineighbor_alltoallw_call(int large, const void *sendbuf, struct skiff_cnts sendcounts,
                                    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                    struct skiff_cnts recvcounts, const MPI_Aint rdispls[],
                                    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    SKIFF_ENTER_TWIN(MPI_Ineighbor_alltoallw, large);
    SKIFF_REQUIRE_INIT();
    struct side s = wside(sendbuf, sendcounts, sdispls, sendtypes, 1),
                r = wside(recvbuf, recvcounts, rdispls, recvtypes, 0);
    return start(comm, &s, &r, request);
}

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request *request)
{
    return ineighbor_alltoallw_call(0, sendbuf, skiff_icnts(sendcounts), sdispls, sendtypes, recvbuf,
                                    skiff_icnts(recvcounts), rdispls, recvtypes, comm, request);
}
SKIFF_ALIAS(MPI_Ineighbor_alltoallw)

int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request)
{
    return ineighbor_alltoallw_call(1, sendbuf, skiff_lcnts(sendcounts), sdispls, sendtypes, recvbuf,
                                    skiff_lcnts(recvcounts), rdispls, recvtypes, comm, request);
}
SKIFF_ALIAS(MPI_Ineighbor_alltoallw_c)

/* The body of MPI_Neighbor_allgather_init and MPI_Neighbor_allgather_init_c. */
static int neighbor_allgather_init_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Info info, MPI_Request *request)
{
    SKIFF_ENTER_TWIN(MPI_Neighbor_allgather_init, large);
    SKIFF_REQUIRE_INIT();
    struct side s = gather_send(sendbuf, sendcount, sendtype), r = plain(recvbuf, recvcount, recvtype, 0);
    return persist(comm, &s, &r, info, request);
}

int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    return neighbor_allgather_init_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info,
                                        request);
}
SKIFF_ALIAS(MPI_Neighbor_allgather_init)

int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    return neighbor_allgather_init_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info,
                                        request);
}
SKIFF_ALIAS(MPI_Neighbor_allgather_init_c)

/* The body of MPI_Neighbor_allgatherv_init (int arrays) and MPI_Neighbor_allgatherv_init_c (large). */
static int neighbor_allgatherv_init_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                         void *recvbuf, struct skiff_cnts recvcounts, struct skiff_dsps displs,
                                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    SKIFF_ENTER_TWIN(MPI_Neighbor_allgatherv_init, large);
    SKIFF_REQUIRE_INIT();
    struct side s = gather_send(sendbuf, sendcount, sendtype),
                r = vside(recvbuf, recvcounts, displs, recvtype, 0, "displs");
    return persist(comm, &s, &r, info, request);
}

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request)
{
    return neighbor_allgatherv_init_call(0, sendbuf, sendcount, sendtype, recvbuf, skiff_icnts(recvcounts),
                                         skiff_idsps(displs), recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Neighbor_allgatherv_init)

int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return neighbor_allgatherv_init_call(1, sendbuf, sendcount, sendtype, recvbuf, skiff_lcnts(recvcounts),
                                         skiff_ldsps(displs), recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Neighbor_allgatherv_init_c)

/* The body of MPI_Neighbor_alltoall_init and MPI_Neighbor_alltoall_init_c. */
static int neighbor_alltoall_init_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                       MPI_Info info, MPI_Request *request)
{
    SKIFF_ENTER_TWIN(MPI_Neighbor_alltoall_init, large);
    SKIFF_REQUIRE_INIT();
    struct side s = plain(sendbuf, sendcount, sendtype, 1), r = plain(recvbuf, recvcount, recvtype, 0);
    return persist(comm, &s, &r, info, request);
}

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    return neighbor_alltoall_init_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info,
                                       request);
}
SKIFF_ALIAS(MPI_Neighbor_alltoall_init)

int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    return neighbor_alltoall_init_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info,
                                       request);
}
SKIFF_ALIAS(MPI_Neighbor_alltoall_init_c)

/* The body of MPI_Neighbor_alltoallv_init (int arrays) and MPI_Neighbor_alltoallv_init_c (large). */
static int neighbor_alltoallv_init_call(int large, const void *sendbuf, struct skiff_cnts sendcounts,
                                        struct skiff_dsps sdispls, MPI_Datatype sendtype, void *recvbuf,
                                        struct skiff_cnts recvcounts, struct skiff_dsps rdispls, MPI_Datatype recvtype,
                                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    SKIFF_ENTER_TWIN(MPI_Neighbor_alltoallv_init, large);
    SKIFF_REQUIRE_INIT();
    struct side s = vside(sendbuf, sendcounts, sdispls, sendtype, 1, "sdispls"),
                r = vside(recvbuf, recvcounts, rdispls, recvtype, 0, "rdispls");
    return persist(comm, &s, &r, info, request);
}

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return neighbor_alltoallv_init_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(sdispls), sendtype, recvbuf,
                                        skiff_icnts(recvcounts), skiff_idsps(rdispls), recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Neighbor_alltoallv_init)

int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    return neighbor_alltoallv_init_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(sdispls), sendtype, recvbuf,
                                        skiff_lcnts(recvcounts), skiff_ldsps(rdispls), recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Neighbor_alltoallv_init_c)

/* The body of MPI_Neighbor_alltoallw_init (int counts) and MPI_Neighbor_alltoallw_init_c (large), both with MPI_Aint
 * displacements. */
static int neighbor_alltoallw_init_call(int large, const void *sendbuf, struct skiff_cnts sendcounts,
                                        const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                        struct skiff_cnts recvcounts, const MPI_Aint rdispls[],
                                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                        MPI_Request *request)
{
    SKIFF_ENTER_TWIN(MPI_Neighbor_alltoallw_init, large);
    SKIFF_REQUIRE_INIT();
    struct side s = wside(sendbuf, sendcounts, sdispls, sendtypes, 1),
                r = wside(recvbuf, recvcounts, rdispls, recvtypes, 0);
    return persist(comm, &s, &r, info, request);
}

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    return neighbor_alltoallw_init_call(0, sendbuf, skiff_icnts(sendcounts), sdispls, sendtypes, recvbuf,
                                        skiff_icnts(recvcounts), rdispls, recvtypes, comm, info, request);
}
SKIFF_ALIAS(MPI_Neighbor_alltoallw_init)

int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    return neighbor_alltoallw_init_call(1, sendbuf, skiff_lcnts(sendcounts), sdispls, sendtypes, recvbuf,
                                        skiff_lcnts(recvcounts), rdispls, recvtypes, comm, info, request);
}
SKIFF_ALIAS(MPI_Neighbor_alltoallw_init_c)
