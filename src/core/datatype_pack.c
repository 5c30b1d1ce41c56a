/* Packing: gathering the blocks of count elements into one contiguous stream, and scattering back. */
#include <string.h>

#include "core/datatype.h"

/* Address arithmetic on integers: buf may be MPI_BOTTOM (NULL) with absolute displacements, and a
 * negative offset or extent wraps round to the address below. */
static inline char *at(uintptr_t base, ptrdiff_t off)
{
    return (char *)(base + (uintptr_t)off);
}

/* Blocks of one basic element are the common case (a vector of doubles): copy those inline. */
static inline void copy(void *dst, const void *src, size_t n)
{
    switch (n) {
    case 4:
        memcpy(dst, src, 4);
        break;
    case 8:
        memcpy(dst, src, 8);
        break;
    case 16:
        memcpy(dst, src, 16);
        break;
    default:
        memcpy(dst, src, n);
    }
}

size_t skiff_type_pack(const void *buf, size_t count, const struct skiff_type *t, void *out)
{
    size_t total = count * t->size;
    if (t->contiguous) {
        if (total)
            memcpy(out, at((uintptr_t)buf, t->true_lb), total);
        return total;
    }
    char *o = out;
    uintptr_t base = (uintptr_t)buf;
    for (size_t i = 0; i < count; i++, base += (uintptr_t)t->extent) {
        for (size_t j = 0; j < t->nblocks; j++) {
            copy(o, at(base, t->blocks[j].off), t->blocks[j].len);
            o += t->blocks[j].len;
        }
    }
    return total;
}

size_t skiff_type_unpack(const void *in, size_t bytes, void *buf, size_t count, const struct skiff_type *t)
{
    size_t total = count * t->size;
    if (bytes > total)
        bytes = total;
    if (t->contiguous) {
        if (bytes)
            memcpy(at((uintptr_t)buf, t->true_lb), in, bytes);
        return bytes;
    }
    const char *p = in;
    size_t left = bytes;
    uintptr_t base = (uintptr_t)buf;
    for (; left; base += (uintptr_t)t->extent) {
        for (size_t j = 0; j < t->nblocks && left; j++) {
            size_t n = t->blocks[j].len < left ? t->blocks[j].len : left;
            copy(at(base, t->blocks[j].off), p, n);
            p += n;
            left -= n;
        }
    }
    return bytes;
}

int skiff_type_reach(const struct skiff_type *t, size_t count, ptrdiff_t *lo, ptrdiff_t *hi)
{
    ptrdiff_t span, l, h;
    if (count - 1 > PTRDIFF_MAX || __builtin_mul_overflow((ptrdiff_t)(count - 1), t->extent, &span) ||
        __builtin_add_overflow(t->true_lb, span < 0 ? span : 0, &l) ||
        __builtin_add_overflow(t->true_lb + (ptrdiff_t)t->true_extent, span > 0 ? span : 0, &h))
        return 0;
    *lo = l;
    *hi = h;
    return 1;
}
