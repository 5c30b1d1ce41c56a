/* The transport of a rank to itself (MPI_COMM_SELF, a send to one's own rank in any communicator). */
#ifndef SKIFF_SELF_H
#define SKIFF_SELF_H

#include "core/transport.h"

extern const struct skiff_transport skiff_self_transport;

#endif
