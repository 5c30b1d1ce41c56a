/* nb_completion — the Wait/Test families, Request_get_status, Request_free and Cancel.
 *
 * Each rank exchanges with a partner ((0,1), (2,3); an unpaired rank uses itself). For every
 * completion style it posts K receives (slot 0 is left as MPI_REQUEST_NULL, which every call
 * must skip), checks that nothing is complete yet — deterministic, because the partner sends
 * only after our "go" message — then lets the partner send in reverse slot order and drains
 * the array with the call under test, checking each reported index once, its status and data,
 * that completed handles become MPI_REQUEST_NULL, and the "all inactive" results
 * (MPI_UNDEFINED index/outcount).
 *
 * usage: nb_completion [K]   (default 64)
 */
#include "testutil.h"

#define NAME "nb_completion"
enum { TAG_GO = 1, TAG_ACK = 2, TAG_BASE = 100, TAG_NEVER = 999 };
enum { WAITANY, WAITSOME, TESTANY, TESTSOME, TESTALL, NSTYLES };
static const char *style_name[NSTYLES] = {"Waitany", "Waitsome", "Testany", "Testsome", "Testall"};

struct ex {
    int k, partner, rank;
    int *in, *out, *done;
    MPI_Request *rreq, *sreq;
    MPI_Status *st;
};

/* Slot i carries 3 ints: (sender, style, i). */
static void check_slot(struct ex *e, int style, int i, const MPI_Status *st)
{
    CHECK_MSG(i >= 1 && i < e->k, "%s returned index %d out of range", style_name[style], i);
    CHECK_MSG(!e->done[i], "%s returned index %d twice", style_name[style], i);
    e->done[i] = 1;
    CHECK(e->rreq[i] == MPI_REQUEST_NULL);
    CHECK_STATUS(*st, e->partner, TAG_BASE + i, 3 * (int)sizeof(int));
    CHECK_EQ(e->partner, e->in[3 * i]);
    CHECK_EQ(style, e->in[3 * i + 1]);
    CHECK_EQ(i, e->in[3 * i + 2]);
}

/* Nothing can be complete before the partner has our go. */
static void check_nothing_complete(struct ex *e)
{
    int flag = 1, idx = 0, outcount = -1;
    CHECK_MPI(MPI_Testany(e->k, e->rreq, &idx, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ(0, flag);
    CHECK_EQ(MPI_UNDEFINED, idx);
    CHECK_MPI(MPI_Testsome(e->k, e->rreq, &outcount, e->done, e->st));
    CHECK_EQ(0, outcount);
    CHECK_MPI(MPI_Testall(e->k, e->rreq, &flag, e->st));
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Request_get_status(e->rreq[1], &flag, MPI_STATUS_IGNORE));
    CHECK_EQ(0, flag);
    memset(e->done, 0, sizeof(int) * (size_t)e->k);
}

static void exchange_go(struct ex *e)
{
    char out = 0, in = 0;
    MPI_Request r;
    CHECK_MPI(MPI_Isend(&out, 1, MPI_CHAR, e->partner, TAG_GO, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Recv(&in, 1, MPI_CHAR, e->partner, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
}

static void drain(struct ex *e, int style)
{
    int *idx = tu_malloc(sizeof(int) * (size_t)e->k);
    int left = e->k - 1, flag, one, outcount;
    unsigned polls = 0;
    while (left > 0) {
        int before = left;
        switch (style) {
        case WAITANY:
            CHECK_MPI(MPI_Waitany(e->k, e->rreq, &one, &e->st[0]));
            check_slot(e, style, one, &e->st[0]);
            left--;
            break;
        case TESTANY:
            CHECK_MPI(MPI_Testany(e->k, e->rreq, &one, &flag, &e->st[0]));
            if (flag) {
                check_slot(e, style, one, &e->st[0]);
                left--;
            } else {
                CHECK_EQ(MPI_UNDEFINED, one);
            }
            break;
        case WAITSOME:
        case TESTSOME:
            if (style == WAITSOME)
                CHECK_MPI(MPI_Waitsome(e->k, e->rreq, &outcount, idx, e->st));
            else
                CHECK_MPI(MPI_Testsome(e->k, e->rreq, &outcount, idx, e->st));
            CHECK_MSG(outcount >= (style == WAITSOME) && outcount <= left,
                      "%s outcount %d with %d pending", style_name[style], outcount, left);
            for (int j = 0; j < outcount; j++)
                check_slot(e, style, idx[j], &e->st[j]);
            left -= outcount;
            break;
        case TESTALL:
            CHECK_MPI(MPI_Testall(e->k, e->rreq, &flag, e->st));
            if (flag) {
                for (int i = 1; i < e->k; i++)
                    check_slot(e, style, i, &e->st[i]);
                left = 0;
            }
            break;
        }
        if (left == before)
            tu_poll_pause(&polls);
        else
            polls = 0;
    }
    free(idx);
}

/* Once every handle is MPI_REQUEST_NULL the calls report "nothing active". */
static void check_all_inactive(struct ex *e)
{
    int flag = 0, one = 0, outcount = 0;
    MPI_Status st;
    CHECK_MPI(MPI_Waitany(e->k, e->rreq, &one, &st));
    CHECK_EQ(MPI_UNDEFINED, one);
    CHECK_MPI(MPI_Testany(e->k, e->rreq, &one, &flag, &st));
    CHECK_EQ(1, flag);
    CHECK_EQ(MPI_UNDEFINED, one);
    CHECK_MPI(MPI_Waitsome(e->k, e->rreq, &outcount, e->done, e->st));
    CHECK_EQ(MPI_UNDEFINED, outcount);
    CHECK_MPI(MPI_Testsome(e->k, e->rreq, &outcount, e->done, e->st));
    CHECK_EQ(MPI_UNDEFINED, outcount);
    CHECK_MPI(MPI_Testall(e->k, e->rreq, &flag, e->st));
    CHECK_EQ(1, flag);
}

static void run_style(struct ex *e, int style)
{
    e->rreq[0] = e->sreq[0] = MPI_REQUEST_NULL;
    for (int i = 1; i < e->k; i++)
        CHECK_MPI(MPI_Irecv(&e->in[3 * i], 3, MPI_INT, e->partner, TAG_BASE + i, MPI_COMM_WORLD,
                            &e->rreq[i]));
    check_nothing_complete(e);
    exchange_go(e);
    for (int i = e->k - 1; i >= 1; i--) { /* reverse order: completion order != slot order */
        e->out[3 * i] = e->rank;
        e->out[3 * i + 1] = style;
        e->out[3 * i + 2] = i;
        CHECK_MPI(MPI_Isend(&e->out[3 * i], 3, MPI_INT, e->partner, TAG_BASE + i, MPI_COMM_WORLD,
                            &e->sreq[i]));
    }
    drain(e, style);
    for (int i = 1; i < e->k; i++)
        CHECK_MSG(e->done[i], "%s never reported slot %d", style_name[style], i);
    check_all_inactive(e);
    CHECK_MPI(MPI_Waitall(e->k, e->sreq, TU_STATUSES_IGNORE)); /* sreq[0] is null: allowed */
    memset(e->done, 0, sizeof(int) * (size_t)e->k);
}

/* Wait/Test on MPI_REQUEST_NULL return at once with an empty status. */
static void null_request(void)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st;
    int flag = 0, n = -1;
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_EQ(MPI_ANY_SOURCE, st.MPI_SOURCE);
    CHECK_EQ(MPI_ANY_TAG, st.MPI_TAG);
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
    CHECK_EQ(0, n);
    CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK_EQ(1, flag);
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    CHECK_EQ(1, flag);
    CHECK_EQ(MPI_ANY_SOURCE, st.MPI_SOURCE);
}

/* Request_get_status reports completion without freeing the request. */
static void get_status(struct ex *e)
{
    int in = -1, out = 4242, flag = 0;
    MPI_Request r, s;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, e->partner, TAG_BASE + 1, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    CHECK_EQ(0, flag);
    exchange_go(e);
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, e->partner, TAG_BASE + 1, MPI_COMM_WORLD, &s));
    for (unsigned polls = 0;; tu_poll_pause(&polls)) {
        CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
        if (flag)
            break;
    }
    CHECK(r != MPI_REQUEST_NULL); /* still ours to complete */
    CHECK_STATUS(st, e->partner, TAG_BASE + 1, (int)sizeof(int));
    CHECK_EQ(4242, in);
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL);
    CHECK_STATUS(st, e->partner, TAG_BASE + 1, (int)sizeof(int));
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
}

/* A freed send request still delivers; we learn it did from the partner's ack. */
static void request_free_send(struct ex *e)
{
    const int n = 300 * 1024; /* large enough to still be in flight when freed */
    uint8_t *sb = tu_malloc((size_t)n), *rb = tu_malloc((size_t)n);
    MPI_Request s, r;
    MPI_Status st;
    char ack_out = 0, ack_in = 0;
    tu_fill(sb, (size_t)n, tu_seed(5, (uint64_t)e->rank, 0, 0));
    CHECK_MPI(MPI_Irecv(rb, n, MPI_BYTE, e->partner, TAG_BASE + 2, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Isend(sb, n, MPI_BYTE, e->partner, TAG_BASE + 2, MPI_COMM_WORLD, &s));
    CHECK_MPI(MPI_Request_free(&s));
    CHECK(s == MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_STATUS(st, e->partner, TAG_BASE + 2, n);
    CHECK_PATTERN(rb, (size_t)n, tu_seed(5, (uint64_t)e->partner, 0, 0));
    /* ack: the partner has our data, so our send buffer may be released */
    CHECK_MPI(MPI_Isend(&ack_out, 1, MPI_CHAR, e->partner, TAG_ACK, MPI_COMM_WORLD, &s));
    CHECK_MPI(
        MPI_Recv(&ack_in, 1, MPI_CHAR, e->partner, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    free(sb);
    free(rb);
}

/* Cancelling a receive nobody will match; a normally completed receive is not cancelled. */
static void cancel_recv(struct ex *e)
{
    int buf = 0, flag = 0;
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(&buf, 1, MPI_INT, e->partner, TAG_NEVER, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(r != MPI_REQUEST_NULL); /* cancel marks; completion still needs Wait/Test */
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(1, flag);

    CHECK_MPI(MPI_Irecv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, TAG_NEVER, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    for (unsigned polls = 0;; tu_poll_pause(&polls)) {
        CHECK_MPI(MPI_Test(&r, &flag, &st));
        if (flag)
            break;
    }
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(1, flag);

    int out = 7;
    MPI_Request s;
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, e->partner, TAG_BASE + 3, MPI_COMM_WORLD, &s));
    CHECK_MPI(MPI_Recv(&buf, 1, MPI_INT, e->partner, TAG_BASE + 3, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(0, flag);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    struct ex e;
    e.k = (int)tu_arg_long(argc, argv, 1, 64);
    CHECK(e.k >= 2 && e.k < 800);
    e.rank = tu_rank();
    e.partner = e.rank ^ 1;
    if (e.partner >= tu_size())
        e.partner = e.rank; /* unpaired: exchange with self */
    e.in = tu_malloc(sizeof(int) * 3 * (size_t)e.k);
    e.out = tu_malloc(sizeof(int) * 3 * (size_t)e.k);
    e.done = calloc((size_t)e.k, sizeof(int));
    e.rreq = tu_malloc(sizeof(MPI_Request) * (size_t)e.k);
    e.sreq = tu_malloc(sizeof(MPI_Request) * (size_t)e.k);
    e.st = tu_malloc(sizeof(MPI_Status) * (size_t)e.k);
    CHECK(e.done != NULL);

    for (int style = 0; style < NSTYLES; style++)
        run_style(&e, style);
    null_request();
    get_status(&e);
    request_free_send(&e);
    cancel_recv(&e);

    free(e.in);
    free(e.out);
    free(e.done);
    free(e.rreq);
    free(e.sreq);
    free(e.st);
    return tu_finish(NAME);
}
