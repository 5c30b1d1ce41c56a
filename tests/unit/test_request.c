/* Request pool: ids survive growth, stale and forged ids are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/request.h"

static int teardown(void **state)
{
    (void)state;
    skiff_req_finalize();
    return 0;
}

static void ids_find_their_request(void **state)
{
    (void)state;
    struct skiff_request *r[1000];
    for (int i = 0; i < 1000; i++) /* several chunks: growth must not move requests */
        r[i] = skiff_req_alloc(SKIFF_REQ_SEND);
    for (int i = 0; i < 1000; i++)
        assert_ptr_equal(skiff_req_lookup(skiff_req_id(r[i])), r[i]);
}

static void released_ids_go_stale(void **state)
{
    (void)state;
    struct skiff_request *r = skiff_req_alloc(SKIFF_REQ_RECV);
    uint64_t id = skiff_req_id(r);
    skiff_req_release(r);
    assert_null(skiff_req_lookup(id));
    struct skiff_request *again = skiff_req_alloc(SKIFF_REQ_RECV);
    assert_ptr_equal(again, r); /* same slot ... */
    assert_null(skiff_req_lookup(id)); /* ... but the old id does not reach it */
    assert_ptr_equal(skiff_req_lookup(skiff_req_id(again)), again);
}

static void forged_ids_are_refused(void **state)
{
    (void)state;
    skiff_req_alloc(SKIFF_REQ_SEND);
    assert_null(skiff_req_lookup(0));
    assert_null(skiff_req_lookup(UINT64_MAX));
    assert_null(skiff_req_lookup((uint64_t)1 << 32 | 0xfffff));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(ids_find_their_request, teardown),
        cmocka_unit_test_teardown(released_ids_go_stale, teardown),
        cmocka_unit_test_teardown(forged_ids_are_refused, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
