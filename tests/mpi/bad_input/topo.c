/* bad_input rows: graph and distributed graph topologies, neighbourhood collectives (see bad_input.h).
 *
 * Topologies are made on MPI_COMM_SELF, so that every message is the same at any number of ranks; calls
 * that need a topology and get none use x->comm, where every rank sees the same error. */
#include "bad_input.h"

/* A one-node graph on x->self whose node is its own neighbour; the caller frees it. */
static MPI_Comm self_graph(struct bad_ctx *x)
{
    MPI_Comm g = MPI_COMM_NULL;
    int index[1] = {1}, edges[1] = {0};
    MPI_Graph_create(x->self, 1, index, edges, 0, &g);
    return g;
}

/* A distributed graph on x->self with one edge from the process to itself; the caller frees it. */
static MPI_Comm self_dist(struct bad_ctx *x)
{
    MPI_Comm g = MPI_COMM_NULL;
    int one[1] = {0}, w[1] = {1};
    MPI_Dist_graph_create_adjacent(x->self, 1, one, w, 1, one, w, MPI_INFO_NULL, 0, &g);
    return g;
}

/* A periodic ring of one process on x->self: itself on both sides; the caller frees it. */
static MPI_Comm self_ring(struct bad_ctx *x)
{
    MPI_Comm c = MPI_COMM_NULL;
    int dims[1] = {1}, periods[1] = {1};
    MPI_Cart_create(x->self, 1, dims, periods, 0, &c);
    return c;
}

/* ---------------------------------------------------------------- graphs */

static int graph_create_null(struct bad_ctx *x)
{
    int index[1] = {1}, edges[1] = {0};
    MPI_Comm g;
    (void)x;
    return MPI_Graph_create(MPI_COMM_NULL, 1, index, edges, 0, &g);
}

static int graph_create_nnodes(struct bad_ctx *x)
{
    int index[1] = {1}, edges[1] = {0};
    MPI_Comm g;
    return MPI_Graph_create(x->comm, 99, index, edges, 0, &g);
}

static int graph_create_index(struct bad_ctx *x)
{
    int index[1] = {-3}, edges[1] = {0};
    MPI_Comm g;
    return MPI_Graph_create(x->self, 1, index, edges, 0, &g);
}

static int graph_create_edge(struct bad_ctx *x)
{
    int index[1] = {1}, edges[1] = {5};
    MPI_Comm g;
    return MPI_Graph_create(x->self, 1, index, edges, 0, &g);
}

static int graph_create_nullptr(struct bad_ctx *x)
{
    int index[1] = {1}, edges[1] = {0};
    return MPI_Graph_create(x->self, 1, index, edges, 0, NULL);
}

static int graph_map_nullptr(struct bad_ctx *x)
{
    int index[1] = {1}, edges[1] = {0};
    return MPI_Graph_map(x->self, 1, index, edges, NULL);
}

static int graphdims_get_notopo(struct bad_ctx *x)
{
    int n, e;
    return MPI_Graphdims_get(x->comm, &n, &e);
}

static int graphdims_get_nullptr(struct bad_ctx *x)
{
    MPI_Comm g = self_graph(x);
    int n, rc = MPI_Graphdims_get(g, &n, NULL);
    MPI_Comm_free(&g);
    return rc;
}

static int graph_get_maxindex(struct bad_ctx *x)
{
    MPI_Comm g = self_graph(x);
    int index[1], edges[1], rc = MPI_Graph_get(g, 0, 1, index, edges);
    MPI_Comm_free(&g);
    return rc;
}

static int graph_neighbors_count_rank(struct bad_ctx *x)
{
    MPI_Comm g = self_graph(x);
    int n, rc = MPI_Graph_neighbors_count(g, 99, &n);
    MPI_Comm_free(&g);
    return rc;
}

static int graph_neighbors_max(struct bad_ctx *x)
{
    MPI_Comm g = self_graph(x);
    int nb[1], rc = MPI_Graph_neighbors(g, 0, 0, nb);
    MPI_Comm_free(&g);
    return rc;
}

static int graph_neighbors_cart(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int nb[2], rc = MPI_Graph_neighbors(c, 0, 2, nb);
    MPI_Comm_free(&c);
    return rc;
}

/* ---------------------------------------------------------------- distributed graphs */

static int dist_adjacent_indegree(struct bad_ctx *x)
{
    int r[1] = {0}, w[1] = {1};
    MPI_Comm g;
    return MPI_Dist_graph_create_adjacent(x->self, -3, r, w, 1, r, w, MPI_INFO_NULL, 0, &g);
}

static int dist_adjacent_source(struct bad_ctx *x)
{
    int r[1] = {99}, d[1] = {0}, w[1] = {1};
    MPI_Comm g;
    return MPI_Dist_graph_create_adjacent(x->self, 1, r, w, 1, d, w, MPI_INFO_NULL, 0, &g);
}

static int dist_adjacent_mixed(struct bad_ctx *x)
{
    int r[1] = {0}, w[1] = {1};
    MPI_Comm g;
    return MPI_Dist_graph_create_adjacent(x->self, 1, r, MPI_UNWEIGHTED, 1, r, w, MPI_INFO_NULL, 0, &g);
}

static int dist_adjacent_empty(struct bad_ctx *x)
{
    int r[1] = {0}, w[1] = {1};
    MPI_Comm g;
    return MPI_Dist_graph_create_adjacent(x->self, 1, r, MPI_WEIGHTS_EMPTY, 1, r, w, MPI_INFO_NULL, 0, &g);
}

static int dist_adjacent_weight(struct bad_ctx *x)
{
    int r[1] = {0}, w[1] = {1}, neg[1] = {-4};
    MPI_Comm g;
    return MPI_Dist_graph_create_adjacent(x->self, 1, r, w, 1, r, neg, MPI_INFO_NULL, 0, &g);
}

static int dist_adjacent_nullptr(struct bad_ctx *x)
{
    int r[1] = {0}, w[1] = {1};
    return MPI_Dist_graph_create_adjacent(x->self, 1, r, w, 1, r, w, MPI_INFO_NULL, 0, NULL);
}

static int dist_create_null(struct bad_ctx *x)
{
    int r[1] = {0}, deg[1] = {1}, w[1] = {1};
    MPI_Comm g;
    (void)x;
    return MPI_Dist_graph_create(MPI_COMM_NULL, 1, r, deg, r, w, MPI_INFO_NULL, 0, &g);
}

static int dist_create_n(struct bad_ctx *x)
{
    int r[1] = {0}, deg[1] = {1}, w[1] = {1};
    MPI_Comm g;
    return MPI_Dist_graph_create(x->comm, -3, r, deg, r, w, MPI_INFO_NULL, 0, &g);
}

static int dist_create_degree(struct bad_ctx *x)
{
    int r[1] = {0}, deg[1] = {-3}, w[1] = {1};
    MPI_Comm g;
    return MPI_Dist_graph_create(x->comm, 1, r, deg, r, w, MPI_INFO_NULL, 0, &g);
}

static int dist_create_dest(struct bad_ctx *x)
{
    int r[1] = {0}, deg[1] = {1}, d[1] = {99}, w[1] = {1};
    MPI_Comm g;
    return MPI_Dist_graph_create(x->comm, 1, r, deg, d, w, MPI_INFO_NULL, 0, &g);
}

static int dist_neighbors_count_notopo(struct bad_ctx *x)
{
    int i, o, w;
    return MPI_Dist_graph_neighbors_count(x->comm, &i, &o, &w);
}

static int dist_neighbors_count_nullptr(struct bad_ctx *x)
{
    MPI_Comm g = self_dist(x);
    int i, o, rc = MPI_Dist_graph_neighbors_count(g, &i, &o, NULL);
    MPI_Comm_free(&g);
    return rc;
}

static int dist_neighbors_max(struct bad_ctx *x)
{
    MPI_Comm g = self_dist(x);
    int s[1], sw[1], d[1], dw[1], rc = MPI_Dist_graph_neighbors(g, 0, s, sw, 1, d, dw);
    MPI_Comm_free(&g);
    return rc;
}

static int dist_neighbors_graph(struct bad_ctx *x)
{
    MPI_Comm g = self_graph(x);
    int s[1], sw[1], d[1], dw[1], rc = MPI_Dist_graph_neighbors(g, 1, s, sw, 1, d, dw);
    MPI_Comm_free(&g);
    return rc;
}

/* ---------------------------------------------------------------- neighbourhood collectives */

static int neighbor_allgather_notopo(struct bad_ctx *x)
{
    return MPI_Neighbor_allgather(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, x->comm);
}

static int neighbor_allgather_null(struct bad_ctx *x)
{
    return MPI_Neighbor_allgather(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, MPI_COMM_NULL);
}

static int neighbor_allgather_count(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int rc = MPI_Neighbor_allgather(x->ibuf, -3, MPI_INT, x->ibuf2, 1, MPI_INT, c);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_allgatherv_displs(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int counts[2] = {1, 1}, rc = MPI_Neighbor_allgatherv(x->ibuf, 1, MPI_INT, x->ibuf2, counts, NULL, MPI_INT, c);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_alltoall_type(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int rc = MPI_Neighbor_alltoall(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_DATATYPE_NULL, c);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_alltoall_in_place(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int rc = MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, x->ibuf2, 1, MPI_INT, c);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_alltoall_buffer(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int rc = MPI_Neighbor_alltoall(x->ibuf, 1, MPI_INT, NULL, 1, MPI_INT, c);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_alltoallv_counts(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int sc[2] = {1, 1}, d[2] = {0, 1}, rcnt[2] = {-3, 1};
    int rc = MPI_Neighbor_alltoallv(x->ibuf, sc, d, MPI_INT, x->ibuf2, rcnt, d, MPI_INT, c);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_alltoallv_displs(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int sc[2] = {1, 1}, d[2] = {0, 1};
    int rc = MPI_Neighbor_alltoallv(x->ibuf, sc, NULL, MPI_INT, x->ibuf2, sc, d, MPI_INT, c);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_alltoallw_uncommitted(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    MPI_Datatype t = bad_uncommitted_type();
    int n[2] = {1, 1};
    MPI_Aint d[2] = {0, 16};
    MPI_Datatype st[2] = {MPI_INT, t}, rt[2] = {MPI_INT, MPI_INT};
    int rc = MPI_Neighbor_alltoallw(x->ibuf, n, d, st, x->ibuf2, n, d, rt, c);
    MPI_Type_free(&t);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_alltoallw_types(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int n[2] = {1, 1};
    MPI_Aint d[2] = {0, 16};
    MPI_Datatype st[2] = {MPI_INT, MPI_INT};
    int rc = MPI_Neighbor_alltoallw(x->ibuf, n, d, st, x->ibuf2, n, d, NULL, c);
    MPI_Comm_free(&c);
    return rc;
}

static int ineighbor_alltoall_request(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int rc = MPI_Ineighbor_alltoall(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, c, NULL);
    MPI_Comm_free(&c);
    return rc;
}

static int ineighbor_allgather_notopo(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Ineighbor_allgather(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, x->comm, &r);
}

static int ineighbor_allgatherv_counts(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    MPI_Request r;
    int rc = MPI_Ineighbor_allgatherv(x->ibuf, 1, MPI_INT, x->ibuf2, NULL, x->ibuf, MPI_INT, c, &r);
    MPI_Comm_free(&c);
    return rc;
}

static int ineighbor_alltoallv_type(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    MPI_Request r;
    int n[2] = {1, 1}, d[2] = {0, 1};
    int rc = MPI_Ineighbor_alltoallv(x->ibuf, n, d, MPI_DATATYPE_NULL, x->ibuf2, n, d, MPI_INT, c, &r);
    MPI_Comm_free(&c);
    return rc;
}

static int ineighbor_alltoallw_counts(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    MPI_Request r;
    int n[2] = {1, -3};
    MPI_Aint d[2] = {0, 16};
    MPI_Datatype t[2] = {MPI_INT, MPI_INT};
    int rc = MPI_Ineighbor_alltoallw(x->ibuf, n, d, t, x->ibuf2, n, d, t, c, &r);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_allgather_init_notopo(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Neighbor_allgather_init(x->ibuf, 1, MPI_INT, x->ibuf2, 1, MPI_INT, x->comm, MPI_INFO_NULL, &r);
}

static int neighbor_allgatherv_init_request(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    int n[2] = {1, 1}, d[2] = {0, 1};
    int rc = MPI_Neighbor_allgatherv_init(x->ibuf, 1, MPI_INT, x->ibuf2, n, d, MPI_INT, c, MPI_INFO_NULL, NULL);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_alltoall_init_count(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    MPI_Request r;
    int rc = MPI_Neighbor_alltoall_init(x->ibuf, 1, MPI_INT, x->ibuf2, -3, MPI_INT, c, MPI_INFO_NULL, &r);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_alltoallv_init_displs(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    MPI_Request r;
    int n[2] = {1, 1}, d[2] = {0, 1};
    int rc = MPI_Neighbor_alltoallv_init(x->ibuf, n, d, MPI_INT, x->ibuf2, n, NULL, MPI_INT, c, MPI_INFO_NULL, &r);
    MPI_Comm_free(&c);
    return rc;
}

static int neighbor_alltoallw_init_types(struct bad_ctx *x)
{
    MPI_Comm c = self_ring(x);
    MPI_Request r;
    int n[2] = {1, 1};
    MPI_Aint d[2] = {0, 16};
    MPI_Datatype t[2] = {MPI_INT, MPI_INT};
    int rc = MPI_Neighbor_alltoallw_init(x->ibuf, n, d, NULL, x->ibuf2, n, d, t, c, MPI_INFO_NULL, &r);
    MPI_Comm_free(&c);
    return rc;
}

const struct bad_case bad_topo[] = {
    {"graph_create_null", "MPI_Graph_create", MPI_ERR_COMM, "MPI_COMM_NULL", graph_create_null},
    {"graph_create_nnodes", "MPI_Graph_create", MPI_ERR_ARG, "nnodes 99", graph_create_nnodes},
    {"graph_create_index", "MPI_Graph_create", MPI_ERR_ARG, "index[0] = -3", graph_create_index},
    {"graph_create_edge", "MPI_Graph_create", MPI_ERR_ARG, "edges[0] = 5", graph_create_edge},
    {"graph_create_nullptr", "MPI_Graph_create", MPI_ERR_ARG, "comm_graph is NULL", graph_create_nullptr},
    {"graph_map_nullptr", "MPI_Graph_map", MPI_ERR_ARG, "newrank is NULL", graph_map_nullptr},
    {"graphdims_get_notopo", "MPI_Graphdims_get", MPI_ERR_TOPOLOGY, "no graph topology", graphdims_get_notopo},
    {"graphdims_get_nullptr", "MPI_Graphdims_get", MPI_ERR_ARG, "nedges is NULL", graphdims_get_nullptr},
    {"graph_get_maxindex", "MPI_Graph_get", MPI_ERR_ARG, "maxindex 0", graph_get_maxindex},
    {"graph_neighbors_count_rank", "MPI_Graph_neighbors_count", MPI_ERR_RANK, "rank 99",
     graph_neighbors_count_rank},
    {"graph_neighbors_max", "MPI_Graph_neighbors", MPI_ERR_ARG, "maxneighbors 0", graph_neighbors_max},
    {"graph_neighbors_cart", "MPI_Graph_neighbors", MPI_ERR_TOPOLOGY, "no graph topology", graph_neighbors_cart},
    {"dist_adjacent_indegree", "MPI_Dist_graph_create_adjacent", MPI_ERR_ARG, "indegree -3",
     dist_adjacent_indegree},
    {"dist_adjacent_source", "MPI_Dist_graph_create_adjacent", MPI_ERR_RANK, "sources[0] = 99",
     dist_adjacent_source},
    {"dist_adjacent_mixed", "MPI_Dist_graph_create_adjacent", MPI_ERR_ARG, "only sourceweights is MPI_UNWEIGHTED",
     dist_adjacent_mixed},
    {"dist_adjacent_empty", "MPI_Dist_graph_create_adjacent", MPI_ERR_ARG, "sourceweights is MPI_WEIGHTS_EMPTY",
     dist_adjacent_empty},
    {"dist_adjacent_weight", "MPI_Dist_graph_create_adjacent", MPI_ERR_ARG, "destweights[0] = -4",
     dist_adjacent_weight},
    {"dist_adjacent_nullptr", "MPI_Dist_graph_create_adjacent", MPI_ERR_ARG, "comm_dist_graph is NULL",
     dist_adjacent_nullptr},
    {"dist_create_null", "MPI_Dist_graph_create", MPI_ERR_COMM, "MPI_COMM_NULL", dist_create_null},
    {"dist_create_n", "MPI_Dist_graph_create", MPI_ERR_ARG, "n -3", dist_create_n},
    {"dist_create_degree", "MPI_Dist_graph_create", MPI_ERR_COUNT, "degrees[0] = -3", dist_create_degree},
    {"dist_create_dest", "MPI_Dist_graph_create", MPI_ERR_RANK, "destinations[0] = 99", dist_create_dest},
    {"dist_neighbors_count_notopo", "MPI_Dist_graph_neighbors_count", MPI_ERR_TOPOLOGY,
     "no distributed graph topology", dist_neighbors_count_notopo},
    {"dist_neighbors_count_nullptr", "MPI_Dist_graph_neighbors_count", MPI_ERR_ARG, "weighted is NULL",
     dist_neighbors_count_nullptr},
    {"dist_neighbors_max", "MPI_Dist_graph_neighbors", MPI_ERR_ARG, "maxindegree 0", dist_neighbors_max},
    {"dist_neighbors_graph", "MPI_Dist_graph_neighbors", MPI_ERR_TOPOLOGY, "no distributed graph topology",
     dist_neighbors_graph},
    {"neighbor_allgather_notopo", "MPI_Neighbor_allgather", MPI_ERR_TOPOLOGY, "has no topology",
     neighbor_allgather_notopo},
    {"neighbor_allgather_null", "MPI_Neighbor_allgather", MPI_ERR_COMM, "MPI_COMM_NULL", neighbor_allgather_null},
    {"neighbor_allgather_count", "MPI_Neighbor_allgather", MPI_ERR_COUNT, "count -3", neighbor_allgather_count},
    {"neighbor_allgatherv_displs", "MPI_Neighbor_allgatherv", MPI_ERR_ARG, "displs is NULL",
     neighbor_allgatherv_displs},
    {"neighbor_alltoall_type", "MPI_Neighbor_alltoall", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", neighbor_alltoall_type},
    {"neighbor_alltoall_in_place", "MPI_Neighbor_alltoall", MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE",
     neighbor_alltoall_in_place},
    {"neighbor_alltoall_buffer", "MPI_Neighbor_alltoall", MPI_ERR_BUFFER, "recvbuf is NULL",
     neighbor_alltoall_buffer},
    {"neighbor_alltoallv_counts", "MPI_Neighbor_alltoallv", MPI_ERR_COUNT, "recvcounts[0] = -3",
     neighbor_alltoallv_counts},
    {"neighbor_alltoallv_displs", "MPI_Neighbor_alltoallv", MPI_ERR_ARG, "sdispls is NULL",
     neighbor_alltoallv_displs},
    {"neighbor_alltoallw_uncommitted", "MPI_Neighbor_alltoallw", MPI_ERR_TYPE, "not committed",
     neighbor_alltoallw_uncommitted},
    {"neighbor_alltoallw_types", "MPI_Neighbor_alltoallw", MPI_ERR_ARG, "recvtypes is NULL",
     neighbor_alltoallw_types},
    {"ineighbor_alltoall_request", "MPI_Ineighbor_alltoall", MPI_ERR_ARG, "request is NULL",
     ineighbor_alltoall_request},
    {"ineighbor_allgather_notopo", "MPI_Ineighbor_allgather", MPI_ERR_TOPOLOGY, "has no topology",
     ineighbor_allgather_notopo},
    {"ineighbor_allgatherv_counts", "MPI_Ineighbor_allgatherv", MPI_ERR_ARG, "recvcounts is NULL",
     ineighbor_allgatherv_counts},
    {"ineighbor_alltoallv_type", "MPI_Ineighbor_alltoallv", MPI_ERR_TYPE, "MPI_DATATYPE_NULL",
     ineighbor_alltoallv_type},
    {"ineighbor_alltoallw_counts", "MPI_Ineighbor_alltoallw", MPI_ERR_COUNT, "sendcounts[1] = -3",
     ineighbor_alltoallw_counts},
    {"neighbor_allgather_init_notopo", "MPI_Neighbor_allgather_init", MPI_ERR_TOPOLOGY, "has no topology",
     neighbor_allgather_init_notopo},
    {"neighbor_allgatherv_init_request", "MPI_Neighbor_allgatherv_init", MPI_ERR_ARG, "request is NULL",
     neighbor_allgatherv_init_request},
    {"neighbor_alltoall_init_count", "MPI_Neighbor_alltoall_init", MPI_ERR_COUNT, "count -3",
     neighbor_alltoall_init_count},
    {"neighbor_alltoallv_init_displs", "MPI_Neighbor_alltoallv_init", MPI_ERR_ARG, "rdispls is NULL",
     neighbor_alltoallv_init_displs},
    {"neighbor_alltoallw_init_types", "MPI_Neighbor_alltoallw_init", MPI_ERR_ARG, "sendtypes is NULL",
     neighbor_alltoallw_init_types},
    {NULL, NULL, 0, NULL, NULL},
};
