/* Ring allgather(v): n-1 rounds, each rank forwarding to its right neighbour the block it received
 * last. Bandwidth-optimal for large blocks and the natural algorithm for uneven ones. The caller
 * has put this rank's block in place. */
#include "coll/algo.h"

void skiff_allgatherv_ring(struct skiff_sched *s, void *recvbuf, const size_t *counts, const size_t *displs)
{
    int n = s->comm->size, me = s->comm->rank;
    int left = (me - 1 + n) % n, right = (me + 1) % n;
    char *rb = recvbuf;
    for (int k = 0; k < n - 1; k++) {
        int sb = (me - k + n) % n, rblk = (me - k - 1 + n) % n;
        skiff_sched_send(s, rb + displs[sb], counts[sb], right);
        skiff_sched_recv(s, rb + displs[rblk], counts[rblk], left);
        skiff_sched_round(s);
    }
}
