/* comm_dup — MPI_Comm_dup, MPI_Comm_create, MPI_Comm_compare, MPI_Comm_free.
 *   - a duplicate isolates traffic: the same (source, tag) sent on the parent and on the dup arrives
 *     on each in the order its receives ask for, wildcard receives and probes on one never see the
 *     other's messages; MPI_COMM_SELF's duplicate likewise;
 *   - MPI_Comm_free with a rendezvous send and a receive pending: both complete afterwards;
 *   - compare: IDENT (same handle), CONGRUENT (dup), SIMILAR (reordered), UNEQUAL (subset);
 *   - the dup keeps the error handler, not the name;
 *   - MPI_Comm_create from a reversed group and from a group of the even ranks (others get
 *     MPI_COMM_NULL), with traffic on each;
 *   - 300 create/free rounds and a chain of nested dups (context ids are never exhausted).
 */
#include "testutil.h"

#define NAME "comm_dup"

static void isolation(int rank, int size)
{
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int peer_to = (rank + 1) % size, peer_from = (rank + size - 1) % size;
    int a = 1000 + rank, b = 2000 + rank, got = -1, flag = 1;
    MPI_Request r[2];
    MPI_Status st;
    /* Parent first, dup second; the receiver asks in the opposite order. */
    CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, peer_to, 5, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, peer_to, 5, dup, &r[1]));
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st));
    CHECK_EQ(2000 + peer_from, got);
    CHECK_EQ(peer_from, st.MPI_SOURCE);
    /* The parent's message is there, but not for the dup. */
    CHECK_MPI(MPI_Probe(peer_from, 5, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &flag, &st));
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, peer_from, 5, MPI_COMM_WORLD, &st));
    CHECK_EQ(1000 + peer_from, got);
    CHECK_MPI(MPI_Waitall(2, r, TU_STATUSES_IGNORE));

    int res;
    CHECK_MPI(MPI_Comm_compare(dup, dup, &res));
    CHECK_EQ(MPI_IDENT, res);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dup, &res));
    CHECK_EQ(MPI_CONGRUENT, res);
    tu_barrier();
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL);

    /* MPI_COMM_SELF and its duplicate. */
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &dup));
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_SELF, dup, &res));
    CHECK_EQ(MPI_CONGRUENT, res);
    /* Sends to oneself must not block: nonblocking sends, then the receives. */
    CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &r[0]));
    CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, 0, 3, dup, &r[1]));
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 3, dup, MPI_STATUS_IGNORE));
    CHECK_EQ(b, got);
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK_EQ(a, got);
    CHECK_MPI(MPI_Waitall(2, r, TU_STATUSES_IGNORE));
    CHECK_MPI(MPI_Comm_free(&dup));
}

/* MPI_Comm_free with operations pending: they complete normally afterwards, rendezvous-sized
 * messages included, while other communicators come and go. */
static void free_pending(int rank, int size)
{
    enum { N = 64 * 1024 }; /* 256 KiB: beyond any eager limit */
    int *out = tu_malloc(N * sizeof(int)), *in = tu_malloc(N * sizeof(int));
    for (int i = 0; i < N; i++)
        out[i] = rank * N + i;
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Comm dup, other;
    MPI_Request r[2];
    MPI_Status st;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Irecv(in, N, MPI_INT, MPI_ANY_SOURCE, 6, dup, &r[0]));
    CHECK_MPI(MPI_Isend(out, N, MPI_INT, to, 6, dup, &r[1]));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL);
    for (int i = 0; i < 3; i++) {
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &other));
        CHECK_MPI(MPI_Comm_free(&other));
    }
    CHECK_MPI(MPI_Wait(&r[0], &st));
    CHECK_MPI(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    CHECK_EQ(from, st.MPI_SOURCE);
    for (int i = 0; i < N; i++)
        CHECK_EQ(from * N + i, in[i]);
    free(in);
    free(out);
}

static void inherited(void)
{
    MPI_Comm dup, dup2;
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_get_errhandler(dup, &eh));
    CHECK(eh == MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
    CHECK_EQ(0, len);
    CHECK_EQ(0, strlen(name));
    CHECK_MPI(MPI_Comm_set_name(dup, "dup one"));
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    CHECK_MPI(MPI_Comm_get_name(dup2, name, &len));
    CHECK_EQ(0, len);
    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

static void create(int rank, int size)
{
    MPI_Group wg, rev, even;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int *ranks = tu_malloc(sizeof(int) * (size_t)size), n_even = 0;
    for (int i = 0; i < size; i++)
        ranks[i] = size - 1 - i;
    CHECK_MPI(MPI_Group_incl(wg, size, ranks, &rev));
    for (int i = 0; i < size; i += 2)
        ranks[n_even++] = i;
    CHECK_MPI(MPI_Group_incl(wg, n_even, ranks, &even));

    MPI_Comm c;
    int r, s, res, got = -1;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, rev, &c));
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_MPI(MPI_Comm_size(c, &s));
    CHECK_EQ(size - 1 - rank, r);
    CHECK_EQ(size, s);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, c, &res));
    CHECK_EQ(size == 1 ? MPI_CONGRUENT : MPI_SIMILAR, res);
    /* Rank i of c is world rank size-1-i: send to c's rank 0, i.e. the last world rank. */
    if (r != 0)
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 0, 9, c));
    else
        for (int i = 1; i < s; i++) {
            MPI_Status st;
            CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, i, 9, c, &st));
            CHECK_EQ(size - 1 - i, got);
        }
    CHECK_MPI(MPI_Comm_free(&c));

    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, even, &c));
    if (rank % 2) {
        CHECK(c == MPI_COMM_NULL);
    } else {
        CHECK_MPI(MPI_Comm_rank(c, &r));
        CHECK_MPI(MPI_Comm_size(c, &s));
        CHECK_EQ(rank / 2, r);
        CHECK_EQ(n_even, s);
        CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, c, &res));
        CHECK_EQ(size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL, res);
        int right = (r + 1) % s, left = (r + s - 1) % s;
        CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, right, 1, &got, 1, MPI_INT, left, 1, c, MPI_STATUS_IGNORE));
        CHECK_EQ(left * 2, got);
        CHECK_MPI(MPI_Comm_free(&c));
    }
    /* MPI_GROUP_EMPTY: nobody is a member. */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
    CHECK(c == MPI_COMM_NULL);
    free(ranks);
    CHECK_MPI(MPI_Group_free(&even));
    CHECK_MPI(MPI_Group_free(&rev));
    CHECK_MPI(MPI_Group_free(&wg));
}

static void many(int rank, int size)
{
    for (int i = 0; i < 300; i++) {
        MPI_Comm c;
        CHECK_MPI(i % 2 ? MPI_Comm_dup(MPI_COMM_WORLD, &c) : MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c));
        if (i % 50 == 0) {
            int got = -1;
            CHECK_MPI(MPI_Sendrecv(&i, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
                                   (rank + size - 1) % size, 0, c, MPI_STATUS_IGNORE));
            CHECK_EQ(i, got);
        }
        CHECK_MPI(MPI_Comm_free(&c));
    }
    enum { DEPTH = 20 };
    MPI_Comm chain[DEPTH + 1];
    chain[0] = MPI_COMM_WORLD;
    for (int i = 1; i <= DEPTH; i++)
        CHECK_MPI(MPI_Comm_dup(chain[i - 1], &chain[i]));
    int got = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, (rank + size - 1) % size, 0,
                           chain[DEPTH], MPI_STATUS_IGNORE));
    CHECK_EQ((rank + size - 1) % size, got);
    for (int i = DEPTH; i >= 1; i--)
        CHECK_MPI(MPI_Comm_free(&chain[i]));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int rank = tu_rank(), size = tu_size();
    isolation(rank, size);
    free_pending(rank, size);
    inherited();
    create(rank, size);
    many(rank, size);
    return tu_finish(NAME);
}
