/* Configuration: parsing and the promise that docs/configuration.md lists every variable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/config.h"

static const char *docs_path;

static void defaults_without_environment(void **state)
{
    (void)state;
    unsetenv("SKIFF_SHM_EAGER");
    unsetenv("SKIFF_SHM_FBOX");
    assert_int_equal(skiff_config_load(), 0);
    assert_int_equal(skiff_cfg.shm_eager, 16384);
    assert_int_equal(skiff_cfg.shm_fbox, 16384);
    assert_int_equal(skiff_cfg.shm_cma, -1);
}

static void sizes_take_suffixes_and_round(void **state)
{
    (void)state;
    setenv("SKIFF_SHM_EAGER", "8k", 1);
    setenv("SKIFF_SHM_FBOX", "5000", 1);
    assert_int_equal(skiff_config_load(), 0);
    assert_int_equal(skiff_cfg.shm_eager, 8192);
    assert_int_equal(skiff_cfg.shm_fbox, 8192); /* next power of two */
    unsetenv("SKIFF_SHM_EAGER");
    unsetenv("SKIFF_SHM_FBOX");
}

static void bad_values_are_refused(void **state)
{
    (void)state;
    setenv("SKIFF_SHM_CELLS", "lots", 1);
    assert_int_equal(skiff_config_load(), -1);
    setenv("SKIFF_SHM_CELLS", "1", 1); /* below the minimum */
    assert_int_equal(skiff_config_load(), -1);
    unsetenv("SKIFF_SHM_CELLS");
    setenv("SKIFF_SHM_CMA", "maybe", 1);
    assert_int_equal(skiff_config_load(), -1);
    unsetenv("SKIFF_SHM_CMA");
    assert_int_equal(skiff_config_load(), 0);
}

static void docs_list_every_variable(void **state)
{
    (void)state;
    FILE *f = fopen(docs_path, "r");
    assert_non_null(f);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    for (const struct skiff_config_row *r = skiff_config_table; r->name; r++) {
        char cell[128];
        snprintf(cell, sizeof cell, "| `%s` |", r->name);
        if (!strstr(text, cell))
            fail_msg("%s is in src/util/config.c but not in %s", r->name, docs_path);
    }
}

int main(int argc, char **argv)
{
    docs_path = argc > 1 ? argv[1] : "docs/configuration.md";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_without_environment),
        cmocka_unit_test(sizes_take_suffixes_and_round),
        cmocka_unit_test(bad_values_are_refused),
        cmocka_unit_test(docs_list_every_variable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
