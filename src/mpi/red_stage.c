/* Staging of reductions on non-contiguous datatypes (see red_stage.h). */
#include "mpi/red_stage.h"

#include <stdlib.h>

#include "core/error.h"

static void gather(struct skiff_red_pk *p)
{
    if (p->b->contiguous) {
        skiff_type_pack(p->user, p->n, p->t, p->data);
        return;
    }
    skiff_type_pack(p->user, p->n, p->t, p->tmp);
    skiff_type_unpack(p->tmp, skiff_type_packed_size(p->t, p->n), p->data, p->n * p->scale, p->b);
}

static void scatter(struct skiff_red_pk *p)
{
    size_t bytes = skiff_type_packed_size(p->t, p->n);
    if (p->b->contiguous) {
        skiff_type_unpack(p->data, bytes, p->user, p->n, p->t);
        return;
    }
    skiff_type_pack(p->data, p->n * p->scale, p->b, p->tmp);
    skiff_type_unpack(p->tmp, bytes, p->user, p->n, p->t);
}

static void gather_step(void *arg)
{
    gather(arg);
}

static void scatter_step(void *arg)
{
    scatter(arg);
}

/* The sizes of a staging: basic arrays for nin and nout elements, and the packed bytes between. */
struct layout {
    const struct skiff_type *b;
    size_t nin, nout, din, dout, tmp;
};

static struct layout layout_of(const struct skiff_red *red, int in_place, size_t in, size_t out)
{
    struct layout l = {skiff_type_get(red->dt), in_place ? 0 : in, in_place && in > out ? in : out, 0, 0, 0};
    size_t per = red->scale * (size_t)l.b->extent; /* a basic type's extent is a multiple of its alignment */
    l.din = l.nin * per;
    l.dout = l.nout * per;
    l.tmp = l.b->contiguous ? 0 : skiff_type_packed_size(red->t, l.nin > l.nout ? l.nin : l.nout);
    return l;
}

static struct skiff_red_pk pk(const struct skiff_red *red, const struct layout *l, const void *user, size_t n,
                              char *data, char *tmp)
{
    return (struct skiff_red_pk){(char *)user, n, red->scale, data, tmp, red->t, l->b};
}

int skiff_red_stage(struct skiff_red *red, const void **sendbuf, void **recvbuf, size_t in, size_t out, int keep,
                    struct skiff_red_stage *st)
{
    int in_place = *sendbuf == MPI_IN_PLACE;
    struct layout l = layout_of(red, in_place, in, out);
    char *mem = malloc(l.din + l.dout + l.tmp + 1);
    if (!mem)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes to stage a reduction on a non-contiguous "
                         "datatype", l.din + l.dout + l.tmp);
    char *tmp = mem + l.din + l.dout;
    struct skiff_red_pk pin = pk(red, &l, *sendbuf, l.nin, mem, tmp);
    st->mem = mem;
    st->out = pk(red, &l, *recvbuf, l.nout, mem + l.din, tmp);
    if (l.nin)
        gather(&pin);
    if ((in_place || keep) && l.nout)
        gather(&st->out);
    st->out.n = out;
    if (!in_place)
        *sendbuf = pin.data;
    *recvbuf = st->out.data;
    red->shift = 0;
    return MPI_SUCCESS;
}

void skiff_red_unstage(struct skiff_red_stage *st, int ok)
{
    if (ok && st->out.n)
        scatter(&st->out);
    free(st->mem);
}

void skiff_red_plan(struct skiff_sched *s, struct skiff_red *red, const void **sendbuf, void **recvbuf, size_t in,
                    size_t out, int keep, struct skiff_red_pk **u)
{
    int in_place = *sendbuf == MPI_IN_PLACE;
    struct layout l = layout_of(red, in_place, in, out);
    char *mem = skiff_sched_scratch(s, l.din + l.dout + l.tmp + 1);
    struct skiff_red_pk *p = skiff_sched_scratch(s, 3 * sizeof *p);
    char *tmp = mem + l.din + l.dout;
    skiff_sched_hold_type(s, red->t); /* the user may free it while the schedule lives */
    p[0] = pk(red, &l, *sendbuf, l.nin, mem, tmp);
    p[1] = pk(red, &l, *recvbuf, l.nout, mem + l.din, tmp);
    p[2] = pk(red, &l, *recvbuf, out, mem + l.din, tmp); /* the result: maybe fewer than were gathered */
    if (l.nin)
        skiff_sched_call(s, gather_step, &p[0]);
    if ((in_place || keep) && l.nout)
        skiff_sched_call(s, gather_step, &p[1]);
    skiff_sched_round(s);
    *u = out ? &p[2] : NULL;
    if (!in_place)
        *sendbuf = p[0].data;
    *recvbuf = p[1].data;
    red->shift = 0;
}

void skiff_red_plan_done(struct skiff_sched *s, struct skiff_red_pk *u)
{
    if (!u)
        return;
    skiff_sched_round(s);
    skiff_sched_call(s, scatter_step, u);
    skiff_sched_round(s);
}
