/* Buffered sends: the message is copied into the buffer the user attached and sent from there, so the
 * call returns at once; the space is given back when the copy has left. */
#ifndef SKIFF_BSEND_H
#define SKIFF_BSEND_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"

int skiff_bsend_attach(void *buf, size_t size);
/* Waits until every buffered message has left, then returns the buffer. */
int skiff_bsend_detach(void **buf, size_t *size);
/* Packs count elements of t into the attached buffer and sends them from there. */
int skiff_bsend(const void *buf, size_t count, const struct skiff_type *t, int dest, int tag, struct skiff_comm *c);

#endif
