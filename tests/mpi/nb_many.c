/* nb_many — thousands of outstanding nonblocking operations.
 *
 * Ring: each rank receives from its left neighbour and sends to its right (to itself at np=1).
 *   round 0: N Irecvs with distinct tags are posted everywhere (barrier), then the matching
 *            Isends go out in a scrambled tag order, so each arrival searches a long posted
 *            queue; one Waitall each side.
 *   round 1: same, but every message has the same tag: message k must land in receive k.
 *   round 2: N Isends first (barrier), so everything arrives unexpected, then N Irecvs.
 * Every message carries a pattern seeded by (round, index, sender) and is checked with its
 * status.
 *
 * usage: nb_many [N]   (default 2000, at most 20000)
 */
#include "testutil.h"

#define NAME "nb_many"
#define MAXLEN 64

/* 0..63 bytes, includes empty messages */
static int msg_len(int k)
{
    return (k * 13) % MAXLEN;
}

static int gcd(int a, int b)
{
    return b ? gcd(b, a % b) : a;
}

/* Index of the i-th send: a fixed permutation of 0..n-1 (stride coprime to n). */
static int scrambled(int i, int n)
{
    int stride = 7919 % n;
    while (stride == 0 || gcd(stride, n) != 1)
        stride++;
    return (int)(((long)i * stride) % n);
}

struct ring {
    int n, left, right, rank;
    uint8_t *sbuf, *rbuf; /* n slots of MAXLEN + TU_GUARD bytes */
    MPI_Request *sreq, *rreq;
    MPI_Status *st;
};

static uint8_t *slot(uint8_t *base, int k)
{
    return base + (size_t)k * (MAXLEN + TU_GUARD);
}

static int tag_of(int round, int k)
{
    return round == 1 ? 0 : k;
}

static void post_recvs(struct ring *r, int round)
{
    for (int k = 0; k < r->n; k++) {
        tu_set_guard(slot(r->rbuf, k), (size_t)msg_len(k));
        CHECK_MPI(MPI_Irecv(slot(r->rbuf, k), msg_len(k), MPI_BYTE, r->left, tag_of(round, k),
                            MPI_COMM_WORLD, &r->rreq[k]));
    }
}

/* Round 1 must send in index order (same tag: order is the only thing that matches). */
static void post_sends(struct ring *r, int round)
{
    for (int i = 0; i < r->n; i++) {
        int k = round == 1 ? i : scrambled(i, r->n);
        uint8_t *p = slot(r->sbuf, k);
        tu_fill(p, (size_t)msg_len(k), tu_seed((uint64_t)round, (uint64_t)k, (uint64_t)r->rank, 0));
        CHECK_MPI(MPI_Isend(p, msg_len(k), MPI_BYTE, r->right, tag_of(round, k), MPI_COMM_WORLD,
                            &r->sreq[k]));
    }
}

static void complete_and_check(struct ring *r, int round)
{
    CHECK_MPI(MPI_Waitall(r->n, r->rreq, r->st));
    CHECK_MPI(MPI_Waitall(r->n, r->sreq, TU_STATUSES_IGNORE));
    for (int k = 0; k < r->n; k++) {
        CHECK(r->rreq[k] == MPI_REQUEST_NULL && r->sreq[k] == MPI_REQUEST_NULL);
        CHECK_STATUS(r->st[k], r->left, tag_of(round, k), msg_len(k));
        CHECK_PATTERN(slot(r->rbuf, k), (size_t)msg_len(k),
                      tu_seed((uint64_t)round, (uint64_t)k, (uint64_t)r->left, 0));
        CHECK_GUARD(slot(r->rbuf, k), (size_t)msg_len(k));
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    struct ring r;
    r.n = (int)tu_arg_long(argc, argv, 1, 2000);
    CHECK(r.n >= 1 && r.n <= 20000); /* tags must stay below TU_TAG_RESERVED */
    r.rank = tu_rank();
    r.left = (r.rank + tu_size() - 1) % tu_size();
    r.right = (r.rank + 1) % tu_size();
    r.sbuf = tu_malloc((size_t)r.n * (MAXLEN + TU_GUARD));
    r.rbuf = tu_malloc((size_t)r.n * (MAXLEN + TU_GUARD));
    r.sreq = tu_malloc(sizeof(MPI_Request) * (size_t)r.n);
    r.rreq = tu_malloc(sizeof(MPI_Request) * (size_t)r.n);
    r.st = tu_malloc(sizeof(MPI_Status) * (size_t)r.n);

    for (int round = 0; round < 2; round++) { /* receives posted first */
        post_recvs(&r, round);
        tu_barrier();
        post_sends(&r, round);
        complete_and_check(&r, round);
        tu_barrier();
    }
    post_sends(&r, 2); /* round 2: everything unexpected */
    tu_barrier();
    post_recvs(&r, 2);
    complete_and_check(&r, 2);

    free(r.sbuf);
    free(r.rbuf);
    free(r.sreq);
    free(r.rreq);
    free(r.st);
    return tu_finish(NAME);
}
