/* payload.c — message contents that every receiver can recompute.
 *
 * The byte stream of a message is counter-based (word i = mix(key + i * odd)), so any stretch can
 * be generated at any offset without materialising the whole message, and a chunk delivered at the
 * wrong offset differs from what belongs there. The key mixes (seed, sender, round, sequence): a
 * message delivered to the wrong receive, or left over from another round, fails verification.
 * Messages of at least SK_HDR bytes begin with a header, which lets a wildcard receive tell which
 * message it got; its checksum covers the rest, so a sender-side mix-up shows as a header/body
 * mismatch too.
 */
#include "soak.h"

#include <string.h>

#define SK_MAGIC 0x4b414f53u /* "SOAK" */
#define SK_CHUNK 4096        /* multiple of 8: chunks stay word-aligned */
#define STEP 0xd1b54a32d192ed03ull
#define FNV_BASIS 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

uint64_t sk_msg_key(uint64_t seed, int sender, long round, int seq)
{
    return sk_key(seed, (uint64_t)sender, (uint64_t)round, (uint64_t)seq);
}

/* Bytes [off, off + len) of the stream; off is a multiple of 8. */
static void gen(uint8_t *out, size_t off, size_t len, uint64_t key)
{
    for (size_t i = 0; i < len; i += 8) {
        uint64_t w = sk_mix(key + (uint64_t)((off + i) / 8) * STEP);
        size_t k = len - i < 8 ? len - i : 8;
        for (size_t b = 0; b < k; b++)
            out[i + b] = (uint8_t)(w >> (8 * b));
    }
}

/* Word-at-a-time FNV variant; chunks are word-aligned, so streaming gives the same value. */
static uint64_t sum_update(uint64_t h, const uint8_t *p, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int b = 0; b < 8; b++)
            w |= (uint64_t)p[i + b] << (8 * b);
        h = (h ^ w) * FNV_PRIME;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

/* The message checksum: its head (up to SK_HDR bytes) and its body, combined. */
static uint64_t sum_combine(uint64_t head, uint64_t body)
{
    return sk_mix(head ^ sk_mix(body));
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int b = 0; b < 4; b++)
        p[b] = (uint8_t)(v >> (8 * b));
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int b = 0; b < 4; b++)
        v |= (uint32_t)p[b] << (8 * b);
    return v;
}

static void encode_hdr(uint8_t *p, const struct sk_hdr *h)
{
    put32(p, SK_MAGIC);
    put32(p + 4, h->sender);
    put32(p + 8, h->round);
    put32(p + 12, h->seq);
    put32(p + 16, h->len);
    put32(p + 20, h->tag);
    put32(p + 24, (uint32_t)h->body_sum);
    put32(p + 28, (uint32_t)(h->body_sum >> 32));
}

int sk_read_hdr(const uint8_t *buf, size_t n, struct sk_hdr *h)
{
    if (n < SK_HDR || get32(buf) != SK_MAGIC)
        return 0;
    h->sender = get32(buf + 4);
    h->round = get32(buf + 8);
    h->seq = get32(buf + 12);
    h->len = get32(buf + 16);
    h->tag = get32(buf + 20);
    h->body_sum = get32(buf + 24) | (uint64_t)get32(buf + 28) << 32;
    return 1;
}

void sk_fill_plain(uint8_t *buf, size_t n, uint64_t key)
{
    gen(buf, 0, n, key);
}

void sk_fill(uint8_t *buf, size_t n, uint64_t key, const struct sk_hdr *h)
{
    if (n < SK_HDR || !h) {
        gen(buf, 0, n, key);
        return;
    }
    gen(buf + SK_HDR, SK_HDR, n - SK_HDR, key);
    struct sk_hdr full = *h;
    full.body_sum = sum_update(FNV_BASIS, buf + SK_HDR, n - SK_HDR);
    encode_hdr(buf, &full);
}

static void note_diff(struct sk_verdict *v, const uint8_t *want, const uint8_t *got, size_t len, size_t off)
{
    if (memcmp(want, got, len) == 0)
        return;
    for (size_t i = 0; i < len; i++) {
        if (want[i] == got[i])
            continue;
        if (v->bad++ == 0 || off + i < v->first) { /* the head is compared last */
            v->first = off + i;
            v->want = want[i];
            v->got = got[i];
        }
    }
}

/* Compares every byte with the stream (and header) the sender should have produced. */
int sk_verify(const uint8_t *got, size_t n, uint64_t key, const struct sk_hdr *h, struct sk_verdict *v)
{
    uint8_t want[SK_CHUNK];
    size_t head = n < SK_HDR ? n : SK_HDR;
    uint64_t body_want = FNV_BASIS, body_got = FNV_BASIS;
    memset(v, 0, sizeof *v);
    /* The body first: the expected header carries the body's checksum. */
    for (size_t off = head; off < n; off += SK_CHUNK) {
        size_t len = n - off < SK_CHUNK ? n - off : SK_CHUNK;
        gen(want, off, len, key);
        body_want = sum_update(body_want, want, len);
        body_got = sum_update(body_got, got + off, len);
        note_diff(v, want, got + off, len, off);
    }
    if (n >= SK_HDR && h) {
        struct sk_hdr full = *h;
        full.body_sum = body_want;
        encode_hdr(want, &full);
    } else {
        gen(want, 0, head, key);
    }
    note_diff(v, want, got, head, 0);
    v->sum_want = sum_combine(sum_update(FNV_BASIS, want, head), body_want);
    v->sum_got = sum_combine(sum_update(FNV_BASIS, got, head), body_got);
    return v->bad == 0;
}

size_t sk_untouched(const uint8_t *p, size_t n, uint8_t byte)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != byte)
            return i;
    return n;
}

/* Skewed towards small values: uniform in the exponent, then uniform within [2^e, 2^(e+1)). */
uint64_t sk_log_uniform(struct sk_rng *r, uint64_t max)
{
    if (max == 0)
        return 0;
    int bits = 0;
    while (bits < 63 && ((uint64_t)1 << (bits + 1)) <= max)
        bits++;
    int e = (int)sk_below(r, (uint64_t)bits + 2) - 1; /* -1 stands for 0 */
    if (e < 0)
        return 0;
    uint64_t lo = (uint64_t)1 << e;
    uint64_t span = lo;
    if (lo + span - 1 > max)
        span = max - lo + 1;
    return lo + sk_below(r, span);
}
