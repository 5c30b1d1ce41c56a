/* The tcp transport's pure parts: frame parsing, hellos, CIDRs, address cards, rail pairing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tcp/net.h"
#include "tcp/wire.h"

static size_t frame(unsigned char *buf, uint8_t type, const void *payload, uint32_t plen)
{
    struct skiff_tcp_head f = {.plen = plen, .check = SKIFF_TCP_CHECK ^ plen,
                               .h = {.type = type, .version = SKIFF_PROTO_VERSION, .len = plen}};
    memcpy(buf, &f, sizeof f);
    if (plen)
        memcpy(buf + sizeof f, payload, plen);
    return sizeof f + plen;
}

static enum skiff_tcp_parse parse(const unsigned char *buf, size_t have, size_t max, size_t *used, const char **why)
{
    struct skiff_tcp_head h;
    const unsigned char *p;
    return skiff_tcp_parse(buf, have, max, &h, &p, used, why);
}

static void frames_whole_and_partial(void **state)
{
    (void)state;
    unsigned char buf[512];
    size_t n = frame(buf, SKIFF_MSG_EAGER, "hello", 5), used = 0;
    const char *why = NULL;
    for (size_t have = 0; have < n; have++)
        assert_int_equal(SKIFF_TCP_NEED_MORE, parse(buf, have, 64, &used, &why));
    assert_int_equal(SKIFF_TCP_FRAME, parse(buf, n, 64, &used, &why));
    assert_int_equal(n, used);
    struct skiff_tcp_head h;
    const unsigned char *p;
    skiff_tcp_parse(buf, n, 64, &h, &p, &used, &why);
    assert_memory_equal("hello", p, 5);
}

static void frames_rejected(void **state)
{
    (void)state;
    unsigned char buf[512];
    size_t used;
    const char *why = NULL;
    frame(buf, SKIFF_MSG_EAGER, "x", 1);
    buf[4] ^= 1; /* check word */
    assert_int_equal(SKIFF_TCP_BAD, parse(buf, 200, 64, &used, &why));
    static const unsigned char junk[100];
    frame(buf, SKIFF_MSG_DATA, junk, 100);
    assert_int_equal(SKIFF_TCP_BAD, parse(buf, 200, 64, &used, &why)); /* longer than agreed */
    assert_non_null(strstr(why, "longer"));
    struct skiff_tcp_head f = {.plen = 8, .check = SKIFF_TCP_CHECK ^ 8u, .h = {.type = SKIFF_MSG_RTS, .version = SKIFF_PROTO_VERSION}};
    memcpy(buf, &f, sizeof f);
    assert_int_equal(SKIFF_TCP_BAD, parse(buf, 200, 64, &used, &why)); /* RTS carries no payload */
    f = (struct skiff_tcp_head){.plen = 4, .check = SKIFF_TCP_CHECK ^ 4u, .h = {.type = SKIFF_MSG_EAGER, .version = SKIFF_PROTO_VERSION, .len = 5}};
    memcpy(buf, &f, sizeof f);
    assert_int_equal(SKIFF_TCP_BAD, parse(buf, 200, 64, &used, &why)); /* header and frame disagree */
    f.h.type = 77;
    f.h.len = 4;
    memcpy(buf, &f, sizeof f);
    assert_int_equal(SKIFF_TCP_BAD, parse(buf, 200, 64, &used, &why));
}

static void hellos(void **state)
{
    (void)state;
    struct skiff_tcp_hello h = {.version = SKIFF_TCP_VERSION, .rail = 1, .rank = 3, .nrails = 2, .jobid = 7, .secret = 42};
    memcpy(h.magic, SKIFF_TCP_MAGIC, 8);
    const char *why = NULL;
    assert_int_equal(0, skiff_tcp_hello_check(&h, 7, 42, 4, &why));
    assert_int_equal(-1, skiff_tcp_hello_check(&h, 7, 43, 4, &why));
    assert_string_equal("wrong job or secret", why);
    assert_int_equal(-1, skiff_tcp_hello_check(&h, 7, 42, 3, &why)); /* rank 3 of 3 */
    h.rail = 2;
    assert_int_equal(-1, skiff_tcp_hello_check(&h, 7, 42, 4, &why));
}

static void cidrs(void **state)
{
    (void)state;
    uint32_t ip;
    int p;
    assert_int_equal(0, skiff_net_parse_cidr("198.18.1.0/24", &ip, &p));
    assert_int_equal(0xc6120100u, ip);
    assert_int_equal(24, p);
    assert_int_equal(0, skiff_net_parse_cidr("10.0.0.1", &ip, &p));
    assert_int_equal(32, p);
    assert_int_equal(-1, skiff_net_parse_cidr("10.0.0.1/33", &ip, &p));
    assert_int_equal(-1, skiff_net_parse_cidr("eth0", &ip, &p));
    assert_int_equal(-1, skiff_net_parse_cidr("1.2.3.4/", &ip, &p));
    assert_int_equal(0xffffff00u, skiff_net_mask(24));
    assert_int_equal(0, skiff_net_mask(0));
}

static void cards(void **state)
{
    (void)state;
    struct skiff_net_card c = {.port = 4711, .host = 0xbeef, .naddrs = 2}, d;
    skiff_net_parse_cidr("198.18.1.1/24", &c.addr[0].ip, &c.addr[0].prefix);
    skiff_net_parse_cidr("127.0.0.1/8", &c.addr[1].ip, &c.addr[1].prefix);
    char text[128];
    assert_int_equal(0, skiff_net_card_encode(&c, text, sizeof text));
    assert_string_equal("4711,h0000beef,198.18.1.1_24,127.0.0.1_8", text);
    assert_null(strpbrk(text, " =;:"));
    assert_int_equal(0, skiff_net_card_decode(text, &d));
    assert_int_equal(4711, d.port);
    assert_int_equal(0xbeef, d.host);
    assert_int_equal(2, d.naddrs);
    assert_int_equal(c.addr[0].ip, d.addr[0].ip);
    assert_int_equal(-1, skiff_net_card_decode("0,h00000000,1.2.3.4_8", &d));
    assert_int_equal(-1, skiff_net_card_decode("80,h00000000", &d));
    assert_int_equal(-1, skiff_net_card_decode("80,1.2.3.4_8", &d)); /* no host */
    assert_int_equal(-1, skiff_net_card_decode("80,h00000000,1.2.3.4", &d));
    assert_int_equal(-1, skiff_net_card_decode("80,h00000000,1.2.3.4_99", &d));
    assert_int_equal(-1, skiff_net_card_encode(&c, text, 10));
}

static void add(struct skiff_net_card *c, const char *cidr)
{
    skiff_net_parse_cidr(cidr, &c->addr[c->naddrs].ip, &c->addr[c->naddrs].prefix);
    c->naddrs++;
}

static void pairing(void **state)
{
    (void)state;
    struct skiff_net_card a = {.port = 1}, b = {.port = 2};
    struct skiff_net_rail ra[8], rb[8];
    /* Listed in different orders on the two hosts, plus a network only one of them has. */
    add(&a, "198.18.2.1/24"), add(&a, "127.0.0.1/8"), add(&a, "198.18.1.1/24"), add(&a, "10.9.0.1/16");
    add(&b, "198.18.1.2/24"), add(&b, "198.18.2.2/24"), add(&b, "127.0.0.1/8"), add(&b, "198.18.1.3/24");
    int na = skiff_net_pair(&a, &b, 0, ra, 8), nb = skiff_net_pair(&b, &a, 0, rb, 8);
    assert_int_equal(2, na);
    assert_int_equal(2, nb);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(ra[i].mine, rb[i].theirs);
        assert_int_equal(ra[i].theirs, rb[i].mine);
    }
    uint32_t ip;
    int p;
    skiff_net_parse_cidr("198.18.1.2", &ip, &p);
    assert_int_equal(ip, ra[0].theirs); /* lower network first, one rail per network */
    /* Nothing shared: loopback within a node, routing between nodes. */
    struct skiff_net_card c = {.port = 3}, d = {.port = 4};
    add(&c, "127.0.0.1/8"), add(&c, "10.1.0.1/16");
    add(&d, "127.0.0.1/8"), add(&d, "10.2.0.1/16");
    assert_int_equal(1, skiff_net_pair(&c, &d, 1, ra, 8));
    skiff_net_parse_cidr("127.0.0.1", &ip, &p);
    assert_int_equal(ip, ra[0].theirs);
    assert_int_equal(1, skiff_net_pair(&c, &d, 0, ra, 8));
    skiff_net_parse_cidr("10.2.0.1", &ip, &p);
    assert_int_equal(ip, ra[0].theirs);
    struct skiff_net_card e = {.port = 5};
    add(&e, "127.0.0.1/8");
    assert_int_equal(0, skiff_net_pair(&c, &e, 0, ra, 8)); /* another node, only loopback: unreachable */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frames_whole_and_partial), cmocka_unit_test(frames_rejected), cmocka_unit_test(hellos),
        cmocka_unit_test(cidrs), cmocka_unit_test(cards), cmocka_unit_test(pairing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
