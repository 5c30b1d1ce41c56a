/* The matching engine: posting order, wildcards, contexts, unexpected queue order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/match.h"

static struct skiff_request *post(uint32_t ctx, int src, int tag)
{
    struct skiff_request *r = skiff_req_alloc(SKIFF_REQ_RECV);
    r->ctx = ctx;
    r->peer = src;
    r->tag = tag;
    skiff_posted_add(r);
    return r;
}

static int teardown(void **state)
{
    (void)state;
    skiff_match_finalize();
    skiff_req_finalize();
    return 0;
}

static void oldest_matching_receive_wins(void **state)
{
    (void)state;
    struct skiff_request *a = post(0, MPI_ANY_SOURCE, 5);
    struct skiff_request *b = post(0, 1, 5);
    struct skiff_request *c = post(0, 1, MPI_ANY_TAG);
    assert_ptr_equal(skiff_posted_take(0, 1, 5), a);
    assert_ptr_equal(skiff_posted_take(0, 1, 5), b);
    assert_ptr_equal(skiff_posted_take(0, 1, 9), c);
    assert_null(skiff_posted_take(0, 1, 5));
}

static void contexts_never_mix(void **state)
{
    (void)state;
    struct skiff_request *a = post(4, MPI_ANY_SOURCE, MPI_ANY_TAG);
    assert_null(skiff_posted_take(0, 0, 0));
    assert_ptr_equal(skiff_posted_take(4, 0, 0), a);
}

static void removing_from_the_middle_keeps_the_rest(void **state)
{
    (void)state;
    struct skiff_request *a = post(0, 0, 1), *b = post(0, 0, 1), *c = post(0, 0, 1);
    skiff_posted_remove(b);
    assert_ptr_equal(skiff_posted_take(0, 0, 1), a);
    assert_ptr_equal(skiff_posted_take(0, 0, 1), c);
    assert_null(skiff_posted_take(0, 0, 1));
}

static void add_unexp(int src, int tag)
{
    struct skiff_unexp *u = calloc(1, sizeof *u);
    u->h.src = src;
    u->h.tag = tag;
    u->h.ctx = 0;
    skiff_unexp_add(u);
}

static void unexpected_messages_match_in_arrival_order(void **state)
{
    (void)state;
    add_unexp(2, 7);
    add_unexp(1, 7);
    add_unexp(2, 8);
    assert_int_equal(skiff_unexp_count(), 3);
    struct skiff_unexp *u = skiff_unexp_find(0, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
    assert_int_equal(u->h.src, 2); /* probe does not remove */
    assert_int_equal(skiff_unexp_count(), 3);
    u = skiff_unexp_find(0, 2, MPI_ANY_TAG, 1);
    assert_int_equal(u->h.tag, 7);
    free(u);
    u = skiff_unexp_find(0, MPI_ANY_SOURCE, 7, 1);
    assert_int_equal(u->h.src, 1);
    free(u);
    u = skiff_unexp_find(0, 2, 8, 1);
    assert_non_null(u);
    free(u);
    assert_int_equal(skiff_unexp_count(), 0);
    assert_null(skiff_unexp_find(0, MPI_ANY_SOURCE, MPI_ANY_TAG, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(oldest_matching_receive_wins, teardown),
        cmocka_unit_test_teardown(contexts_never_mix, teardown),
        cmocka_unit_test_teardown(removing_from_the_middle_keeps_the_rest, teardown),
        cmocka_unit_test_teardown(unexpected_messages_match_in_arrival_order, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
