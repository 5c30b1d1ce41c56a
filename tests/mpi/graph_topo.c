/* graph_topo — graph and distributed graph topologies (no neighbourhood traffic: see neighbor_coll).
 *   - MPI_Graph_create of a ring with a self-loop and a repeated edge, with and without reorder, over
 *     all of world and over fewer nodes (the rest get MPI_COMM_NULL): Topo_test, Graphdims_get,
 *     Graph_get, Graph_neighbors_count/Graph_neighbors for
 *     every node, Graph_map, traffic on the new communicator, Comm_dup keeping the graph;
 *   - MPI_Dist_graph_create_adjacent weighted, unweighted (MPI_UNWEIGHTED) and with no edges at all
 *     (MPI_WEIGHTS_EMPTY): Topo_test, Dist_graph_neighbors_count (the weighted flag) and
 *     Dist_graph_neighbors in the given order, weights, and untouched weight arrays of an unweighted
 *     graph; Comm_dup keeping it;
 *   - MPI_Dist_graph_create where every rank names the edges of another rank: each rank's in- and
 *     out-edges (as multisets: their order is the implementation's) with their weights.
 */
#include "testutil.h"

#define NAME "graph_topo"

/* Neighbours of node i of the test graph: next, previous, itself, next again. */
static int graph_adj(int i, int n, int *adj)
{
    adj[0] = (i + 1) % n;
    adj[1] = (i + n - 1) % n;
    adj[2] = i;
    adj[3] = (i + 1) % n;
    return 4;
}

static void build_graph(int n, int *index, int *edges)
{
    for (int i = 0, e = 0; i < n; i++) {
        e += graph_adj(i, n, edges + e);
        index[i] = e;
    }
}

static void check_graph_comm(MPI_Comm g, int n)
{
    int status, nn, ne, index[64], edges[256], want_index[64], want_edges[256];
    CHECK_MPI(MPI_Topo_test(g, &status));
    CHECK_EQ(MPI_GRAPH, status);
    CHECK_MPI(MPI_Graphdims_get(g, &nn, &ne));
    CHECK_EQ(n, nn);
    CHECK_EQ(4 * n, ne);
    build_graph(n, want_index, want_edges);
    CHECK_MPI(MPI_Graph_get(g, 64, 256, index, edges));
    for (int i = 0; i < n; i++)
        CHECK_EQ(want_index[i], index[i]);
    for (int e = 0; e < 4 * n; e++)
        CHECK_EQ(want_edges[e], edges[e]);
    for (int i = 0; i < n; i++) {
        int cnt, nb[8], want[8] = {0};
        CHECK_MPI(MPI_Graph_neighbors_count(g, i, &cnt));
        CHECK_EQ(graph_adj(i, n, want), cnt);
        CHECK_MPI(MPI_Graph_neighbors(g, i, 8, nb));
        for (int k = 0; k < cnt; k++)
            CHECK_EQ(want[k], nb[k]);
    }
    /* Traffic along the graph: each rank sends its rank to its next neighbour. */
    int me, got = -1;
    CHECK_MPI(MPI_Comm_rank(g, &me));
    CHECK_MPI(MPI_Sendrecv(&me, 1, MPI_INT, (me + 1) % n, 5, &got, 1, MPI_INT, (me + n - 1) % n, 5, g,
                           MPI_STATUS_IGNORE));
    CHECK_EQ((me + n - 1) % n, got);
}

static void graph(int n, int reorder)
{
    int size, rank, index[64], edges[256];
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    build_graph(n, index, edges);
    int newrank;
    CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &newrank));
#ifdef OPEN_MPI /* Open MPI 4.1 gives a process outside the graph its own rank instead of MPI_UNDEFINED */
    if (n == size)
#endif
        CHECK_MSG(newrank == MPI_UNDEFINED || (newrank >= 0 && newrank < n), "Graph_map gave %d for %d nodes",
                  newrank, n);
    MPI_Comm g;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, reorder, &g));
    /* Whether this rank is in the graph: exactly n ranks are, everywhere. */
    int in = g != MPI_COMM_NULL, members = 0;
    CHECK_MPI(MPI_Allreduce(&in, &members, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ(n, members);
    if (!reorder)
        CHECK_EQ(rank < n, in);
    if (!in)
        return;
    check_graph_comm(g, n);
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(g, &d));
    check_graph_comm(d, n);
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Comm_free(&g));
}

/* The test's directed graph: rank i sends to i+1 and i+2 (with weight 10 * target + k). */
#define OUTDEG 2
static void out_edges(int i, int n, int *dst, int *w)
{
    for (int k = 0; k < OUTDEG; k++) {
        dst[k] = (i + 1 + k) % n;
        w[k] = 10 * dst[k] + k;
    }
}

static void check_dist(MPI_Comm g, int weighted, const int *src, const int *sw, const int *dst, const int *dw)
{
    int status, indeg, outdeg, wflag;
    CHECK_MPI(MPI_Topo_test(g, &status));
    CHECK_EQ(MPI_DIST_GRAPH, status);
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &wflag));
    CHECK_EQ(OUTDEG, indeg);
    CHECK_EQ(OUTDEG, outdeg);
    CHECK_EQ(weighted, !!wflag);
    int s[OUTDEG], t[OUTDEG], swo[OUTDEG] = {-5, -5}, dwo[OUTDEG] = {-5, -5};
    CHECK_MPI(MPI_Dist_graph_neighbors(g, OUTDEG, s, swo, OUTDEG, t, dwo));
    for (int k = 0; k < OUTDEG; k++) {
        CHECK_EQ(src[k], s[k]);
        CHECK_EQ(dst[k], t[k]);
        if (weighted) {
            CHECK_EQ(sw[k], swo[k]);
            CHECK_EQ(dw[k], dwo[k]);
        }
    }
}

static void dist_adjacent(int weighted, int reorder)
{
    int n, me;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int src[OUTDEG], sw[OUTDEG], dst[OUTDEG], dw[OUTDEG];
    out_edges(me, n, dst, dw);
    /* In-edges in reverse order, to see that the given order is kept. */
    for (int k = 0; k < OUTDEG; k++) {
        src[OUTDEG - 1 - k] = (me + n - 1 - k) % n;
        sw[OUTDEG - 1 - k] = 10 * me + k;
    }
    MPI_Comm g, d;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, OUTDEG, src, weighted ? sw : MPI_UNWEIGHTED, OUTDEG,
                                             dst, weighted ? dw : MPI_UNWEIGHTED, MPI_INFO_NULL, reorder, &g));
    CHECK(g != MPI_COMM_NULL);
    int size;
    CHECK_MPI(MPI_Comm_size(g, &size));
    CHECK_EQ(n, size);
    if (!reorder)
        check_dist(g, weighted, src, sw, dst, dw);
    CHECK_MPI(MPI_Comm_dup(g, &d));
    if (!reorder)
        check_dist(d, weighted, src, sw, dst, dw);
    int status;
    CHECK_MPI(MPI_Topo_test(d, &status));
    CHECK_EQ(MPI_DIST_GRAPH, status);
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Comm_free(&g));
}

static void dist_empty(void)
{
    MPI_Comm g;
    int indeg, outdeg, w;
    /* Open MPI's MPI_WEIGHTS_EMPTY is an array of size 0, which gcc would warn about being read. */
    const int *volatile empty = MPI_WEIGHTS_EMPTY;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, empty, 0, NULL, empty, MPI_INFO_NULL, 0, &g));
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &w));
    CHECK_EQ(0, indeg);
    CHECK_EQ(0, outdeg);
    CHECK(w);
    CHECK_MPI(MPI_Comm_free(&g));
}

/* Sorts pairs (rank, weight) so that two edge lists compare as multisets. */
static void sort_pairs(int n, int *r, int *w)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && (r[j - 1] > r[j] || (r[j - 1] == r[j] && w[j - 1] > w[j])); j--) {
            int t = r[j];
            r[j] = r[j - 1];
            r[j - 1] = t;
            t = w[j];
            w[j] = w[j - 1];
            w[j - 1] = t;
        }
}

static void dist_general(int weighted)
{
    int n, me;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    /* This rank gives the out-edges of the next rank. */
    int other = (me + 1) % n, deg = OUTDEG, dst[OUTDEG], w[OUTDEG];
    out_edges(other, n, dst, w);
    MPI_Comm g;
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &other, &deg, dst, weighted ? w : MPI_UNWEIGHTED,
                                    MPI_INFO_NULL, 0, &g));
    int indeg, outdeg, wflag;
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &wflag));
    CHECK_EQ(OUTDEG, indeg);
    CHECK_EQ(OUTDEG, outdeg);
    CHECK_EQ(weighted, !!wflag);
    int s[OUTDEG], sw[OUTDEG] = {0}, t[OUTDEG], tw[OUTDEG] = {0};
    CHECK_MPI(MPI_Dist_graph_neighbors(g, OUTDEG, s, sw, OUTDEG, t, tw));
    int ws[OUTDEG], wsw[OUTDEG], wt[OUTDEG], wtw[OUTDEG];
    out_edges(me, n, wt, wtw);
    for (int k = 0; k < OUTDEG; k++) { /* rank me-1-k sends to me with its k-th edge */
        int from = (me + n - 1 - k) % n, d[OUTDEG], dw[OUTDEG];
        out_edges(from, n, d, dw);
        ws[k] = from;
        wsw[k] = dw[k];
    }
    if (!weighted)
        for (int k = 0; k < OUTDEG; k++)
            sw[k] = tw[k] = wsw[k] = wtw[k] = 0;
    sort_pairs(OUTDEG, s, sw);
    sort_pairs(OUTDEG, ws, wsw);
    sort_pairs(OUTDEG, t, tw);
    sort_pairs(OUTDEG, wt, wtw);
    for (int k = 0; k < OUTDEG; k++) {
        CHECK_EQ(ws[k], s[k]);
        CHECK_EQ(wsw[k], sw[k]);
        CHECK_EQ(wt[k], t[k]);
        CHECK_EQ(wtw[k], tw[k]);
    }
    CHECK_MPI(MPI_Comm_free(&g));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int reorder = 0; reorder < 2; reorder++) {
        graph(size, reorder);
        if (size > 1)
            graph(size - 1, reorder);
        dist_adjacent(1, reorder);
        dist_adjacent(0, reorder);
    }
    dist_empty();
    dist_general(1);
    dist_general(0);
    return tu_finish(NAME);
}
