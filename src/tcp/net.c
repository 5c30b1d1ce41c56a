#include "tcp/net.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

int skiff_net_parse_cidr(const char *s, uint32_t *ip, int *prefix)
{
    char buf[32];
    const char *slash = strchr(s, '/');
    size_t n = slash ? (size_t)(slash - s) : strlen(s);
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    struct in_addr a;
    if (inet_pton(AF_INET, buf, &a) != 1)
        return -1;
    int p = 32;
    if (slash) {
        char *end;
        long v = strtol(slash + 1, &end, 10);
        if (end == slash + 1 || *end || v < 0 || v > 32)
            return -1;
        p = (int)v;
    }
    *ip = ntohl(a.s_addr);
    *prefix = p;
    return 0;
}

static int prefix_of(const struct sockaddr *mask)
{
    uint32_t m = mask ? ntohl(((const struct sockaddr_in *)mask)->sin_addr.s_addr) : 0xffffffffu;
    int p = 0;
    while (p < 32 && (m & (0x80000000u >> p)))
        p++;
    return p;
}

/* Does selector w (a CIDR or an interface name) pick this address? */
static int selects(const char *w, const struct skiff_net_addr *a)
{
    uint32_t ip;
    int prefix;
    if (skiff_net_parse_cidr(w, &ip, &prefix) == 0)
        return ((a->ip ^ ip) & skiff_net_mask(prefix)) == 0;
    return strcmp(w, a->ifname) == 0;
}

static int selected(const char *nets, const struct skiff_net_addr *a, unsigned *used)
{
    char buf[512];
    int hit = 0, i = 0;
    snprintf(buf, sizeof buf, "%s", nets);
    for (char *save, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save), i++) {
        if (selects(w, a)) {
            hit = 1;
            *used |= 1u << (i & 31);
        }
    }
    return hit;
}

/* Every selector must match something: a typo in SKIFF_TCP_NETS should not silently fall back. */
static int check_all_used(const char *nets, unsigned used)
{
    char buf[512];
    int i = 0;
    snprintf(buf, sizeof buf, "%s", nets);
    for (char *save, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save), i++) {
        if (!(used & (1u << (i & 31)))) {
            skiff_error("SKIFF_TCP_NETS=%s: '%s' matches no IPv4 address of this host (a CIDR such as "
                        "198.18.1.0/24, or an interface name)", nets, w);
            return -1;
        }
    }
    return 0;
}

int skiff_net_local(const char *nets, struct skiff_net_addr *out, int max)
{
    struct ifaddrs *ifs, *i;
    if (getifaddrs(&ifs) != 0) {
        skiff_error("getifaddrs failed: cannot list this host's networks");
        return -1;
    }
    int n = 0;
    unsigned used = 0;
    for (i = ifs; i && n < max; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP))
            continue;
        struct skiff_net_addr a = {.ip = ntohl(((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr),
                                   .prefix = prefix_of(i->ifa_netmask)};
        snprintf(a.ifname, sizeof a.ifname, "%s", i->ifa_name);
        if (!nets || selected(nets, &a, &used))
            out[n++] = a;
    }
    freeifaddrs(ifs);
    if (nets && check_all_used(nets, used))
        return -1;
    if (n == 0)
        skiff_error("no IPv4 address of this host is usable for tcp%s%s", nets ? " with SKIFF_TCP_NETS=" : "",
                    nets ? nets : "");
    return n == 0 ? -1 : n;
}

const char *skiff_net_ntoa(uint32_t ip, int slot)
{
    static char buf[4][16];
    slot &= 3;
    snprintf(buf[slot], sizeof buf[slot], "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
    return buf[slot];
}

int skiff_net_card_encode(const struct skiff_net_card *c, char *out, size_t len)
{
    size_t off = (size_t)snprintf(out, len, "%u,h%08x", c->port, c->host);
    for (int i = 0; i < c->naddrs && off < len; i++)
        off += (size_t)snprintf(out + off, len - off, ",%s_%d", skiff_net_ntoa(c->addr[i].ip, 0), c->addr[i].prefix);
    return off < len ? 0 : -1;
}

int skiff_net_card_decode(const char *s, struct skiff_net_card *c)
{
    char buf[600];
    if (strlen(s) >= sizeof buf)
        return -1;
    snprintf(buf, sizeof buf, "%s", s);
    memset(c, 0, sizeof *c);
    char *save, *w = strtok_r(buf, ",", &save), *end;
    long port = w ? strtol(w, &end, 10) : -1;
    if (!w || *end || port < 1 || port > 65535)
        return -1;
    c->port = (uint16_t)port;
    w = strtok_r(NULL, ",", &save);
    if (!w || w[0] != 'h' || strlen(w) != 9 || strspn(w + 1, "0123456789abcdef") != 8)
        return -1;
    c->host = (uint32_t)strtoul(w + 1, NULL, 16);
    while ((w = strtok_r(NULL, ",", &save)) != NULL) {
        char *us = strchr(w, '_');
        if (!us || c->naddrs == SKIFF_TCP_MAX_ADDRS)
            return -1;
        *us = '/';
        struct skiff_net_addr *a = &c->addr[c->naddrs];
        if (skiff_net_parse_cidr(w, &a->ip, &a->prefix))
            return -1;
        c->naddrs++;
    }
    return c->naddrs > 0 ? 0 : -1;
}

static int by_network(const void *a, const void *b)
{
    uint32_t x = ((const struct skiff_net_rail *)a)->net, y = ((const struct skiff_net_rail *)b)->net;
    return x < y ? -1 : x > y;
}

/* The peer's address on my network a, or 0. */
static uint32_t peer_on(const struct skiff_net_addr *a, const struct skiff_net_card *peer)
{
    uint32_t m = skiff_net_mask(a->prefix);
    for (int j = 0; j < peer->naddrs; j++)
        if (peer->addr[j].prefix == a->prefix && ((a->ip ^ peer->addr[j].ip) & m) == 0)
            return peer->addr[j].ip;
    return 0;
}

/* No shared network: loopback within a node, else whatever routing reaches. */
static int fallback(const struct skiff_net_card *peer, int same_node, struct skiff_net_rail *out)
{
    for (int j = 0; j < peer->naddrs; j++) {
        uint32_t ip = peer->addr[j].ip;
        if (skiff_net_is_loopback(ip) == same_node) {
            *out = (struct skiff_net_rail){ip & skiff_net_mask(peer->addr[j].prefix), 0, ip};
            return 1;
        }
    }
    return 0;
}

int skiff_net_pair(const struct skiff_net_card *me, const struct skiff_net_card *peer, int same_node,
                   struct skiff_net_rail *out, int max)
{
    int n = 0;
    for (int i = 0; i < me->naddrs && n < max; i++) {
        const struct skiff_net_addr *a = &me->addr[i];
        uint32_t theirs = skiff_net_is_loopback(a->ip) ? 0 : peer_on(a, peer);
        if (theirs)
            out[n++] = (struct skiff_net_rail){a->ip & skiff_net_mask(a->prefix), a->ip, theirs};
    }
    qsort(out, (size_t)n, sizeof *out, by_network);
    int u = 0; /* one rail per network, even where a host has two addresses on it */
    for (int i = 0; i < n; i++)
        if (u == 0 || out[u - 1].net != out[i].net)
            out[u++] = out[i];
    n = u;
    return n > 0 ? n : fallback(peer, same_node, out);
}
