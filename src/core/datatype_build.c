/* Flattening constructors: a derived type is built from pieces (copies of a sub-type at a stride) into
 * the blocks of one element, merging each block into the previous one when they touch. */
#include <stdlib.h>
#include <string.h>

#include "core/datatype.h"
#include "core/error.h"

/* 4 GiB of block list: a type needing more is a mistake, refused before the machine swaps. */
#define MAX_BLOCKS ((size_t)1 << 28)

void skiff_tb_init(struct skiff_type_builder *b)
{
    *b = (struct skiff_type_builder){.align = 1, .basic = MPI_DATATYPE_NULL};
}

static void fail(struct skiff_type_builder *b, int code)
{
    if (!b->err)
        b->err = code;
}

static int too_many(struct skiff_type_builder *b, size_t n)
{
    if (n <= MAX_BLOCKS)
        return 0;
    fail(b, skiff_err(MPI_ERR_NO_MEM, "the datatype would need %zu blocks (at most %zu are supported)", n,
                      MAX_BLOCKS));
    return 1;
}

/* Doubles *cap (from 16) so that *arr holds one more element; 0 on success. */
static int grow(struct skiff_type_builder *b, void **arr, size_t *cap, size_t elem)
{
    size_t n = *cap ? 2 * *cap : 16;
    if (too_many(b, n / 2 + 1))
        return -1;
    void *p = realloc(*arr, n * elem);
    if (!p) {
        fail(b, skiff_err(MPI_ERR_NO_MEM, "out of memory for a datatype of %zu blocks", n));
        return -1;
    }
    *arr = p;
    *cap = n;
    return 0;
}

static void add_block(struct skiff_type_builder *b, ptrdiff_t off, size_t len)
{
    if (len == 0 || b->err)
        return;
    if (b->nblocks) {
        struct skiff_block *last = &b->blocks[b->nblocks - 1];
        if (last->off + (ptrdiff_t)last->len == off) {
            last->len += len;
            return;
        }
    }
    if (b->nblocks == b->cap_blocks && grow(b, (void **)&b->blocks, &b->cap_blocks, sizeof *b->blocks))
        return;
    b->blocks[b->nblocks++] = (struct skiff_block){off, len};
}

static void add_run(struct skiff_type_builder *b, const struct skiff_run *r, size_t count)
{
    if (count == 0 || b->err)
        return;
    if (b->nruns && b->runs[b->nruns - 1].size == r->size && b->runs[b->nruns - 1].type == r->type) {
        b->runs[b->nruns - 1].count += count;
        return;
    }
    if (b->nruns == b->cap_runs && grow(b, (void **)&b->runs, &b->cap_runs, sizeof *b->runs))
        return;
    b->runs[b->nruns++] = (struct skiff_run){r->size, count, r->type};
}

static void widen(ptrdiff_t *lo, ptrdiff_t *hi, int *set, ptrdiff_t l, ptrdiff_t h)
{
    if (!*set || l < *lo)
        *lo = l;
    if (!*set || h > *hi)
        *hi = h;
    *set = 1;
}

/* The bounds of copies of sub, the k-th at disp + k * stride (copies > 0). A sub-type without data
 * adds no entries to the type map, so it moves no bounds unless it carries explicit ones. lb is the
 * lowest lb of any copy and ub the highest ub, each on its own: with a negative extent (ub < lb) or
 * stride they come from different copies, as MPI's lb and ub markers do. */
static void add_bounds(struct skiff_type_builder *b, ptrdiff_t disp, size_t copies, ptrdiff_t stride,
                       const struct skiff_type *sub)
{
    ptrdiff_t span = (ptrdiff_t)(copies - 1) * stride;
    ptrdiff_t lo = span < 0 ? span : 0, hi = span > 0 ? span : 0;
    ptrdiff_t lb = disp + sub->lb + lo, ub = disp + sub->lb + sub->extent + hi;
    if (sub->marked)
        widen(&b->mlb, &b->mub, &b->marked, lb, ub);
    if (sub->size) {
        widen(&b->lb, &b->ub, &b->any, lb, ub);
        ptrdiff_t tlb = disp + sub->true_lb;
        widen(&b->tlb, &b->tub, &b->data, tlb + lo, tlb + (ptrdiff_t)sub->true_extent + hi);
    }
}

static void note_basic(struct skiff_type_builder *b, size_t copies, const struct skiff_type *sub)
{
    if (b->nsubs++ == 0)
        b->basic = sub->basic;
    else if (b->basic != sub->basic)
        b->mixed = 1;
    b->nbasic += copies * sub->nbasic;
    if (sub->align > b->align)
        b->align = sub->align;
}

static void add_data(struct skiff_type_builder *b, ptrdiff_t disp, size_t copies, ptrdiff_t stride,
                     const struct skiff_type *sub)
{
    /* Copies of a single block that follow each other are one block: the zero-overhead case. */
    if (sub->nblocks == 1 && stride == (ptrdiff_t)sub->blocks[0].len)
        add_block(b, disp + sub->blocks[0].off, copies * sub->blocks[0].len);
    else if (!too_many(b, sub->nblocks && copies > MAX_BLOCKS / sub->nblocks ? SIZE_MAX : copies * sub->nblocks))
        for (size_t k = 0; k < copies && !b->err; k++)
            for (size_t i = 0; i < sub->nblocks; i++)
                add_block(b, disp + (ptrdiff_t)k * stride + sub->blocks[i].off, sub->blocks[i].len);
    if (sub->nruns == 1)
        add_run(b, &sub->runs[0], copies * sub->runs[0].count);
    else
        for (size_t k = 0; k < copies && !b->err; k++)
            for (size_t i = 0; i < sub->nruns; i++)
                add_run(b, &sub->runs[i], sub->runs[i].count);
}

void skiff_tb_add(struct skiff_type_builder *b, ptrdiff_t disp, size_t copies, ptrdiff_t stride,
                  const struct skiff_type *sub)
{
    if (b->err)
        return;
    note_basic(b, copies, sub);
    if (copies == 0)
        return;
    size_t bytes;
    if (__builtin_mul_overflow(copies, sub->size, &bytes) || bytes > PTRDIFF_MAX - b->size) {
        fail(b, skiff_err(MPI_ERR_ARG, "datatype too large: %zu copies of %zu bytes on top of %zu bytes", copies,
                          sub->size, b->size));
        return;
    }
    add_bounds(b, disp, copies, stride, sub);
    b->size += bytes;
    b->nelems += copies * sub->nelems;
    add_data(b, disp, copies, stride, sub);
}

static void drop(struct skiff_type_builder *b)
{
    free(b->blocks);
    free(b->runs);
    b->blocks = NULL;
    b->runs = NULL;
}

/* The signed compare matters: an extent of minus the size also puts count elements in one run of
 * memory, but backwards, so their bytes are not the packed stream. */
static void set_contiguous(struct skiff_type *t)
{
    t->contiguous = t->size == 0 || (t->nblocks == 1 && t->extent == (ptrdiff_t)t->size);
}

/* An array trimmed to its length (NULL when empty); shrinking cannot really fail, but if it does the
 * larger block serves as well. */
static void *trim(void *p, size_t n, size_t elem)
{
    if (n == 0) {
        free(p);
        return NULL;
    }
    void *q = realloc(p, n * elem);
    return q ? q : p;
}

/* Explicit bounds win, and may give a negative extent; else the data's (never negative), a struct's
 * extent rounded up to its strictest alignment as a C struct's is (MPI's epsilon). */
static void set_bounds(struct skiff_type *t, const struct skiff_type_builder *b, int pad)
{
    ptrdiff_t lb = b->marked ? b->mlb : b->any ? b->lb : 0, ub = b->marked ? b->mub : b->any ? b->ub : 0;
    ptrdiff_t extent = ub - lb, align = (ptrdiff_t)b->align;
    if (pad && !b->marked && extent % align)
        extent += align - extent % align;
    t->marked = (uint8_t)b->marked;
    t->lb = lb;
    t->extent = extent;
    t->true_lb = b->data ? b->tlb : 0;
    t->true_extent = b->data ? (size_t)(b->tub - b->tlb) : 0;
}

int skiff_tb_finish(struct skiff_type_builder *b, int pad, struct skiff_type **out)
{
    struct skiff_type *t = b->err ? NULL : skiff_type_alloc();
    if (!t) {
        drop(b);
        return b->err ? b->err : skiff_err(MPI_ERR_NO_MEM, "out of memory for a datatype");
    }
    set_bounds(t, b, pad);
    t->size = b->size;
    t->basic = b->mixed ? MPI_DATATYPE_NULL : b->basic;
    t->nbasic = t->basic == MPI_DATATYPE_NULL ? 0 : b->nbasic;
    t->nelems = b->nelems;
    t->align = b->align;
    t->nblocks = b->nblocks;
    t->blocks = trim(b->blocks, b->nblocks, sizeof *b->blocks);
    t->nruns = b->nruns;
    t->runs = trim(b->runs, b->nruns, sizeof *b->runs);
    set_contiguous(t);
    *out = t;
    return MPI_SUCCESS;
}

/* The same data as old, bounds and all. */
static int clone(const struct skiff_type *old, struct skiff_type **out)
{
    struct skiff_type_builder b;
    skiff_tb_init(&b);
    skiff_tb_add(&b, 0, 1, 0, old);
    int rc = skiff_tb_finish(&b, 0, out);
    if (rc)
        return rc;
    (*out)->lb = old->lb;
    (*out)->extent = old->extent;
    (*out)->marked = old->marked;
    set_contiguous(*out);
    return MPI_SUCCESS;
}

/* Any extent, negative ones included (ub = lb + extent below lb): MPI allows them, and codes use
 * them to walk an array backwards. Only an ub beyond the address range is refused. */
int skiff_type_resized(const struct skiff_type *old, ptrdiff_t lb, ptrdiff_t extent, struct skiff_type **out)
{
    ptrdiff_t ub;
    if (__builtin_add_overflow(lb, extent, &ub))
        return skiff_err(MPI_ERR_ARG, "lb %td + extent %td overflows an address-sized integer", lb, extent);
    int rc = clone(old, out);
    if (rc)
        return rc;
    (*out)->lb = lb;
    (*out)->extent = extent;
    (*out)->marked = 1;
    set_contiguous(*out);
    return MPI_SUCCESS;
}

int skiff_type_dup(const struct skiff_type *old, struct skiff_type **out)
{
    int rc = clone(old, out);
    if (!rc)
        (*out)->committed = old->committed;
    return rc;
}
