/* Bruck all-to-all for small blocks: ceil(log2(n)) rounds instead of n-1. Blocks are rotated so
 * block i is for rank me + i; round k ships every block whose index has bit k set to rank me + 2^k
 * (packed into one message); a final rotation puts them in rank order. */
#include "coll/algo.h"

void skiff_alltoall_bruck(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t bytes)
{
    int n = s->comm->size, me = s->comm->rank;
    const char *sb = sendbuf;
    char *rb = recvbuf;
    char *tmp = skiff_sched_scratch(s, (size_t)3 * (size_t)n * bytes);
    char *pack = tmp + (size_t)n * bytes, *unpack = pack + (size_t)n * bytes;
    for (int i = 0; i < n; i++)
        skiff_sched_copy(s, tmp + (size_t)i * bytes, sb + (size_t)((me + i) % n) * bytes, bytes);
    for (int dist = 1; dist < n; dist *= 2) {
        int cnt = 0;
        for (int i = 1; i < n; i++)
            if (i & dist)
                skiff_sched_copy(s, pack + (size_t)cnt++ * bytes, tmp + (size_t)i * bytes, bytes);
        skiff_sched_round(s); /* packing is local work: it must finish before the send posts */
        skiff_sched_send(s, pack, (size_t)cnt * bytes, (me + dist) % n);
        skiff_sched_recv(s, unpack, (size_t)cnt * bytes, (me - dist + n) % n);
        cnt = 0;
        for (int i = 1; i < n; i++)
            if (i & dist)
                skiff_sched_copy(s, tmp + (size_t)i * bytes, unpack + (size_t)cnt++ * bytes, bytes);
        skiff_sched_round(s);
    }
    for (int i = 0; i < n; i++) /* tmp[i] came from rank me - i */
        skiff_sched_copy(s, rb + (size_t)((me - i + n) % n) * bytes, tmp + (size_t)i * bytes, bytes);
    skiff_sched_round(s);
}
