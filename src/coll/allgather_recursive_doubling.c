/* Recursive-doubling allgather for power-of-two rank counts: in round k each rank swaps the 2^k
 * blocks it has with its partner's 2^k, so the data doubles every round. Blocks stay in place
 * (rank order) in recvbuf; the caller has put this rank's block there. */
#include "coll/algo.h"

void skiff_allgather_recursive_doubling(struct skiff_sched *s, void *recvbuf, size_t bytes)
{
    int n = s->comm->size, me = s->comm->rank;
    char *rb = recvbuf;
    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = me ^ mask;
        int mine = me & ~(mask - 1), theirs = peer & ~(mask - 1);
        skiff_sched_send(s, rb + (size_t)mine * bytes, (size_t)mask * bytes, peer);
        skiff_sched_recv(s, rb + (size_t)theirs * bytes, (size_t)mask * bytes, peer);
        skiff_sched_round(s);
    }
}
