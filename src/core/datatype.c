/* Datatype handles and lifetimes: the predefined table, derived objects, references. */
#include "core/datatype.h"
#include "core/type_extra.h"

#include <complex.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <wchar.h>
#include "util/refcount.h"

#define PREDEF_BASE 0x200
#define PREDEF_COUNT 0x100
/* Below this no heap object lives: small values are predefined handles of other kinds, or garbage. */
#define MIN_HEAP_HANDLE 0x10000

/* Layouts of the pair types as C lays out the structs MPI defines them by. */
struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct short_int { short v; int i; };
struct long_double_int { long double v; int i; };

#define COMMON(h, nm) .magic = SKIFF_TYPE_MAGIC, .predefined = 1, .committed = 1, .refs = 1, \
    .basic = (MPI_Datatype)(h), .nbasic = 1, .name = nm

#define BASIC(h, type, nm)                                                                             \
    [(h) - PREDEF_BASE] = {COMMON(h, nm), .size = sizeof(type), .extent = sizeof(type),                 \
                           .true_extent = sizeof(type), .contiguous = 1, .nelems = 1,                  \
                           .align = alignof(type), .nblocks = 1,                                       \
                           .blocks = (const struct skiff_block[]){{0, sizeof(type)}}, .nruns = 1,       \
                           .runs = (const struct skiff_run[]){{sizeof(type), 1, (MPI_Datatype)(h)}}}

/* The predefined types a pair's value and index are (its runs: the type signature). */
#define PAIR_VALUE(h)                                                                                  \
    ((h) == 0x228 ? MPI_FLOAT : (h) == 0x229 ? MPI_DOUBLE : (h) == 0x22a ? MPI_LONG                    \
     : (h) == 0x22c ? MPI_SHORT : MPI_LONG_DOUBLE)
#define TWIN_VALUE(h) ((h) == 0x230 ? MPI_REAL : (h) == 0x231 ? MPI_DOUBLE_PRECISION : (h) == 0x232 ? MPI_INTEGER : MPI_INT)

/* A pair is its value then an int, wherever the struct puts it: one block when they touch, else two.
 * Its size counts only the data; its extent includes the struct's padding. */
#define GLUED(st, first) (offsetof(st, i) == sizeof(first))
#define PAIR(h, st, first, nm)                                                                         \
    [(h) - PREDEF_BASE] = {                                                                            \
        COMMON(h, nm), .size = sizeof(first) + sizeof(int), .extent = sizeof(st),                       \
        .true_extent = offsetof(st, i) + sizeof(int),                                                   \
        .contiguous = sizeof(first) + sizeof(int) == sizeof(st), .nelems = 2, .align = alignof(st),      \
        .nblocks = GLUED(st, first) ? 1 : 2,                                                            \
        .blocks = (const struct skiff_block[]){{0, GLUED(st, first) ? sizeof(first) + sizeof(int)      \
                                                                     : sizeof(first)},                 \
                                               {offsetof(st, i), sizeof(int)}},                        \
        .nruns = 2,                                                                                    \
        .runs = (const struct skiff_run[]){{sizeof(first), 1, PAIR_VALUE(h)}, {sizeof(int), 1, MPI_INT}}}

/* A pair of one type (MPI_2INT and the Fortran pairs, whose index has the value's type): no padding. */
#define TWIN(h, type, nm)                                                                              \
    [(h) - PREDEF_BASE] = {COMMON(h, nm), .size = 2 * sizeof(type), .extent = 2 * sizeof(type),         \
                           .true_extent = 2 * sizeof(type), .contiguous = 1, .nelems = 2,              \
                           .align = alignof(type), .nblocks = 1,                                       \
                           .blocks = (const struct skiff_block[]){{0, 2 * sizeof(type)}}, .nruns = 1,   \
                           .runs = (const struct skiff_run[]){{sizeof(type), 2, TWIN_VALUE(h)}}}

/* Fortran types as gfortran lays them out on this platform: INTEGER, REAL and LOGICAL are 4 bytes,
 * LOGICAL is an integer with .true. = 1, COMPLEX is two REALs. REAL(16) is IEEE binary128 (_Float128),
 * INTEGER(16) and LOGICAL(16) are 128-bit integers; where the compiler lacks them, so does skiff. No
 * Fortran compiler here has REAL(2), so MPI_REAL2 and MPI_COMPLEX4 are left out, as MPICH and Open MPI
 * leave them out (see skiff_type_unsupported). */
#if defined(__SIZEOF_INT128__)
#define INT128_TYPES(X) X(0x2e0, __int128, "MPI_LOGICAL16") X(0x2e1, __int128, "MPI_INTEGER16")
#else
#define INT128_TYPES(X)
#endif
#if defined(__FLT128_MAX__)
#define FLOAT128_TYPES(X) X(0x2e2, _Float128, "MPI_REAL16") X(0x2eb, _Complex _Float128, "MPI_COMPLEX32")
#else
#define FLOAT128_TYPES(X)
#endif
#define BASIC_X(h, type, nm) BASIC(h, type, nm),

static const struct skiff_type predefined[PREDEF_COUNT] = {
    BASIC(0x201, intptr_t, "MPI_AINT"),
    BASIC(0x202, int64_t, "MPI_COUNT"),
    BASIC(0x203, int64_t, "MPI_OFFSET"),
    BASIC(0x207, char, "MPI_PACKED"),
    BASIC(0x208, short, "MPI_SHORT"),
    BASIC(0x209, int, "MPI_INT"),
    BASIC(0x20a, long, "MPI_LONG"),
    BASIC(0x20b, long long, "MPI_LONG_LONG"),
    BASIC(0x20c, unsigned short, "MPI_UNSIGNED_SHORT"),
    BASIC(0x20d, unsigned, "MPI_UNSIGNED"),
    BASIC(0x20e, unsigned long, "MPI_UNSIGNED_LONG"),
    BASIC(0x20f, unsigned long long, "MPI_UNSIGNED_LONG_LONG"),
    BASIC(0x210, float, "MPI_FLOAT"),
    BASIC(0x212, float _Complex, "MPI_C_FLOAT_COMPLEX"),
    BASIC(0x213, float _Complex, "MPI_CXX_FLOAT_COMPLEX"),
    BASIC(0x214, double, "MPI_DOUBLE"),
    BASIC(0x216, double _Complex, "MPI_C_DOUBLE_COMPLEX"),
    BASIC(0x217, double _Complex, "MPI_CXX_DOUBLE_COMPLEX"),
    BASIC(0x218, int, "MPI_LOGICAL"),
    BASIC(0x219, int, "MPI_INTEGER"),
    BASIC(0x21a, float, "MPI_REAL"),
    BASIC(0x21b, float _Complex, "MPI_COMPLEX"),
    BASIC(0x21c, double, "MPI_DOUBLE_PRECISION"),
    BASIC(0x21d, double _Complex, "MPI_DOUBLE_COMPLEX"),
    BASIC(0x21e, char, "MPI_CHARACTER"),
    BASIC(0x220, long double, "MPI_LONG_DOUBLE"),
    BASIC(0x224, long double _Complex, "MPI_C_LONG_DOUBLE_COMPLEX"),
    BASIC(0x225, long double _Complex, "MPI_CXX_LONG_DOUBLE_COMPLEX"),
    PAIR(0x228, struct float_int, float, "MPI_FLOAT_INT"),
    PAIR(0x229, struct double_int, double, "MPI_DOUBLE_INT"),
    PAIR(0x22a, struct long_int, long, "MPI_LONG_INT"),
    TWIN(0x22b, int, "MPI_2INT"),
    PAIR(0x22c, struct short_int, short, "MPI_SHORT_INT"),
    PAIR(0x22d, struct long_double_int, long double, "MPI_LONG_DOUBLE_INT"),
    TWIN(0x230, float, "MPI_2REAL"),
    TWIN(0x231, double, "MPI_2DOUBLE_PRECISION"),
    TWIN(0x232, int, "MPI_2INTEGER"),
    BASIC(0x238, bool, "MPI_C_BOOL"),
    BASIC(0x239, bool, "MPI_CXX_BOOL"),
    BASIC(0x23c, wchar_t, "MPI_WCHAR"),
    BASIC(0x240, int8_t, "MPI_INT8_T"),
    BASIC(0x241, uint8_t, "MPI_UINT8_T"),
    BASIC(0x243, char, "MPI_CHAR"),
    BASIC(0x244, signed char, "MPI_SIGNED_CHAR"),
    BASIC(0x245, unsigned char, "MPI_UNSIGNED_CHAR"),
    BASIC(0x247, unsigned char, "MPI_BYTE"),
    BASIC(0x248, int16_t, "MPI_INT16_T"),
    BASIC(0x249, uint16_t, "MPI_UINT16_T"),
    BASIC(0x250, int32_t, "MPI_INT32_T"),
    BASIC(0x251, uint32_t, "MPI_UINT32_T"),
    BASIC(0x258, int64_t, "MPI_INT64_T"),
    BASIC(0x259, uint64_t, "MPI_UINT64_T"),
    BASIC(0x2c0, int8_t, "MPI_LOGICAL1"),
    BASIC(0x2c1, int8_t, "MPI_INTEGER1"),
    BASIC(0x2c8, int16_t, "MPI_LOGICAL2"),
    BASIC(0x2c9, int16_t, "MPI_INTEGER2"),
    BASIC(0x2d0, int32_t, "MPI_LOGICAL4"),
    BASIC(0x2d1, int32_t, "MPI_INTEGER4"),
    BASIC(0x2d2, float, "MPI_REAL4"),
    BASIC(0x2d8, int64_t, "MPI_LOGICAL8"),
    BASIC(0x2d9, int64_t, "MPI_INTEGER8"),
    BASIC(0x2da, double, "MPI_REAL8"),
    BASIC(0x2db, float _Complex, "MPI_COMPLEX8"),
    BASIC(0x2e3, double _Complex, "MPI_COMPLEX16"),
    INT128_TYPES(BASIC_X) FLOAT128_TYPES(BASIC_X)
};

/* Released objects are kept for reuse, never returned to malloc: a stale handle then still points at
 * a type object (its magic cleared), so using it is caught instead of reading freed memory. */
static struct skiff_type *pool;

const struct skiff_type *skiff_type_get(MPI_Datatype dt)
{
    uintptr_t h = (uintptr_t)dt;
    const struct skiff_type *t;
    if (h - PREDEF_BASE < PREDEF_COUNT)
        t = &predefined[h - PREDEF_BASE];
    else if (h >= MIN_HEAP_HANDLE && h % alignof(struct skiff_type) == 0)
        t = (const struct skiff_type *)(void *)h;
    else
        return NULL;
    return t->magic == SKIFF_TYPE_MAGIC ? t : NULL;
}

/* The optional Fortran kinds: present in the table where this platform has the C type, else refused. */
const char *skiff_type_unsupported(MPI_Datatype dt)
{
    static const struct { uintptr_t h; const char *name; } optional[] = {
        {0x2ca, "MPI_REAL2"},     {0x2d3, "MPI_COMPLEX4"}, {0x2e0, "MPI_LOGICAL16"},
        {0x2e1, "MPI_INTEGER16"}, {0x2e2, "MPI_REAL16"},   {0x2eb, "MPI_COMPLEX32"}};
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
        if ((uintptr_t)dt == optional[i].h && predefined[optional[i].h - PREDEF_BASE].magic != SKIFF_TYPE_MAGIC)
            return optional[i].name;
    return NULL;
}

struct skiff_type *skiff_type_alloc(void)
{
    struct skiff_type *t = pool;
    if (t)
        pool = t->next_free;
    else if (!(t = malloc(sizeof *t)))
        return NULL;
    *t = (struct skiff_type){.magic = SKIFF_TYPE_MAGIC, .refs = 1, .name = ""};
    return t;
}

void skiff_type_release(struct skiff_type *t)
{
    skiff_type_extra_drop(t);
    free((void *)t->blocks);
    free((void *)t->runs);
    *t = (struct skiff_type){.next_free = pool};
    pool = t;
}

/* Only derived types change after creation, and those are heap objects the library owns: casting
 * away the const of the reader's view is sound for them. */
static struct skiff_type *mut(const struct skiff_type *t)
{
    return t->predefined ? NULL : (struct skiff_type *)(uintptr_t)t;
}

void skiff_type_commit(const struct skiff_type *t)
{
    struct skiff_type *m = mut(t);
    if (m)
        m->committed = 1;
}

void skiff_type_ref(const struct skiff_type *t)
{
    struct skiff_type *m = mut(t);
    if (m)
        skiff_ref_inc(&m->refs);
}

void skiff_type_unref(const struct skiff_type *t)
{
    struct skiff_type *m = mut(t);
    if (m && skiff_ref_dec(&m->refs))
        skiff_type_release(m);
}

void skiff_type_free(const struct skiff_type *t)
{
    struct skiff_type *m = mut(t);
    if (!m)
        return;
    m->magic = 0; /* the handle is dead now, even if a pending receive still unpacks with it */
    skiff_type_unref(m);
}

size_t skiff_type_elements(const struct skiff_type *t, size_t bytes)
{
    if (t->size == 0)
        return 0;
    size_t n = bytes / t->size * t->nelems, rest = bytes % t->size;
    for (size_t i = 0; i < t->nruns && rest; i++) {
        const struct skiff_run *r = &t->runs[i];
        size_t whole = rest / r->size < r->count ? rest / r->size : r->count;
        n += whole;
        rest -= whole * r->size;
        if (whole < r->count && rest)
            return SIZE_MAX; /* the data ends inside a basic element */
    }
    return n;
}
