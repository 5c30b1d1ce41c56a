/* Bruck allgather for any rank count: ceil(log2(n)) rounds. Round k sends the first 2^k blocks
 * (in order starting at this rank) to rank - 2^k and appends as many from rank + 2^k; a final
 * rotation puts the blocks in rank order. The caller has put this rank's block in recvbuf. */
#include "coll/algo.h"

void skiff_allgather_bruck(struct skiff_sched *s, void *recvbuf, size_t bytes)
{
    int n = s->comm->size, me = s->comm->rank;
    char *rb = recvbuf;
    char *tmp = skiff_sched_scratch(s, (size_t)n * bytes);
    skiff_sched_copy(s, tmp, rb + (size_t)me * bytes, bytes);
    skiff_sched_round(s);
    for (int dist = 1; dist < n; dist *= 2) {
        int cnt = n - dist < dist ? n - dist : dist;
        skiff_sched_send(s, tmp, (size_t)cnt * bytes, (me - dist + n) % n);
        skiff_sched_recv(s, tmp + (size_t)dist * bytes, (size_t)cnt * bytes, (me + dist) % n);
        skiff_sched_round(s);
    }
    for (int i = 0; i < n; i++) /* tmp[i] is rank (me + i) % n's block */
        if ((me + i) % n != me)
            skiff_sched_copy(s, rb + (size_t)((me + i) % n) * bytes, tmp + (size_t)i * bytes, bytes);
    skiff_sched_round(s);
}
