/* Gatherv and scatterv: blocks of any size, so the root talks to every rank directly, all at once. */
#include "coll/algo.h"

void skiff_gatherv_linear(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf,
                          const size_t *counts, const size_t *displs, int root)
{
    int n = s->comm->size, me = s->comm->rank;
    if (me != root) {
        skiff_sched_send(s, sendbuf, bytes, root);
    } else {
        for (int i = 0; i < n; i++)
            if (i != root)
                skiff_sched_recv(s, (char *)recvbuf + displs[i], counts[i], i);
        if (sendbuf) /* NULL: in place */
            skiff_sched_copy(s, (char *)recvbuf + displs[root], sendbuf, counts[root]);
    }
    skiff_sched_round(s);
}

void skiff_scatterv_linear(struct skiff_sched *s, const void *sendbuf, const size_t *counts, const size_t *displs,
                           void *recvbuf, size_t bytes, int root)
{
    int n = s->comm->size, me = s->comm->rank;
    if (me != root) {
        skiff_sched_recv(s, recvbuf, bytes, root);
    } else {
        for (int i = 0; i < n; i++)
            if (i != root)
                skiff_sched_send(s, (const char *)sendbuf + displs[i], counts[i], i);
        if (recvbuf)
            skiff_sched_copy(s, recvbuf, (const char *)sendbuf + displs[root], counts[root]);
    }
    skiff_sched_round(s);
}
