/* Configuration: parsing and the promise that docs/configuration.md lists every variable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/transports.h"
#include "util/config.h"
#ifdef SKIFF_HAVE_UCX
#include "ucx/ucx.h"
#endif

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

static const struct skiff_config_row *row_named(const char *name)
{
    for (const struct skiff_config_row *r = skiff_config_table; r->name; r++)
        if (strcmp(r->name, name) == 0)
            return r;
    fail_msg("no row %s", name);
    return NULL;
}

/* What skiff-info and MPI_T show is what the library uses, not the text given. */
static void values_in_force_are_shown(void **state)
{
    (void)state;
    char v[64];
    setenv("SKIFF_SHM_FBOX", "5000", 1);
    setenv("SKIFF_SHM_EAGER", "1m", 1);    /* clamped to one cell */
    setenv("SKIFF_TRANSPORTS", "tcp", 1);
    setenv("SKIFF_TCP_NETS", "auto", 1);   /* the default's own text: NULL inside */
    assert_int_equal(skiff_config_load(), 0);
    assert_null(skiff_cfg.tcp_nets);
    assert_int_equal(skiff_config_value(row_named("SKIFF_SHM_FBOX"), v, sizeof v), 0);
    assert_string_equal(v, "8192");
    assert_int_equal(skiff_config_value(row_named("SKIFF_SHM_EAGER"), v, sizeof v), 0);
    assert_string_equal(v, "32768");
    assert_int_equal(skiff_config_value(row_named("SKIFF_TRANSPORTS"), v, sizeof v), 0);
    assert_string_equal(v, "tcp");
    assert_int_equal(skiff_config_value(row_named("SKIFF_TCP_NETS"), v, sizeof v), 0);
    assert_string_equal(v, "auto");
    assert_int_equal(skiff_config_value(row_named("SKIFF_SPIN"), v, sizeof v), 0);
    assert_string_equal(v, "auto");
    assert_int_equal(skiff_config_value(row_named("SKIFF_FINALIZE_TIMEOUT"), v, sizeof v), 0);
    assert_string_equal(v, "5");
    unsetenv("SKIFF_SHM_FBOX");
    unsetenv("SKIFF_SHM_EAGER");
    unsetenv("SKIFF_TRANSPORTS");
    unsetenv("SKIFF_TCP_NETS");
}

/* ucx stands in for tcp: with it where it is built (shown as named), refused where it is not, and
 * never together with tcp (the core gives each peer one transport). */
static void ucx_transport_setting(void **state)
{
    (void)state;
    char v[64];
    setenv("SKIFF_TRANSPORTS", "tcp,ucx", 1);
    assert_int_equal(skiff_config_load(), -1);
    setenv("SKIFF_TRANSPORTS", "shm,ucx", 1);
#ifdef SKIFF_HAVE_UCX
    assert_int_equal(skiff_config_load(), 0);
    assert_int_equal(skiff_cfg.transports, skiff_transport_bit("shm") | skiff_transport_bit("ucx"));
    assert_int_equal(skiff_config_value(row_named("SKIFF_TRANSPORTS"), v, sizeof v), 0);
    assert_string_equal(v, "shm,ucx");
    setenv("SKIFF_TRANSPORTS", "ucx", 1);
    assert_int_equal(skiff_config_load(), 0);
    assert_int_equal(skiff_cfg.transports, skiff_transport_bit("ucx"));
#else
    (void)v;
    assert_int_equal(skiff_config_load(), -1);
#endif
    unsetenv("SKIFF_TRANSPORTS");
    assert_int_equal(skiff_config_load(), 0);
}

/* SKIFF_TRANSPORTS=auto (the default) shows as auto until a job that needs a network decides; the
 * decision takes ucx when UCX offers a network transport other than its tcp (ucx/load.c). */
static void auto_transports(void **state)
{
    (void)state;
    char v[64];
    assert_int_equal(skiff_config_load(), 0);
    assert_int_equal(skiff_config_value(row_named("SKIFF_TRANSPORTS"), v, sizeof v), 0);
#ifdef SKIFF_HAVE_UCX
    assert_string_equal(v, "auto");
    char fast[32];
    assert_null(skiff_ucx_fast_transport("", fast, sizeof fast));
    assert_null(skiff_ucx_fast_transport("tcp", fast, sizeof fast));
    assert_null(skiff_ucx_fast_transport("tcp/eth0,tcp/lo", fast, sizeof fast));
    assert_non_null(skiff_ucx_fast_transport("tcp/eth0,ud_verbs/mlx5_0:1", fast, sizeof fast));
    assert_string_equal(fast, "ud_verbs/mlx5_0:1");
    assert_non_null(skiff_ucx_fast_transport("rc_mlx5", fast, sizeof fast));
    assert_string_equal(fast, "rc_mlx5");
    assert_non_null(skiff_ucx_fast_transport("tcpx/eth0", fast, sizeof fast)); /* only tcp itself is tcp */
    /* a hook that says a fabric is there turns auto into ucx; one that says tcp leaves tcp */
    setenv("SKIFF_UCX_FABRIC", "rc_mlx5", 1);
    assert_int_equal(skiff_config_load(), 0);
    skiff_transports_settle_auto(1);
    assert_int_equal(skiff_cfg.transports, skiff_transport_bit("shm") | skiff_transport_bit("ucx"));
    assert_int_equal(skiff_config_value(row_named("SKIFF_TRANSPORTS"), v, sizeof v), 0);
    assert_string_equal(v, "shm,ucx");
    setenv("SKIFF_UCX_FABRIC", "tcp/eth0", 1);
    assert_int_equal(skiff_config_load(), 0);
    skiff_transports_settle_auto(1);
    assert_int_equal(skiff_cfg.transports, skiff_transport_bit("shm") | skiff_transport_bit("tcp"));
    /* named transports are never second-guessed */
    setenv("SKIFF_UCX_FABRIC", "rc_mlx5", 1);
    setenv("SKIFF_TRANSPORTS", "shm,tcp", 1);
    assert_int_equal(skiff_config_load(), 0);
    skiff_transports_settle_auto(1);
    assert_int_equal(skiff_cfg.transports, skiff_transport_bit("shm") | skiff_transport_bit("tcp"));
    unsetenv("SKIFF_TRANSPORTS");
    unsetenv("SKIFF_UCX_FABRIC");
#else
    assert_string_equal(v, "shm,tcp");
#endif
    assert_int_equal(skiff_config_load(), 0);
}

/* Every default parses, and a level no log call uses is refused rather than accepted and ignored. */
static void defaults_parse_and_ranges_hold(void **state)
{
    (void)state;
    setenv("SKIFF_DEBUG", "3", 1);
    assert_int_equal(skiff_config_load(), -1);
    setenv("SKIFF_DEBUG", "2", 1);
    assert_int_equal(skiff_config_load(), 0);
    unsetenv("SKIFF_DEBUG");
    setenv("SKIFF_TRANSPORTS", "shm,carrier-pigeon", 1);
    assert_int_equal(skiff_config_load(), -1);
    unsetenv("SKIFF_TRANSPORTS");
    setenv("SKIFF_SHM_EAGER", "-5", 1);
    assert_int_equal(skiff_config_load(), -1);
    unsetenv("SKIFF_SHM_EAGER");
    assert_int_equal(skiff_config_load(), 0);
    int shm_tcp = skiff_transport_bit("shm") | skiff_transport_bit("tcp");
#ifdef SKIFF_HAVE_UCX
    assert_int_equal(skiff_cfg.transports, shm_tcp | SKIFF_TRANSPORTS_AUTO);
#else
    assert_int_equal(skiff_cfg.transports, shm_tcp);
#endif
    assert_int_equal(skiff_cfg.trace_records, 1048576);
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
        cmocka_unit_test(values_in_force_are_shown),
        cmocka_unit_test(defaults_parse_and_ranges_hold),
        cmocka_unit_test(auto_transports),
        cmocka_unit_test(ucx_transport_setting),
        cmocka_unit_test(docs_list_every_variable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
