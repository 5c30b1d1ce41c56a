/* Binomial-tree scatter: the root sends each subtree its blocks in one message; log2(n) rounds. */
#include <string.h>

#include "coll/algo.h"

void skiff_scatter_binomial(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf, int root)
{
    int n = s->comm->size, me = s->comm->rank, rel = (me - root + n) % n;
    int sub = skiff_binomial_subtree(rel, n);
    const char *sb = sendbuf;
    char *tmp;
    if (rel == 0 && root == 0) {
        tmp = (char *)sb; /* already in relative order */
    } else {
        tmp = skiff_sched_scratch(s, (size_t)sub * bytes);
        if (rel == 0) /* the root rotates so that relative block i is rank (i + root) % n */
            for (int i = 0; i < n; i++)
                skiff_sched_copy(s, tmp + (size_t)i * bytes, sb + (size_t)((i + root) % n) * bytes, bytes);
    }
    skiff_sched_round(s);
    int mask = 1;
    while (mask < n && !(rel & mask))
        mask <<= 1;
    if (rel) {
        skiff_sched_recv(s, tmp, (size_t)sub * bytes, (rel - mask + root) % n);
        skiff_sched_round(s);
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask < n) {
            int cnt = n - rel - mask < mask ? n - rel - mask : mask;
            skiff_sched_send(s, tmp + (size_t)mask * bytes, (size_t)cnt * bytes, (rel + mask + root) % n);
        }
    }
    if (recvbuf) /* NULL: in place at the root, whose block stays where it is */
        skiff_sched_copy(s, recvbuf, tmp, bytes);
    skiff_sched_round(s);
}
