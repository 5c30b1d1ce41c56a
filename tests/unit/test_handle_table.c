/* The table behind MPI_X_toint / MPI_X_c2f for user handles (core/handle_table.h): stable integers,
 * dead handles and made-up integers finding nothing, slots coming back with a new generation, and a
 * table that stays small while handles keep dying. Handles here are plain numbers whose liveness the
 * test decides. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/handle_table.h"

#define MAX_HANDLES 200000
static unsigned char dead[MAX_HANDLES + 1]; /* handle h (1..MAX_HANDLES) is dead when dead[h] */

static int live(uintptr_t h)
{
    assert_true(h >= 1 && h <= MAX_HANDLES);
    return !dead[h];
}

static void reset(void)
{
    memset(dead, 0, sizeof dead);
}

static void stable_and_distinct(void **state)
{
    (void)state;
    reset();
    struct skiff_htab t = SKIFF_HTAB_INIT(live);
    int v[500];
    for (uintptr_t h = 1; h <= 500; h++) {
        v[h - 1] = skiff_htab_toint(&t, h * 397); /* spread, as addresses are */
        assert_true(v[h - 1] >= SKIFF_HTAB_BASE);
    }
    for (uintptr_t h = 1; h <= 500; h++) {
        assert_int_equal(skiff_htab_toint(&t, h * 397), v[h - 1]);
        assert_int_equal(skiff_htab_fromint(&t, v[h - 1]), h * 397);
        for (uintptr_t k = 1; k < h; k++)
            assert_int_not_equal(v[k - 1], v[h - 1]);
    }
    assert_int_equal(skiff_htab_used(&t), 500);
    skiff_htab_destroy(&t);
}

static void dead_and_made_up(void **state)
{
    (void)state;
    reset();
    struct skiff_htab t = SKIFF_HTAB_INIT(live);
    int a = skiff_htab_toint(&t, 7), b = skiff_htab_toint(&t, 8);
    dead[7] = 1;
    assert_int_equal(skiff_htab_fromint(&t, a), 0);
    assert_int_equal(skiff_htab_fromint(&t, b), 8);
    static const int made_up[] = {-1, 0, 1, 0x100, SKIFF_HTAB_BASE - 1, SKIFF_HTAB_BASE + 2, SKIFF_HTAB_BASE + 12345,
                                  0x7fffffff};
    for (size_t i = 0; i < sizeof made_up / sizeof made_up[0]; i++)
        if (made_up[i] != b)
            assert_int_equal(skiff_htab_fromint(&t, made_up[i]), 0);
    skiff_htab_destroy(&t);
}

/* A slot that comes back names its new handle under a new integer: the old integer stays dead. */
static void reused_slots_change_integer(void **state)
{
    (void)state;
    reset();
    struct skiff_htab t = SKIFF_HTAB_INIT(live);
    int first[64];
    for (uintptr_t h = 1; h <= 64; h++)
        first[h - 1] = skiff_htab_toint(&t, h);
    for (uintptr_t h = 1; h <= 64; h++)
        dead[h] = 1;
    int second[64];
    for (uintptr_t h = 65; h <= 128; h++) /* the table is full: these take the dead ones' slots */
        second[h - 65] = skiff_htab_toint(&t, h);
    assert_int_equal(skiff_htab_used(&t), 64);
    for (int i = 0; i < 64; i++) {
        assert_int_equal(skiff_htab_fromint(&t, first[i]), 0);
        assert_int_equal(skiff_htab_fromint(&t, second[i]), (uintptr_t)(65 + i));
        for (int j = 0; j < 64; j++)
            assert_int_not_equal(first[j], second[i]);
    }
    skiff_htab_destroy(&t);
}

/* Requests die as fast as they are made: the table keeps to the handles alive, and the integer of a
 * dead handle names nothing while its slot's generation has not come round (255 reuses). */
static void churn_stays_small(void **state)
{
    (void)state;
    reset();
    struct skiff_htab t = SKIFF_HTAB_INIT(live);
    int keep = skiff_htab_toint(&t, 1); /* one long-lived handle among the churn */
    int old = skiff_htab_toint(&t, 2);
    dead[2] = 1;
    for (uintptr_t h = 3; h <= MAX_HANDLES; h++) {
        int v = skiff_htab_toint(&t, h);
        assert_int_equal(skiff_htab_fromint(&t, v), h);
        if (h > 10)
            dead[h - 8] = 1; /* 8 in flight at a time */
        if (h < 10000) { /* fewer than 255 sweeps so far: no slot has been reused that often */
            assert_int_not_equal(v, old);
            assert_int_equal(skiff_htab_fromint(&t, old), 0);
        }
    }
    assert_int_equal(skiff_htab_fromint(&t, keep), 1);
    assert_true(t.cap <= 64);
    skiff_htab_destroy(&t);
}

/* Many live at once: the table grows, and every integer still finds its handle. */
static void growth(void **state)
{
    (void)state;
    reset();
    struct skiff_htab t = SKIFF_HTAB_INIT(live);
    static int v[MAX_HANDLES];
    for (uintptr_t h = 1; h <= MAX_HANDLES; h++)
        v[h - 1] = skiff_htab_toint(&t, h);
    for (uintptr_t h = 1; h <= MAX_HANDLES; h += 97)
        assert_int_equal(skiff_htab_fromint(&t, v[h - 1]), h);
    assert_int_equal(skiff_htab_used(&t), MAX_HANDLES);
    assert_true(t.cap < 2 * MAX_HANDLES);
    skiff_htab_destroy(&t);
    assert_int_equal(skiff_htab_fromint(&t, v[0]), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stable_and_distinct), cmocka_unit_test(dead_and_made_up),
        cmocka_unit_test(reused_slots_change_integer), cmocka_unit_test(churn_stays_small),
        cmocka_unit_test(growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
