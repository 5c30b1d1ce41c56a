/* The point-to-point protocol against a fake peer: answers must name their request's context (protocol
 * version 3), and a request started with a completion action has it in place before it is posted, so
 * the action runs exactly once even when the request completes inside the call that starts it.
 *
 * Rank 0 of a 2-rank world talks to a fake rank 1 whose transport swallows what we send; "arrivals from
 * rank 1" are handed to skiff_core_incoming as a transport would. A protocol error ends the job:
 * skiff_abort_job is wrapped to jump back into the test instead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/comm.h"
#include "core/core.h"
#include "core/match.h"
#include "core/proto.h"
#include "core/pt2pt.h"
#include "core/request.h"
#include "util/config.h"

#define EAGER 4096

static jmp_buf on_abort;
static int aborts;

_Noreturn void __wrap_skiff_abort_job(int code, const char *why);
_Noreturn void __wrap_skiff_abort_job(int code, const char *why)
{
    (void)code, (void)why;
    aborts++;
    longjmp(on_abort, 1);
}

void __wrap_skiff_log_write(int level, const char *fmt, ...);
void __wrap_skiff_log_write(int level, const char *fmt, ...)
{
    (void)level, (void)fmt; /* the protocol errors provoked here would each print a line */
}

static int fake_send(int peer, const struct skiff_hdr *h, const void *payload, size_t len)
{
    (void)peer, (void)h, (void)payload, (void)len;
    return 0;
}

static int fake_progress(void)
{
    return 0;
}

static const struct skiff_transport fake = {
    .name = "fake", .send = fake_send, .progress = fake_progress, .max_eager = EAGER, .max_piece = EAGER};
static const struct skiff_transport *peers[2] = {NULL, &fake};

static int setup(void **state)
{
    (void)state;
    skiff_config_load();
    skiff.rank = 0;
    skiff.size = 2;
    skiff.peer_tr = peers;
    skiff_comm_init_predefined(0, 2);
    skiff.initialized = 1;
    aborts = 0;
    return skiff_pt2pt_init();
}

static int teardown(void **state)
{
    (void)state;
    skiff_pt2pt_finalize();
    skiff_match_finalize();
    skiff_req_finalize();
    return 0;
}

/* An answer from rank 1 naming request id of ours, on context ctx. 1 if it ended the job. */
static int answer(int type, uint32_t ctx, uint64_t sreq, uint64_t rreq)
{
    struct skiff_hdr h = {.type = (uint8_t)type, .version = SKIFF_PROTO_VERSION, .src = 1, .ctx = ctx,
                          .sreq = sreq, .rreq = rreq};
    int before = aborts;
    if (setjmp(on_abort) == 0)
        skiff_core_incoming(1, &h, NULL, 0);
    return aborts != before;
}

static char big[2 * EAGER];

static struct skiff_request *start_send(size_t bytes, int mode)
{
    struct skiff_request *r = NULL;
    assert_int_equal(skiff_send_start(big, bytes, 1, 5, &skiff_comm_world, skiff_comm_world.ctx, mode, 0, &r),
                     MPI_SUCCESS);
    assert_non_null(r);
    return r;
}

static void ack_of_another_context_is_refused(void **state)
{
    (void)state;
    struct skiff_request *r = start_send(8, SKIFF_SEND_SYNC);
    uint32_t ctx = skiff_comm_world.ctx;
    assert_int_equal(r->state, SKIFF_RS_WAIT_ACK);
    assert_true(answer(SKIFF_MSG_ACK, ctx + 1, skiff_req_id(r), 0)); /* the collective context, say */
    assert_int_equal(r->state, SKIFF_RS_WAIT_ACK);
    assert_false(answer(SKIFF_MSG_ACK, ctx, skiff_req_id(r), 0));
    assert_true(skiff_req_done(r));
    skiff_req_release(r);
}

static void rendezvous_answers_of_another_context_are_refused(void **state)
{
    (void)state;
    struct skiff_request *r = start_send(sizeof big, SKIFF_SEND_STANDARD);
    uint32_t ctx = skiff_comm_world.ctx;
    assert_int_equal(r->state, SKIFF_RS_WAIT_RNDV);
    assert_true(answer(SKIFF_MSG_FIN, ctx + 4, skiff_req_id(r), 0));
    assert_true(answer(SKIFF_MSG_CTS, ctx + 1, skiff_req_id(r), 77));
    assert_true(answer(SKIFF_MSG_DROP, ctx + 1, skiff_req_id(r), 0));
    assert_int_equal(r->state, SKIFF_RS_WAIT_RNDV);
    assert_false(answer(SKIFF_MSG_FIN, ctx, skiff_req_id(r), 0));
    assert_true(skiff_req_done(r));
    skiff_req_release(r);
}

static int ran;
static void count_run(struct skiff_request *r)
{
    (void)r;
    ran++;
}

/* A message from rank 1 that nobody has asked for yet. */
static void arrives(int tag, const void *data, size_t len)
{
    struct skiff_hdr h = {.type = SKIFF_MSG_EAGER, .version = SKIFF_PROTO_VERSION, .src = 1, .tag = tag,
                          .ctx = skiff_comm_world.ctx, .len = len};
    skiff_core_incoming(1, &h, data, len);
}

static void then_runs_when_a_receive_matches_at_once(void **state)
{
    (void)state;
    char buf[8] = {0};
    struct skiff_request *r = NULL;
    ran = 0;
    arrives(3, "payload", 8);
    assert_int_equal(skiff_recv_start_then(buf, sizeof buf, 1, 3, &skiff_comm_world, skiff_comm_world.ctx,
                                           &(struct skiff_req_then){count_run, buf, 0}, &r),
                     MPI_SUCCESS);
    assert_non_null(r);
    assert_int_equal(ran, 1);
    assert_true(skiff_req_done(r));
    assert_ptr_equal(r->cookie, buf);
    assert_string_equal(buf, "payload");
    skiff_req_release(r);
}

static void then_runs_once_when_a_receive_matches_later(void **state)
{
    (void)state;
    char buf[8] = {0};
    struct skiff_request *r = NULL;
    ran = 0;
    assert_int_equal(skiff_recv_start_then(buf, sizeof buf, 1, 4, &skiff_comm_world, skiff_comm_world.ctx,
                                           &(struct skiff_req_then){count_run, NULL, 0}, &r),
                     MPI_SUCCESS);
    assert_int_equal(ran, 0);
    arrives(4, "later!!", 8);
    assert_int_equal(ran, 1);
    assert_true(skiff_req_done(r));
    skiff_req_release(r);
}

/* A freed request is not handed back: it may be gone by the time the call returns. */
static void freed_requests_release_themselves(void **state)
{
    (void)state;
    char buf[8];
    struct skiff_request *r = (struct skiff_request *)&r;
    ran = 0;
    assert_int_equal(skiff_send_start_then(big, 8, 1, 6, &skiff_comm_world, skiff_comm_world.ctx,
                                           SKIFF_SEND_STANDARD, 0, &(struct skiff_req_then){count_run, NULL, 1}, &r),
                     MPI_SUCCESS);
    assert_null(r);
    assert_int_equal(ran, 1); /* left at once */
    assert_int_equal(skiff_recv_start_then(buf, sizeof buf, 1, 7, &skiff_comm_world, skiff_comm_world.ctx,
                                           &(struct skiff_req_then){count_run, NULL, 1}, &r),
                     MPI_SUCCESS);
    assert_null(r);
    assert_int_equal(ran, 1);
    arrives(7, "freed..", 8);
    assert_int_equal(ran, 2);
    assert_int_equal(skiff_pt2pt_outstanding(), 0);
}

/* A send that leaves at once still runs its action, on the request it returns complete. */
static void then_runs_for_a_send_that_left_at_once(void **state)
{
    (void)state;
    struct skiff_request *r = NULL;
    ran = 0;
    assert_int_equal(skiff_send_start_then(big, 8, 1, 6, &skiff_comm_world, skiff_comm_world.ctx,
                                           SKIFF_SEND_STANDARD, 0, &(struct skiff_req_then){count_run, big, 0}, &r),
                     MPI_SUCCESS);
    assert_non_null(r);
    assert_int_equal(ran, 1);
    assert_true(skiff_req_done(r));
    skiff_req_release(r);
    /* Blocking, it makes no request and runs nothing: the caller keeps what the cookie holds. */
    assert_int_equal(skiff_send_start_then(big, 8, 1, 6, &skiff_comm_world, skiff_comm_world.ctx,
                                           SKIFF_SEND_STANDARD, 1, &(struct skiff_req_then){count_run, big, 0}, &r),
                     MPI_SUCCESS);
    assert_null(r);
    assert_int_equal(ran, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(ack_of_another_context_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(rendezvous_answers_of_another_context_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(then_runs_when_a_receive_matches_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(then_runs_once_when_a_receive_matches_later, setup, teardown),
        cmocka_unit_test_setup_teardown(freed_requests_release_themselves, setup, teardown),
        cmocka_unit_test_setup_teardown(then_runs_for_a_send_that_left_at_once, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
