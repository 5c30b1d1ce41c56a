/* Which networks the tcp transport uses, and how two ranks pair their addresses into rails.
 *
 * A rank's card lists its listening port and every address it offers (IPv4 with prefix length).
 * Two ranks use one rail per network they share (same network address and prefix), ordered by
 * network address, so both sides compute the same list from the same two cards. */
#ifndef SKIFF_TCP_NET_H
#define SKIFF_TCP_NET_H

#include <stddef.h>
#include <stdint.h>

#define SKIFF_TCP_MAX_ADDRS 16
#define SKIFF_TCP_MAX_RAILS 8

struct skiff_net_addr {
    uint32_t ip;   /* host byte order */
    int prefix;    /* 0..32 */
    char ifname[16];
};

struct skiff_net_card {
    uint16_t port;
    uint32_t host;  /* hash of the machine's name: ranks of different nodes may still share CPUs */
    int naddrs;
    struct skiff_net_addr addr[SKIFF_TCP_MAX_ADDRS];
};

/* One rail of a pair: connect from mine to theirs. */
struct skiff_net_rail {
    uint32_t net;          /* network address: the order of rails, the same on both sides */
    uint32_t mine, theirs; /* mine 0: any source address */
};

static inline uint32_t skiff_net_mask(int prefix)
{
    return prefix <= 0 ? 0 : prefix >= 32 ? 0xffffffffu : ~((1u << (32 - prefix)) - 1);
}

static inline int skiff_net_is_loopback(uint32_t ip)
{
    return (ip >> 24) == 127;
}

/* Parses "a.b.c.d/p" (p defaults to 32). 0 or -1. */
int skiff_net_parse_cidr(const char *s, uint32_t *ip, int *prefix);

/* This host's IPv4 addresses that SKIFF_TCP_NETS selects (nets NULL: every address, loopback
 * included; the pairing prefers other networks). Returns how many, or -1 after logging why
 * (a selector that is neither a CIDR nor an interface name, or one that matches nothing). */
int skiff_net_local(const char *nets, struct skiff_net_addr *out, int max);

/* A card as text ("port,hHOST,ip_prefix,ip_prefix..."; only characters that every PMI server passes)
 * and back. encode returns 0 or -1 (too long); decode 0 or -1 (malformed). */
int skiff_net_card_encode(const struct skiff_net_card *c, char *out, size_t len);
int skiff_net_card_decode(const char *s, struct skiff_net_card *c);

/* The rails between two ranks: every shared non-loopback network; else, for two ranks of one node,
 * loopback; else the peer's first non-loopback address, reached through routing. Returns how many
 * (at most max), 0 if the two cannot reach each other. */
int skiff_net_pair(const struct skiff_net_card *me, const struct skiff_net_card *peer, int same_node,
                   struct skiff_net_rail *out, int max);

/* "a.b.c.d" of a host-order address, in a static buffer per call site slot (0..3). */
const char *skiff_net_ntoa(uint32_t ip, int slot);

#endif
