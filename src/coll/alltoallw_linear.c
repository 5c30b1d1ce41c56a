/* All-to-all with a datatype per peer (alltoallw): every block is its own run of bytes somewhere, so
 * the blocks go one message each, all posted in one round as in alltoallv_linear. */
#include "coll/algo.h"

void skiff_alltoallw_linear(struct skiff_sched *s, char *const *sptr, const size_t *sbytes, char *const *rptr,
                            const size_t *rbytes)
{
    int n = s->comm->size, me = s->comm->rank;
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n, from = (me - k + n) % n;
        skiff_sched_recv(s, rptr[from], rbytes[from], from);
        skiff_sched_send(s, sptr[to], sbytes[to], to);
    }
    skiff_sched_copy(s, rptr[me], sptr[me], rbytes[me] < sbytes[me] ? rbytes[me] : sbytes[me]);
    skiff_sched_round(s);
}
