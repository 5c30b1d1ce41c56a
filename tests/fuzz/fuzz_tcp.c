/* libFuzzer target for what the tcp transport reads from the network: the frame stream (fed in
 * pieces, as recv() hands it over, through the same buffer discipline as a rail), address cards
 * and CIDRs. Invariants checked: the parser never claims bytes it was not given, never accepts a
 * payload longer than agreed, and a card that decodes re-encodes to one that decodes the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tcp/net.h"
#include "tcp/wire.h"

#define MAX_PLEN 4096

static void check(int ok)
{
    if (!ok)
        abort();
}

static void stream(const uint8_t *data, size_t size)
{
    static unsigned char buf[sizeof(struct skiff_tcp_head) + MAX_PLEN + 512];
    size_t have = 0, pos = 0;
    while (pos < size) {
        size_t chunk = 1 + data[pos] % 97; /* the first byte of each chunk sets its length */
        if (chunk > size - pos)
            chunk = size - pos;
        if (chunk > sizeof buf - have)
            chunk = sizeof buf - have;
        memcpy(buf + have, data + pos, chunk);
        have += chunk;
        pos += chunk;
        for (;;) {
            struct skiff_tcp_head h;
            const unsigned char *p;
            const char *why = NULL;
            size_t used = 0;
            enum skiff_tcp_parse k = skiff_tcp_parse(buf, have, MAX_PLEN, &h, &p, &used, &why);
            if (k == SKIFF_TCP_BAD) {
                check(why != NULL);
                return;
            }
            if (k == SKIFF_TCP_NEED_MORE) {
                check(have < sizeof buf); /* a frame we accept always fits the buffer */
                break;
            }
            check(h.plen <= MAX_PLEN && used == sizeof h + h.plen && used <= have && p == buf + sizeof h);
            memmove(buf, buf + used, have - used);
            have -= used;
        }
    }
}

static void card(const uint8_t *data, size_t size)
{
    char text[700], again[700];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    struct skiff_net_card c, d;
    if (skiff_net_card_decode(text, &c) == 0) {
        check(c.naddrs > 0 && c.naddrs <= SKIFF_TCP_MAX_ADDRS && c.port > 0);
        if (skiff_net_card_encode(&c, again, sizeof again) == 0) {
            check(skiff_net_card_decode(again, &d) == 0);
            check(d.port == c.port && d.naddrs == c.naddrs);
            for (int i = 0; i < c.naddrs; i++)
                check(d.addr[i].ip == c.addr[i].ip && d.addr[i].prefix == c.addr[i].prefix);
        }
        struct skiff_net_rail r[SKIFF_TCP_MAX_RAILS];
        check(skiff_net_pair(&c, &c, 1, r, SKIFF_TCP_MAX_RAILS) <= SKIFF_TCP_MAX_RAILS);
    }
    uint32_t ip;
    int prefix;
    if (skiff_net_parse_cidr(text, &ip, &prefix) == 0)
        check(prefix >= 0 && prefix <= 32);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    if (data[0] & 1)
        stream(data + 1, size - 1);
    else
        card(data + 1, size - 1);
    return 0;
}
