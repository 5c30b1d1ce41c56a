/* The transport of a rank to itself (MPI_COMM_SELF, a send to one's own rank in any communicator). */
#ifndef SKIFF_SELF_H
#define SKIFF_SELF_H

#include "core/transport.h"

/* The table for sends to this rank itself (uses: only this rank). */
const struct skiff_transport *skiff_self_init(const unsigned char *uses);

#endif
