/* ssend — synchronous mode completes only once the receive has matched.
 *
 *   Ssend timing: the receiver signals "ready", then sleeps DELAY ms before posting its receive.
 *   The sender starts its clock when it gets "ready", so its Ssend must last >= ~DELAY (we
 *   require 150 ms for a 250 ms delay, leaving slack for scheduling on a loaded machine).
 *   Issend + Test: deterministic. The receiver does not post the matching receive until the
 *   sender tells it to (on another tag), so every Test before that must report "not complete".
 *   Ssend into an already posted receive must complete normally.
 * Each is done with a small (eager-sized) and a large (rendezvous-sized) message: an eager
 * protocol must not let Ssend complete early.
 *
 * Pairs (0,1), (2,3); an unpaired rank only joins the barriers.
 * usage: ssend [delay_ms] [min_ms]
 */
#include "testutil.h"

#define NAME "ssend"
enum { TAG_READY = 1, TAG_DATA = 2, TAG_GO = 3 };

static void timed_ssend(int rank, int partner, int n, int delay_ms, int min_ms, uint8_t *buf)
{
    char token = 0;
    if (rank % 2 == 0) {
        tu_fill(buf, (size_t)n, (uint32_t)n);
        CHECK_MPI(
            MPI_Recv(&token, 1, MPI_CHAR, partner, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        double t0 = MPI_Wtime();
        CHECK_MPI(MPI_Ssend(buf, n, MPI_BYTE, partner, TAG_DATA, MPI_COMM_WORLD));
        double ms = (MPI_Wtime() - t0) * 1000.0;
        CHECK_MSG(ms >= min_ms,
                  "MPI_Ssend of %d bytes returned after %.1f ms, before the receive "
                  "was posted (receiver delays %d ms, expected >= %d ms)",
                  n, ms, delay_ms, min_ms);
    } else {
        MPI_Status st;
        CHECK_MPI(MPI_Send(&token, 1, MPI_CHAR, partner, TAG_READY, MPI_COMM_WORLD));
        tu_sleep_ms(delay_ms);
        memset(buf, 0, (size_t)n);
        CHECK_MPI(MPI_Recv(buf, n, MPI_BYTE, partner, TAG_DATA, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, partner, TAG_DATA, n);
        CHECK_PATTERN(buf, (size_t)n, (uint32_t)n);
    }
}

static void issend_test(int rank, int partner, int n, uint8_t *buf)
{
    char token = 0;
    if (rank % 2 == 0) {
        MPI_Request req;
        MPI_Status st;
        int flag = 1;
        tu_fill(buf, (size_t)n, (uint32_t)n + 1);
        CHECK_MPI(MPI_Issend(buf, n, MPI_BYTE, partner, TAG_DATA, MPI_COMM_WORLD, &req));
        for (int i = 0; i < 50; i++) { /* ~100 ms of polling, progress included */
            CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            CHECK_MSG(flag == 0, "MPI_Issend of %d bytes completed before the receive was posted",
                      n);
            CHECK_MPI(MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE));
            CHECK_EQ(0, flag);
            tu_sleep_ms(2);
        }
        CHECK(req != MPI_REQUEST_NULL);
        CHECK_MPI(MPI_Send(&token, 1, MPI_CHAR, partner, TAG_GO, MPI_COMM_WORLD));
        for (unsigned polls = 0;; tu_poll_pause(&polls)) {
            CHECK_MPI(MPI_Test(&req, &flag, &st));
            if (flag)
                break;
        }
        CHECK(req == MPI_REQUEST_NULL);
    } else {
        MPI_Status st;
        CHECK_MPI(
            MPI_Recv(&token, 1, MPI_CHAR, partner, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Recv(buf, n, MPI_BYTE, partner, TAG_DATA, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, partner, TAG_DATA, n);
        CHECK_PATTERN(buf, (size_t)n, (uint32_t)n + 1);
    }
}

/* Receive posted first (and known to be posted): Ssend must simply complete. */
static void ssend_preposted(int rank, int partner, int n, uint8_t *buf)
{
    char token = 0;
    if (rank % 2 == 0) {
        tu_fill(buf, (size_t)n, (uint32_t)n + 2);
        CHECK_MPI(
            MPI_Recv(&token, 1, MPI_CHAR, partner, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Ssend(buf, n, MPI_BYTE, partner, TAG_DATA, MPI_COMM_WORLD));
    } else {
        MPI_Request req;
        MPI_Status st;
        CHECK_MPI(MPI_Irecv(buf, n, MPI_BYTE, partner, TAG_DATA, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Send(&token, 1, MPI_CHAR, partner, TAG_READY, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK_STATUS(st, partner, TAG_DATA, n);
        CHECK_PATTERN(buf, (size_t)n, (uint32_t)n + 2);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int delay_ms = (int)tu_arg_long(argc, argv, 1, 250);
    int min_ms = (int)tu_arg_long(argc, argv, 2, 150);
    int rank = tu_rank(), size = tu_size();
    int partner = (rank % 2 == 0) ? rank + 1 : rank - 1;
    const int sizes[] = {8, 1024 * 1024};

    if (!tu_need_ranks(2, NAME) && partner < size) {
        uint8_t *buf = tu_malloc(1024 * 1024);
        for (int i = 0; i < 2; i++) {
            timed_ssend(rank, partner, sizes[i], delay_ms, min_ms, buf);
            issend_test(rank, partner, sizes[i], buf);
            ssend_preposted(rank, partner, sizes[i], buf);
        }
        free(buf);
    }
    return tu_finish(NAME);
}
