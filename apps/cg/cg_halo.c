/* The halo: which ghost entries of x each rank needs from which owner, found once, then exchanged before
 * every SpMV by one of four mechanisms (--exchange). */
#include "cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *zalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "skiff-cg: out of memory (%zu x %zu bytes)\n", n, size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The rank whose block holds global row g: blocks are in rank order, starts[np] = n. */
static int owner(const int *starts, int np, int g)
{
    int lo = 0, hi = np - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (starts[mid] <= g)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Sorted distinct columns outside the rank's block; sorted means grouped by owner, in rank order. */
static int *find_ghosts(const struct cg_matrix *a, int *nghost)
{
    int nnz = a->rowptr[a->nloc], n = 0;
    int *g = zalloc((size_t)nnz, sizeof *g);
    for (int k = 0; k < nnz; k++)
        if (a->col[k] < a->r0 || a->col[k] >= a->r0 + a->nloc)
            g[n++] = a->col[k];
    qsort(g, (size_t)n, sizeof *g, cmp_int);
    int u = 0;
    for (int k = 0; k < n; k++)
        if (u == 0 || g[k] != g[u - 1])
            g[u++] = g[k];
    *nghost = u;
    return g;
}

/* Columns become indices into h->x: owned rows first, ghosts after them in sorted order. */
static void renumber(struct cg_matrix *a, const int *ghosts, int nghost)
{
    for (int k = 0; k < a->rowptr[a->nloc]; k++) {
        int c = a->col[k];
        if (c >= a->r0 && c < a->r0 + a->nloc)
            a->col[k] = c - a->r0;
        else
            a->col[k] = a->nloc + (int)((const int *)bsearch(&c, ghosts, (size_t)nghost, sizeof c, cmp_int) - ghosts);
    }
}

/* Receive side from the ghost list; send side by telling every owner which of its rows are wanted
 * (one Alltoall and one Alltoallv, at set-up only). */
static void build_lists(struct cg_halo *h, const struct cg_matrix *a, const int *ghosts, int np)
{
    int *starts = zalloc((size_t)np + 1, sizeof *starts);
    int *need = zalloc((size_t)np, sizeof *need), *give = zalloc((size_t)np, sizeof *give);
    MPI_Allgather(&a->r0, 1, MPI_INT, starts, 1, MPI_INT, h->comm);
    starts[np] = (int)a->n;
    for (int k = 0; k < h->nghost; k++)
        need[owner(starts, np, ghosts[k])]++;
    MPI_Alltoall(need, 1, MPI_INT, give, 1, MPI_INT, h->comm);
    int *nd = zalloc((size_t)np, sizeof *nd), *gd = zalloc((size_t)np, sizeof *gd), total = 0;
    h->src = zalloc((size_t)np, sizeof *h->src), h->rcount = zalloc((size_t)np, sizeof *h->rcount);
    h->rdispl = zalloc((size_t)np, sizeof *h->rdispl);
    h->dst = zalloc((size_t)np, sizeof *h->dst), h->scount = zalloc((size_t)np, sizeof *h->scount);
    h->sdispl = zalloc((size_t)np, sizeof *h->sdispl);
    for (int p = 0, off = 0; p < np; off += need[p], p++) {
        nd[p] = off;
        if (need[p])
            h->src[h->nsrc] = p, h->rcount[h->nsrc] = need[p], h->rdispl[h->nsrc++] = off;
    }
    for (int p = 0; p < np; total += give[p], p++) {
        gd[p] = total;
        if (give[p])
            h->dst[h->ndst] = p, h->scount[h->ndst] = give[p], h->sdispl[h->ndst++] = total;
    }
    h->sendidx = zalloc((size_t)total, sizeof *h->sendidx);
    h->sendbuf = zalloc((size_t)total, sizeof *h->sendbuf);
    MPI_Alltoallv(ghosts, need, nd, MPI_INT, h->sendidx, give, gd, MPI_INT, h->comm);
    for (int k = 0; k < total; k++)
        h->sendidx[k] -= a->r0;
    h->bytes_sent = (long long)total * (long long)sizeof(double);
    free(starts), free(need), free(give), free(nd), free(gd);
}

static int start_mode(struct cg_halo *h)
{
    double *ghost = h->x + h->nloc;
    if (h->mode == CG_EX_PERSIST) {
        h->nreqs = h->nsrc + h->ndst;
        h->reqs = zalloc((size_t)h->nreqs, sizeof *h->reqs);
        for (int i = 0; i < h->nsrc; i++)
            MPI_Recv_init(ghost + h->rdispl[i], h->rcount[i], MPI_DOUBLE, h->src[i], 7, h->comm, &h->reqs[i]);
        for (int i = 0; i < h->ndst; i++)
            MPI_Send_init(h->sendbuf + h->sdispl[i], h->scount[i], MPI_DOUBLE, h->dst[i], 7, h->comm,
                          &h->reqs[h->nsrc + i]);
        return 0;
    }
    if (h->mode == CG_EX_P2P) {
        h->reqs = zalloc((size_t)(h->nsrc + h->ndst), sizeof *h->reqs);
        return 0;
    }
    /* Reorder off: row blocks are already cut by rank. Open MPI's MPI_UNWEIGHTED is an array of size 0,
     * which gcc would warn about being read, hence the volatile. */
    const int *volatile unweighted = MPI_UNWEIGHTED;
    MPI_Dist_graph_create_adjacent(h->comm, h->nsrc, h->src, unweighted, h->ndst, h->dst, unweighted,
                                   MPI_INFO_NULL, 0, &h->graph);
    if (h->mode == CG_EX_NEIGHBOR_INIT) {
#if MPI_VERSION >= 4
        h->nreqs = 1;
        h->reqs = zalloc(1, sizeof *h->reqs);
        MPI_Neighbor_alltoallv_init(h->sendbuf, h->scount, h->sdispl, MPI_DOUBLE, ghost, h->rcount, h->rdispl,
                                    MPI_DOUBLE, h->graph, MPI_INFO_NULL, &h->reqs[0]);
#else
        return 1;
#endif
    }
    return 0;
}

int cg_halo_setup(struct cg_halo *h, struct cg_matrix *a, MPI_Comm comm, enum cg_exchange mode)
{
    int np;
    memset(h, 0, sizeof *h);
    MPI_Comm_size(comm, &np);
    h->comm = comm;
    h->mode = mode;
    h->graph = MPI_COMM_NULL;
    h->nloc = a->nloc;
    int *ghosts = find_ghosts(a, &h->nghost);
    build_lists(h, a, ghosts, np);
    renumber(a, ghosts, h->nghost);
    free(ghosts);
    h->x = zalloc((size_t)h->nloc + (size_t)h->nghost, sizeof *h->x);
    return start_mode(h);
}

/* MPI_STATUSES_IGNORE through a volatile: gcc's -Wstringop-overflow takes MPICH's for a 0-byte array. */
static MPI_Status *statuses_ignore(void)
{
    MPI_Status *volatile ignore = MPI_STATUSES_IGNORE;
    return ignore;
}

static void pack(struct cg_halo *h)
{
    int total = h->ndst ? h->sdispl[h->ndst - 1] + h->scount[h->ndst - 1] : 0;
    for (int k = 0; k < total; k++)
        h->sendbuf[k] = h->x[h->sendidx[k]];
}

void cg_halo_exchange(struct cg_halo *h)
{
    double *ghost = h->x + h->nloc;
    switch (h->mode) {
    case CG_EX_P2P:
        for (int i = 0; i < h->nsrc; i++)
            MPI_Irecv(ghost + h->rdispl[i], h->rcount[i], MPI_DOUBLE, h->src[i], 7, h->comm, &h->reqs[i]);
        pack(h);
        for (int i = 0; i < h->ndst; i++)
            MPI_Isend(h->sendbuf + h->sdispl[i], h->scount[i], MPI_DOUBLE, h->dst[i], 7, h->comm,
                      &h->reqs[h->nsrc + i]);
        MPI_Waitall(h->nsrc + h->ndst, h->reqs, statuses_ignore());
        break;
    case CG_EX_PERSIST:
        /* Receives start before packing so they are posted when the data arrives. */
        if (h->nsrc)
            MPI_Startall(h->nsrc, h->reqs);
        pack(h);
        if (h->ndst)
            MPI_Startall(h->ndst, h->reqs + h->nsrc);
        MPI_Waitall(h->nreqs, h->reqs, statuses_ignore());
        break;
    case CG_EX_NEIGHBOR:
        pack(h);
        MPI_Neighbor_alltoallv(h->sendbuf, h->scount, h->sdispl, MPI_DOUBLE, ghost, h->rcount, h->rdispl,
                               MPI_DOUBLE, h->graph);
        break;
    case CG_EX_NEIGHBOR_INIT:
        pack(h);
        MPI_Start(&h->reqs[0]);
        MPI_Wait(&h->reqs[0], MPI_STATUS_IGNORE);
        break;
    }
}

void cg_halo_free(struct cg_halo *h)
{
    if (h->mode == CG_EX_PERSIST || h->mode == CG_EX_NEIGHBOR_INIT)
        for (int i = 0; i < h->nreqs; i++)
            MPI_Request_free(&h->reqs[i]);
    if (h->x && h->graph != MPI_COMM_NULL) /* h->x: set up at all, not just zeroed */
        MPI_Comm_free(&h->graph);
    free(h->src), free(h->rcount), free(h->rdispl), free(h->dst), free(h->scount), free(h->sdispl);
    free(h->sendidx), free(h->sendbuf), free(h->x), free(h->reqs);
    memset(h, 0, sizeof *h);
}
