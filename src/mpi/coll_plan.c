#include "mpi/coll_plan.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mpi/mpi_impl.h"

static void pack_step(void *arg)
{
    struct skiff_pk *p = arg;
    skiff_type_pack(p->user, p->count, p->t, p->packed);
}

static void unpack_step(void *arg)
{
    struct skiff_pk *p = arg;
    skiff_type_unpack(p->packed, skiff_type_packed_size(p->t, p->count), p->user, p->count, p->t);
}

static struct skiff_pk *new_pk(struct skiff_sched *s, const void *buf, size_t count, const struct skiff_type *t)
{
    size_t bytes = skiff_type_packed_size(t, count);
    struct skiff_pk *p = skiff_sched_scratch(s, sizeof *p + bytes);
    *p = (struct skiff_pk){(char *)buf, count, t, (char *)(p + 1)};
    skiff_sched_hold_type(s, t);
    return p;
}

char *skiff_plan_in(struct skiff_sched *s, const void *buf, size_t count, const struct skiff_type *t, int copy)
{
    if (t->contiguous && !copy)
        return skiff_type_data(buf, t);
    struct skiff_pk *p = new_pk(s, buf, count, t);
    skiff_sched_call(s, pack_step, p);
    return p->packed;
}

char *skiff_plan_out(struct skiff_sched *s, void *buf, size_t count, const struct skiff_type *t,
                     struct skiff_pk **u)
{
    *u = NULL;
    if (t->contiguous)
        return skiff_type_data(buf, t);
    *u = new_pk(s, buf, count, t);
    return (*u)->packed;
}

void skiff_plan_keep(struct skiff_sched *s, struct skiff_pk *u, int keep, size_t block_count)
{
    if (!u)
        return;
    struct skiff_pk *p = skiff_sched_scratch(s, sizeof *p);
    *p = (struct skiff_pk){u->user + (ptrdiff_t)((size_t)keep * block_count) * u->t->extent, block_count, u->t,
                           u->packed + (size_t)keep * skiff_type_packed_size(u->t, block_count)};
    skiff_sched_call(s, pack_step, p);
}

void skiff_plan_unpack(struct skiff_sched *s, struct skiff_pk *u)
{
    if (u)
        skiff_sched_call(s, unpack_step, u);
}

void skiff_plan_out_done(struct skiff_sched *s, struct skiff_pk *u)
{
    if (!u)
        return;
    skiff_sched_round(s); /* after everything the algorithm does */
    skiff_plan_unpack(s, u);
    skiff_sched_round(s);
}

void skiff_plan_v(struct skiff_sched *s, struct skiff_vplan *v, const void *buf, struct skiff_cnts counts,
                  struct skiff_dsps displs, const struct skiff_type *t, int mode, int keep)
{
    int n = s->comm->peers; /* a block per process of the remote group on an intercommunicator */
    *v = (struct skiff_vplan){NULL, skiff_sched_scratch(s, 2 * (size_t)n * sizeof(size_t)), NULL, NULL, n};
    v->bd = v->bc + n;
    int direct = t->contiguous && mode != 2;
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        v->bc[i] = skiff_type_packed_size(t, (size_t)skiff_cnt_at(counts, i));
        v->bd[i] = direct ? (size_t)((ptrdiff_t)skiff_dsp_at(displs, i) * t->extent) : total;
        total += v->bc[i];
    }
    if (direct) {
        v->data = skiff_type_data(buf, t);
        return;
    }
    v->data = skiff_sched_scratch(s, total);
    v->pk = skiff_sched_scratch(s, (size_t)n * sizeof *v->pk);
    skiff_sched_hold_type(s, t);
    for (int i = 0; i < n; i++) {
        v->pk[i] = (struct skiff_pk){(char *)buf + (ptrdiff_t)skiff_dsp_at(displs, i) * t->extent,
                                     (size_t)skiff_cnt_at(counts, i), t, v->data + v->bd[i]};
        if (mode == 1 || mode == 2 || (mode == 3 && i == keep))
            skiff_sched_call(s, pack_step, &v->pk[i]);
    }
    if (mode == 1 || mode == 2)
        v->pk = NULL; /* nothing to unpack */
}

void skiff_plan_v_done(struct skiff_sched *s, const struct skiff_vplan *v)
{
    if (!v->pk)
        return;
    skiff_sched_round(s);
    for (int i = 0; i < v->n; i++)
        skiff_sched_call(s, unpack_step, &v->pk[i]);
    skiff_sched_round(s);
}

int skiff_blocking_run(MPI_Comm comm, int rc, struct skiff_sched *s)
{
    if (!rc) {
        rc = skiff_sched_run(s, NULL);
        free(s);
    }
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

struct skiff_sched *skiff_plan_new_any(struct skiff_comm *c, int *rc)
{
    struct skiff_sched *s = skiff_sched_new(c);
    *rc = s ? MPI_SUCCESS : skiff_err(MPI_ERR_NO_MEM, "out of memory for a collective schedule");
    return s;
}

/* The planners of coll_plan_calls.c build intracommunicator algorithms; intercommunicators have their own
 * (inter_coll.c). */
struct skiff_sched *skiff_plan_new(struct skiff_comm *c, int *rc)
{
    if ((*rc = skiff_check_intra(c)) != MPI_SUCCESS)
        return NULL;
    return skiff_plan_new_any(c, rc);
}
