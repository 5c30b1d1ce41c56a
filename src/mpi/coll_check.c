#include "mpi/coll_check.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/op.h"
#include "mpi/mpi_impl.h"

int skiff_ck_block(MPI_Count count, MPI_Datatype dt, const struct skiff_type **t)
{
    int rc = skiff_check_count(count);
    return rc ? rc : skiff_check_dtype(dt, 1, t);
}

int skiff_ck_side(const void *buf, MPI_Count count, MPI_Datatype dt, const char *name, const struct skiff_type **t)
{
    int rc = skiff_ck_block(count, dt, t);
    return rc ? rc : skiff_check_named_buf(buf, (size_t)count, *t, name);
}

int skiff_ck_root(const struct skiff_comm *c, int root)
{
    if (SKIFF_LIKELY(root >= 0 && root < c->size))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ROOT, "invalid root %d (communicator %s has %d ranks)", root, skiff_comm_label(c),
                     c->size);
}

int skiff_ck_alias(const void *a, const void *b, int nonempty, const char *names, const char *fix)
{
    if (SKIFF_LIKELY(a != b || !a || !nonempty))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_BUFFER, "%s are the same address %p: %s", names, a, fix);
}

int skiff_ck_rooted(MPI_Comm comm, int root, const void *own, const void *all, int scatter, struct skiff_rooted *x)
{
    const char *own_name = scatter ? "recvbuf" : "sendbuf", *all_name = scatter ? "sendbuf" : "recvbuf";
    int rc = skiff_check_comm(comm, &x->c);
    if (!rc)
        rc = skiff_ck_root(x->c, root);
    if (rc)
        return rc;
    x->is_root = x->c->rank == root;
    x->in_place = own == MPI_IN_PLACE;
    if (SKIFF_UNLIKELY(x->in_place && !x->is_root))
        return skiff_err(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which only the root (rank %d) may give; this is rank %d",
                         own_name, root, x->c->rank);
    if (SKIFF_UNLIKELY(x->is_root && all == MPI_IN_PLACE))
        return skiff_err(MPI_ERR_BUFFER, "%s cannot be MPI_IN_PLACE; at the root pass MPI_IN_PLACE as %s", all_name,
                         own_name);
    return MPI_SUCCESS;
}

int skiff_ck_reduction(MPI_Count count, MPI_Datatype dt, MPI_Op op, struct skiff_red *red)
{
    const struct skiff_type *t = NULL;
    int rc = skiff_ck_block(count, dt, &t);
    if (!rc)
        rc = skiff_op_check(op, dt);
    if (rc)
        return rc;
    /* A predefined op reduces the basic elements of any derived type (staged when not contiguous,
     * mpi/red_stage.h); a user op sees the user's layout, gaps and all, which the algorithms' byte copies
     * would overwrite. */
    if (SKIFF_UNLIKELY(!t->contiguous && !t->predefined && skiff_op_user(op)))
        return skiff_err(MPI_ERR_UNSUPPORTED_OPERATION, "skiff applies a user-defined op only to contiguous "
                         "datatypes, and this derived one has %zu bytes of data in an extent of %td (a limitation "
                         "of skiff, not an error of the program)", t->size, t->extent);
    int basic = !t->predefined && !skiff_op_user(op);
    size_t scale = basic ? t->nbasic : 1;
    *red = (struct skiff_red){(size_t)count * scale, basic ? t->basic : dt, t->true_lb, t, scale};
    return MPI_SUCCESS;
}

int skiff_ck_red_bufs(const void *sendbuf, const void *recvbuf, size_t in, size_t out, const struct skiff_red *red)
{
    int rc = skiff_check_not_in_place(recvbuf, "recvbuf");
    if (!rc && sendbuf == MPI_IN_PLACE)
        return skiff_check_named_buf(recvbuf, in > out ? in : out, red->t, "recvbuf");
    if (!rc)
        rc = skiff_check_named_buf(sendbuf, in, red->t, "sendbuf");
    if (!rc)
        rc = skiff_check_named_buf(recvbuf, out, red->t, "recvbuf");
    return rc ? rc : skiff_ck_alias(sendbuf, recvbuf, in && out, SEND_RECV, FIX_SENDBUF);
}

int skiff_ck_each_reduces(const void *sendbuf, const void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                          MPI_Comm comm, struct skiff_comm **c, struct skiff_red *red)
{
    int rc;
    if ((rc = skiff_check_comm(comm, c)) || (rc = skiff_ck_reduction(count, dt, op, red)))
        return rc;
    return skiff_ck_red_bufs(sendbuf, recvbuf, (size_t)count, (size_t)count, red);
}

const void *skiff_red_input(const void *sendbuf, const void *recvbuf, const struct skiff_red *red)
{
    return skiff_shifted(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, red);
}

int skiff_ck_match(size_t sent, size_t expected, enum skiff_vcounts v, int i)
{
    if (SKIFF_LIKELY(sent == expected))
        return MPI_SUCCESS;
    char s[32] = "sendcount", r[32] = "recvcount";
    if (v != V_NONE)
        snprintf(v == V_SEND ? s : r, sizeof s, "%s[%d]", v == V_SEND ? "sendcounts" : "recvcounts", i);
    return skiff_err(MPI_ERR_TRUNCATE, "%s and sendtype give %zu bytes, %s and recvtype %zu bytes (the type "
                     "signatures must match)", s, sent, r, expected);
}

int skiff_ck_vside(struct skiff_vside *v, int n, const char *buf_name, const char *counts_name,
                   const char *displs_name)
{
    int rc = skiff_check_cnts(n, v->counts, counts_name, &v->total);
    if (!rc)
        rc = skiff_check_array(n, skiff_dsps_ptr(v->displs), displs_name);
    if (!rc)
        rc = skiff_check_dtype(v->dt, 1, &v->t);
    return rc ? rc : skiff_check_named_buf(v->buf, v->total, v->t, buf_name);
}

static int root_blocks(struct skiff_side *all, struct skiff_vside *v, const struct skiff_comm *c, int scatter,
                       MPI_Count *mine)
{
    const char *name = scatter ? "sendbuf" : "recvbuf";
    int rc;
    if (v) {
        rc = skiff_ck_vside(v, c->size, name, scatter ? "sendcounts" : "recvcounts", "displs");
        all->t = v->t;
        *mine = rc ? 0 : skiff_cnt_at(v->counts, c->rank);
        return rc;
    }
    *mine = all->count;
    rc = skiff_ck_block(all->count, all->dt, &all->t);
    return rc ? rc : skiff_check_named_buf(all->buf, (size_t)all->count * (size_t)c->size, all->t, name);
}

int skiff_ck_rooted_blocks(struct skiff_side *own, struct skiff_side *all, struct skiff_vside *v, int root,
                           MPI_Comm comm, int scatter, struct skiff_rooted *x)
{
    MPI_Count mine = 0;
    int rc = skiff_ck_rooted(comm, root, own->buf, all->buf, scatter, x);
    if (!rc && !x->in_place)
        rc = skiff_ck_side(own->buf, own->count, own->dt, scatter ? "recvbuf" : "sendbuf", &own->t);
    if (rc || !x->is_root)
        return rc;
    rc = root_blocks(all, v, x->c, scatter, &mine);
    if (rc || x->in_place)
        return rc;
    rc = skiff_ck_alias(own->buf, all->buf, own->count > 0 && mine > 0, SEND_RECV, scatter ? FIX_RECVBUF : FIX_SENDBUF);
    if (rc)
        return rc;
    size_t own_bytes = skiff_packed(own->t, own->count), root_bytes = skiff_packed(all->t, mine);
    enum skiff_vcounts vc = !v ? V_NONE : scatter ? V_SEND : V_RECV;
    return scatter ? skiff_ck_match(root_bytes, own_bytes, vc, x->c->rank)
                   : skiff_ck_match(own_bytes, root_bytes, vc, x->c->rank);
}

int skiff_ck_all_blocks(struct skiff_side *s, struct skiff_side *r, MPI_Comm comm, struct skiff_comm **c)
{
    int rc = skiff_check_comm(comm, c);
    if (!rc)
        rc = skiff_check_not_in_place(r->buf, "recvbuf");
    if (!rc)
        rc = skiff_ck_side(r->buf, r->count, r->dt, "recvbuf", &r->t);
    if (rc || s->buf == MPI_IN_PLACE)
        return rc;
    rc = skiff_ck_side(s->buf, s->count, s->dt, "sendbuf", &s->t);
    if (!rc)
        rc = skiff_ck_alias(s->buf, r->buf, s->count > 0 && r->count > 0, SEND_RECV, FIX_SENDBUF);
    return rc ? rc : skiff_ck_match(skiff_packed(s->t, s->count), skiff_packed(r->t, r->count), V_NONE, 0);
}

int skiff_ck_request(MPI_Comm comm, const MPI_Request *request)
{
    int rc = skiff_check_ptr(request, "request");
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

size_t skiff_prof_block(const void *a, MPI_Count acount, MPI_Datatype atype, MPI_Count bcount, MPI_Datatype btype)
{
    return a == MPI_IN_PLACE ? skiff_prof_bytes(bcount, btype) : skiff_prof_bytes(acount, atype);
}

int skiff_ck_vrecv(struct skiff_vside *r, const char *displs_name, MPI_Comm comm, struct skiff_comm **c)
{
    int rc = skiff_check_comm(comm, c);
    if (!rc)
        rc = skiff_check_not_in_place(r->buf, "recvbuf");
    return rc ? rc : skiff_ck_vside(r, (*c)->size, "recvbuf", "recvcounts", displs_name);
}

int skiff_ck_allgatherv(struct skiff_side *s, struct skiff_vside *r, MPI_Comm comm, struct skiff_comm **c)
{
    int rc = skiff_ck_vrecv(r, "displs", comm, c);
    if (rc || s->buf == MPI_IN_PLACE)
        return rc;
    rc = skiff_ck_side(s->buf, s->count, s->dt, "sendbuf", &s->t);
    if (!rc)
        rc = skiff_ck_alias(s->buf, r->buf, s->count > 0 && r->total > 0, SEND_RECV, FIX_SENDBUF);
    int me = (*c)->rank;
    size_t mine = skiff_packed(r->t, skiff_cnt_at(r->counts, me));
    return rc ? rc : skiff_ck_match(skiff_packed(s->t, s->count), mine, V_RECV, me);
}

int skiff_ck_alltoallv(struct skiff_vside *s, struct skiff_vside *r, MPI_Comm comm, struct skiff_comm **c)
{
    int rc = skiff_ck_vrecv(r, "rdispls", comm, c);
    if (rc || s->buf == MPI_IN_PLACE)
        return rc;
    rc = skiff_ck_vside(s, (*c)->size, "sendbuf", "sendcounts", "sdispls");
    return rc ? rc : skiff_ck_alias(s->buf, r->buf, s->total > 0 && r->total > 0, SEND_RECV, FIX_SENDBUF);
}

int skiff_check_cnts(int n, struct skiff_cnts a, const char *name, size_t *total)
{
    return a.l ? skiff_check_lcounts(n, a.l, name, total) : skiff_check_counts(n, a.i, name, total);
}

size_t skiff_prof_cnts(struct skiff_cnts counts, MPI_Datatype dt, MPI_Comm comm)
{
    return counts.l ? skiff_prof_vbytes_c(counts.l, dt, comm) : skiff_prof_vbytes(counts.i, dt, comm);
}

size_t skiff_prof_own_cnt(struct skiff_cnts counts, MPI_Datatype dt, MPI_Comm comm)
{
    const struct skiff_comm *c = skiff_comm_get(comm);
    return skiff_cnts_ptr(counts) && c ? skiff_prof_bytes(skiff_cnt_at(counts, c->rank), dt) : 0;
}

int skiff_widen_counts(const int *counts, int n, MPI_Count **out)
{
    *out = NULL;
    if (!counts)
        return MPI_SUCCESS;
    if (!(*out = malloc(sizeof **out * (size_t)(n > 0 ? n : 1))))
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for %d counts", n);
    for (int i = 0; i < n; i++)
        (*out)[i] = counts[i];
    return MPI_SUCCESS;
}

int skiff_ck_reduce_scatter(const void *sendbuf, const void *recvbuf, const MPI_Count counts[], MPI_Count block,
                            MPI_Datatype dt, MPI_Op op, const struct skiff_comm *c, struct skiff_red *red)
{
    size_t total = (size_t)block * (size_t)c->size;
    int rc = counts ? skiff_check_lcounts(c->size, counts, "recvcounts", &total) : skiff_check_count(block);
    if (!rc)
        rc = skiff_ck_reduction(0, dt, op, red);
    if (rc)
        return rc;
    size_t mine = counts ? (size_t)counts[c->rank] : (size_t)block;
    return skiff_ck_red_bufs(sendbuf, recvbuf, total, mine, red);
}
