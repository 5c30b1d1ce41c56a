#include "core/group.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/error.h"
#include "core/objpool.h"

struct skiff_group skiff_group_empty = {SKIFF_GROUP_MAGIC, 0, MPI_UNDEFINED, NULL, NULL};
static struct skiff_objpool pool = SKIFF_OBJPOOL_INIT(struct skiff_group);

struct skiff_group *skiff_group_get(MPI_Group h)
{
    if (h == MPI_GROUP_EMPTY)
        return &skiff_group_empty;
    /* Predefined handles are small integers; anything else is a pointer into our pool. */
    if ((uintptr_t)h < 0x1000 || (uintptr_t)h % sizeof(void *))
        return NULL;
    struct skiff_group *g = (struct skiff_group *)(void *)h;
    return g->magic == SKIFF_GROUP_MAGIC ? g : NULL;
}

MPI_Group skiff_group_handle(struct skiff_group *g)
{
    return g == &skiff_group_empty ? MPI_GROUP_EMPTY : (MPI_Group)(void *)g;
}

struct skiff_group *skiff_group_from(const int *world, int n)
{
    if (n == 0)
        return &skiff_group_empty;
    struct skiff_group *g = skiff_objpool_get(&pool);
    if (!g)
        return NULL;
    g->world = malloc(sizeof(int) * (size_t)n);
    if (!g->world) {
        skiff_objpool_put(&pool, g);
        return NULL;
    }
    memcpy(g->world, world, sizeof(int) * (size_t)n);
    g->magic = SKIFF_GROUP_MAGIC;
    g->size = n;
    g->rank = skiff_group_rank_of(g, skiff.rank);
    g->session = NULL;
    return g;
}

static void release(void *obj)
{
    struct skiff_group *g = obj;
    free(g->world);
    skiff_objpool_put(&pool, g);
}

void skiff_group_free(struct skiff_group *g)
{
    if (g != &skiff_group_empty)
        release(g);
}

struct member {
    int key, rank;
};

static int by_key_then_rank(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

int skiff_group_pick(const struct skiff_group *g, const int *rec, int stride, int color, int *world)
{
    struct member *m = malloc(sizeof *m * (size_t)(g->size ? g->size : 1));
    if (!m)
        return -1;
    int n = 0;
    for (int i = 0; i < g->size; i++)
        if (rec[stride * i + stride - 2] == color)
            m[n++] = (struct member){rec[stride * i + stride - 1], i};
    qsort(m, (size_t)n, sizeof *m, by_key_then_rank);
    for (int i = 0; i < n; i++)
        world[i] = g->world[m[i].rank];
    free(m);
    return n;
}

void skiff_group_finalize(void)
{
    skiff_objpool_foreach(&pool, release);
    skiff_objpool_destroy(&pool);
}

int skiff_group_rank_of(const struct skiff_group *g, int w)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == w)
            return i;
    return MPI_UNDEFINED;
}

/* Largest job rank in a or b, plus one: the length of an index by job rank. */
static int job_span(const struct skiff_group *a, const struct skiff_group *b)
{
    int m = -1;
    for (int i = 0; i < a->size; i++)
        m = a->world[i] > m ? a->world[i] : m;
    for (int i = 0; b && i < b->size; i++)
        m = b->world[i] > m ? b->world[i] : m;
    return m + 1;
}

/* job rank -> rank in g, or -1; a linear-time answer to "where is this process in g". */
static int *index_by_job(const struct skiff_group *g, int span)
{
    int *idx = malloc(sizeof(int) * (size_t)(span ? span : 1));
    if (!idx)
        return NULL;
    for (int i = 0; i < span; i++)
        idx[i] = -1;
    for (int i = 0; i < g->size; i++)
        idx[g->world[i]] = i;
    return idx;
}

static int no_mem(void)
{
    return skiff_err(MPI_ERR_NO_MEM, "out of memory building a group");
}

int skiff_group_compare(const struct skiff_group *a, const struct skiff_group *b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    if (a->size == 0 || memcmp(a->world, b->world, sizeof(int) * (size_t)a->size) == 0)
        return MPI_IDENT;
    int span = job_span(a, b);
    int *in_b = index_by_job(b, span);
    if (!in_b)
        return MPI_UNEQUAL;
    int r = MPI_SIMILAR;
    for (int i = 0; i < a->size && r == MPI_SIMILAR; i++)
        if (in_b[a->world[i]] < 0)
            r = MPI_UNEQUAL;
    free(in_b);
    return r;
}

/* Every rank in [0, g->size), none twice. */
static int check_ranks(const struct skiff_group *g, int n, const int *ranks)
{
    /* More ranks than the group has means a bad or repeated rank, which the loop names. */
    if (n < 0)
        return skiff_err(MPI_ERR_ARG, "invalid number of ranks %d", n);
    unsigned char *seen = calloc((size_t)g->size + 1, 1);
    if (!seen)
        return no_mem();
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n && !rc; i++) {
        int r = ranks[i];
        if (r < 0 || r >= g->size)
            rc = skiff_err(MPI_ERR_RANK, "invalid rank ranks[%d] = %d (the group has %d ranks)", i, r, g->size);
        else if (seen[r]++)
            rc = skiff_err(MPI_ERR_RANK, "rank %d appears twice (again at ranks[%d])", r, i);
    }
    free(seen);
    return rc;
}

/* The group of g's ranks listed (or not listed, if exclude) in ranks[]. */
static int select_ranks(const struct skiff_group *g, int n, const int *ranks, int exclude,
                        struct skiff_group **out)
{
    int rc = check_ranks(g, n, ranks);
    if (rc)
        return rc;
    *out = NULL;
    int *w = malloc(sizeof(int) * (size_t)(g->size + 1));
    unsigned char *drop = calloc((size_t)g->size + 1, 1);
    int k = 0;
    if (w && drop) {
        if (!exclude)
            for (int i = 0; i < n; i++)
                w[k++] = g->world[ranks[i]];
        else {
            for (int i = 0; i < n; i++)
                drop[ranks[i]] = 1;
            for (int i = 0; i < g->size; i++)
                if (!drop[i])
                    w[k++] = g->world[i];
        }
        *out = skiff_group_from(w, k);
        if (*out && *out != &skiff_group_empty)
            (*out)->session = g->session;
    }
    rc = w && drop && *out ? MPI_SUCCESS : no_mem();
    free(w);
    free(drop);
    return rc;
}

int skiff_group_incl(const struct skiff_group *g, int n, const int *ranks, struct skiff_group **out)
{
    return select_ranks(g, n, ranks, 0, out);
}

int skiff_group_excl(const struct skiff_group *g, int n, const int *ranks, struct skiff_group **out)
{
    return select_ranks(g, n, ranks, 1, out);
}

static int check_range(const struct skiff_group *g, int i, const int r[3])
{
    int first = r[0], last = r[1], stride = r[2];
    if (stride == 0)
        return skiff_err(MPI_ERR_ARG, "ranges[%d] = {%d, %d, %d}: stride 0", i, first, last, stride);
    if (first < 0 || first >= g->size || last < 0 || last >= g->size)
        return skiff_err(MPI_ERR_ARG, "ranges[%d] = {%d, %d, %d}: ranks must be in 0..%d", i, first, last, stride,
                         g->size - 1);
    if ((stride > 0 && first > last) || (stride < 0 && first < last))
        return skiff_err(MPI_ERR_ARG, "ranges[%d] = {%d, %d, %d}: stride %d never reaches %d from %d", i, first,
                         last, stride, stride, last, first);
    return MPI_SUCCESS;
}

/* Expands the triplets into a rank list, refusing a rank named twice. */
static int expand_ranges(const struct skiff_group *g, int n, const int ranges[][3], int **list, int *count)
{
    if (n < 0)
        return skiff_err(MPI_ERR_ARG, "invalid number of ranges %d", n);
    long total = 0;
    for (int i = 0; i < n; i++) {
        int rc = check_range(g, i, ranges[i]);
        if (rc)
            return rc;
        total += ((long)ranges[i][1] - ranges[i][0]) / ranges[i][2] + 1;
        if (total > g->size)
            return skiff_err(MPI_ERR_ARG, "the ranges name %ld ranks, more than the group's %d: some appear twice",
                             total, g->size);
    }
    int *l = malloc(sizeof(int) * (size_t)(total ? total : 1));
    int *from = calloc((size_t)g->size + 1, sizeof(int)); /* 1 + the range that named each rank */
    if (!l || !from) {
        free(l);
        free(from);
        return no_mem();
    }
    int k = 0, rc = MPI_SUCCESS;
    for (int i = 0; i < n && !rc; i++)
        for (long r = ranges[i][0]; !rc && (ranges[i][2] > 0 ? r <= ranges[i][1] : r >= ranges[i][1]);
             r += ranges[i][2]) {
            if (from[r])
                rc = skiff_err(MPI_ERR_ARG, "rank %ld is in ranges[%d] and again in ranges[%d]", r, from[r] - 1, i);
            from[r] = i + 1;
            l[k++] = (int)r;
        }
    free(from);
    if (rc) {
        free(l);
        return rc;
    }
    *list = l;
    *count = k;
    return MPI_SUCCESS;
}

int skiff_group_range(const struct skiff_group *g, int n, const int ranges[][3], int exclude,
                      struct skiff_group **out)
{
    int *list = NULL, count = 0;
    int rc = expand_ranges(g, n, ranges, &list, &count);
    if (rc)
        return rc;
    rc = select_ranks(g, count, list, exclude, out);
    free(list);
    return rc;
}

int skiff_group_setop(const struct skiff_group *a, const struct skiff_group *b, enum skiff_group_setop op,
                      struct skiff_group **out)
{
    int span = job_span(a, b);
    int *in_a = index_by_job(a, span), *in_b = index_by_job(b, span);
    int *w = malloc(sizeof(int) * (size_t)(a->size + b->size + 1));
    int k = 0;
    *out = NULL;
    if (in_a && in_b && w) {
        for (int i = 0; i < a->size; i++)
            if (op == SKIFF_GROUP_UNION || (in_b[a->world[i]] >= 0) == (op == SKIFF_GROUP_INTERSECTION))
                w[k++] = a->world[i];
        for (int i = 0; op == SKIFF_GROUP_UNION && i < b->size; i++)
            if (in_a[b->world[i]] < 0)
                w[k++] = b->world[i];
        *out = skiff_group_from(w, k);
        if (*out && *out != &skiff_group_empty)
            (*out)->session = a->session ? a->session : b->session;
    }
    free(in_a);
    free(in_b);
    free(w);
    return *out ? MPI_SUCCESS : no_mem();
}

int skiff_group_translate(const struct skiff_group *a, int n, const int *ranks_a, const struct skiff_group *b,
                          int *ranks_b)
{
    if (n < 0)
        return skiff_err(MPI_ERR_ARG, "invalid number of ranks %d", n);
    for (int i = 0; i < n; i++)
        if ((ranks_a[i] < 0 || ranks_a[i] >= a->size) && ranks_a[i] != MPI_PROC_NULL)
            return skiff_err(MPI_ERR_RANK, "invalid rank ranks1[%d] = %d (the first group has %d ranks)", i,
                             ranks_a[i], a->size);
    int span = job_span(a, b);
    int *in_b = index_by_job(b, span);
    if (!in_b)
        return no_mem();
    for (int i = 0; i < n; i++) {
        int r = ranks_a[i] == MPI_PROC_NULL ? -1 : in_b[a->world[ranks_a[i]]];
        ranks_b[i] = ranks_a[i] == MPI_PROC_NULL ? MPI_PROC_NULL : r >= 0 ? r : MPI_UNDEFINED;
    }
    free(in_b);
    return MPI_SUCCESS;
}
