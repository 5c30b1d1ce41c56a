/* Generalized requests (issue 15 §6): MPI_Grequest_start / MPI_Grequest_complete with query, free and
 * cancel functions, completed by every completion call (Wait, Test, Waitall, Testall, Waitany, Testany,
 * Waitsome, Testsome, Request_get_status, MPI-4.1's Request_get_status_any/all) and by MPI_Request_free; and completed from a second thread while the main thread
 * waits, beside a ring of real messages so that the wait also has transport work.
 *
 * The second thread calls MPI_Grequest_complete while the main thread is inside MPI: with MPICH and
 * Open MPI that needs MPI_THREAD_MULTIPLE; skiff makes MPI_Grequest_complete safe from another thread at
 * MPI_THREAD_SERIALIZED too, as its docs say (and grants MULTIPLE here). Where neither holds, the test completes
 * the request from the main thread instead. Passes under MPICH 4.0 and Open MPI 4.1. */
#include "testutil.h"

#include <pthread.h>

#define HAVE_MPI_4_1 (MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1))

struct op {
    int value;        /* what the "operation" produced: set before MPI_Grequest_complete */
    int queries, frees, cancels, cancel_complete;
    int fail_query;   /* the query function returns MPI_ERR_OTHER */
    int mark_cancelled;
};

static int query_fn(void *extra, MPI_Status *st)
{
    struct op *o = extra;
    o->queries++;
    st->MPI_SOURCE = o->value;
    st->MPI_TAG = 1000 + o->value;
    MPI_Status_set_cancelled(st, o->mark_cancelled);
    return o->fail_query ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    ((struct op *)extra)->frees++;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    struct op *o = extra;
    o->cancels++;
    o->cancel_complete = complete;
    return MPI_SUCCESS;
}

static MPI_Request start(struct op *o, int value)
{
    MPI_Request r = MPI_REQUEST_NULL;
    memset(o, 0, sizeof *o);
    o->value = value;
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, o, &r));
    CHECK(r != MPI_REQUEST_NULL);
    return r;
}

static void check_status(const MPI_Status *st, int value)
{
    int flag = -1;
    CHECK_EQ(value, st->MPI_SOURCE);
    CHECK_EQ(1000 + value, st->MPI_TAG);
    CHECK_MPI(MPI_Test_cancelled(st, &flag));
    CHECK_EQ(0, flag);
}

/* Completed on this thread, then each completion call in turn. */
static void one_thread(void)
{
    struct op o[4];
    MPI_Status st;
    int flag = -1;
    MPI_Request r = start(&o[0], 5);
    CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK_EQ(0, flag);
    CHECK_EQ(0, o[0].queries);
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st)); /* queried, not freed */
    CHECK_EQ(1, flag);
    check_status(&st, 5);
    CHECK_EQ(1, o[0].queries);
    CHECK_EQ(0, o[0].frees);
    CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK_EQ(1, flag);
    CHECK(r == MPI_REQUEST_NULL);
    check_status(&st, 5);
    CHECK_EQ(2, o[0].queries);
    CHECK_EQ(1, o[0].frees);

    /* MPI_Wait with MPI_STATUS_IGNORE still runs the query function (its error would be the call's). */
    r = start(&o[0], 6);
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_EQ(1, o[0].frees);

    /* Waitany and Waitsome over a mix of done and not done. */
    MPI_Request rs[4];
    for (int i = 0; i < 4; i++)
        rs[i] = start(&o[i], 10 + i);
    CHECK_MPI(MPI_Grequest_complete(rs[2]));
    int indx = -1, outcount = -1, idx[4];
    CHECK_MPI(MPI_Waitany(4, rs, &indx, &st));
    CHECK_EQ(2, indx);
    check_status(&st, 12);
    CHECK_EQ(1, o[2].frees);
    CHECK_MPI(MPI_Testsome(4, rs, &outcount, idx, TU_STATUSES_IGNORE));
    CHECK_EQ(0, outcount);
    CHECK_MPI(MPI_Grequest_complete(rs[0]));
    CHECK_MPI(MPI_Grequest_complete(rs[3]));
    MPI_Status sts[4];
    CHECK_MPI(MPI_Waitsome(4, rs, &outcount, idx, sts));
    CHECK_EQ(2, outcount);
    CHECK_EQ(0, idx[0]);
    CHECK_EQ(3, idx[1]);
    check_status(&sts[0], 10);
    check_status(&sts[1], 13);
    CHECK_MPI(MPI_Grequest_complete(rs[1]));
    CHECK_MPI(MPI_Waitall(4, rs, sts));
    check_status(&sts[1], 11);
    for (int i = 0; i < 4; i++) {
        CHECK(rs[i] == MPI_REQUEST_NULL);
        CHECK_EQ(1, o[i].frees);
    }

    /* Testall and Testany; MPI-4.1's Request_get_status_any/all run the query function and leave the
     * request as it is. */
    rs[0] = start(&o[0], 20);
    rs[1] = start(&o[1], 21);
    CHECK_MPI(MPI_Testall(2, rs, &flag, sts));
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Grequest_complete(rs[1]));
#if HAVE_MPI_4_1
    CHECK_MPI(MPI_Request_get_status_any(2, rs, &indx, &flag, &st));
    CHECK_EQ(1, flag);
    CHECK_EQ(1, indx);
    check_status(&st, 21);
    CHECK_EQ(1, o[1].queries);
    CHECK_EQ(0, o[1].frees);
#endif
    CHECK_MPI(MPI_Testany(2, rs, &indx, &flag, &st));
    CHECK_EQ(1, flag);
    CHECK_EQ(1, indx);
    check_status(&st, 21);
    CHECK_EQ(1, o[1].frees);
    CHECK_MPI(MPI_Grequest_complete(rs[0]));
#if HAVE_MPI_4_1
    CHECK_MPI(MPI_Request_get_status_all(2, rs, &flag, sts));
    CHECK_EQ(1, flag);
    check_status(&sts[0], 20);
    CHECK_EQ(MPI_ANY_SOURCE, sts[1].MPI_SOURCE); /* rs[1] is MPI_REQUEST_NULL now */
    CHECK_EQ(0, o[0].frees);
#endif
    CHECK_MPI(MPI_Testall(2, rs, &flag, sts));
    CHECK_EQ(1, flag);
    check_status(&sts[0], 20);
    CHECK_EQ(1, o[0].frees);

    /* Cancel: the cancel function learns whether the request was complete; the query function reports
     * the cancellation through MPI_Status_set_cancelled. */
    r = start(&o[0], 7);
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_EQ(1, o[0].cancels);
    CHECK_EQ(0, o[0].cancel_complete);
    o[0].mark_cancelled = 1;
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_EQ(2, o[0].cancels);
    CHECK_EQ(1, o[0].cancel_complete);
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(1, flag);

    /* MPI_Request_free: before completion the free function waits for MPI_Grequest_complete, after it
     * runs at once; the query function never runs. */
    r = start(&o[0], 8);
    MPI_Request keep = r; /* MPI_Grequest_complete still takes the handle */
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL);
#if !defined(MPICH_VERSION) /* MPICH runs it here already, not "whichever happens last" (MPI-4.1 13.2) */
    CHECK_EQ(0, o[0].frees);
#endif
    CHECK_MPI(MPI_Grequest_complete(keep));
    CHECK_EQ(1, o[0].frees);
    CHECK_EQ(0, o[0].queries);
    r = start(&o[1], 9);
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_EQ(1, o[1].frees);
    CHECK_EQ(0, o[1].queries);

    /* A failing query function: MPI_Wait returns its error (the request is gone all the same). */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    r = start(&o[2], 4);
    o[2].fail_query = 1;
    CHECK_MPI(MPI_Grequest_complete(r));
    int rc = MPI_Wait(&r, &st);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK_EQ(MPI_ERR_OTHER, cls);
    CHECK_EQ(1, o[2].frees);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* ---- a second thread completes the request ------------------------------------------------------ */

struct job {
    MPI_Request req;
    struct op *o;
    int value;
    int go; /* the main thread is about to wait (atomic) */
};

static void *worker(void *arg)
{
    struct job *j = arg;
    while (!__atomic_load_n(&j->go, __ATOMIC_ACQUIRE))
        tu_sleep_ms(1);
    tu_sleep_ms(5); /* most likely inside the wait by now; correct either way */
    j->o->value = j->value; /* the result, published by MPI_Grequest_complete */
    if (MPI_Grequest_complete(j->req) != MPI_SUCCESS)
        fprintf(stderr, "FAIL [worker] MPI_Grequest_complete failed\n");
    return NULL;
}

#define RING_TAG 3

static void threaded(int rank, int size, int use_thread)
{
    for (int round = 0; round < 3; round++) {
        struct op o;
        struct job j = {start(&o, -1), &o, 100 + rank * 10 + round, 0};
        int left = (rank + size - 1) % size, right = (rank + 1) % size, in = -1, out = rank;
        MPI_Request rs[3] = {j.req, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, left, RING_TAG, MPI_COMM_WORLD, &rs[1]));
        CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, right, RING_TAG, MPI_COMM_WORLD, &rs[2]));
        pthread_t t;
        if (use_thread)
            CHECK_EQ(0, pthread_create(&t, NULL, worker, &j));
        else
            o.value = j.value;
        __atomic_store_n(&j.go, 1, __ATOMIC_RELEASE);
        if (!use_thread)
            CHECK_MPI(MPI_Grequest_complete(j.req));
        MPI_Status sts[3];
        if (round == 0) {
            CHECK_MPI(MPI_Waitall(3, rs, sts));
        } else if (round == 1) {
            CHECK_MPI(MPI_Wait(&rs[0], &sts[0]));
            CHECK_MPI(MPI_Waitall(2, rs + 1, sts + 1));
        } else {
            /* Freed before it completes: the free function runs in MPI_Grequest_complete (on the other
             * thread), the request is gone from here on. */
            CHECK_MPI(MPI_Request_free(&rs[0]));
            CHECK_MPI(MPI_Waitall(3, rs, sts));
        }
        if (use_thread)
            CHECK_EQ(0, pthread_join(t, NULL));
        if (round < 2) {
            check_status(&sts[0], j.value);
            CHECK_EQ(1, o.queries);
        } else {
            CHECK_EQ(0, o.queries);
        }
        CHECK_EQ(1, o.frees);
        CHECK_EQ(left, in);
        CHECK_EQ(left, sts[1].MPI_SOURCE);
    }
}

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    int rank = tu_rank(), size = tu_size();
#if defined(SKIFF_MPI)
    int use_thread = provided >= MPI_THREAD_SERIALIZED;
#else
    int use_thread = provided == MPI_THREAD_MULTIPLE;
#endif
    if (rank == 0)
        printf("greq: thread level %d, completing from a second thread: %s\n", provided, use_thread ? "yes" : "no");
    one_thread();
    threaded(rank, size, use_thread);
    return tu_finish("greq");
}
