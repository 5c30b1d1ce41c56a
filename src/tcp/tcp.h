/* The tcp transport: ranks on different nodes (or every pair, with SKIFF_TRANSPORTS=tcp) talk over
 * one TCP connection per shared network ("rail"). Small messages use rail 0; large ones are cut
 * into pieces that go to whichever rail has the shortest backlog, so the rails share the load in
 * proportion to the bandwidth each delivers (user-space channel bonding). */
#ifndef SKIFF_TCP_H
#define SKIFF_TCP_H

#include <stddef.h>

#include "core/transports.h"

/* Collective over the whole job (every rank calls it, whether or not it has tcp peers): publishes
 * this rank's card, then connects to every rank with uses[r] set. NULL after logging why. */
const struct skiff_transport *skiff_tcp_init(const unsigned char *uses);
/* The networks this host offers under SKIFF_TCP_NETS, as "ip/prefix(ifname),..." (for skiff-info);
 * the reason instead when none is usable. Needs no MPI_Init. */
void skiff_tcp_describe_host(char *out, size_t len);
/* The same as "networks: ...", for skiff-info's list of transports. */
void skiff_tcp_describe(char *out, size_t len);
/* Its MPI_T counters (core/transports.h): bytes sent and received over every rail. */
extern const struct skiff_transport_counter skiff_tcp_counters[];

#endif
