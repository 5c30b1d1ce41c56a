/* CPU atomics for accumulates on the direct path (docs/design.md, "One-sided", "Atomics"). */
#ifndef SKIFF_RMA_ATOMIC_H
#define SKIFF_RMA_ATOMIC_H

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

/* How the elements of a basic type are updated: NONE under the segment's lock word, else with a
 * lock-free read-modify-write of the element's own size (INT may use fetch_add/and/or/xor). */
enum skiff_atomic_class { SKIFF_ATOMIC_NONE = 0, SKIFF_ATOMIC_INT, SKIFF_ATOMIC_FLOAT };

/* The class of the predefined type basic (size bytes); NONE for everything that is not one integer or
 * floating-point number of 1, 2, 4 or 8 bytes (pairs, complex, long double, 16-byte kinds). */
int skiff_rma_atomic_class(MPI_Datatype basic, size_t size);

/* Lock-free only at the element's natural alignment; a misaligned element takes the lock word. */
static inline int skiff_rma_atomic_aligned(const void *addr, size_t size)
{
    return ((uintptr_t)addr & (size - 1)) == 0;
}

/* One element of size bytes at addr (aligned, class cls): old := *addr (old may be NULL); then with cmp
 * (compare-and-swap) *addr := in if *addr == cmp bitwise, else *addr := in op *addr (MPI_REPLACE: in,
 * MPI_NO_OP: unchanged, in unused). All as one atomic step. */
void skiff_rma_atomic_elem(void *addr, size_t size, int cls, MPI_Op op, MPI_Datatype basic, const void *in,
                           const void *cmp, void *old);

#endif
