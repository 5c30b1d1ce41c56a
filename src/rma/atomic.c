/* CPU atomics for accumulates on the direct path.
 *
 * Why atomics and the lock word never meet on one element: MPI guarantees atomicity only between
 * accumulates on the same location with the same basic datatype (MPI-4.1 section 12.7.1; the
 * accumulate_ops hint can only narrow it to the same op or MPI_NO_OP). Which way an element is updated
 * depends on its basic type and its address alone, never on the op, the count or the datatypes' layout:
 * every op the standard allows on a type of class INT or FLOAT is done with atomics (fetch_add and
 * friends, else a compare-and-swap loop around the op's kernel), and an element that is not naturally
 * aligned always takes the lock word. Two accumulates that the standard requires to be atomic against
 * each other therefore update each shared element the same way. The lock-word path keeps the types that
 * have no lock-free form (pairs, complex, long double, 16-byte kinds) and misaligned elements; it too
 * works element by element as far as atomicity is concerned, so per-element atomicity is all either
 * path gives and all the standard asks. */
#include "rma/atomic.h"

#include <string.h>

#include "core/op.h"

static const MPI_Datatype int_types[] = {
    MPI_INT, MPI_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
    MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_CHAR, MPI_WCHAR, MPI_INT8_T, MPI_INT16_T,
    MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T, MPI_AINT, MPI_OFFSET,
    MPI_COUNT, MPI_BYTE, MPI_C_BOOL, MPI_CXX_BOOL, MPI_INTEGER, MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4,
    MPI_INTEGER8, MPI_LOGICAL, MPI_LOGICAL1, MPI_LOGICAL2, MPI_LOGICAL4, MPI_LOGICAL8,
};
static const MPI_Datatype float_types[] = {
    MPI_FLOAT, MPI_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_REAL4, MPI_REAL8,
};

/* The standard ABI numbers the predefined datatypes from 0x200 to 0x3ff: the class of each, looked up
 * by number on every atomic operation instead of searching the lists above. Filled when the library is
 * loaded, before any thread can ask. */
unsigned char skiff_rma_atomic_classes[SKIFF_ABI_TYPE_COUNT];

__attribute__((constructor)) static void fill_classes(void)
{
    for (size_t i = 0; i < sizeof int_types / sizeof *int_types; i++)
        skiff_rma_atomic_classes[(uintptr_t)int_types[i] - SKIFF_ABI_TYPE_FIRST] = SKIFF_ATOMIC_INT;
    for (size_t i = 0; i < sizeof float_types / sizeof *float_types; i++)
        skiff_rma_atomic_classes[(uintptr_t)float_types[i] - SKIFF_ABI_TYPE_FIRST] = SKIFF_ATOMIC_FLOAT;
}

/* The element as the unsigned integer of its size: the bits are what the CPU compares and swaps; the
 * op's kernel (skiff_op_apply) sees them through memory as the real type. Integer SUM and the bitwise
 * ops have single instructions (two's complement addition is the same for signed and unsigned). */
#define ELEM(T)                                                                                             \
    do {                                                                                                    \
        T *p = addr, v = 0, o;                                                                              \
        if (in)                                                                                             \
            memcpy(&v, in, sizeof v);                                                                       \
        if (cmp) {                                                                                          \
            memcpy(&o, cmp, sizeof o);                                                                      \
            __atomic_compare_exchange_n(p, &o, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                   \
        } else if (op == MPI_NO_OP) {                                                                       \
            o = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                                       \
        } else if (op == MPI_REPLACE) {                                                                     \
            o = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                                                \
        } else if (cls == SKIFF_ATOMIC_INT && op == MPI_SUM) {                                              \
            o = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                                                 \
        } else if (cls == SKIFF_ATOMIC_INT && op == MPI_BAND) {                                             \
            o = __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);                                                 \
        } else if (cls == SKIFF_ATOMIC_INT && op == MPI_BOR) {                                              \
            o = __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);                                                  \
        } else if (cls == SKIFF_ATOMIC_INT && op == MPI_BXOR) {                                             \
            o = __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);                                                 \
        } else {                                                                                            \
            _Alignas(8) unsigned char a[8], b[8];                                                           \
            T n;                                                                                            \
            memcpy(a, &v, sizeof v);                                                                        \
            o = __atomic_load_n(p, __ATOMIC_RELAXED);                                                       \
            do {                                                                                            \
                memcpy(b, &o, sizeof o);                                                                    \
                skiff_op_apply(op, a, b, 1, basic);                                                         \
                memcpy(&n, b, sizeof n);                                                                    \
            } while (!__atomic_compare_exchange_n(p, &o, n, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));        \
        }                                                                                                   \
        if (old)                                                                                            \
            memcpy(old, &o, sizeof o);                                                                      \
    } while (0)

void skiff_rma_atomic_elem(void *addr, size_t size, int cls, MPI_Op op, MPI_Datatype basic, const void *in,
                           const void *cmp, void *old)
{
    switch (size) {
    case 1:
        ELEM(uint8_t);
        break;
    case 2:
        ELEM(uint16_t);
        break;
    case 4:
        ELEM(uint32_t);
        break;
    default:
        ELEM(uint64_t);
        break;
    }
}
