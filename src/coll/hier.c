/* Node-aware (hierarchical) collectives: when a communicator spans several nodes, work inside each
 * node first, then only between one leader per node (the lowest rank there), then inside each node
 * again. The slow links between nodes then carry one message per node instead of one per rank.
 * The node and leader communicators are built on the first collective that needs them; while they
 * are being built (their context ids are agreed by an allreduce over this communicator) the
 * collectives of this communicator take the flat algorithms. Only commutative reductions go this way:
 * grouping by node would change the order of operands of the others. */
#include <stdlib.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/ctxid_agree.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/error.h"
#include "core/node.h"
#include "util/log.h"

static int node_of(const struct skiff_comm *c, int r)
{
    return skiff_node_of(skiff_comm_world_rank(c, r));
}

/* The lowest rank of c on node `node`. */
static int leader_of(const struct skiff_comm *c, int node)
{
    for (int r = 0; r < c->size; r++)
        if (node_of(c, r) == node)
            return r;
    return -1;
}

/* Worth a hierarchy: more than one node, and some node with more than one rank. */
static int spans_nodes(const struct skiff_comm *c)
{
    int several = 0, shared = 0;
    for (int r = 1; r < c->size; r++) {
        several |= node_of(c, r) != node_of(c, 0);
        shared |= leader_of(c, node_of(c, r)) != r;
    }
    return several && shared;
}

static int build(struct skiff_comm *c)
{
    int me = c->rank, mynode = node_of(c, me), nn = 0, nl = 0;
    int *node_ranks = malloc((size_t)c->size * sizeof *node_ranks);
    int *leaders = malloc((size_t)c->size * sizeof *leaders);
    if (!node_ranks || !leaders) {
        free(node_ranks);
        free(leaders);
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for the node map of %d ranks", c->size);
    }
    for (int r = 0; r < c->size; r++) {
        if (node_of(c, r) == mynode)
            node_ranks[nn++] = skiff_comm_world_rank(c, r);
        if (leader_of(c, node_of(c, r)) == r)
            leaders[nl++] = skiff_comm_world_rank(c, r);
    }
    int rc = skiff_comm_make(c, node_ranks, nn, &c->node_comm);
    if (!rc)
        rc = skiff_comm_make(c, leaders, leader_of(c, mynode) == me ? nl : 0, &c->leader_comm);
    /* One node each, one rank per node: neither has a hierarchy of its own. */
    if (c->node_comm)
        c->node_comm->hier = SKIFF_HIER_FLAT;
    if (c->leader_comm)
        c->leader_comm->hier = SKIFF_HIER_FLAT;
    free(node_ranks);
    free(leaders);
    return rc;
}

int skiff_hier_ready(struct skiff_comm *c)
{
    if (c->hier == SKIFF_HIER_UNKNOWN) {
        if (c->size < 3 || !spans_nodes(c)) {
            c->hier = SKIFF_HIER_FLAT;
        } else {
            c->hier = SKIFF_HIER_BUILDING;
            c->hier = build(c) == MPI_SUCCESS ? SKIFF_HIER_READY : SKIFF_HIER_FLAT;
            skiff_log(SKIFF_LOG_DEBUG, "communicator %s (%d ranks) spans several nodes: %s collectives",
                      skiff_comm_label(c), c->size, c->hier == SKIFF_HIER_READY ? "node-aware" : "flat");
        }
    }
    return c->hier == SKIFF_HIER_READY;
}

int skiff_hier_barrier(struct skiff_comm *c)
{
    int rc = skiff_coll_barrier(c->node_comm, NULL); /* everyone on the node has arrived */
    if (!rc && c->leader_comm)
        rc = skiff_coll_barrier(c->leader_comm, NULL); /* every node has arrived */
    if (!rc)
        rc = skiff_coll_barrier(c->node_comm, NULL); /* the leader lets its node go */
    return rc;
}

int skiff_hier_bcast(void *buf, size_t bytes, int root, struct skiff_comm *c)
{
    int root_node = node_of(c, root), mynode = node_of(c, c->rank);
    int rc = MPI_SUCCESS;
    /* On the root's node the root itself serves; its leader then carries the data to the others. */
    if (mynode == root_node) {
        int node_root = 0;
        for (int r = 0; r < root; r++)
            node_root += node_of(c, r) == root_node;
        rc = skiff_coll_bcast(buf, bytes, node_root, c->node_comm, NULL, NULL);
    }
    if (!rc && c->leader_comm) {
        /* leader_comm holds the leaders in c's rank order, which need not be node order (a split with
         * reordering keys): the root node's leader is preceded by the leaders of lower c rank. */
        int leader_root = 0, root_leader = leader_of(c, root_node);
        for (int r = 0; r < root_leader; r++)
            leader_root += leader_of(c, node_of(c, r)) == r;
        rc = skiff_coll_bcast(buf, bytes, leader_root, c->leader_comm, NULL, NULL);
    }
    if (!rc && mynode != root_node)
        rc = skiff_coll_bcast(buf, bytes, 0, c->node_comm, NULL, NULL);
    return rc;
}

int skiff_hier_allreduce(const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt, MPI_Op op,
                         struct skiff_comm *c)
{
    int rc = skiff_coll_reduce(sendbuf, recvbuf, count, dt, op, 0, c->node_comm, NULL);
    if (!rc && c->leader_comm)
        rc = skiff_coll_allreduce(recvbuf, recvbuf, count, dt, op, c->leader_comm, NULL);
    if (!rc)
        rc = skiff_coll_bcast(recvbuf, count * skiff_type_get(dt)->extent, 0, c->node_comm, NULL, NULL);
    return rc;
}
