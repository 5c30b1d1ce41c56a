/* Which node (host) a job rank runs on. Communicator splitting by MPI_COMM_TYPE_SHARED and the placement of
 * Cartesian grids ask this; the TCP transport will answer it from the launch information. */
#ifndef SKIFF_NODE_H
#define SKIFF_NODE_H

/* A small number naming the node of world_rank; equal numbers mean the same node. */
int skiff_node_of(int world_rank);
/* How many nodes the job spans. */
int skiff_job_nodes(void);

#endif
