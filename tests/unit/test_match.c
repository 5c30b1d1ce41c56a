/* The matching engine: posting order, wildcards, contexts (also those that share one of the per-context
 * lists), unexpected queue order, and the search for a sender's waiting message across all contexts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/comm.h"
#include "core/match.h"

/* A receive posted on context ctx, of communicator c when the test needs its assertions (else NULL). */
static struct skiff_request *post_with(struct skiff_comm *c, uint32_t ctx, int src, int tag)
{
    struct skiff_request *r = skiff_req_alloc(SKIFF_REQ_RECV);
    r->comm = c;
    r->ctx = ctx;
    r->peer = src;
    r->tag = tag;
    skiff_posted_add(r);
    return r;
}

static struct skiff_request *post(uint32_t ctx, int src, int tag)
{
    return post_with(NULL, ctx, src, tag);
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

static struct skiff_unexp *add_unexp_on(uint32_t ctx, int src, int tag)
{
    struct skiff_unexp *u = calloc(1, sizeof *u);
    u->h.src = src;
    u->h.tag = tag;
    u->h.ctx = ctx;
    skiff_unexp_add(u);
    return u;
}

static void add_unexp(int src, int tag)
{
    add_unexp_on(0, src, tag);
}

/* Contexts 256 apart share a list (match.c keeps 256): wildcards must still see their own context only,
 * in order. And contexts 4 apart do not, whatever the number of lists. */
static void contexts_sharing_a_list_never_mix(void **state)
{
    (void)state;
    struct skiff_request *a = post(4, MPI_ANY_SOURCE, MPI_ANY_TAG), *b = post(260, MPI_ANY_SOURCE, MPI_ANY_TAG);
    struct skiff_request *c = post(4, MPI_ANY_SOURCE, MPI_ANY_TAG), *d = post(8, MPI_ANY_SOURCE, MPI_ANY_TAG);
    assert_ptr_equal(skiff_posted_take(260, 1, 1), b);
    assert_null(skiff_posted_take(260, 1, 1));
    assert_ptr_equal(skiff_posted_take(8, 1, 1), d);
    assert_ptr_equal(skiff_posted_take(4, 1, 1), a);
    assert_ptr_equal(skiff_posted_take(4, 1, 1), c);
    struct skiff_unexp *u1 = add_unexp_on(516, 3, 1), *u2 = add_unexp_on(4, 3, 2), *u3 = add_unexp_on(260, 3, 3);
    struct skiff_unexp *u4 = add_unexp_on(4, 3, 4);
    assert_int_equal(skiff_unexp_count(), 4);
    assert_ptr_equal(skiff_unexp_find(4, MPI_ANY_SOURCE, MPI_ANY_TAG, 1), u2);
    assert_ptr_equal(skiff_unexp_find(4, MPI_ANY_SOURCE, MPI_ANY_TAG, 1), u4);
    assert_null(skiff_unexp_find(4, MPI_ANY_SOURCE, MPI_ANY_TAG, 0));
    assert_ptr_equal(skiff_unexp_find(260, 3, MPI_ANY_TAG, 1), u3);
    assert_ptr_equal(skiff_unexp_find(516, MPI_ANY_SOURCE, 1, 1), u1);
    assert_int_equal(skiff_unexp_count(), 0);
    free(u1), free(u2), free(u3), free(u4);
}

/* A withdrawn send is looked for on its own context only; the end of the job drains every context. */
static void awaiting_messages_are_found_on_any_context(void **state)
{
    (void)state;
    struct skiff_unexp *eager = add_unexp_on(8, 1, 0), *r1 = add_unexp_on(12, 1, 0), *r2 = add_unexp_on(300, 1, 0);
    r1->h.type = r2->h.type = SKIFF_MSG_RTS;
    r1->peer = r2->peer = 1;
    r1->h.sreq = 6;
    r2->h.sreq = 7;
    assert_ptr_equal(skiff_unexp_take_awaiting(1, 300, 7), r2);
    assert_null(skiff_unexp_take_awaiting(1, 12, 8));
    assert_null(skiff_unexp_take_awaiting(1, 268, 6)); /* r1's sreq, another context of r1's list */
    assert_ptr_equal(skiff_unexp_take_awaiting(-1, 0, 0), r1);
    assert_null(skiff_unexp_take_awaiting(-1, 0, 0)); /* an eager message waits for nobody */
    assert_int_equal(skiff_unexp_count(), 1);
    assert_ptr_equal(skiff_unexp_find(8, 1, 0, 1), eager);
    free(eager), free(r1), free(r2);
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

static struct skiff_request *post_on(struct skiff_comm *c, int src, int tag)
{
    return post_with(c, c->ctx, src, tag);
}

/* Under mpi_assert_no_any_tag receives go to buckets by tag, and still match oldest first. */
static void asserted_receives_are_bucketed_in_order(void **state)
{
    (void)state;
    struct skiff_comm c = {.ctx = 8, .hints = SKIFF_HINT_NO_ANY_TAG};
    struct skiff_request *a = post_on(&c, 0, 5), *b = post_on(&c, 1, 5), *d = post_on(&c, 0, 6);
    assert_true(a->bucketed && b->bucketed && d->bucketed);
    assert_ptr_equal(skiff_posted_take(8, 1, 5), b);
    assert_ptr_equal(skiff_posted_take(8, 0, 6), d);
    assert_ptr_equal(skiff_posted_take(8, 0, 5), a);
    assert_null(skiff_posted_take(8, 0, 5));
}

/* Assertions that arrive while receives wait in the one list (MPI_Comm_set_info): later receives
 * join that list, or a newer one in a bucket would match before an older one. */
static void receives_posted_before_an_assertion_keep_their_turn(void **state)
{
    (void)state;
    struct skiff_comm c = {.ctx = 12};
    struct skiff_request *older = post_on(&c, 0, 5);
    c.hints = SKIFF_HINT_NO_ANY_TAG;
    struct skiff_request *newer = post_on(&c, 0, 5);
    assert_false(newer->bucketed);
    assert_ptr_equal(skiff_posted_take(12, 0, 5), older);
    assert_ptr_equal(skiff_posted_take(12, 0, 5), newer);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(oldest_matching_receive_wins, teardown),
        cmocka_unit_test_teardown(contexts_never_mix, teardown),
        cmocka_unit_test_teardown(removing_from_the_middle_keeps_the_rest, teardown),
        cmocka_unit_test_teardown(unexpected_messages_match_in_arrival_order, teardown),
        cmocka_unit_test_teardown(contexts_sharing_a_list_never_mix, teardown),
        cmocka_unit_test_teardown(awaiting_messages_are_found_on_any_context, teardown),
        cmocka_unit_test_teardown(asserted_receives_are_bucketed_in_order, teardown),
        cmocka_unit_test_teardown(receives_posted_before_an_assertion_keep_their_turn, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
