/* CPU atomics for accumulates on the direct path (docs/design.md, "One-sided", "Atomics"). */
#ifndef SKIFF_RMA_ATOMIC_H
#define SKIFF_RMA_ATOMIC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mpi.h"

/* How the elements of a basic type are updated: NONE under the segment's lock word, else with a
 * lock-free read-modify-write of the element's own size (INT may use fetch_add/and/or/xor). */
enum skiff_atomic_class { SKIFF_ATOMIC_NONE = 0, SKIFF_ATOMIC_INT, SKIFF_ATOMIC_FLOAT };

/* The class of each predefined datatype, by its standard ABI number (0x200 to 0x3ff); atomic.c fills it
 * when the library is loaded. */
enum { SKIFF_ABI_TYPE_FIRST = 0x200, SKIFF_ABI_TYPE_COUNT = 0x200 };
extern unsigned char skiff_rma_atomic_classes[SKIFF_ABI_TYPE_COUNT];

/* The class of the predefined type basic (size bytes); NONE for everything that is not one integer or
 * floating-point number of 1, 2, 4 or 8 bytes (pairs, complex, long double, 16-byte kinds). Inline: every
 * atomic on the direct path asks. */
static inline int skiff_rma_atomic_class(MPI_Datatype basic, size_t size)
{
    uintptr_t i = (uintptr_t)basic - SKIFF_ABI_TYPE_FIRST;
    if ((size != 1 && size != 2 && size != 4 && size != 8) || i >= SKIFF_ABI_TYPE_COUNT)
        return SKIFF_ATOMIC_NONE;
    return skiff_rma_atomic_classes[i];
}

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

/* skiff_rma_atomic_elem's commonest cases inline, with the very same instructions (so an element is
 * never updated two ways): 8 bytes, no compare, MPI_NO_OP (a load), MPI_REPLACE (an exchange) or integer
 * MPI_SUM (a fetch-add); the flag and counter of a notification or a work queue. 1 when done, 0 for
 * anything else (nothing done). */
static inline int skiff_rma_atomic8_quick(void *addr, int cls, MPI_Op op, const void *in, void *old)
{
    uint64_t *p = addr, v = 0, o;
    if (op == MPI_NO_OP) {
        o = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    } else if (op == MPI_REPLACE) {
        memcpy(&v, in, sizeof v);
        o = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
    } else if (op == MPI_SUM && cls == SKIFF_ATOMIC_INT) {
        memcpy(&v, in, sizeof v);
        o = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
    } else {
        return 0;
    }
    if (old)
        memcpy(old, &o, sizeof o);
    return 1;
}

#endif
