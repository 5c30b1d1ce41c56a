/* All-to-all(v) in one round: every send and receive posted at once. With more ranks than cores
 * each round costs every rank a wake-up, so one round beats n-1 pairwise steps there. */
#include "coll/algo.h"

void skiff_alltoallv_linear(struct skiff_sched *s, const void *sendbuf, const size_t *scounts, const size_t *sdispls,
                            void *recvbuf, const size_t *rcounts, const size_t *rdispls)
{
    int n = s->comm->size, me = s->comm->rank;
    const char *sb = sendbuf;
    char *rb = recvbuf;
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n, from = (me - k + n) % n;
        skiff_sched_recv(s, rb + rdispls[from], rcounts[from], from);
        skiff_sched_send(s, sb + sdispls[to], scounts[to], to);
    }
    skiff_sched_copy(s, rb + rdispls[me], sb + sdispls[me], rcounts[me] < scounts[me] ? rcounts[me] : scounts[me]);
    skiff_sched_round(s);
}
