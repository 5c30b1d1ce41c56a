/* external32 conversion (see datatype_external.h). Integers are cut to, or sign- or zero-extended
 * from, the external size; floating types keep their size and only change byte order, except a
 * long double that is not binary128 here, which goes through _Float128. */
#include "core/datatype_external.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

enum kind { NONE, UNSIGNED, SIGNED, LDOUBLE };

/* One basic type in external32: ncomp components (2 for complex types) of size bytes each. */
struct ext {
    uint8_t size, ncomp, kind;
};

#define E(h, sz, n, k) [(h) - 0x200] = {sz, n, k}

/* By ABI handle value, from the standard's external32 table. Types absent (size 0) have no form. */
static const struct ext table[0x100] = {
    E(0x201, 8, 1, SIGNED),   /* MPI_AINT */
    E(0x202, 8, 1, SIGNED),   /* MPI_COUNT */
    E(0x203, 8, 1, SIGNED),   /* MPI_OFFSET */
    E(0x207, 1, 1, UNSIGNED), /* MPI_PACKED */
    E(0x208, 2, 1, SIGNED),   /* MPI_SHORT */
    E(0x209, 4, 1, SIGNED),   /* MPI_INT */
    E(0x20a, 4, 1, SIGNED),   /* MPI_LONG: 4 bytes in external32, whatever a long is here */
    E(0x20b, 8, 1, SIGNED),   /* MPI_LONG_LONG */
    E(0x20c, 2, 1, UNSIGNED), /* MPI_UNSIGNED_SHORT */
    E(0x20d, 4, 1, UNSIGNED), /* MPI_UNSIGNED */
    E(0x20e, 4, 1, UNSIGNED), /* MPI_UNSIGNED_LONG */
    E(0x20f, 8, 1, UNSIGNED), /* MPI_UNSIGNED_LONG_LONG */
    E(0x210, 4, 1, UNSIGNED), /* MPI_FLOAT */
    E(0x212, 4, 2, UNSIGNED), /* MPI_C_FLOAT_COMPLEX */
    E(0x213, 4, 2, UNSIGNED), /* MPI_CXX_FLOAT_COMPLEX */
    E(0x214, 8, 1, UNSIGNED), /* MPI_DOUBLE */
    E(0x216, 8, 2, UNSIGNED), /* MPI_C_DOUBLE_COMPLEX */
    E(0x217, 8, 2, UNSIGNED), /* MPI_CXX_DOUBLE_COMPLEX */
    E(0x218, 4, 1, SIGNED),   /* MPI_LOGICAL */
    E(0x219, 4, 1, SIGNED),   /* MPI_INTEGER */
    E(0x21a, 4, 1, UNSIGNED), /* MPI_REAL */
    E(0x21b, 4, 2, UNSIGNED), /* MPI_COMPLEX */
    E(0x21c, 8, 1, UNSIGNED), /* MPI_DOUBLE_PRECISION */
    E(0x21d, 8, 2, UNSIGNED), /* MPI_DOUBLE_COMPLEX */
    E(0x21e, 1, 1, UNSIGNED), /* MPI_CHARACTER */
    E(0x220, 16, 1, LDOUBLE), /* MPI_LONG_DOUBLE */
    E(0x224, 16, 2, LDOUBLE), /* MPI_C_LONG_DOUBLE_COMPLEX */
    E(0x225, 16, 2, LDOUBLE), /* MPI_CXX_LONG_DOUBLE_COMPLEX */
    E(0x238, 1, 1, UNSIGNED), /* MPI_C_BOOL */
    E(0x239, 1, 1, UNSIGNED), /* MPI_CXX_BOOL */
    E(0x23c, 2, 1, UNSIGNED), /* MPI_WCHAR: 2 bytes in external32 (UTF-16 code units) */
    E(0x240, 1, 1, SIGNED),   /* MPI_INT8_T */
    E(0x241, 1, 1, UNSIGNED), /* MPI_UINT8_T */
    E(0x243, 1, 1, SIGNED),   /* MPI_CHAR */
    E(0x244, 1, 1, SIGNED),   /* MPI_SIGNED_CHAR */
    E(0x245, 1, 1, UNSIGNED), /* MPI_UNSIGNED_CHAR */
    E(0x247, 1, 1, UNSIGNED), /* MPI_BYTE */
    E(0x248, 2, 1, SIGNED),   /* MPI_INT16_T */
    E(0x249, 2, 1, UNSIGNED), /* MPI_UINT16_T */
    E(0x250, 4, 1, SIGNED),   /* MPI_INT32_T */
    E(0x251, 4, 1, UNSIGNED), /* MPI_UINT32_T */
    E(0x258, 8, 1, SIGNED),   /* MPI_INT64_T */
    E(0x259, 8, 1, UNSIGNED), /* MPI_UINT64_T */
    E(0x2c0, 1, 1, SIGNED),   /* MPI_LOGICAL1 */
    E(0x2c1, 1, 1, SIGNED),   /* MPI_INTEGER1 */
    E(0x2c8, 2, 1, SIGNED),   /* MPI_LOGICAL2 */
    E(0x2c9, 2, 1, SIGNED),   /* MPI_INTEGER2 */
    E(0x2d0, 4, 1, SIGNED),   /* MPI_LOGICAL4 */
    E(0x2d1, 4, 1, SIGNED),   /* MPI_INTEGER4 */
    E(0x2d2, 4, 1, UNSIGNED), /* MPI_REAL4 */
    E(0x2d8, 8, 1, SIGNED),   /* MPI_LOGICAL8 */
    E(0x2d9, 8, 1, SIGNED),   /* MPI_INTEGER8 */
    E(0x2da, 8, 1, UNSIGNED), /* MPI_REAL8 */
    E(0x2db, 4, 2, UNSIGNED), /* MPI_COMPLEX8 */
    E(0x2e0, 16, 1, SIGNED),  /* MPI_LOGICAL16 */
    E(0x2e1, 16, 1, SIGNED),  /* MPI_INTEGER16 */
    E(0x2e2, 16, 1, UNSIGNED), /* MPI_REAL16: binary128 already */
    E(0x2e3, 8, 2, UNSIGNED), /* MPI_COMPLEX16 */
    E(0x2eb, 16, 2, UNSIGNED), /* MPI_COMPLEX32 */
};

/* A long double that is binary128 already only changes byte order; else it goes through _Float128. */
#if LDBL_MANT_DIG == 113
#define LD_NATIVE 1
#elif defined(__FLT128_MAX__)
#define LD_NATIVE 0
#define LD_CONVERT 1
#else
#define LD_NATIVE 0
#endif

static int little_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

static struct ext ext_of(MPI_Datatype dt)
{
    uintptr_t h = (uintptr_t)dt;
    struct ext e = h - 0x200 < 0x100 ? table[h - 0x200] : (struct ext){0, 0, NONE};
#if !LD_NATIVE && !defined(LD_CONVERT)
    if (e.kind == LDOUBLE)
        e.size = 0; /* no binary128 in this compiler: no external form */
#endif
    return e;
}

/* Byte i of significance (0: least) of an n-byte native integer. */
static size_t idx(size_t sig, size_t n, int le)
{
    return le ? sig : n - 1 - sig;
}

/* An integer (or same-sized float) of n native bytes as m big-endian bytes. */
static void int_out(unsigned char *o, const unsigned char *p, size_t n, size_t m, int sign, int le)
{
    unsigned char fill = sign && (p[idx(n - 1, n, le)] & 0x80) ? 0xff : 0;
    for (size_t i = 0; i < m; i++) {
        size_t sig = m - 1 - i;
        o[i] = sig < n ? p[idx(sig, n, le)] : fill;
    }
}

static void int_in(unsigned char *p, const unsigned char *o, size_t n, size_t m, int sign, int le)
{
    unsigned char fill = sign && (o[0] & 0x80) ? 0xff : 0;
    for (size_t sig = 0; sig < n; sig++)
        p[idx(sig, n, le)] = sig < m ? o[m - 1 - sig] : fill;
}

static void ld_out(unsigned char *o, const unsigned char *p, int le)
{
#ifdef LD_CONVERT
    long double v;
    memcpy(&v, p, sizeof v);
    _Float128 q = (_Float128)v;
    int_out(o, (const unsigned char *)&q, 16, 16, 0, le);
#else
    int_out(o, p, 16, 16, 0, le);
#endif
}

static void ld_in(unsigned char *p, const unsigned char *o, int le)
{
#ifdef LD_CONVERT
    _Float128 q;
    int_in((unsigned char *)&q, o, 16, 16, 0, le);
    long double v = (long double)q;
    memcpy(p, &v, sizeof v);
#else
    int_in(p, o, 16, 16, 0, le);
#endif
}

int skiff_external_size(const struct skiff_type *t, size_t count, size_t *bytes)
{
    size_t one = 0;
    for (size_t i = 0; i < t->nruns; i++) {
        struct ext e = ext_of(t->runs[i].type);
        if (e.size == 0)
            return skiff_err(MPI_ERR_TYPE, "the datatype holds a basic type (handle %#lx) that has no external32 "
                             "form in this build", (unsigned long)(uintptr_t)t->runs[i].type);
        one += t->runs[i].count * e.ncomp * e.size;
    }
    if (one && count > SIZE_MAX / 2 / one)
        return skiff_err(MPI_ERR_ARG, "%zu elements of %zu external32 bytes exceed an address", count, one);
    *bytes = one * count;
    return MPI_SUCCESS;
}

/* Walks count elements' runs over a native packed stream and an external one, either way. */
static void convert(unsigned char *nat, unsigned char *ext, size_t count, const struct skiff_type *t, int out)
{
    int le = little_endian();
    for (size_t k = 0; k < count; k++)
        for (size_t i = 0; i < t->nruns; i++) {
            const struct skiff_run *r = &t->runs[i];
            struct ext e = ext_of(r->type);
            size_t n = r->size / e.ncomp, comps = r->count * e.ncomp;
            for (size_t j = 0; j < comps; j++, nat += n, ext += e.size) {
                if (e.kind == LDOUBLE)
                    out ? ld_out(ext, nat, le) : ld_in(nat, ext, le);
                else
                    out ? int_out(ext, nat, n, e.size, e.kind == SIGNED, le)
                        : int_in(nat, ext, n, e.size, e.kind == SIGNED, le);
            }
        }
}

static unsigned char *scratch(size_t bytes, int *rc)
{
    unsigned char *p = malloc(bytes ? bytes : 1);
    *rc = p ? MPI_SUCCESS : skiff_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes of external32 staging", bytes);
    return p;
}

int skiff_external_pack(const void *buf, size_t count, const struct skiff_type *t, void *out)
{
    int rc = MPI_SUCCESS;
    unsigned char *nat = NULL;
    if (t->contiguous)
        nat = skiff_type_data(buf, t);
    else if ((nat = scratch(skiff_type_packed_size(t, count), &rc)) != NULL)
        skiff_type_pack(buf, count, t, nat);
    if (rc)
        return rc;
    convert(nat, out, count, t, 1);
    if (!t->contiguous)
        free(nat);
    return MPI_SUCCESS;
}

int skiff_external_unpack(const void *in, void *buf, size_t count, const struct skiff_type *t)
{
    int rc = MPI_SUCCESS;
    size_t bytes = skiff_type_packed_size(t, count);
    unsigned char *nat = t->contiguous ? skiff_type_data(buf, t) : scratch(bytes, &rc);
    if (rc)
        return rc;
    convert(nat, (unsigned char *)(uintptr_t)in, count, t, 0);
    if (!t->contiguous) {
        skiff_type_unpack(nat, bytes, buf, count, t);
        free(nat);
    }
    return MPI_SUCCESS;
}
