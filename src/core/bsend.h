/* Buffered sends: the message is copied into a buffer the user attached and sent from there, so the
 * call returns at once; the space is given back when the copy has left. MPI-4.1 lets a buffer be
 * attached to the process (MPI_Buffer_attach) or to one communicator (MPI_Comm_attach_buffer); a
 * buffered send uses its communicator's buffer when there is one, else the process's. */
#ifndef SKIFF_BSEND_H
#define SKIFF_BSEND_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/request.h"

/* The buffer of comm, or of the process when comm is NULL. */
int skiff_bsend_attach(struct skiff_comm *comm, void *buf, size_t size);
/* Waits until every message buffered there has left, then returns the buffer (NULL, 0 if none). */
int skiff_bsend_detach(struct skiff_comm *comm, void **buf, size_t *size);
/* Waits until every message buffered there has left; the buffer stays attached. */
int skiff_bsend_flush(struct skiff_comm *comm);
/* A request that completes when every message buffered there now has left. */
int skiff_bsend_iflush(struct skiff_comm *comm, struct skiff_request **out);
/* MPI_Comm_free: the communicator's buffer is flushed and detached with it. */
void skiff_bsend_comm_freed(struct skiff_comm *comm);
/* Packs count elements of t into the buffer c uses and sends them from there. */
int skiff_bsend(const void *buf, size_t count, const struct skiff_type *t, int dest, int tag, struct skiff_comm *c);
void skiff_bsend_finalize(void);

#endif
