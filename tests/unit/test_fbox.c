/* The per-pair fast box ring: order, wrap-around, back-pressure, corrupt lengths. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shm/fbox.h"

#define RING 4096

struct pair {
    struct skiff_fbox_ctl ctl;
    unsigned char *ring;
    struct skiff_fbox_tx tx;
    struct skiff_fbox_rx rx;
};

static int setup(void **state)
{
    struct pair *p = aligned_alloc(64, (sizeof *p + 63) & ~(size_t)63);
    memset(p, 0, sizeof *p);
    p->ring = aligned_alloc(64, RING);
    memset(p->ring, 0, RING);
    p->tx = (struct skiff_fbox_tx){p->ring, &p->ctl, RING, 0, 0};
    p->rx = (struct skiff_fbox_rx){.ring = p->ring, .ctl = &p->ctl, .size = RING};
    *state = p;
    return 0;
}

static int teardown(void **state)
{
    struct pair *p = *state;
    free(p->ring);
    free(p);
    return 0;
}

static void fill(unsigned char *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(seed * 31u + i);
}

static void push_one(struct pair *p, unsigned seq, size_t len)
{
    unsigned char buf[1024];
    struct skiff_hdr h = {.type = 1, .tag = (int32_t)seq, .len = len};
    fill(buf, len, seq);
    assert_int_equal(skiff_fbox_push(&p->tx, &h, buf, len), 0);
}

static void pop_one(struct pair *p, unsigned seq, size_t len)
{
    unsigned char want[1024];
    const struct skiff_fbox_entry *e = skiff_fbox_peek(&p->rx);
    assert_non_null(e);
    assert_ptr_not_equal(e, SKIFF_FBOX_CORRUPT);
    assert_int_equal(e->hdr.tag, seq);
    assert_int_equal(e->plen, len);
    fill(want, len, seq);
    assert_memory_equal(e->payload, want, len);
    skiff_fbox_pop(&p->rx);
}

static void pop_any(struct pair *p)
{
    const struct skiff_fbox_entry *e = skiff_fbox_peek(&p->rx);
    assert_non_null(e);
    assert_ptr_not_equal(e, SKIFF_FBOX_CORRUPT);
    skiff_fbox_pop(&p->rx);
}

static void empty_ring_has_nothing(void **state)
{
    struct pair *p = *state;
    assert_null(skiff_fbox_peek(&p->rx));
}

/* Many laps with sizes that force padding entries at the end of the ring. */
static void order_survives_wraparound(void **state)
{
    struct pair *p = *state;
    size_t max = skiff_fbox_max_payload(RING);
    for (unsigned i = 0; i < 5000; i++) {
        size_t len = (i * 37u) % (max + 1);
        push_one(p, i, len);
        pop_one(p, i, len);
    }
    assert_null(skiff_fbox_peek(&p->rx));
}

static void full_ring_pushes_back_until_consumed(void **state)
{
    struct pair *p = *state;
    unsigned n = 0;
    struct skiff_hdr h = {.type = 1};
    while (skiff_fbox_push(&p->tx, &h, NULL, 0) == 0)
        n++;
    assert_int_equal(n, RING / 64); /* header-only entries take one cache line each */
    const struct skiff_fbox_entry *e = skiff_fbox_peek(&p->rx);
    assert_non_null(e);
    skiff_fbox_pop(&p->rx);
    assert_int_equal(skiff_fbox_push(&p->tx, &h, NULL, 0), 0);
    assert_int_equal(skiff_fbox_push(&p->tx, &h, NULL, 0), -EAGAIN);
}

/* A peer that writes an impossible length must not make us read past the ring. */
static void corrupt_length_is_detected(void **state)
{
    struct pair *p = *state;
    push_one(p, 1, 8);
    struct skiff_fbox_entry *e = (struct skiff_fbox_entry *)p->ring;
    e->plen = RING * 2;
    assert_ptr_equal(skiff_fbox_peek(&p->rx), SKIFF_FBOX_CORRUPT);
}

/* Payload left over from an earlier lap must never look like the next record, even when it holds
 * exactly the sequence number the reader will expect there (payloads of small integers do). */
static void stale_payload_is_not_a_record(void **state)
{
    struct pair *p = *state;
    unsigned char payload[2000] = {0};
    /* Line j of the first record starts 64*j - 56 bytes into its payload; one lap later the reader
     * expects sequence (RING + 64*j) / 64 + 1 at that line. */
    for (unsigned j = 1; j < 31; j++) {
        uint32_t seq = RING / 64 + j + 1;
        memcpy(payload + 64 * j - 56, &seq, sizeof seq);
    }
    struct skiff_hdr h = {.type = 1, .len = sizeof payload};
    assert_int_equal(skiff_fbox_push(&p->tx, &h, payload, sizeof payload), 0);
    pop_any(p);
    while ((p->rx.pos & (RING - 1)) != 0) { /* one-line records up to the end of the lap */
        push_one(p, 0, 0);
        pop_one(p, 0, 0);
    }
    push_one(p, 1, 0); /* lap two, line 0; line 1 still holds the old payload */
    pop_one(p, 1, 0);
    assert_null(skiff_fbox_peek(&p->rx));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(empty_ring_has_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(order_survives_wraparound, setup, teardown),
        cmocka_unit_test_setup_teardown(full_ring_pushes_back_until_consumed, setup, teardown),
        cmocka_unit_test_setup_teardown(corrupt_length_is_detected, setup, teardown),
        cmocka_unit_test_setup_teardown(stale_payload_is_not_a_record, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
