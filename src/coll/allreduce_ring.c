/* Ring allreduce for large messages of commutative ops: a reduce-scatter around the ring
 * (n-1 steps, each rank ends owning one fully reduced block) then an allgather of the blocks
 * (n-1 steps). Every link carries 2(n-1)/n of the message: bandwidth-optimal for any n. */
#include "coll/algo.h"

static void block(size_t count, int n, int i, size_t *first, size_t *len)
{
    size_t base = count / (size_t)n, extra = count % (size_t)n, k = (size_t)i;
    *first = k * base + (k < extra ? k : extra);
    *len = base + (k < extra ? 1 : 0);
}

void skiff_allreduce_ring(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count, size_t esize)
{
    int n = s->comm->size, me = s->comm->rank;
    int left = (me - 1 + n) % n, right = (me + 1) % n;
    char *buf = recvbuf;
    size_t maxlen = count / (size_t)n + 1;
    char *tmp = skiff_sched_scratch(s, maxlen * esize);
    if (sendbuf != recvbuf)
        skiff_sched_copy_first(s, recvbuf, sendbuf, count * esize);
    size_t off, len;
    for (int k = 0; k < n - 1; k++) { /* reduce-scatter: after step k, block (me-k-1) has k+2 terms */
        int sb = (me - k + n) % n, rb = (me - k - 1 + n) % n;
        block(count, n, sb, &off, &len);
        skiff_sched_send(s, buf + off * esize, len * esize, right);
        block(count, n, rb, &off, &len);
        skiff_sched_recv(s, tmp, len * esize, left);
        skiff_sched_reduce(s, tmp, buf + off * esize, len);
        skiff_sched_round(s);
    }
    for (int k = 0; k < n - 1; k++) { /* allgather: rank me owns block (me+1) */
        int sb = (me + 1 - k + n) % n, rb = (me - k + n) % n;
        block(count, n, sb, &off, &len);
        skiff_sched_send(s, buf + off * esize, len * esize, right);
        block(count, n, rb, &off, &len);
        skiff_sched_recv(s, buf + off * esize, len * esize, left);
        skiff_sched_round(s);
    }
}
