/* Pairwise all-to-all(v): in step k every rank sends to me + k and receives from me - k, so each
 * rank talks to one peer at a time and no receiver is flooded. Used for large or uneven blocks. */
#include "coll/algo.h"

void skiff_alltoallv_pairwise(struct skiff_sched *s, const void *sendbuf, const size_t *scounts,
                              const size_t *sdispls, void *recvbuf, const size_t *rcounts, const size_t *rdispls)
{
    int n = s->comm->size, me = s->comm->rank;
    const char *sb = sendbuf;
    char *rb = recvbuf;
    skiff_sched_copy(s, rb + rdispls[me], sb + sdispls[me], rcounts[me] < scounts[me] ? rcounts[me] : scounts[me]);
    skiff_sched_round(s);
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n, from = (me - k + n) % n;
        skiff_sched_send(s, sb + sdispls[to], scounts[to], to);
        skiff_sched_recv(s, rb + rdispls[from], rcounts[from], from);
        skiff_sched_round(s);
    }
}
