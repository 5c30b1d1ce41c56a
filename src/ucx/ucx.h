/* The ucx transport: every message of skiff's protocol travels as one UCP active message, so the
 * core does matching, rendezvous, synchronous sends and cancellation exactly as over tcp. UCX picks
 * the wire (UCX_TLS: tcp, shared memory, InfiniBand/RoCE verbs, ...) and moves large pieces with its
 * own rendezvous. Built only when pkg-config finds ucx (SKIFF_HAVE_UCX). */
#ifndef SKIFF_UCX_H
#define SKIFF_UCX_H

#include <stddef.h>

#include "core/transport.h"
#include "core/transports.h"

/* Collective over the whole job (every rank calls it): publishes this rank's worker address on its
 * card, then opens an endpoint to every rank with uses[r] set. NULL after logging why. */
const struct skiff_transport *skiff_ucx_init(const unsigned char *uses);
/* The UCX library's version, for skiff-info. */
void skiff_ucx_describe(char *out, size_t len);
/* Bytes of skiff's messages handed to UCX and taken from it since init, 64-byte heads included (one-sided
 * RMA transfers are counted by skiff_rma_rdma instead); 0 while ucx is not running. */
unsigned long long skiff_ucx_sent_bytes(void);
unsigned long long skiff_ucx_recv_bytes(void);
/* Their MPI_T counters (core/transports.c's list), in libmpi. */
extern const struct skiff_transport_counter skiff_ucx_counters[];

/* SKIFF_TRANSPORTS=auto (the default) in a job that spans nodes (core/transports.c asks): 1 when UCX
 * offers a network transport other than its tcp (InfiniBand or RoCE verbs: rc, dc, ud), so ucx should
 * take tcp's place; logs the answer (SKIFF_DEBUG=1). Asks UCX only when this machine has an RDMA device
 * (or SKIFF_UCX_FABRIC=ask), and then in a process of its own (skiff-ucx-probe), so a job that stays on
 * tcp never loads UCX. */
int skiff_ucx_preferred(void);
/* The decision itself: the first transport in list ("tl/device" or "tl", comma-separated) that is not
 * tcp, copied into out; NULL if there is none. */
const char *skiff_ucx_fast_transport(const char *list, char *out, size_t len);

#endif
