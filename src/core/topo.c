#include "core/topo.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mpi.h"

/* Points the arrays into the ints after the struct; the counts decide the layout. */
static void lay_out(struct skiff_topo *t)
{
    int *a = (int *)(void *)(t + 1);
    t->dims = a;
    t->periods = t->dims + t->ndims;
    t->index = a;
    t->edges = t->index + t->nnodes;
    t->sources = a;
    t->sweights = t->sources + t->indegree;
    t->dests = t->sweights + t->indegree;
    t->dweights = t->dests + t->outdegree;
}

static struct skiff_topo *topo_alloc(int kind, size_t nints)
{
    struct skiff_topo *t = calloc(1, sizeof *t + sizeof(int) * (nints ? nints : 1));
    if (t) {
        t->kind = kind;
        t->nints = nints;
    }
    return t;
}

static void copy_ints(int *dst, const int *src, int n)
{
    if (n > 0)
        memcpy(dst, src, sizeof(int) * (size_t)n);
}

struct skiff_topo *skiff_cart_new(int ndims, const int *dims, const int *periods)
{
    struct skiff_topo *t = topo_alloc(MPI_CART, 2 * (size_t)ndims);
    if (!t)
        return NULL;
    t->ndims = ndims;
    lay_out(t);
    for (int d = 0; d < ndims; d++) {
        t->dims[d] = dims[d];
        t->periods[d] = periods[d] != 0;
    }
    return t;
}

struct skiff_topo *skiff_graph_new(int nnodes, const int *index, const int *edges)
{
    int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    struct skiff_topo *t = topo_alloc(MPI_GRAPH, (size_t)nnodes + (size_t)nedges);
    if (!t)
        return NULL;
    t->nnodes = nnodes;
    t->nedges = nedges;
    lay_out(t);
    copy_ints(t->index, index, nnodes);
    copy_ints(t->edges, edges, nedges);
    return t;
}

struct skiff_topo *skiff_dist_graph_new(int indegree, const int *sources, const int *sweights, int outdegree,
                                        const int *dests, const int *dweights)
{
    struct skiff_topo *t = topo_alloc(MPI_DIST_GRAPH, 2 * ((size_t)indegree + (size_t)outdegree));
    if (!t)
        return NULL;
    t->indegree = indegree;
    t->outdegree = outdegree;
    t->weighted = sweights != NULL;
    lay_out(t);
    copy_ints(t->sources, sources, indegree);
    copy_ints(t->dests, dests, outdegree);
    if (t->weighted) {
        copy_ints(t->sweights, sweights, indegree);
        copy_ints(t->dweights, dweights, outdegree);
    }
    return t;
}

struct skiff_topo *skiff_topo_copy(const struct skiff_topo *t)
{
    if (!t)
        return NULL;
    struct skiff_topo *n = topo_alloc(t->kind, t->nints);
    if (!n)
        return NULL;
    memcpy(n, t, sizeof *t + sizeof(int) * t->nints);
    lay_out(n);
    return n;
}

void skiff_topo_free(struct skiff_topo *t)
{
    free(t);
}

long skiff_cart_cells(int ndims, const int *dims)
{
    long n = 1;
    for (int d = 0; d < ndims; d++) {
        n *= dims[d];
        if (n > INT_MAX)
            return -1;
    }
    return n;
}

void skiff_cart_coords(const struct skiff_topo *t, int rank, int *coords)
{
    for (int d = t->ndims - 1; d >= 0; d--) {
        coords[d] = rank % t->dims[d];
        rank /= t->dims[d];
    }
}

/* c mod n in 0..n-1 for any sign of c. */
static int wrap(int c, int n)
{
    int m = c % n;
    return m < 0 ? m + n : m;
}

int skiff_cart_rank(const struct skiff_topo *t, const int *coords, int *bad_dim)
{
    int rank = 0;
    for (int d = 0; d < t->ndims; d++) {
        int c = coords[d];
        if (t->periods[d])
            c = wrap(c, t->dims[d]);
        else if (c < 0 || c >= t->dims[d]) {
            *bad_dim = d;
            return -1;
        }
        rank = rank * t->dims[d] + c;
    }
    return rank;
}

/* The rank one step of `disp` along dim away from coords, or MPI_PROC_NULL. */
static int neighbour(const struct skiff_topo *t, int *coords, int dim, long disp)
{
    int keep = coords[dim];
    long c = coords[dim] + disp;
    int r = MPI_PROC_NULL, bad;
    if (t->periods[dim] || (c >= 0 && c < t->dims[dim])) {
        coords[dim] = (int)(c % t->dims[dim]); /* skiff_cart_rank wraps what is still negative */
        r = skiff_cart_rank(t, coords, &bad);
    }
    coords[dim] = keep;
    return r;
}

void skiff_cart_shift(const struct skiff_topo *t, int rank, int dim, int disp, int *source, int *dest)
{
    int coords[t->ndims > 0 ? t->ndims : 1];
    skiff_cart_coords(t, rank, coords);
    *dest = neighbour(t, coords, dim, disp);
    *source = neighbour(t, coords, dim, -(long)disp);
}

void skiff_cart_sub_of(const struct skiff_topo *t, const int *remain, int rank, int *color, int *key)
{
    int coords[t->ndims > 0 ? t->ndims : 1];
    skiff_cart_coords(t, rank, coords);
    *color = 0;
    *key = 0;
    for (int d = 0; d < t->ndims; d++) {
        if (remain[d])
            *key = *key * t->dims[d] + coords[d];
        else
            *color = *color * t->dims[d] + coords[d];
    }
}

/* ---------------------------------------------------------------- neighbourhoods */

static void graph_span(const struct skiff_topo *t, int rank, int *lo, int *hi)
{
    *lo = rank > 0 ? t->index[rank - 1] : 0;
    *hi = t->index[rank];
}

void skiff_topo_degrees(const struct skiff_topo *t, int rank, int *indegree, int *outdegree)
{
    int lo, hi;
    switch (t->kind) {
    case MPI_CART:
        *indegree = *outdegree = 2 * t->ndims;
        break;
    case MPI_GRAPH:
        graph_span(t, rank, &lo, &hi);
        *indegree = *outdegree = hi - lo;
        break;
    default:
        *indegree = t->indegree;
        *outdegree = t->outdegree;
    }
}

void skiff_topo_neighbors(const struct skiff_topo *t, int rank, int *sources, int *dests)
{
    int lo, hi;
    switch (t->kind) {
    case MPI_CART:
        for (int d = 0; d < t->ndims; d++) {
            int minus, plus;
            skiff_cart_shift(t, rank, d, 1, &minus, &plus);
            if (sources) {
                sources[2 * d] = minus;
                sources[2 * d + 1] = plus;
            }
            if (dests) {
                dests[2 * d] = minus;
                dests[2 * d + 1] = plus;
            }
        }
        break;
    case MPI_GRAPH:
        graph_span(t, rank, &lo, &hi);
        if (sources)
            copy_ints(sources, t->edges + lo, hi - lo);
        if (dests)
            copy_ints(dests, t->edges + lo, hi - lo);
        break;
    default:
        if (sources)
            copy_ints(sources, t->sources, t->indegree);
        if (dests)
            copy_ints(dests, t->dests, t->outdegree);
    }
}

/* ---------------------------------------------------------------- MPI_Dims_create */

/* The search state: the best split of m into k non-increasing factors found so far. */
struct dims_search {
    int k;
    const int *divs; /* divisors of m, ascending */
    int ndivs;
    int *cur, *best;
    long best_spread;
};

/* b^e >= x, without overflow. */
static int pow_at_least(long b, int e, long x)
{
    long p = 1;
    for (int i = 0; i < e && p < x; i++)
        p *= b;
    return p >= x;
}

/* Chooses cur[i..k) for the remaining product rem, each factor at most prev. */
static void dims_search(struct dims_search *s, int i, long rem, long prev)
{
    if (i == s->k - 1) {
        if (rem > prev)
            return;
        s->cur[i] = (int)rem;
        long spread = s->cur[0] - rem;
        if (spread < s->best_spread) {
            s->best_spread = spread;
            memcpy(s->best, s->cur, sizeof(int) * (size_t)s->k);
        }
        return;
    }
    for (int j = s->ndivs - 1; j >= 0; j--) {
        long d = s->divs[j];
        if (d > prev || rem % d)
            continue;
        /* Later factors are at most d: d^(k-i) must reach rem, and the spread only grows. */
        if (!pow_at_least(d, s->k - i, rem) || (i > 0 && s->cur[0] - d >= s->best_spread))
            break;
        s->cur[i] = (int)d;
        dims_search(s, i + 1, rem / d, d);
    }
}

/* Splits m into k factors, as close to each other as possible, largest first. */
static int balanced_factors(int m, int k, int *out)
{
    int ndivs = 0, *divs = malloc(sizeof(int) * 2048); /* no int has more than 1600 divisors */
    int *cur = malloc(sizeof(int) * (size_t)k);
    if (!divs || !cur) {
        free(divs);
        free(cur);
        return skiff_err(MPI_ERR_NO_MEM, "out of memory factoring %d", m);
    }
    for (long d = 1; d * d <= m; d++)
        if (m % d == 0)
            divs[ndivs++] = (int)d;
    for (int j = ndivs - 1; j >= 0; j--)
        if ((long)divs[j] * divs[j] != m)
            divs[ndivs++] = m / divs[j];
    struct dims_search s = {k, divs, ndivs, cur, out, LONG_MAX};
    dims_search(&s, 0, m, m);
    free(divs);
    free(cur);
    return MPI_SUCCESS;
}

int skiff_dims_create(int nnodes, int ndims, int *dims)
{
    if (ndims < 0)
        return skiff_err(MPI_ERR_DIMS, "invalid number of dimensions %d", ndims);
    if (nnodes < 1)
        return skiff_err(MPI_ERR_ARG, "invalid number of nodes %d (must be >= 1)", nnodes);
    long fixed = 1;
    int nfree = 0;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] < 0)
            return skiff_err(MPI_ERR_DIMS, "dims[%d] = %d is negative", d, dims[d]);
        if (dims[d] == 0)
            nfree++;
        else if ((fixed *= dims[d]) > nnodes)
            break;
    }
    if (nnodes % fixed || (nfree == 0 && fixed != nnodes))
        return skiff_err(MPI_ERR_DIMS, "%d nodes cannot fill the given dimensions: the non-zero entries multiply "
                                       "to %s%ld", nnodes, fixed > nnodes ? "more than " : "", fixed);
    if (nfree == 0)
        return MPI_SUCCESS;
    int f[nfree];
    int rc = balanced_factors((int)(nnodes / fixed), nfree, f);
    for (int d = 0, j = 0; !rc && d < ndims; d++)
        if (dims[d] == 0)
            dims[d] = f[j++];
    return rc;
}

/* ---------------------------------------------------------------- placement */

static const int *sort_node; /* qsort has no context argument */

static int by_node_then_rank(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (sort_node[x] != sort_node[y])
        return sort_node[x] < sort_node[y] ? -1 : 1;
    return (x > y) - (x < y);
}

int skiff_cart_order(int n, const int *node, int *order)
{
    for (int i = 0; i < n; i++)
        order[i] = i;
    sort_node = node;
    qsort(order, (size_t)n, sizeof *order, by_node_then_rank);
    sort_node = NULL;
    return MPI_SUCCESS;
}
