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
    int rc = skiff_send_start_then(tmp, bytes, dest, tag, c, c->ctx, mode, blocking,
                                   &(struct skiff_req_then){free_packed, tmp, 0}, out);
    if (rc || !*out) /* failed, or a blocking send that left at once: the copy is still ours */
        free(tmp);
    return rc;
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

/* NULL (and *rc the error) when memory is out. */
static struct landing *landing_new(void *buf, size_t count, const struct skiff_type *t, int src, size_t bytes, int *rc)
{
    struct landing *l = malloc(sizeof *l + bytes);
    if (!l)
        *rc = skiff_err(MPI_ERR_NO_MEM, "cannot allocate %zu bytes to receive a message from rank %d", bytes, src);
    else
        *l = (struct landing){buf, count, t};
    return l;
}

/* What a receive into l does when complete: unpack (perhaps at once, for a message already here). The
 * type is held from now: MPI_Type_free may come before the message. */
static struct skiff_req_then landing_then(struct landing *l)
{
    skiff_type_ref(l->t);
    return (struct skiff_req_then){unpack_done, l, 0};
}

int skiff_recv_packed(void *buf, size_t count, const struct skiff_type *t, int src, int tag, struct skiff_comm *c,
                      struct skiff_request **out)
{
    size_t bytes = skiff_type_packed_size(t, count);
    int rc = MPI_SUCCESS;
    struct landing *l = landing_new(buf, count, t, src, bytes, &rc);
    if (!l)
        return rc;
    struct skiff_req_then then = landing_then(l);
    rc = skiff_recv_start_then(l->data, bytes, src, tag, c, c->ctx, &then, out);
    if (rc) {
        skiff_type_unref(l->t);
        free(l);
    }
    return rc;
}

int skiff_mrecv_packed(void *buf, size_t count, const struct skiff_type *t, struct skiff_request *m)
{
    size_t bytes = skiff_type_packed_size(t, count);
    int rc = MPI_SUCCESS;
    struct landing *l = landing_new(buf, count, t, m->peer, bytes, &rc);
    if (!l)
        return rc;
    struct skiff_req_then then = landing_then(l);
    skiff_mrecv_start(m, l->data, bytes, &then);
    return MPI_SUCCESS;
}
