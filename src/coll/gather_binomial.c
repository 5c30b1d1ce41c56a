/* Binomial-tree gather: each rank collects its subtree's blocks (in order of rank relative to the
 * root) and passes them up in one message; log2(n) rounds instead of n-1 receives at the root. */
#include <string.h>

#include "coll/algo.h"

void skiff_gather_binomial(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf, int root)
{
    int n = s->comm->size, me = s->comm->rank, rel = (me - root + n) % n;
    int sub = skiff_binomial_subtree(rel, n);
    char *rb = recvbuf;
    /* Relative order equals rank order when the root is 0: gather straight into recvbuf then. */
    char *tmp = me == root && root == 0 ? rb : skiff_sched_scratch(s, (size_t)sub * bytes);
    const void *mine = sendbuf ? sendbuf : rb + (size_t)me * bytes; /* NULL: in place at the root */
    skiff_sched_copy(s, tmp, mine, bytes);
    skiff_sched_round(s);
    int mask = 1;
    for (; mask < n && !(rel & mask); mask <<= 1) {
        if (rel + mask < n) {
            int cnt = n - rel - mask < mask ? n - rel - mask : mask;
            skiff_sched_recv(s, tmp + (size_t)mask * bytes, (size_t)cnt * bytes, (rel + mask + root) % n);
        }
    }
    skiff_sched_round(s);
    if (rel) {
        skiff_sched_send(s, tmp, (size_t)sub * bytes, (rel - mask + root) % n);
        skiff_sched_round(s);
        return;
    }
    if (tmp != rb) /* the root puts relative block i where rank (i + root) % n belongs */
        for (int i = 0; i < n; i++)
            skiff_sched_copy(s, rb + (size_t)((i + root) % n) * bytes, tmp + (size_t)i * bytes, bytes);
    skiff_sched_round(s);
}
