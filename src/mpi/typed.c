/* The packed paths of point-to-point with non-contiguous datatypes (see typed.h). */
#include "mpi/typed.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>

#include "core/error.h"

static void free_packed(struct skiff_request *r)
{
    free(r->cookie);
    r->cookie = NULL;
    r->on_complete = NULL;
}

int skiff_send_packed(const void *buf, size_t count, const struct skiff_type *t, int dest, int tag,
                      struct skiff_comm *c, int mode, int blocking, struct skiff_request **out)
{
    size_t bytes = skiff_type_packed_size(t, count);
    void *tmp = malloc(bytes);
    if (!tmp)
        return skiff_err(MPI_ERR_NO_MEM, "cannot allocate %zu bytes to pack a message for rank %d", bytes, dest);
    skiff_type_pack(buf, count, t, tmp);
    int rc = skiff_send_start(tmp, bytes, dest, tag, c, c->ctx, mode, blocking, out);
    struct skiff_request *r = *out;
    /* Gone already (copied eagerly, or a self-send that completed): the copy is no longer needed. */
    if (rc || !r || r->state == SKIFF_RS_DONE) {
        free(tmp);
        return rc;
    }
    r->cookie = tmp;
    r->on_complete = free_packed;
    return MPI_SUCCESS;
}

/* Where a receive lands before it is unpacked into the user's elements. */
struct landing {
    void *buf;
    size_t count;
    const struct skiff_type *t;
    alignas(max_align_t) char data[];
};

static void unpack_done(struct skiff_request *r)
{
    struct landing *l = r->cookie;
    skiff_type_unpack(l->data, r->st_bytes, l->buf, l->count, l->t);
    skiff_type_unref(l->t);
    free(l);
    r->buf = NULL;
    r->cookie = NULL;
    r->on_complete = NULL;
}

int skiff_recv_packed(void *buf, size_t count, const struct skiff_type *t, int src, int tag, struct skiff_comm *c,
                      struct skiff_request **out)
{
    size_t bytes = skiff_type_packed_size(t, count);
    struct landing *l = malloc(sizeof *l + bytes);
    if (!l)
        return skiff_err(MPI_ERR_NO_MEM, "cannot allocate %zu bytes to receive a message from rank %d", bytes, src);
    *l = (struct landing){buf, count, t};
    int rc = skiff_recv_start(l->data, bytes, src, tag, c, c->ctx, out);
    if (rc) {
        free(l);
        return rc;
    }
    skiff_type_ref(t); /* MPI_Type_free may come before the message */
    struct skiff_request *r = *out;
    r->cookie = l;
    r->on_complete = unpack_done;
    if (r->state == SKIFF_RS_DONE) /* matched a message that was already here */
        unpack_done(r);
    return MPI_SUCCESS;
}
