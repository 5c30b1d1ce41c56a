/* Buffered sends: the message is copied into a buffer the user attached and sent from there, so the
 * call returns at once; the space is given back when the copy has left. MPI-4.1 lets a buffer be
 * attached to the process (MPI_Buffer_attach), to one communicator (MPI_Comm_attach_buffer) or to a
 * session (MPI_Session_attach_buffer); a buffered send uses its communicator's buffer when there is one,
 * else that of the session the communicator derives from, else the process's. */
#ifndef SKIFF_BSEND_H
#define SKIFF_BSEND_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/request.h"

/* Whose buffer: the process's (owner NULL), a communicator's (owner its struct skiff_comm) or a
 * session's (owner the session object). */
enum skiff_bbuf_kind { SKIFF_BBUF_PROCESS, SKIFF_BBUF_COMM, SKIFF_BBUF_SESSION };

int skiff_bsend_attach(enum skiff_bbuf_kind kind, const void *owner, void *buf, size_t size);
/* Waits until every message buffered there has left, then returns the buffer (NULL, 0 if none). */
int skiff_bsend_detach(enum skiff_bbuf_kind kind, const void *owner, void **buf, size_t *size);
/* Waits until every message buffered there has left; the buffer stays attached. */
int skiff_bsend_flush(enum skiff_bbuf_kind kind, const void *owner);
/* A request that completes when every message buffered there now has left. */
int skiff_bsend_iflush(enum skiff_bbuf_kind kind, const void *owner, struct skiff_request **out);
/* MPI_Comm_free, MPI_Session_finalize: the owner's buffer is flushed and detached with it. */
void skiff_bsend_owner_freed(enum skiff_bbuf_kind kind, const void *owner);
/* Packs count elements of t into the buffer c uses and sends them from there. */
int skiff_bsend(const void *buf, size_t count, const struct skiff_type *t, int dest, int tag, struct skiff_comm *c);
void skiff_bsend_finalize(void);

#endif
