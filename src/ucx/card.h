/* The ucx transport's address card: "u1:<host hash>:<worker address in hex>", published through the
 * job's key-value space (or skiff's job segment) like the tcp transport's card. The host hash tells
 * nodes that are network namespaces of one machine, which share its CPUs. */
#ifndef SKIFF_UCX_CARD_H
#define SKIFF_UCX_CARD_H

#include <stddef.h>
#include <stdint.h>

/* Largest worker address a card can carry: hex takes two characters a byte. */
#define SKIFF_UCX_MAX_ADDR 248

/* 0, or -1 when the address does not fit in len characters. */
int skiff_ucx_card_encode(uint32_t host, const void *addr, size_t alen, char *out, size_t len);
/* 0, or -1 for anything that is not a card (the text comes from another process: trust nothing). */
int skiff_ucx_card_decode(const char *text, uint32_t *host, unsigned char *addr, size_t cap, size_t *alen);

#endif
