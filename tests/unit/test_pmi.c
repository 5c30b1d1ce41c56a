/* The PMI-1 client against canned server replies: key=value pairs in either order (Hydra puts rc
 * last, Slurm first), failures reported, the commands it sends well formed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "boot/pmi.h"

static int server; /* our end of the socket pair; the client's end goes to skiff_pmi_init */

static int setup(void **state)
{
    (void)state;
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    server = sv[0];
    /* The replies can be queued before the client asks: the socket buffers them. */
    *state = (void *)(intptr_t)sv[1];
    return 0;
}

static int teardown(void **state)
{
    if (skiff_pmi_active()) { /* finalize waits for its acknowledgement */
        const char *ack = "cmd=finalize_ack\n";
        assert_int_equal(write(server, ack, strlen(ack)), (ssize_t)strlen(ack));
        skiff_pmi1.finalize(); /* closes the client's end */
    } else {
        close((int)(intptr_t)*state);
    }
    close(server);
    return 0;
}

static void reply(const char *lines)
{
    assert_int_equal(write(server, lines, strlen(lines)), (ssize_t)strlen(lines));
}

static void sent(char *buf, size_t len)
{
    ssize_t n = read(server, buf, len - 1);
    assert_true(n > 0);
    buf[n] = '\0';
}

static void hydra_order(void **state)
{
    char value[64], cmds[1024];
    reply("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n"
          "cmd=my_kvsname kvsname=kvs_42_0\n"
          "cmd=put_result rc=0 msg=success\n"
          "cmd=barrier_out\n"
          "cmd=get_result rc=0 msg=success value=1234:7\n");
    assert_int_equal(skiff_pmi_init((int)(intptr_t)*state), 0);
    assert_int_equal(skiff_pmi_put("skiff-segment", "1234:7"), 0);
    assert_int_equal(skiff_pmi_barrier(), 0);
    assert_int_equal(skiff_pmi_get("skiff-segment", value, sizeof value), 0);
    assert_string_equal(value, "1234:7");
    sent(cmds, sizeof cmds);
    assert_non_null(strstr(cmds, "cmd=init pmi_version=1 pmi_subversion=1\n"));
    assert_non_null(strstr(cmds, "cmd=put kvsname=kvs_42_0 key=skiff-segment value=1234:7\n"));
    assert_non_null(strstr(cmds, "cmd=get kvsname=kvs_42_0 key=skiff-segment\n"));
}

static void slurm_order(void **state)
{
    char value[64];
    reply("cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1\n"
          "cmd=my_kvsname rc=0 kvsname=1234.0\n"
          "cmd=get_result rc=0 value=(vector,(0,1,3))\n");
    assert_int_equal(skiff_pmi_init((int)(intptr_t)*state), 0);
    assert_int_equal(skiff_pmi_get("PMI_process_mapping", value, sizeof value), 0);
    assert_string_equal(value, "(vector,(0,1,3))");
}

static void failures_are_reported(void **state)
{
    char value[64];
    reply("cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1\n"
          "cmd=my_kvsname kvsname=k\n"
          "cmd=get_result rc=-1 msg=key_not_found\n"
          "cmd=something_else\n");
    assert_int_equal(skiff_pmi_init((int)(intptr_t)*state), 0);
    assert_int_equal(skiff_pmi_get("missing", value, sizeof value), -1); /* rc != 0 */
    assert_int_equal(skiff_pmi_barrier(), -1);                           /* wrong reply */
}

static void closed_server_fails_init(void **state)
{
    shutdown(server, SHUT_RDWR); /* the launcher went away */
    assert_int_equal(skiff_pmi_init((int)(intptr_t)*state), -1);
    assert_false(skiff_pmi_active());
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN); /* a write to a vanished server must fail, not kill the test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(hydra_order, setup, teardown),
        cmocka_unit_test_setup_teardown(slurm_order, setup, teardown),
        cmocka_unit_test_setup_teardown(failures_are_reported, setup, teardown),
        cmocka_unit_test_setup_teardown(closed_server_fails_init, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
