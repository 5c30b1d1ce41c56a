/* The receiver's lock-free queue and the sender-owned cell pools: FIFO per producer under
 * concurrent producers (threads stand in for processes: same algorithm, same atomics). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "shm/queue.h"

#define NPROD 3
#define NCELLS 8
#define PER_PROD 20000
#define PAYLOAD 64

struct area {
    unsigned char *base;
    struct skiff_shm_mailbox *mb;
    size_t stride, cells_off;
};

static struct area make_area(void)
{
    struct area a;
    a.stride = SKIFF_CELL_HDR + PAYLOAD;
    a.cells_off = 4096; /* offset 0 must never be a cell: it means "null" */
    size_t total = a.cells_off + (size_t)NPROD * NCELLS * a.stride;
    total = (total + 4095) & ~(size_t)4095; /* aligned_alloc wants a multiple of the alignment */
    a.base = aligned_alloc(4096, total);
    memset(a.base, 0, total);
    a.mb = (struct skiff_shm_mailbox *)(a.base + 64 * 4);
    return a;
}

static struct skiff_cell_pool pool_for(struct area *a, int prod)
{
    return (struct skiff_cell_pool){a->base + a->cells_off + (size_t)prod * NCELLS * a->stride, a->stride, NCELLS, 0};
}

static void single_thread_fifo(void **state)
{
    (void)state;
    struct area a = make_area();
    struct skiff_cell_pool p = pool_for(&a, 0);
    assert_int_equal(skiff_queue_pop(a.base, a.mb), 0);
    for (int i = 0; i < NCELLS; i++) {
        struct skiff_cell *c = skiff_cell_alloc(&p);
        assert_non_null(c);
        c->hdr.tag = i;
        skiff_queue_push(a.base, a.mb, (uint64_t)((unsigned char *)c - a.base));
    }
    assert_null(skiff_cell_alloc(&p)); /* every cell in flight */
    for (int i = 0; i < NCELLS; i++) {
        uint64_t off = skiff_queue_pop(a.base, a.mb);
        assert_int_not_equal(off, 0);
        struct skiff_cell *c = (struct skiff_cell *)(a.base + off);
        assert_int_equal(c->hdr.tag, i);
        skiff_cell_release(c);
    }
    assert_int_equal(skiff_queue_pop(a.base, a.mb), 0);
    assert_non_null(skiff_cell_alloc(&p));
    free(a.base);
}

/* A producer stopped between its tail exchange and its link (preempted, or killed): pop must not wait
 * for it forever. The cell before it stays at the head, and the queue looks empty until the link lands;
 * then both come out in order. */
static void pop_does_not_wait_for_a_stalled_producer(void **state)
{
    (void)state;
    struct area a = make_area();
    struct skiff_cell_pool p = pool_for(&a, 0);
    struct skiff_cell *first = skiff_cell_alloc(&p), *second = skiff_cell_alloc(&p);
    uint64_t off1 = (uint64_t)((unsigned char *)first - a.base), off2 = (uint64_t)((unsigned char *)second - a.base);
    skiff_queue_push(a.base, a.mb, off1);
    /* The first half of skiff_queue_push for the second cell: swapped in as the tail, not yet linked. */
    atomic_store_explicit(&second->next, 0, memory_order_relaxed);
    assert_int_equal(atomic_exchange(&a.mb->tail, off2), off1);
    assert_int_equal(skiff_queue_pop(a.base, a.mb), 0);
    assert_int_equal(skiff_queue_pop(a.base, a.mb), 0);
    /* The second half: the link. */
    atomic_store_explicit(&first->next, off2, memory_order_release);
    assert_int_equal(skiff_queue_pop(a.base, a.mb), off1);
    assert_int_equal(skiff_queue_pop(a.base, a.mb), off2);
    assert_int_equal(skiff_queue_pop(a.base, a.mb), 0);
    free(a.base);
}

/* Nothing to take yet. A short poll keeps the fine interleaving the test is after while the peer runs
 * on the other core; past that the peer is likely preempted (threads outnumber the cores, and the
 * machine may be busy), so sleep: a sleeper that wakes is scheduled at once, whereas a spinner burnt
 * its time slices and a yielder handed them to whatever else was running (under 10 busy loops on 2
 * cores: spinning 4-15 s, yielding 13-16 s, this 1 s). Not a lock or condition variable: those would
 * order the threads for ThreadSanitizer and hide a missing barrier in the queue's own atomics. */
static void wait_for_peer(unsigned *idle)
{
    if (++*idle < 64)
        return;
    struct timespec nap = {0, 20000};
    nanosleep(&nap, NULL);
}

struct prod_arg {
    struct area *a;
    int id;
};

static void *producer(void *arg)
{
    struct prod_arg *pa = arg;
    struct skiff_cell_pool p = pool_for(pa->a, pa->id);
    for (int i = 0; i < PER_PROD; i++) {
        struct skiff_cell *c;
        unsigned idle = 0;
        while (!(c = skiff_cell_alloc(&p)))
            wait_for_peer(&idle);
        c->hdr.src = pa->id;
        c->hdr.tag = i;
        skiff_queue_push(pa->a->base, pa->a->mb, (uint64_t)((unsigned char *)c - pa->a->base));
    }
    return NULL;
}

static void concurrent_producers_keep_their_order(void **state)
{
    (void)state;
    struct area a = make_area();
    pthread_t th[NPROD];
    struct prod_arg args[NPROD];
    for (int i = 0; i < NPROD; i++) {
        args[i] = (struct prod_arg){&a, i};
        pthread_create(&th[i], NULL, producer, &args[i]);
    }
    int next[NPROD] = {0};
    unsigned idle = 0;
    for (int got = 0; got < NPROD * PER_PROD;) {
        uint64_t off = skiff_queue_pop(a.base, a.mb);
        if (!off) {
            wait_for_peer(&idle);
            continue;
        }
        idle = 0;
        struct skiff_cell *c = (struct skiff_cell *)(a.base + off);
        int src = c->hdr.src;
        assert_in_range(src, 0, NPROD - 1);
        assert_int_equal(c->hdr.tag, next[src]);
        next[src]++;
        got++;
        skiff_cell_release(c);
    }
    for (int i = 0; i < NPROD; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(skiff_queue_pop(a.base, a.mb), 0);
    free(a.base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(single_thread_fifo),
        cmocka_unit_test(pop_does_not_wait_for_a_stalled_producer),
        cmocka_unit_test(concurrent_producers_keep_their_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
