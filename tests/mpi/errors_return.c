/* errors_return — error classes under MPI_ERRORS_RETURN.
 *
 * Error codes may carry detail, so the checks compare MPI_Error_class(rc) with the class, never
 * rc itself. Every error code must also have a non-empty MPI_Error_string.
 *   - the default handler on MPI_COMM_WORLD is MPI_ERRORS_ARE_FATAL; set/get round-trips;
 *   - invalid rank (size, -5), tag (-7), count (-1), MPI_DATATYPE_NULL, MPI_COMM_NULL on
 *     the send, receive and nonblocking calls; Bsend with no buffer attached;
 *   - truncation: 4096 bytes (and a rendezvous-sized message) into a 1024-byte receive gives
 *     MPI_ERR_TRUNCATE from Recv and from Wait, and MPI_ERR_IN_STATUS from Waitall with the
 *     class in status.MPI_ERROR; nothing beyond the buffer is written and the
 *     sender is unaffected;
 *   - communication still works afterwards.
 * Pairs (0,1), (2,3) for truncation; an unpaired rank sends to itself.
 */
#include "testutil.h"

#define NAME "errors_return"

#define CHECK_CLASS(expected_class, rc) check_class(__FILE__, __LINE__, #rc, (expected_class), (rc))
static void check_class(const char *file, int line, const char *what, int expected, int rc)
{
    int cls = -1, len = -1;
    char s[MPI_MAX_ERROR_STRING];
    if (rc == MPI_SUCCESS)
        tu_fail(file, line, "%s: expected error class %d, got MPI_SUCCESS", what, expected);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    if (cls != expected)
        tu_fail(file, line, "%s: expected error class %d, got class %d (code %d)", what, expected,
                cls, rc);
    s[0] = '\0';
    CHECK_MPI(MPI_Error_string(rc, s, &len));
    if (len <= 0 || len >= MPI_MAX_ERROR_STRING || (size_t)len != strlen(s))
        tu_fail(file, line, "%s: MPI_Error_string gave len %d for \"%s\"", what, len, s);
}

static void handlers(void)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL);

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    /* Errors on MPI_COMM_NULL are raised on a fallback communicator (WORLD in MPI-3, SELF in
     * MPI-4): make both return. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK(eh == MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Errhandler_free(&eh));
}

static void invalid_arguments(int size)
{
    int buf[4] = {0};
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    CHECK_CLASS(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, size, 0, w));
    CHECK_CLASS(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, -5, 0, w));
    CHECK_CLASS(MPI_ERR_TAG, MPI_Send(buf, 1, MPI_INT, 0, -7, w));
    CHECK_CLASS(MPI_ERR_TAG, MPI_Send(buf, 1, MPI_INT, 0, MPI_ANY_TAG, w)); /* not for sends */
    CHECK_CLASS(MPI_ERR_COUNT, MPI_Send(buf, -1, MPI_INT, 0, 0, w));
    CHECK_CLASS(MPI_ERR_TYPE, MPI_Send(buf, 1, MPI_DATATYPE_NULL, 0, 0, w));
    CHECK_CLASS(MPI_ERR_COMM, MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL));
    CHECK_CLASS(MPI_ERR_RANK, MPI_Ssend(buf, 1, MPI_INT, size, 0, w));
    CHECK_CLASS(MPI_ERR_RANK, MPI_Rsend(buf, 1, MPI_INT, size, 0, w));
    CHECK_CLASS(MPI_ERR_BUFFER, MPI_Bsend(buf, 4, MPI_INT, 0, 0, w)); /* nothing attached */

    CHECK_CLASS(MPI_ERR_RANK, MPI_Recv(buf, 1, MPI_INT, size, 0, w, MPI_STATUS_IGNORE));
    CHECK_CLASS(MPI_ERR_RANK, MPI_Recv(buf, 1, MPI_INT, -5, 0, w, MPI_STATUS_IGNORE));
    CHECK_CLASS(MPI_ERR_TAG, MPI_Recv(buf, 1, MPI_INT, 0, -7, w, MPI_STATUS_IGNORE));
    CHECK_CLASS(MPI_ERR_COUNT, MPI_Recv(buf, -1, MPI_INT, 0, 0, w, MPI_STATUS_IGNORE));
    CHECK_CLASS(MPI_ERR_TYPE, MPI_Recv(buf, 1, MPI_DATATYPE_NULL, 0, 0, w, MPI_STATUS_IGNORE));
    CHECK_CLASS(MPI_ERR_COMM, MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, MPI_STATUS_IGNORE));

    CHECK_CLASS(MPI_ERR_RANK, MPI_Isend(buf, 1, MPI_INT, size, 0, w, &req));
    CHECK_CLASS(MPI_ERR_TAG, MPI_Isend(buf, 1, MPI_INT, 0, -7, w, &req));
    CHECK_CLASS(MPI_ERR_COUNT, MPI_Isend(buf, -1, MPI_INT, 0, 0, w, &req));
    CHECK_CLASS(MPI_ERR_TYPE, MPI_Isend(buf, 1, MPI_DATATYPE_NULL, 0, 0, w, &req));
    CHECK_CLASS(MPI_ERR_COMM, MPI_Isend(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &req));
    CHECK_CLASS(MPI_ERR_RANK, MPI_Irecv(buf, 1, MPI_INT, size, 0, w, &req));
    CHECK_CLASS(MPI_ERR_TAG, MPI_Irecv(buf, 1, MPI_INT, 0, -7, w, &req));
    CHECK_CLASS(MPI_ERR_COUNT, MPI_Irecv(buf, -1, MPI_INT, 0, 0, w, &req));
    CHECK_CLASS(MPI_ERR_RANK, MPI_Probe(size, 0, w, MPI_STATUS_IGNORE));
    CHECK_CLASS(MPI_ERR_RANK, MPI_Sendrecv(buf, 1, MPI_INT, size, 0, buf + 1, 1, MPI_INT, 0, 0, w,
                                           MPI_STATUS_IGNORE));
}

/* Predefined error classes are their own class and have text. */
static void class_strings(void)
{
    const int classes[] = {MPI_ERR_BUFFER, MPI_ERR_COUNT,  MPI_ERR_TYPE,      MPI_ERR_TAG,
                           MPI_ERR_COMM,   MPI_ERR_RANK,   MPI_ERR_REQUEST,   MPI_ERR_TRUNCATE,
                           MPI_ERR_OTHER,  MPI_ERR_INTERN, MPI_ERR_IN_STATUS, MPI_ERR_UNKNOWN};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        CHECK_CLASS(classes[i], classes[i]);
    int cls = -1, len = -1;
    char s[MPI_MAX_ERROR_STRING];
    CHECK_MPI(MPI_Error_class(MPI_SUCCESS, &cls));
    CHECK_EQ(MPI_SUCCESS, cls);
    CHECK_MPI(MPI_Error_string(MPI_SUCCESS, s, &len));
    CHECK_EQ(strlen(s), len);
}

enum { N_SMALL = 4096, N_LARGE = 1024 * 1024, RECV_CAP = 1024 };
static const int trunc_len[5] = {N_SMALL, N_SMALL, N_SMALL, N_LARGE, 64};

static void truncation_receiver(int sender, uint8_t *rb)
{
    MPI_Request req;
    MPI_Status st, sts[1];
    /* blocking receive */
    tu_set_guard(rb, RECV_CAP);
    CHECK_CLASS(MPI_ERR_TRUNCATE, MPI_Recv(rb, RECV_CAP, MPI_BYTE, sender, 1, MPI_COMM_WORLD, &st));
    CHECK_GUARD(rb, RECV_CAP);
    /* Irecv + Wait: the return code says truncated. (status.MPI_ERROR is deliberately not
     * checked: MPI 3.2.5 says only multiple-completion calls may set it; MPICH leaves it.) */
    CHECK_MPI(MPI_Irecv(rb, RECV_CAP, MPI_BYTE, sender, 2, MPI_COMM_WORLD, &req));
    CHECK_CLASS(MPI_ERR_TRUNCATE, MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL);
    CHECK_GUARD(rb, RECV_CAP);
    /* Irecv + Waitall: MPI_ERR_IN_STATUS, details in the status */
    CHECK_MPI(MPI_Irecv(rb, RECV_CAP, MPI_BYTE, sender, 3, MPI_COMM_WORLD, &req));
    CHECK_CLASS(MPI_ERR_IN_STATUS, MPI_Waitall(1, &req, sts));
    CHECK_CLASS(MPI_ERR_TRUNCATE, sts[0].MPI_ERROR);
    CHECK_GUARD(rb, RECV_CAP);
    /* rendezvous-sized message into the small buffer */
    CHECK_CLASS(MPI_ERR_TRUNCATE, MPI_Recv(rb, RECV_CAP, MPI_BYTE, sender, 4, MPI_COMM_WORLD, &st));
    CHECK_GUARD(rb, RECV_CAP);
    /* and the next ordinary message is fine */
    CHECK_MPI(MPI_Recv(rb, RECV_CAP, MPI_BYTE, sender, 5, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, sender, 5, trunc_len[4]);
    CHECK_PATTERN(rb, (size_t)trunc_len[4], 5);
}

static void truncation(int rank, int sender, int receiver)
{
    uint8_t *sb = tu_malloc(N_LARGE), *rb = tu_malloc(RECV_CAP + TU_GUARD);
    MPI_Request req[5];
    MPI_Status st[5];
    if (rank == sender) {
        tu_fill(sb, N_LARGE, 5);
        for (int i = 0; i < 5; i++)
            CHECK_MPI(
                MPI_Isend(sb, trunc_len[i], MPI_BYTE, receiver, i + 1, MPI_COMM_WORLD, &req[i]));
    }
    if (rank == receiver)
        truncation_receiver(sender, rb);
    if (rank == sender) /* the sender of a truncated message sees success */
        CHECK_MPI(MPI_Waitall(5, req, st));
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int rank = tu_rank(), size = tu_size();
    handlers();
    invalid_arguments(size);
    class_strings();
    int lo = rank & ~1, hi = lo + 1 < size ? lo + 1 : lo;
    truncation(rank, lo, hi);
    return tu_finish(NAME);
}
