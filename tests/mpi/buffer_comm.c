/* MPI-4.1's buffers for buffered sends: a buffer attached to one communicator (MPI_Comm_attach_buffer)
 * serves that communicator's MPI_Bsend instead of the process's; one attached to a session serves the
 * communicators made from its groups (and those derived from them); MPI_Buffer_flush/iflush and the
 * communicator and session flushes wait for the messages buffered so far and keep the buffer attached;
 * MPI_Comm_free and MPI_Session_finalize flush and detach their buffer.
 * Every rank sends to its right neighbour and receives from its left (a ring; with one rank, itself).
 * MPICH 4.0 and Open MPI 4.1 predate MPI-4.1: under them the test says so and passes vacuously. */
#include "testutil.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)

#define N 100 /* ints per message */

static int rank, size, right, left;

static void fill(int *v, int seed)
{
    for (int i = 0; i < N; i++)
        v[i] = seed * 1000 + i;
}

static void expect_msg(MPI_Comm comm, int tag, int seed)
{
    int v[N];
    MPI_Recv(v, N, MPI_INT, left, tag, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        CHECK_MSG(v[i] == seed * 1000 + i, "tag %d: element %d is %d, expected %d", tag, i, v[i], seed * 1000 + i);
}

/* Room for exactly one message: a second Bsend fits only once the first has left. */
static int one_message_bytes(void)
{
    int pack;
    MPI_Pack_size(N, MPI_INT, MPI_COMM_WORLD, &pack);
    return pack + MPI_BSEND_OVERHEAD;
}

/* The communicator's buffer serves its sends; the world has none, so its Bsend fails. */
static void comm_buffer_is_used(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int bytes = 4 * one_message_bytes();
    char *buf = malloc((size_t)bytes);
    MPI_Comm_attach_buffer(dup, buf, bytes);
    int v[N];
    fill(v, rank);
    CHECK_MSG(MPI_Bsend(v, N, MPI_INT, right, 1, dup) == MPI_SUCCESS, "Bsend on the communicator with a buffer");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Bsend(v, N, MPI_INT, right, 2, MPI_COMM_WORLD);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK_MSG(cls == MPI_ERR_BUFFER, "Bsend on MPI_COMM_WORLD with no process buffer: class %d, want %d", cls,
             MPI_ERR_BUFFER);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    expect_msg(dup, 1, left);
    void *addr = NULL;
    int got = -1;
    MPI_Comm_detach_buffer(dup, &addr, &got);
    CHECK_MSG(addr == buf && got == bytes, "Comm_detach_buffer gave %p/%d, attached %p/%d", addr, got, (void *)buf,
             bytes);
    /* Nothing attached any more: a second detach finds nothing. */
    MPI_Comm_free(&dup);
    free(buf);
}

/* After a flush the one-message buffer has room again; the buffer stays attached throughout. */
static void flush_frees_space(int use_comm)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int bytes = one_message_bytes();
    char *buf = malloc((size_t)bytes);
    if (use_comm)
        MPI_Comm_attach_buffer(comm, buf, bytes);
    else
        MPI_Buffer_attach(buf, bytes);
    int v[N];
    for (int round = 0; round < 3; round++) {
        fill(v, rank + round);
        MPI_Bsend(v, N, MPI_INT, right, 10 + round, comm);
        MPI_Request flush;
        if (use_comm)
            MPI_Comm_iflush_buffer(comm, &flush);
        else
            MPI_Buffer_iflush(&flush);
        /* The neighbour's message may wait for this receive before it can leave. */
        expect_msg(comm, 10 + round, left + round);
        MPI_Wait(&flush, MPI_STATUS_IGNORE);
        CHECK_MSG(flush == MPI_REQUEST_NULL, "the flush request was not freed by MPI_Wait");
    }
    /* Blocking flush: every message sent is received first (a ring), so it cannot wait forever. */
    fill(v, rank + 7);
    MPI_Bsend(v, N, MPI_INT, right, 20, comm);
    expect_msg(comm, 20, left + 7);
    if (use_comm)
        MPI_Comm_flush_buffer(comm);
    else
        MPI_Buffer_flush();
    fill(v, rank + 8);
    CHECK_MSG(MPI_Bsend(v, N, MPI_INT, right, 21, comm) == MPI_SUCCESS, "Bsend after flush");
    expect_msg(comm, 21, left + 8);
    void *addr;
    int got;
    if (use_comm)
        MPI_Comm_detach_buffer(comm, &addr, &got);
    else
        MPI_Buffer_detach(&addr, &got);
    CHECK_MSG(addr == buf && got == bytes, "detach gave %p/%d, attached %p/%d", addr, got, (void *)buf, bytes);
    MPI_Comm_free(&comm);
    free(buf);
}

/* A flush with nothing buffered (and with no buffer at all) completes at once. */
static void empty_flushes(void)
{
    MPI_Request r;
    int flag = 0;
    MPI_Buffer_iflush(&r);
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    CHECK_MSG(flag, "Buffer_iflush with no buffer attached did not complete at once");
    MPI_Buffer_flush();
    MPI_Comm_flush_buffer(MPI_COMM_SELF);
}

/* MPI_Comm_free takes the communicator's buffer with it once its messages have left; the automatic
 * buffer needs no size. */
static void free_with_buffer(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0);
    int v[N];
    for (int k = 0; k < 5; k++) {
        fill(v, rank * 10 + k);
        MPI_Bsend(v, N, MPI_INT, right, 30 + k, dup);
    }
    for (int k = 0; k < 5; k++)
        expect_msg(dup, 30 + k, left * 10 + k);
    MPI_Comm_free(&dup);
    /* The world never had a buffer: attaching to a new communicator starts afresh. */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    void *addr = &addr;
    int got = -1;
    MPI_Comm_detach_buffer(dup, &addr, &got);
    CHECK_MSG(addr == NULL && got == 0, "detach with nothing attached gave %p/%d", addr, got);
    MPI_Comm_free(&dup);
}

/* A session's buffer serves the communicators made from its groups and their duplicates, and no other;
 * a communicator's own buffer still comes first. */
static void session_buffer(void)
{
    MPI_Session session;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
    MPI_Group world;
    CHECK_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &world));
    MPI_Comm from, dup;
    CHECK_MPI(MPI_Comm_create_from_group(world, "buffer_comm", MPI_INFO_NULL, MPI_ERRORS_RETURN, &from));
    MPI_Group_free(&world);
    MPI_Comm_dup(from, &dup);
    int bytes = 2 * one_message_bytes();
    char *buf = malloc((size_t)bytes);
    CHECK_MPI(MPI_Session_attach_buffer_c(session, buf, (MPI_Count)bytes)); /* the large-count form */
    int v[N];
    fill(v, rank + 40);
    CHECK_MSG(MPI_Bsend(v, N, MPI_INT, right, 40, from) == MPI_SUCCESS, "Bsend on a session's communicator");
    fill(v, rank + 41);
    CHECK_MSG(MPI_Bsend(v, N, MPI_INT, right, 41, dup) == MPI_SUCCESS, "Bsend on its duplicate");
    MPI_Request flush;
    CHECK_MPI(MPI_Session_iflush_buffer(session, &flush));
    expect_msg(from, 40, left + 40);
    expect_msg(dup, 41, left + 41);
    MPI_Wait(&flush, MPI_STATUS_IGNORE);
    /* The world model's communicators do not derive from the session: no buffer for them. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1;
    MPI_Error_class(MPI_Bsend(v, N, MPI_INT, right, 42, MPI_COMM_WORLD), &cls);
    CHECK_MSG(cls == MPI_ERR_BUFFER, "Bsend on MPI_COMM_WORLD used the session's buffer (class %d)", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* The communicator's own buffer (too small here) comes before the session's. */
    char small[16];
    MPI_Comm_attach_buffer(dup, small, sizeof small);
    MPI_Error_class(MPI_Bsend(v, N, MPI_INT, right, 43, dup), &cls);
    CHECK_MSG(cls == MPI_ERR_BUFFER, "Bsend on a communicator with its own small buffer: class %d", cls);
    void *addr;
    int got;
    MPI_Comm_detach_buffer(dup, &addr, &got);
    CHECK_MPI(MPI_Session_flush_buffer(session));
    MPI_Count got_c = -1;
    CHECK_MPI(MPI_Session_detach_buffer_c(session, &addr, &got_c));
    CHECK_MSG(addr == buf && got_c == bytes, "Session_detach_buffer_c gave %p/%lld, attached %p/%d", addr,
              (long long)got_c, (void *)buf, bytes);
    /* Attached and detached again with the int forms. */
    CHECK_MPI(MPI_Session_attach_buffer(session, buf, bytes));
    CHECK_MPI(MPI_Session_detach_buffer(session, &addr, &got));
    CHECK_MSG(addr == buf && got == bytes, "Session_detach_buffer gave %p/%d, attached %p/%d", addr, got,
              (void *)buf, bytes);
    /* Attached again and left attached: MPI_Session_finalize flushes and detaches it. */
    CHECK_MPI(MPI_Session_attach_buffer(session, MPI_BUFFER_AUTOMATIC, 0));
    fill(v, rank + 44);
    MPI_Bsend(v, N, MPI_INT, right, 44, from);
    expect_msg(from, 44, left + 44);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&from);
    CHECK_MPI(MPI_Session_finalize(&session));
    free(buf);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    comm_buffer_is_used();
    flush_frees_space(0);
    flush_frees_space(1);
    empty_flushes();
    free_with_buffer();
    session_buffer();
    return tu_finish("buffer_comm");
}

#else
int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("buffer_comm: MPI %d.%d has no per-communicator buffers (MPI-4.1): nothing to test\n", MPI_VERSION,
               MPI_SUBVERSION);
    MPI_Finalize();
    return 0;
}
#endif
