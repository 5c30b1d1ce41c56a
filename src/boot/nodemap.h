/* Which node each rank of the job runs on, as the launcher placed them.
 *
 * A node is a launcher's host entry (or PMI's process mapping), never a hostname: two network
 * namespaces on one machine are two nodes, and two ranks share memory only when on one node. */
#ifndef SKIFF_BOOT_NODEMAP_H
#define SKIFF_BOOT_NODEMAP_H

struct skiff_nodemap {
    int nranks, nnodes;
    int *node;        /* world rank -> node */
    int *local;       /* world rank -> index among the ranks of its node */
    int *local_count; /* node -> ranks on it */
    int *leader;      /* node -> its lowest world rank */
};

/* Every rank on node 0. 0, or -1 when out of memory. */
int skiff_nodemap_single(struct skiff_nodemap *m, int nranks);
/* From PMI_process_mapping, "(vector,(first_node,nodes,ranks_per_node),...)". 0, or -1 after printing
 * why (malformed, or it does not place exactly nranks ranks). */
int skiff_nodemap_parse(struct skiff_nodemap *m, int nranks, const char *mapping);
/* From each rank's node id as a launcher numbers them (PMIx's PMIX_NODEID): ids need not be dense.
 * 0, or -1 when out of memory or an id is negative or not below SKIFF_NODEMAP_MAX_ID. */
#define SKIFF_NODEMAP_MAX_ID (1 << 20)
int skiff_nodemap_from_nodes(struct skiff_nodemap *m, int nranks, const int *node);
void skiff_nodemap_free(struct skiff_nodemap *m);

#endif
