/* Datatypes. Every type, predefined or derived, is flattened into the (offset, length) blocks of one
 * element, in type-map order with neighbours merged, so packing is a loop over blocks and a vector of
 * stride 1 is as cheap as a contiguous type. Predefined types are a table indexed by their ABI handle
 * value; derived types are heap objects whose address is their handle. */
#ifndef SKIFF_DATATYPE_H
#define SKIFF_DATATYPE_H

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

#define SKIFF_TYPE_MAGIC 0x736b7479u /* "skty": a live handle; cleared when the user frees it */

/* Bytes of one element at displacement off from the buffer. */
struct skiff_block {
    ptrdiff_t off;
    size_t len;
};

/* count consecutive basic elements of size bytes each, in packing order (for MPI_Get_elements). type:
 * the predefined type they are (a pair's parts), so the runs are the type signature (external32). */
struct skiff_run {
    size_t size, count;
    MPI_Datatype type;
};

struct skiff_type {
    uint32_t magic;
    uint8_t predefined;
    uint8_t committed;
    uint8_t marked;       /* lb and extent set explicitly (MPI_Type_create_resized): they stick */
    int refs;             /* the user's handle + pending operations; the object goes when it is 0 */
    size_t size;          /* bytes of data in one element */
    /* ub - lb: the stride between consecutive elements. Negative after MPI_Type_create_resized with
     * ub < lb (or in a type built on one): the elements then walk backwards through memory. */
    ptrdiff_t extent;
    ptrdiff_t lb;
    ptrdiff_t true_lb;    /* where the data of one element starts ... */
    size_t true_extent;   /* ... and how far it reaches */
    /* count elements occupy exactly [buf + true_lb, buf + true_lb + count * size), in packed order: no
     * packing needed. Never so with a negative extent, whose elements follow each other downwards. */
    int contiguous;
    /* The one predefined type all data consists of (a pair type counts as one), and how many of it
     * one element holds; MPI_DATATYPE_NULL and 0 when the types are mixed. Reductions run on this. */
    MPI_Datatype basic;
    size_t nbasic;
    size_t nelems;        /* basic elements in one element, pairs counting 2 (MPI_Get_elements) */
    size_t align;         /* strictest alignment of the data: a struct's extent is rounded up to it */
    const char *name;
    size_t nblocks;
    const struct skiff_block *blocks;
    size_t nruns;
    const struct skiff_run *runs;
    struct skiff_type_extra *extra; /* how it was made, name, attributes (core/type_extra.h); may be NULL */
    struct skiff_type *next_free; /* pool of released objects */
};

/* NULL for MPI_DATATYPE_NULL, freed handles and anything that is not a datatype skiff knows. */
const struct skiff_type *skiff_type_get(MPI_Datatype dt);

/* The name of an ABI datatype handle that this platform has no type for (MPI_REAL2: no Fortran compiler
 * here has a 2-byte REAL), else NULL. Every call refuses such a handle as it refuses MPI_DATATYPE_NULL;
 * it converts to and from its ABI integer all the same. */
const char *skiff_type_unsupported(MPI_Datatype dt);

static inline MPI_Datatype skiff_type_handle(const struct skiff_type *t)
{
    return (MPI_Datatype)(void *)(uintptr_t)t;
}

/* Where the data of a contiguous type starts. Integer arithmetic: buf may be MPI_BOTTOM (NULL) with
 * absolute displacements. */
static inline void *skiff_type_data(const void *buf, const struct skiff_type *t)
{
    return (void *)((uintptr_t)buf + (uintptr_t)t->true_lb);
}

/* bytes count elements of t occupy when packed */
static inline size_t skiff_type_packed_size(const struct skiff_type *t, size_t count)
{
    return count * t->size;
}
/* packs count elements from buf into out (skiff_type_packed_size bytes); returns bytes written */
size_t skiff_type_pack(const void *buf, size_t count, const struct skiff_type *t, void *out);
/* unpacks up to `bytes` bytes into count elements at buf; returns bytes consumed. A last element may
 * be filled only in part (a short message). */
size_t skiff_type_unpack(const void *in, size_t bytes, void *buf, size_t count, const struct skiff_type *t);
/* The bytes the data of count > 0 elements of t lie in: [buf + *lo, buf + *hi). With a negative extent
 * the later elements lie below the first. 0 if that range does not fit an address: no buffer does. */
int skiff_type_reach(const struct skiff_type *t, size_t count, ptrdiff_t *lo, ptrdiff_t *hi);
/* Basic elements in `bytes` packed bytes of t; SIZE_MAX if they end inside a basic element. */
size_t skiff_type_elements(const struct skiff_type *t, size_t bytes);

/* Building a derived type: add pieces (copies of sub, the k-th at disp + k * stride bytes) in type-map
 * order, then finish. Errors (out of memory, too many blocks) are kept and returned by finish. */
struct skiff_type_builder {
    struct skiff_block *blocks;
    size_t nblocks, cap_blocks;
    struct skiff_run *runs;
    size_t nruns, cap_runs;
    size_t size, nelems, nbasic, align;
    MPI_Datatype basic;
    int nsubs, mixed, any, marked, data, err;
    ptrdiff_t lb, ub, mlb, mub, tlb, tub;
};

void skiff_tb_init(struct skiff_type_builder *b);
void skiff_tb_add(struct skiff_type_builder *b, ptrdiff_t disp, size_t copies, ptrdiff_t stride,
                  const struct skiff_type *sub);
/* pad: round the extent up to the data's alignment (MPI_Type_create_struct). Returns an MPI error
 * code; on success *out is a new uncommitted type holding one reference (the user's). */
int skiff_tb_finish(struct skiff_type_builder *b, int pad, struct skiff_type **out);

int skiff_type_resized(const struct skiff_type *old, ptrdiff_t lb, ptrdiff_t extent, struct skiff_type **out);
int skiff_type_dup(const struct skiff_type *old, struct skiff_type **out);

/* For the datatype_*.c files: a fresh derived object (one reference, uncommitted) and its disposal. */
struct skiff_type *skiff_type_alloc(void);
void skiff_type_release(struct skiff_type *t);

/* Lifetime. free drops the user's reference and invalidates the handle; pending operations hold their
 * own reference (ref/unref; both do nothing for predefined types). */
void skiff_type_commit(const struct skiff_type *t);
void skiff_type_free(const struct skiff_type *t);
void skiff_type_ref(const struct skiff_type *t);
void skiff_type_unref(const struct skiff_type *t);

#endif
