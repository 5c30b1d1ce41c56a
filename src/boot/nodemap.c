#include "boot/nodemap.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int alloc(struct skiff_nodemap *m, int nranks, int nnodes)
{
    memset(m, 0, sizeof *m);
    if (nranks <= 0 || nnodes <= 0) /* a launcher's nonsense, never an allocation of 2^64 bytes */
        return -1;
    m->nranks = nranks;
    m->nnodes = nnodes;
    m->node = calloc((size_t)nranks, sizeof *m->node);
    m->local = calloc((size_t)nranks, sizeof *m->local);
    m->local_count = calloc((size_t)nnodes, sizeof *m->local_count);
    m->leader = calloc((size_t)nnodes, sizeof *m->leader);
    if (m->node && m->local && m->local_count && m->leader)
        return 0;
    skiff_nodemap_free(m);
    return -1;
}

/* Fills local indices, counts and leaders once node[] is set. */
static void index_nodes(struct skiff_nodemap *m)
{
    for (int n = 0; n < m->nnodes; n++)
        m->leader[n] = -1;
    for (int r = 0; r < m->nranks; r++) {
        int n = m->node[r];
        m->local[r] = m->local_count[n]++;
        if (m->leader[n] < 0)
            m->leader[n] = r;
    }
}

int skiff_nodemap_single(struct skiff_nodemap *m, int nranks)
{
    if (alloc(m, nranks, 1))
        return -1;
    index_nodes(m);
    return 0;
}

struct block {
    int first, nodes, ppn;
};

/* The triples of a vector mapping; returns how many, or -1 if the text is not one. */
static int parse_blocks(const char *s, struct block *b, int max)
{
    int n = 0, used = 0;
    if (sscanf(s, " (vector%n", &used) != 0 || used == 0)
        return -1;
    s += used;
    while (*s == ',') {
        used = 0;
        if (n == max || sscanf(s, ",(%d,%d,%d)%n", &b[n].first, &b[n].nodes, &b[n].ppn, &used) != 3 || used == 0)
            return -1;
        if (b[n].first < 0 || b[n].nodes < 1 || b[n].ppn < 1)
            return -1;
        n++;
        s += used;
    }
    return *s == ')' ? n : -1;
}

/* The mapping repeats its blocks cyclically until every rank is placed (MPICH's convention). */
int skiff_nodemap_parse(struct skiff_nodemap *m, int nranks, const char *mapping)
{
    struct block b[64];
    int nb = parse_blocks(mapping, b, 64), nnodes = 0;
    long per_cycle = 0;
    for (int i = 0; i < nb; i++) {
        if (b[i].first + b[i].nodes > nnodes)
            nnodes = b[i].first + b[i].nodes;
        per_cycle += (long)b[i].nodes * b[i].ppn;
    }
    if (nb <= 0 || nnodes > nranks * 2 + 64 || per_cycle == 0) {
        skiff_error("cannot read the launcher's process mapping '%s'", mapping);
        return -1;
    }
    int *node = calloc((size_t)nranks, sizeof *node), r = 0;
    if (!node)
        return -1;
    while (r < nranks)
        for (int i = 0; i < nb && r < nranks; i++)
            for (int n = 0; n < b[i].nodes && r < nranks; n++)
                for (int k = 0; k < b[i].ppn && r < nranks; k++)
                    node[r++] = b[i].first + n;
    int rc = skiff_nodemap_from_nodes(m, nranks, node);
    free(node);
    return rc;
}

/* Nodes are renumbered densely in the order of their lowest rank, so ids no rank landed on vanish,
 * and ranks that number the same nodes differently still agree: under PMIx each rank may learn the
 * nodes by name, and a node that shares this machine's host name (network namespaces) is "here" to
 * every rank (PMIx_Resolve_peers resolves its own host name locally). */
int skiff_nodemap_from_nodes(struct skiff_nodemap *m, int nranks, const int *node)
{
    int nnodes = 0, next = 0;
    for (int i = 0; i < nranks; i++) {
        if (node[i] < 0 || node[i] >= SKIFF_NODEMAP_MAX_ID)
            return -1;
        if (node[i] >= nnodes)
            nnodes = node[i] + 1;
    }
    int *dense = calloc((size_t)nnodes, sizeof *dense);
    if (!dense)
        return -1;
    for (int i = 0; i < nranks; i++)
        if (!dense[node[i]])
            dense[node[i]] = ++next;
    if (alloc(m, nranks, next)) {
        free(dense);
        return -1;
    }
    for (int i = 0; i < nranks; i++)
        m->node[i] = dense[node[i]] - 1;
    free(dense);
    index_nodes(m);
    return 0;
}

void skiff_nodemap_free(struct skiff_nodemap *m)
{
    free(m->node);
    free(m->local);
    free(m->local_count);
    free(m->leader);
    memset(m, 0, sizeof *m);
}
