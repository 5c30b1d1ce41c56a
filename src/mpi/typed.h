/* Point-to-point with any datatype. The core moves bytes: a contiguous type hands it the user's
 * buffer (the zero-overhead path every basic type takes); anything else travels packed, through a
 * temporary buffer the request frees (sends) or unpacks from (receives) when it completes. */
#ifndef SKIFF_TYPED_H
#define SKIFF_TYPED_H

#include "core/datatype.h"
#include "core/pt2pt.h"
#include "util/arch.h"

int skiff_send_packed(const void *buf, size_t count, const struct skiff_type *t, int dest, int tag,
                      struct skiff_comm *c, int mode, int blocking, struct skiff_request **out);
int skiff_recv_packed(void *buf, size_t count, const struct skiff_type *t, int src, int tag, struct skiff_comm *c,
                      struct skiff_request **out);
/* As skiff_send_start, for count elements of t on c's point-to-point context. */
static inline int skiff_typed_send(const void *buf, size_t count, const struct skiff_type *t, int dest, int tag,
                                   struct skiff_comm *c, int mode, int blocking, struct skiff_request **out)
{
    if (SKIFF_LIKELY(t->contiguous) || count == 0)
        return skiff_send_start(skiff_type_data(buf, t), count * t->size, dest, tag, c, c->ctx, mode, blocking,
                                out);
    return skiff_send_packed(buf, count, t, dest, tag, c, mode, blocking, out);
}

/* As skiff_recv_start, for count elements of t on c's point-to-point context. */
static inline int skiff_typed_recv(void *buf, size_t count, const struct skiff_type *t, int src, int tag,
                                   struct skiff_comm *c, struct skiff_request **out)
{
    if (SKIFF_LIKELY(t->contiguous) || count == 0)
        return skiff_recv_start(skiff_type_data(buf, t), count * t->size, src, tag, c, c->ctx, out);
    return skiff_recv_packed(buf, count, t, src, tag, c, out);
}

int skiff_mrecv_packed(void *buf, size_t count, const struct skiff_type *t, struct skiff_request *m);
/* As skiff_mrecv_start, for count elements of t: the message m matched lands in buf. An MPI error code
 * (m is untouched on error). */
static inline int skiff_typed_mrecv(void *buf, size_t count, const struct skiff_type *t, struct skiff_request *m)
{
    if (SKIFF_LIKELY(t->contiguous) || count == 0) {
        skiff_mrecv_start(m, skiff_type_data(buf, t), count * t->size, NULL);
        return MPI_SUCCESS;
    }
    return skiff_mrecv_packed(buf, count, t, m);
}

/* MPI_Sendrecv's and MPI_Isendrecv's check that the two buffers do not overlap (mpi/recv.c). */
int skiff_check_disjoint(const void *sendbuf, MPI_Count sendcount, const struct skiff_type *st, int dest,
                         const void *recvbuf, MPI_Count recvcount, const struct skiff_type *rt, int source);

#endif
