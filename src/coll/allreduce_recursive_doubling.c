/* Recursive-doubling allreduce for small messages: log2(n) rounds of pairwise exchange. A rank
 * count that is not a power of two first folds pairs of its lowest ranks into one (even into odd),
 * and unfolds them at the end. Partners always combine lower-rank data first, so non-commutative
 * ops are correct too. */
#include "coll/algo.h"

void skiff_allreduce_recursive_doubling(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count,
                                        size_t esize)
{
    int n = s->comm->size, me = s->comm->rank;
    int pof2 = skiff_pof2_floor(n), rem = n - pof2;
    size_t bytes = count * esize;
    char *tmp = skiff_sched_scratch(s, bytes);
    if (sendbuf != recvbuf)
        skiff_sched_copy_first(s, recvbuf, sendbuf, bytes);
    int newrank;
    if (me < 2 * rem) {
        if (me % 2 == 0) { /* folded away: hand our data to the odd neighbour, wait for the result */
            skiff_sched_send(s, recvbuf, bytes, me + 1);
            skiff_sched_round(s);
            skiff_sched_recv(s, recvbuf, bytes, me + 1);
            skiff_sched_round(s);
            return;
        }
        skiff_sched_recv(s, tmp, bytes, me - 1);
        skiff_sched_reduce(s, tmp, recvbuf, count); /* (me-1) op me */
        skiff_sched_round(s);
        newrank = me / 2;
    } else {
        newrank = me - rem;
    }
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int newpeer = newrank ^ mask;
        int peer = newpeer < rem ? newpeer * 2 + 1 : newpeer + rem;
        skiff_sched_send(s, recvbuf, bytes, peer);
        skiff_sched_recv(s, tmp, bytes, peer);
        if (peer < me) {
            skiff_sched_reduce(s, tmp, recvbuf, count); /* theirs op mine */
        } else {
            skiff_sched_reduce(s, recvbuf, tmp, count); /* mine op theirs */
            skiff_sched_copy(s, recvbuf, tmp, bytes);
        }
        skiff_sched_round(s);
    }
    if (me < 2 * rem) { /* odd ranks give the folded-away neighbour its result */
        skiff_sched_send(s, recvbuf, bytes, me - 1);
        skiff_sched_round(s);
    }
}
