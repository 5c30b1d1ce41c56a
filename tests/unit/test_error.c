/* Error codes: the class survives the detail, the message names call, rank and numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/error.h"

static void class_and_message_round_trip(void **state)
{
    (void)state;
    char msg[MPI_MAX_ERROR_STRING];
    skiff_call = "MPI_Recv";
    int code = skiff_err(MPI_ERR_TRUNCATE, "message truncated: %d bytes arrived, buffer holds %d", 4096, 1024);
    assert_int_not_equal(code, MPI_ERR_TRUNCATE);
    assert_true(code <= MPI_ERR_LASTCODE);
    assert_int_equal(skiff_err_class(code), MPI_ERR_TRUNCATE);
    assert_int_equal(skiff_err_string(code, msg), 0);
    assert_non_null(strstr(msg, "MPI_Recv"));
    assert_non_null(strstr(msg, "4096"));
    assert_non_null(strstr(msg, "1024"));
}

static void bare_classes_have_text(void **state)
{
    (void)state;
    char msg[MPI_MAX_ERROR_STRING];
    assert_int_equal(skiff_err_string(MPI_ERR_RANK, msg), 0);
    assert_string_equal(msg, "invalid rank");
    assert_int_equal(skiff_err_string(-5, msg), -1);
}

static void ring_reuse_keeps_codes_valid(void **state)
{
    (void)state;
    for (int i = 0; i < 1000; i++) {
        int code = skiff_err(MPI_ERR_TAG, "invalid tag %d", -i);
        assert_int_equal(skiff_err_class(code), MPI_ERR_TAG);
        assert_true(code <= MPI_ERR_LASTCODE);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(class_and_message_round_trip),
        cmocka_unit_test(bare_classes_have_text),
        cmocka_unit_test(ring_reuse_keeps_codes_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
