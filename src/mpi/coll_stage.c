#include "mpi/coll_stage.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

int skiff_stage_send(struct skiff_stage *s, const void *buf, size_t count, const struct skiff_type *t)
{
    *s = (struct skiff_stage){NULL, NULL, (void *)buf, count, t};
    if (t->contiguous) {
        s->data = skiff_type_data(buf, t);
        return MPI_SUCCESS;
    }
    size_t bytes = skiff_type_packed_size(t, count);
    if (!(s->tmp = malloc(bytes ? bytes : 1)))
        return skiff_err(MPI_ERR_NO_MEM, "cannot pack %zu bytes", bytes);
    skiff_type_pack(buf, count, t, s->tmp);
    s->data = s->tmp;
    return MPI_SUCCESS;
}

int skiff_stage_recv(struct skiff_stage *s, void *buf, size_t count, const struct skiff_type *t, int keep,
                     size_t block_count)
{
    *s = (struct skiff_stage){NULL, NULL, buf, count, t};
    if (t->contiguous) {
        s->data = skiff_type_data(buf, t);
        return MPI_SUCCESS;
    }
    size_t bytes = skiff_type_packed_size(t, count);
    if (!(s->tmp = malloc(bytes ? bytes : 1)))
        return skiff_err(MPI_ERR_NO_MEM, "cannot stage %zu bytes", bytes);
    s->data = s->tmp;
    if (keep >= 0) {
        const char *blk = (const char *)buf + (ptrdiff_t)((size_t)keep * block_count * t->extent);
        skiff_type_pack(blk, block_count, t, s->data + (size_t)keep * skiff_type_packed_size(t, block_count));
    }
    return MPI_SUCCESS;
}

void skiff_stage_done(struct skiff_stage *s, int unpack)
{
    if (!s->tmp)
        return;
    if (unpack)
        skiff_type_unpack(s->tmp, skiff_type_packed_size(s->t, s->count), s->user, s->count, s->t);
    free(s->tmp);
    s->tmp = NULL;
}

static void *block_at(const void *buf, const struct skiff_type *t, MPI_Aint displ)
{
    return (char *)buf + (ptrdiff_t)displ * (ptrdiff_t)t->extent;
}

int skiff_vstage_init(struct skiff_vstage *v, const void *buf, struct skiff_cnts counts, struct skiff_dsps displs,
                      int n, const struct skiff_type *t, int mode, int keep)
{
    *v = (struct skiff_vstage){NULL, NULL, (void *)buf, NULL, NULL, counts, displs, n, t};
    v->bc = malloc((size_t)n * sizeof *v->bc);
    v->bd = malloc((size_t)n * sizeof *v->bd);
    if (!v->bc || !v->bd)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for %d block descriptors", n);
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        v->bc[i] = skiff_type_packed_size(t, (size_t)skiff_cnt_at(counts, i));
        v->bd[i] = t->contiguous ? (size_t)((ptrdiff_t)skiff_dsp_at(displs, i) * (ptrdiff_t)t->extent) : total;
        total += v->bc[i];
    }
    if (t->contiguous) {
        v->data = skiff_type_data(buf, t);
        return MPI_SUCCESS;
    }
    if (!(v->tmp = malloc(total ? total : 1)))
        return skiff_err(MPI_ERR_NO_MEM, "cannot stage %zu bytes", total);
    v->data = v->tmp;
    for (int i = 0; i < n; i++)
        if (mode == 1 || (mode == 2 && i == keep))
            skiff_type_pack(block_at(buf, t, skiff_dsp_at(displs, i)), (size_t)skiff_cnt_at(counts, i), t,
                            v->data + v->bd[i]);
    return MPI_SUCCESS;
}

void skiff_vstage_done(struct skiff_vstage *v, int unpack)
{
    if (v->tmp && unpack)
        for (int i = 0; i < v->n; i++)
            skiff_type_unpack(v->data + v->bd[i], v->bc[i], block_at(v->user, v->t, skiff_dsp_at(v->displs, i)),
                              (size_t)skiff_cnt_at(v->counts, i), v->t);
    free(v->tmp);
    free(v->bc);
    free(v->bd);
    v->tmp = NULL;
    v->bc = v->bd = NULL;
}
