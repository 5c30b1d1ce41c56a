#include "coll/inter.h"

#include "coll/sched.h"
#include "core/datatype.h"

/* The root's side names itself MPI_ROOT; the rest of its group MPI_PROC_NULL: they take no part. */
static int idle(int root)
{
    return root == MPI_PROC_NULL;
}

void skiff_build_inter_barrier(struct skiff_sched *s)
{
    /* Nobody leaves before every remote process has arrived: a word from each of them says so. */
    for (int r = 0; r < s->comm->peers; r++) {
        skiff_sched_send(s, NULL, 0, r);
        skiff_sched_recv(s, NULL, 0, r);
    }
}

void skiff_build_inter_bcast(struct skiff_sched *s, void *buf, size_t bytes, int root)
{
    if (root == MPI_ROOT)
        for (int r = 0; r < s->comm->peers; r++)
            skiff_sched_send(s, buf, bytes, r);
    else if (!idle(root))
        skiff_sched_recv(s, buf, bytes, root);
}

/* Receives every remote process's vector of count elements and leaves their reduction in recvbuf,
 * lower ranks on the left: acc = v[m-1], then acc = v[j] op acc downwards. off/len (elements) pick
 * the slice of each vector that is kept. */
static void reduce_from_all(struct skiff_sched *s, void *recvbuf, size_t count, size_t esize, size_t off, size_t len)
{
    int m = s->comm->peers;
    char *all = skiff_sched_scratch(s, (size_t)m * count * esize);
    for (int r = 0; r < m; r++)
        skiff_sched_recv(s, all + (size_t)r * count * esize, count * esize, r);
    skiff_sched_copy(s, recvbuf, all + ((size_t)(m - 1) * count + off) * esize, len * esize);
    for (int r = m - 2; r >= 0; r--)
        skiff_sched_reduce(s, all + ((size_t)r * count + off) * esize, recvbuf, len);
}

/* By extent, as the op loops step: a pair type's padding (MPI_DOUBLE_INT's 4 bytes) included. */
static size_t elem_size(MPI_Datatype dt)
{
    const struct skiff_type *t = skiff_type_get(dt);
    return t ? (size_t)t->extent : 0;
}

void skiff_build_inter_reduce(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt,
                              MPI_Op op, int root)
{
    size_t esize = elem_size(dt);
    s->dt = dt;
    s->op = op;
    if (root == MPI_ROOT)
        reduce_from_all(s, recvbuf, count, esize, 0, count);
    else if (!idle(root))
        skiff_sched_send(s, sendbuf, count * esize, root);
}

void skiff_build_inter_allreduce(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count,
                                 MPI_Datatype dt, MPI_Op op)
{
    size_t esize = elem_size(dt);
    s->dt = dt;
    s->op = op;
    for (int r = 0; r < s->comm->peers; r++)
        skiff_sched_send(s, sendbuf, count * esize, r);
    reduce_from_all(s, recvbuf, count, esize, 0, count);
}

void skiff_build_inter_reduce_scatter(struct skiff_sched *s, const void *sendbuf, void *recvbuf, const size_t *counts,
                                      MPI_Datatype dt, MPI_Op op)
{
    size_t esize = elem_size(dt), total = 0, off = 0;
    for (int i = 0; i < s->comm->size; i++) {
        if (i == s->comm->rank)
            off = total;
        total += counts[i];
    }
    s->dt = dt;
    s->op = op;
    /* Every remote process needs its own slice of our vector, but only it knows where that slice
     * lies (its group's counts): the whole vector goes, and each keeps its slice. */
    for (int r = 0; r < s->comm->peers; r++)
        skiff_sched_send(s, sendbuf, total * esize, r);
    reduce_from_all(s, recvbuf, total, esize, off, counts[s->comm->rank]);
}

static size_t block_bytes(const size_t *counts, size_t each, int r)
{
    return counts ? counts[r] : each;
}

static size_t block_at(const size_t *displs, size_t each, int r)
{
    return displs ? displs[r] : (size_t)r * each;
}

void skiff_build_inter_gather(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf,
                              const size_t *counts, const size_t *displs, int root)
{
    if (root == MPI_ROOT)
        for (int r = 0; r < s->comm->peers; r++)
            skiff_sched_recv(s, (char *)recvbuf + block_at(displs, bytes, r), block_bytes(counts, bytes, r), r);
    else if (!idle(root))
        skiff_sched_send(s, sendbuf, bytes, root);
}

void skiff_build_inter_scatter(struct skiff_sched *s, const void *sendbuf, const size_t *counts, const size_t *displs,
                               void *recvbuf, size_t bytes, int root)
{
    if (root == MPI_ROOT)
        for (int r = 0; r < s->comm->peers; r++)
            skiff_sched_send(s, (const char *)sendbuf + block_at(displs, bytes, r), block_bytes(counts, bytes, r), r);
    else if (!idle(root))
        skiff_sched_recv(s, recvbuf, bytes, root);
}

void skiff_build_inter_allgather(struct skiff_sched *s, const void *sendbuf, size_t sbytes, void *recvbuf,
                                 size_t rbytes, const size_t *rcounts, const size_t *rdispls)
{
    for (int r = 0; r < s->comm->peers; r++) {
        skiff_sched_send(s, sendbuf, sbytes, r);
        skiff_sched_recv(s, (char *)recvbuf + block_at(rdispls, rbytes, r), block_bytes(rcounts, rbytes, r), r);
    }
}

void skiff_build_inter_alltoall(struct skiff_sched *s, const void *sendbuf, size_t sbytes, const size_t *scounts,
                                const size_t *sdispls, void *recvbuf, size_t rbytes, const size_t *rcounts,
                                const size_t *rdispls)
{
    for (int r = 0; r < s->comm->peers; r++) {
        skiff_sched_send(s, (const char *)sendbuf + block_at(sdispls, sbytes, r), block_bytes(scounts, sbytes, r), r);
        skiff_sched_recv(s, (char *)recvbuf + block_at(rdispls, rbytes, r), block_bytes(rcounts, rbytes, r), r);
    }
}
