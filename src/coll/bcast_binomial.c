/* Binomial-tree broadcast: log2(n) rounds, the latency-optimal choice for small messages. */
#include "coll/algo.h"

void skiff_bcast_binomial(struct skiff_sched *s, void *buf, size_t bytes, int root)
{
    int n = s->comm->size, me = s->comm->rank;
    int rel = (me - root + n) % n;
    int mask = 1;
    /* Receive from the parent: the rank that differs in our lowest set bit. */
    while (mask < n) {
        if (rel & mask) {
            skiff_sched_recv(s, buf, bytes, (rel - mask + root) % n);
            skiff_sched_round(s);
            break;
        }
        mask <<= 1;
    }
    /* Then forward to the children below that bit, largest subtree first. */
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n)
            skiff_sched_send(s, buf, bytes, (rel + mask + root) % n);
    skiff_sched_round(s);
}
