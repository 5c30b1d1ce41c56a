/* Inclusive and exclusive scan by recursive doubling: log2(n) rounds. Each rank keeps the partial
 * reduction of its whole group and its own prefix; contributions from lower ranks are always put
 * first, so non-commutative ops come out in rank order. */
#include "coll/algo.h"

void skiff_scan_recursive_doubling(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count,
                                   size_t esize, int exclusive)
{
    int n = s->comm->size, me = s->comm->rank;
    size_t bytes = count * esize;
    char *partial = skiff_sched_scratch(s, 2 * bytes), *tmp = partial + bytes;
    skiff_sched_copy(s, partial, sendbuf, bytes);
    if (!exclusive && sendbuf != recvbuf)
        skiff_sched_copy(s, recvbuf, sendbuf, bytes);
    skiff_sched_round(s);
    int have_prefix = !exclusive; /* exclusive: nothing below us yet */
    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = me ^ mask;
        if (peer >= n)
            continue;
        skiff_sched_send(s, partial, bytes, peer);
        skiff_sched_recv(s, tmp, bytes, peer);
        if (peer < me) {
            if (have_prefix)
                skiff_sched_reduce(s, tmp, recvbuf, count); /* lower ranks first */
            else
                skiff_sched_copy(s, recvbuf, tmp, bytes);
            have_prefix = 1;
            skiff_sched_reduce(s, tmp, partial, count);
        } else {
            skiff_sched_reduce(s, partial, tmp, count); /* partial op theirs */
            skiff_sched_copy(s, partial, tmp, bytes);
        }
        skiff_sched_round(s);
    }
}
