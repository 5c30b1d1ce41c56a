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
void skiff_nodemap_free(struct skiff_nodemap *m);

#endif
