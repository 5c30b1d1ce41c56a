/* Distributed graph topologies: each process knows only the edges into and out of itself. */
#include <stdlib.h>

#include "coll/coll.h"
#include "core/topo.h"
#include "mpi/mpi_impl.h"
#include "mpi/topo_make.h"

/* Ranks of c named as graph nodes. */
static int check_ranks(const struct skiff_comm *c, int n, const int *ranks, const char *name)
{
    int rc = skiff_check_array(n, ranks, name);
    for (int i = 0; !rc && i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= c->size)
            rc = skiff_err(MPI_ERR_RANK, "invalid %s[%d] = %d (communicator %s has %d ranks)", name, i, ranks[i],
                           skiff_comm_label(c), c->size);
    return rc;
}

static int check_degree(int n, const char *name)
{
    if (SKIFF_LIKELY(n >= 0))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ARG, "invalid %s %d (must be >= 0)", name, n);
}

/* A weights array for n edges of a weighted graph: MPI_WEIGHTS_EMPTY stands for none and fits only n = 0. */
static int check_weights(int n, const int *w, const char *name)
{
    if (n == 0)
        return MPI_SUCCESS;
    if (w == MPI_WEIGHTS_EMPTY)
        return skiff_err(MPI_ERR_ARG, "%s is MPI_WEIGHTS_EMPTY but there are %d edges", name, n);
    int rc = skiff_check_array(n, w, name);
    for (int i = 0; !rc && i < n; i++)
        if (w[i] < 0)
            rc = skiff_err(MPI_ERR_ARG, "invalid %s[%d] = %d (weights must be >= 0)", name, i, w[i]);
    return rc;
}

/* The communicator over all of c with topology t, renumbered for the new rank order when reordering. */
static int make_dist(struct skiff_comm *c, int reorder, struct skiff_topo *t, struct skiff_comm **out)
{
    int *order = malloc(sizeof(int) * (size_t)c->size), *world = malloc(sizeof(int) * (size_t)c->size);
    int rc = order && world && t ? skiff_topo_placement(c, reorder, order) : skiff_err(MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; !rc && i < c->size; i++)
        world[order[i]] = i; /* for now: old rank -> new rank */
    for (int i = 0; !rc && i < t->indegree; i++)
        t->sources[i] = world[t->sources[i]];
    for (int i = 0; !rc && i < t->outdegree; i++)
        t->dests[i] = world[t->dests[i]];
    for (int i = 0; !rc && i < c->size; i++)
        world[i] = c->group->world[order[i]];
    if (rc) { /* the others agree on a context id all the same */
        skiff_topo_free(t);
        t = NULL;
    }
    int rc2 = skiff_topo_attach(c, world && !rc ? world : c->group->world, c->size, t, out);
    free(order);
    free(world);
    return rc ? rc : rc2;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int *sourceweights,
                                    int outdegree, const int destinations[], const int *destweights, MPI_Info info,
                                    int reorder, MPI_Comm *comm_dist_graph)
{
    struct skiff_comm *c = NULL, *n = NULL;
    SKIFF_ENTER(MPI_Dist_graph_create_adjacent);
    SKIFF_REQUIRE_INIT();
    int weighted = sourceweights != MPI_UNWEIGHTED;
    int rc = skiff_check_comm(comm_old, &c);
    if (!rc && !(rc = skiff_check_intra(c)) && !(rc = check_degree(indegree, "indegree")) &&
        !(rc = check_degree(outdegree, "outdegree")) && !(rc = check_ranks(c, indegree, sources, "sources")))
        rc = check_ranks(c, outdegree, destinations, "destinations");
    if (!rc && weighted != (destweights != MPI_UNWEIGHTED))
        rc = skiff_err(MPI_ERR_ARG, "only %s is MPI_UNWEIGHTED: a graph is weighted or not in both directions",
                       weighted ? "destweights" : "sourceweights");
    if (!rc && weighted && !(rc = check_weights(indegree, sourceweights, "sourceweights")))
        rc = check_weights(outdegree, destweights, "destweights");
    if (!rc && !(rc = skiff_check_info(info)))
        rc = skiff_check_ptr(comm_dist_graph, "comm_dist_graph");
    if (rc)
        return skiff_fail(comm_old, rc);
    struct skiff_topo *t = skiff_dist_graph_new(indegree, sources, weighted ? sourceweights : NULL, outdegree,
                                                destinations, weighted ? destweights : NULL);
    if ((rc = make_dist(c, reorder, t, &n)))
        return skiff_fail(comm_old, rc);
    *comm_dist_graph = n->handle;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Dist_graph_create_adjacent)

/* The checks of MPI_Dist_graph_create's edge lists; *total is the number of edges this process gives. */
static int check_edges(const struct skiff_comm *c, int n, const int *sources, const int *degrees,
                       const int *destinations, const int *weights, int *total)
{
    int rc;
    size_t sum = 0;
    if ((rc = check_degree(n, "n")) || (rc = check_ranks(c, n, sources, "sources")) ||
        (rc = skiff_check_counts(n, degrees, "degrees", &sum)))
        return rc;
    if (sum > INT_MAX)
        return skiff_err(MPI_ERR_ARG, "the degrees add up to %zu edges, more than %d", sum, INT_MAX);
    *total = (int)sum;
    if ((rc = check_ranks(c, *total, destinations, "destinations")))
        return rc;
    return weights == MPI_UNWEIGHTED ? MPI_SUCCESS : check_weights(*total, weights, "weights");
}

/* What one process tells another about an edge: in (from peer to the receiver) or out (receiver to peer). */
struct edge_note {
    int out, peer, weight;
};

/* Sends each edge to both its ends; gives every note this process receives, in the order of the ranks that
 * named the edges and, within one rank, of its lists. */
static int exchange_edges(struct skiff_comm *c, int n, const int *sources, const int *degrees,
                          const int *destinations, const int *weights, int total, struct edge_note **got, int *ngot)
{
    int p = c->size, rc;
    size_t *sc = calloc((size_t)p * 4, sizeof(size_t)), *sd = sc + p, *rcnt = sd + p, *rd = rcnt + p;
    struct edge_note *sendv = malloc(sizeof *sendv * (2 * (size_t)total + 1));
    if (!sc || !sendv) {
        free(sc);
        free(sendv);
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for %d edges", total);
    }
    for (int i = 0, e = 0; i < n; i++)
        for (int k = 0; k < degrees[i]; k++, e++) {
            sc[sources[i]] += sizeof *sendv;
            sc[destinations[e]] += sizeof *sendv;
        }
    for (int r = 1; r < p; r++)
        sd[r] = sd[r - 1] + sc[r - 1];
    size_t *fill = rd; /* rd is free until the counts are exchanged */
    for (int r = 0; r < p; r++)
        fill[r] = sd[r] / sizeof *sendv;
    for (int i = 0, e = 0; i < n; i++)
        for (int k = 0; k < degrees[i]; k++, e++) {
            int w = weights == MPI_UNWEIGHTED ? 1 : weights[e];
            sendv[fill[sources[i]]++] = (struct edge_note){1, destinations[e], w};
            sendv[fill[destinations[e]]++] = (struct edge_note){0, sources[i], w};
        }
    rc = skiff_coll_alltoall(sc, sizeof(size_t), rcnt, c);
    size_t all = 0;
    for (int r = 0; !rc && r < p; r++) {
        rd[r] = all;
        all += rcnt[r];
    }
    *got = rc ? NULL : malloc(all + 1);
    if (!rc && !*got)
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes of edges", all);
    if (!rc)
        rc = skiff_coll_alltoallv(sendv, sc, sd, *got, rcnt, rd, c);
    *ngot = (int)(all / sizeof **got);
    free(sc);
    free(sendv);
    return rc;
}

/* This process's topology from the notes it received. */
static struct skiff_topo *topo_from_notes(const struct edge_note *notes, int n, int weighted)
{
    int in = 0, out = 0;
    for (int i = 0; i < n; i++)
        if (notes[i].out)
            out++;
        else
            in++;
    int *a = malloc(sizeof(int) * (2 * (size_t)n + 1));
    if (!a)
        return NULL;
    int *src = a, *sw = src + in, *dst = sw + in, *dw = dst + out;
    for (int i = 0, si = 0, di = 0; i < n; i++) {
        if (notes[i].out) {
            dst[di] = notes[i].peer;
            dw[di++] = notes[i].weight;
        } else {
            src[si] = notes[i].peer;
            sw[si++] = notes[i].weight;
        }
    }
    struct skiff_topo *t = skiff_dist_graph_new(in, src, weighted ? sw : NULL, out, dst, weighted ? dw : NULL);
    free(a);
    return t;
}

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int *weights, MPI_Info info, int reorder,
                           MPI_Comm *comm_dist_graph)
{
    struct skiff_comm *c = NULL, *nc = NULL;
    struct edge_note *notes = NULL;
    int total = 0, nnotes = 0;
    SKIFF_ENTER(MPI_Dist_graph_create);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm_old, &c);
    if (!rc && !(rc = skiff_check_intra(c)) &&
        !(rc = check_edges(c, n, sources, degrees, destinations, weights, &total)) && !(rc = skiff_check_info(info)))
        rc = skiff_check_ptr(comm_dist_graph, "comm_dist_graph");
    if (rc)
        return skiff_fail(comm_old, rc);
    rc = exchange_edges(c, n, sources, degrees, destinations, weights, total, &notes, &nnotes);
    if (!rc)
        rc = make_dist(c, reorder, topo_from_notes(notes, nnotes, weights != MPI_UNWEIGHTED), &nc);
    free(notes);
    if (rc)
        return skiff_fail(comm_old, rc);
    *comm_dist_graph = nc->handle;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Dist_graph_create)

static int check_dist_comm(struct skiff_comm *c, const struct skiff_topo **t)
{
    if (SKIFF_UNLIKELY(!c->topo || c->topo->kind != MPI_DIST_GRAPH))
        return skiff_err(MPI_ERR_TOPOLOGY, "communicator %s has no distributed graph topology", skiff_comm_label(c));
    *t = c->topo;
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    SKIFF_ENTER(MPI_Dist_graph_neighbors_count);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_dist_comm(c, &t)) && !(rc = skiff_check_ptr(indegree, "indegree")) &&
        !(rc = skiff_check_ptr(outdegree, "outdegree")))
        rc = skiff_check_ptr(weighted, "weighted");
    if (rc)
        return skiff_fail(comm, rc);
    *indegree = t->indegree;
    *outdegree = t->outdegree;
    *weighted = t->weighted;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Dist_graph_neighbors_count)

/* Copies n ranks, and their weights when the graph has them and the caller wants them. */
static void give(int n, const int *ranks, const int *w, int *ranks_out, int *w_out)
{
    for (int i = 0; i < n; i++) {
        ranks_out[i] = ranks[i];
        if (w)
            w_out[i] = w[i];
    }
}

static int check_room(int max, int need, const char *name)
{
    if (SKIFF_LIKELY(max >= need))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ARG, "%s %d is less than the %d neighbours (MPI_Dist_graph_neighbors_count says how "
                     "many)", name, max, need);
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int *sourceweights, int maxoutdegree,
                              int destinations[], int *destweights)
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    SKIFF_ENTER(MPI_Dist_graph_neighbors);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_dist_comm(c, &t)) && !(rc = check_room(maxindegree, t->indegree, "maxindegree")) &&
        !(rc = check_room(maxoutdegree, t->outdegree, "maxoutdegree")) &&
        !(rc = skiff_check_array(t->indegree, sources, "sources")))
        rc = skiff_check_array(t->outdegree, destinations, "destinations");
    /* Weights are written only for a weighted graph, and only where the caller gave an array for them. */
    int sw = !rc && t->weighted && sourceweights != MPI_UNWEIGHTED && sourceweights != MPI_WEIGHTS_EMPTY;
    int dw = !rc && t->weighted && destweights != MPI_UNWEIGHTED && destweights != MPI_WEIGHTS_EMPTY;
    if (!rc && sw)
        rc = skiff_check_array(t->indegree, sourceweights, "sourceweights");
    if (!rc && dw)
        rc = skiff_check_array(t->outdegree, destweights, "destweights");
    if (rc)
        return skiff_fail(comm, rc);
    give(t->indegree, t->sources, sw ? t->sweights : NULL, sources, sourceweights);
    give(t->outdegree, t->dests, dw ? t->dweights : NULL, destinations, destweights);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Dist_graph_neighbors)
