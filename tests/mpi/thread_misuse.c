/* Thread-level misuse that skiff reports (issue 19; MPICH 4.0 and Open MPI 4.1 detect neither, so this
 * program is skiff's only). The call is reported, then runs as it would have.
 *   funneled    MPI_THREAD_FUNNELED: a second thread's MPI_Comm_rank raises MPI_ERR_OTHER on
 *               MPI_COMM_WORLD's handler (a user handler here, which records it) with a message naming
 *               the call and the level; MPI_Is_thread_main (which any thread may call) says 0 there
 *               and 1 in the main thread; the main thread goes on.
 *   serialized  MPI_THREAD_SERIALIZED: a second thread calls MPI_Comm_rank while the main thread is
 *               inside MPI_Reduce_local (from the user op's callback, which waits for it: the overlap
 *               is certain, not timed); skiff says so on stderr (the test's pass pattern). A second
 *               thread's MPI_Comm_size after MPI_Reduce_local returned (serialized by pthread_join) is
 *               legal and must not be reported (the test's fail pattern).
 *   fatal       funneled's call under the default handler: the job ends with the message. */
#include "testutil.h"

#include <pthread.h>

static int thread_rc = -1, thread_main = -1, use_size;
static int handled = -1; /* the error code the user handler got, from the second thread */

static void *second_thread(void *arg)
{
    int v;
    (void)arg;
    MPI_Is_thread_main(&thread_main);
    thread_rc = use_size ? MPI_Comm_size(MPI_COMM_WORLD, &v) : MPI_Comm_rank(MPI_COMM_WORLD, &v);
    return NULL;
}

static int run_second_thread(void)
{
    pthread_t t;
    CHECK(pthread_create(&t, NULL, second_thread, NULL) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    return thread_rc;
}

static void record(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handled = *code;
}

static void expect_reported(const char *want1, const char *want2)
{
    int cls, len;
    char msg[MPI_MAX_ERROR_STRING];
    CHECK_MSG(handled != -1, "a call the thread level forbids was not reported to the handler");
    MPI_Error_class(handled, &cls);
    CHECK_EQ(MPI_ERR_OTHER, cls);
    MPI_Error_string(handled, msg, &len);
    CHECK_MSG(strstr(msg, want1), "message '%s' does not name '%s'", msg, want1);
    CHECK_MSG(strstr(msg, want2), "message '%s' does not name '%s'", msg, want2);
}

static void op_that_calls_from_another_thread(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    run_second_thread(); /* the main thread is inside MPI_Reduce_local meanwhile */
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "funneled";
    int want = strcmp(mode, "serialized") == 0 ? MPI_THREAD_SERIALIZED : MPI_THREAD_FUNNELED, provided, flag;
    MPI_Init_thread(&argc, &argv, want, &provided);
    CHECK_EQ(want, provided);
    if (strcmp(mode, "fatal") != 0) {
        MPI_Errhandler eh;
        MPI_Comm_create_errhandler(record, &eh);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
        MPI_Errhandler_free(&eh);
    }
    MPI_Is_thread_main(&flag);
    CHECK_EQ(1, flag);
    if (want == MPI_THREAD_FUNNELED) {
        CHECK_EQ(MPI_SUCCESS, run_second_thread()); /* reported, then run */
        expect_reported("MPI_Comm_rank", "MPI_THREAD_FUNNELED");
        CHECK_EQ(0, thread_main);
    } else {
        MPI_Op op;
        int a = 1, b = 2;
        MPI_Op_create(op_that_calls_from_another_thread, 1, &op);
        MPI_Reduce_local(&a, &b, 1, MPI_INT, op);
        CHECK_EQ(3, b);
        use_size = 1;
        CHECK_EQ(MPI_SUCCESS, run_second_thread()); /* one at a time: what SERIALIZED allows */
        CHECK_EQ(0, thread_main);
        CHECK_EQ(-1, handled); /* SERIALIZED's report is on stderr only */
        MPI_Op_free(&op);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the main thread still works */
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("OK thread_misuse %s\n", mode);
    MPI_Finalize();
    return 0;
}
