/* Allreduce of a small message over the whole job on one node: every rank puts its contribution in
 * its slot of the shared area, one barrier, then every rank reduces all slots itself, in rank order
 * (so non-commutative ops are right and every rank gets bit-identical results). One barrier instead
 * of log2(n) message rounds: with more ranks than cores that is one wake-up instead of several.
 * Slots come in two sets used alternately: a rank can only reuse a set after everyone has passed
 * the next barrier, i.e. has finished reading it. */
#include <string.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "core/core.h"
#include "core/mt.h"
#include "core/node.h"
#include "core/op.h"
#include "shm/node_area.h"

static unsigned slot_set; /* shared-slot collectives so far: the same count on every rank */

int skiff_allreduce_shm(const void *sendbuf, void *recvbuf, size_t count, size_t esize, MPI_Datatype dt, MPI_Op op,
                        struct skiff_comm *c)
{
    size_t bytes = count * esize;
    /* The slots are the node's (as the barrier's counter): not under MPI_THREAD_MULTIPLE (shm/node_area.h). */
    if (!skiff_node_area_ready() || c->size != skiff.size || bytes > SKIFF_NODE_SLOT_BYTES || skiff_job_nodes() != 1 ||
        skiff_mt_apps)
        return 0;
    unsigned set = slot_set++;
    memcpy(skiff_node_slot(set, c->rank), sendbuf, bytes);
    skiff_coll_node_barrier(c);
    unsigned char tmp[SKIFF_NODE_SLOT_BYTES];
    int commute = skiff_op_commutative(op);
    memcpy(recvbuf, skiff_node_slot(set, 0), bytes);
    for (int i = 1; i < c->size; i++) {
        const void *xi = skiff_node_slot(set, i);
        if (commute) {
            skiff_op_apply(op, xi, recvbuf, count, dt); /* acc = x_i op acc */
        } else {
            memcpy(tmp, xi, bytes);
            skiff_op_apply(op, recvbuf, tmp, count, dt); /* tmp = acc op x_i */
            memcpy(recvbuf, tmp, bytes);
        }
    }
    return 1;
}
