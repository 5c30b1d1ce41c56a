#include "core/op.h"

#include <complex.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>

#include "core/datatype.h"
#include "core/error.h"
#include "core/objpool.h"
#include "util/arch.h"
#include "util/refcount.h"

/* Types by the ops they admit (MPI-4.1 section 6.9.2). X(handle, C type). */
#define INT_TYPES(X)                                                                                    \
    X(MPI_INT, int) X(MPI_LONG, long) X(MPI_SHORT, short) X(MPI_UNSIGNED_SHORT, unsigned short)        \
    X(MPI_UNSIGNED, unsigned) X(MPI_UNSIGNED_LONG, unsigned long) X(MPI_LONG_LONG, long long)           \
    X(MPI_UNSIGNED_LONG_LONG, unsigned long long) X(MPI_SIGNED_CHAR, signed char)                       \
    X(MPI_UNSIGNED_CHAR, unsigned char) X(MPI_CHAR, char) X(MPI_WCHAR, wchar_t) X(MPI_INT8_T, int8_t)    \
    X(MPI_INT16_T, int16_t) X(MPI_INT32_T, int32_t) X(MPI_INT64_T, int64_t) X(MPI_UINT8_T, uint8_t)      \
    X(MPI_UINT16_T, uint16_t) X(MPI_UINT32_T, uint32_t) X(MPI_UINT64_T, uint64_t) X(MPI_AINT, intptr_t) \
    X(MPI_OFFSET, int64_t) X(MPI_COUNT, int64_t)
/* The Fortran kinds, with the C types of the datatype table (core/datatype.c). The 16-byte kinds exist
 * where the compiler has __int128 and _Float128. */
#if defined(__SIZEOF_INT128__)
#define INTEGER16(X) X(MPI_INTEGER16, __int128)
#define LOGICAL16(X) X(MPI_LOGICAL16, __int128)
#else
#define INTEGER16(X)
#define LOGICAL16(X)
#endif
#if defined(__FLT128_MAX__)
#define REAL16(X) X(MPI_REAL16, _Float128)
#define COMPLEX32(X) X(MPI_COMPLEX32, _Complex _Float128)
#else
#define REAL16(X)
#define COMPLEX32(X)
#endif
#define FORTRAN_INT_TYPES(X)                                                                            \
    X(MPI_INTEGER, int) X(MPI_INTEGER1, int8_t) X(MPI_INTEGER2, int16_t) X(MPI_INTEGER4, int32_t)        \
    X(MPI_INTEGER8, int64_t) INTEGER16(X)
#define FLOAT_TYPES(X)                                                                                  \
    X(MPI_FLOAT, float) X(MPI_DOUBLE, double) X(MPI_LONG_DOUBLE, long double) X(MPI_REAL, float)         \
    X(MPI_DOUBLE_PRECISION, double) X(MPI_REAL4, float) X(MPI_REAL8, double) REAL16(X)
#define COMPLEX_TYPES(X)                                                                                \
    X(MPI_C_FLOAT_COMPLEX, float _Complex) X(MPI_C_DOUBLE_COMPLEX, double _Complex)                     \
    X(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex) X(MPI_CXX_FLOAT_COMPLEX, float _Complex)         \
    X(MPI_CXX_DOUBLE_COMPLEX, double _Complex) X(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex)      \
    X(MPI_COMPLEX, float _Complex) X(MPI_DOUBLE_COMPLEX, double _Complex) X(MPI_COMPLEX8, float _Complex) \
    X(MPI_COMPLEX16, double _Complex) COMPLEX32(X)
/* Fortran LOGICAL is an integer, .true. = 1 with gfortran; the kernels give 1 for true. */
#define LOGICAL_TYPES(X)                                                                                \
    X(MPI_C_BOOL, bool) X(MPI_CXX_BOOL, bool) X(MPI_LOGICAL, int) X(MPI_LOGICAL1, int8_t)              \
    X(MPI_LOGICAL2, int16_t) X(MPI_LOGICAL4, int32_t) X(MPI_LOGICAL8, int64_t) LOGICAL16(X)

struct pair_float { float v; int i; };
struct pair_double { double v; int i; };
struct pair_long { long v; int i; };
struct pair_int { int v; int i; };
struct pair_short { short v; int i; };
struct pair_long_double { long double v; int i; };
/* Fortran's pairs hold the index in the value's type. */
struct pair_real { float v, i; };
struct pair_double_precision { double v, i; };
#define PAIR_TYPES(X)                                                                                   \
    X(MPI_FLOAT_INT, struct pair_float) X(MPI_DOUBLE_INT, struct pair_double)                           \
    X(MPI_LONG_INT, struct pair_long) X(MPI_2INT, struct pair_int) X(MPI_SHORT_INT, struct pair_short)  \
    X(MPI_LONG_DOUBLE_INT, struct pair_long_double) X(MPI_2REAL, struct pair_real)                      \
    X(MPI_2DOUBLE_PRECISION, struct pair_double_precision) X(MPI_2INTEGER, struct pair_int)

#define LOOP(T, EXPR)                                                                                   \
    do {                                                                                                \
        const T *a_ = in;                                                                               \
        T *b_ = inout;                                                                                  \
        for (size_t i_ = 0; i_ < n; i_++) {                                                             \
            T a = a_[i_], b = b_[i_];                                                                   \
            b_[i_] = (T)(EXPR);                                                                         \
        }                                                                                               \
    } while (0)

/* Each returns 1 if it handled (op, dt). */
static int arith(MPI_Op op, const void *in, void *inout, size_t n, MPI_Datatype dt)
{
#define X(H, T)                                                                                         \
    if (dt == H) {                                                                                      \
        if (op == MPI_SUM) LOOP(T, a + b);                                                              \
        else if (op == MPI_PROD) LOOP(T, a * b);                                                        \
        else if (op == MPI_MAX) LOOP(T, a > b ? a : b);                                                 \
        else if (op == MPI_MIN) LOOP(T, a < b ? a : b);                                                 \
        else return 0;                                                                                  \
        return 1;                                                                                       \
    }
    INT_TYPES(X) FORTRAN_INT_TYPES(X) FLOAT_TYPES(X)
#undef X
    return 0;
}

static int logical(MPI_Op op, const void *in, void *inout, size_t n, MPI_Datatype dt)
{
#define X(H, T)                                                                                         \
    if (dt == H) {                                                                                      \
        if (op == MPI_LAND) LOOP(T, a && b);                                                            \
        else if (op == MPI_LOR) LOOP(T, a || b);                                                        \
        else if (op == MPI_LXOR) LOOP(T, !a != !b);                                                     \
        else return 0;                                                                                  \
        return 1;                                                                                       \
    }
    INT_TYPES(X) LOGICAL_TYPES(X)
#undef X
    return 0;
}

static int bitwise(MPI_Op op, const void *in, void *inout, size_t n, MPI_Datatype dt)
{
#define X(H, T)                                                                                         \
    if (dt == H) {                                                                                      \
        if (op == MPI_BAND) LOOP(T, a & b);                                                             \
        else if (op == MPI_BOR) LOOP(T, a | b);                                                         \
        else if (op == MPI_BXOR) LOOP(T, a ^ b);                                                        \
        else return 0;                                                                                  \
        return 1;                                                                                       \
    }
    INT_TYPES(X) FORTRAN_INT_TYPES(X) X(MPI_BYTE, unsigned char)
#undef X
    return 0;
}

static int complex_ops(MPI_Op op, const void *in, void *inout, size_t n, MPI_Datatype dt)
{
#define X(H, T)                                                                                         \
    if (dt == H) {                                                                                      \
        if (op == MPI_SUM) LOOP(T, a + b);                                                              \
        else if (op == MPI_PROD) LOOP(T, a * b);                                                        \
        else return 0;                                                                                  \
        return 1;                                                                                       \
    }
    COMPLEX_TYPES(X)
#undef X
    return 0;
}

/* MAXLOC/MINLOC: the extreme value, and on a tie the smaller index. */
static int location(MPI_Op op, const void *in, void *inout, size_t n, MPI_Datatype dt)
{
    if (op != MPI_MAXLOC && op != MPI_MINLOC)
        return 0;
    int want_max = op == MPI_MAXLOC;
#define X(H, T)                                                                                         \
    if (dt == H) {                                                                                      \
        const T *a = in;                                                                                \
        T *b = inout;                                                                                   \
        for (size_t i = 0; i < n; i++) {                                                                \
            int better = want_max ? a[i].v > b[i].v : a[i].v < b[i].v;                                  \
            if (better || (a[i].v == b[i].v && a[i].i < b[i].i))                                        \
                b[i] = a[i];                                                                            \
        }                                                                                               \
        return 1;                                                                                       \
    }
    PAIR_TYPES(X)
#undef X
    return 0;
}

static int for_reductions(MPI_Op op)
{
    return op == MPI_SUM || op == MPI_PROD || op == MPI_MAX || op == MPI_MIN || op == MPI_LAND ||
           op == MPI_LOR || op == MPI_LXOR || op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR ||
           op == MPI_MAXLOC || op == MPI_MINLOC;
}

/* Predefined, but defined for one-sided accumulates only. */
static int for_accumulates(MPI_Op op)
{
    return op == MPI_REPLACE || op == MPI_NO_OP;
}

static struct skiff_objpool pool = SKIFF_OBJPOOL_INIT(struct skiff_op);

/* The object behind a user op handle, freed by the user or not. */
static struct skiff_op *op_object(MPI_Op op)
{
    /* Predefined handles are small integers; anything else is a pointer into the pool. */
    if ((uintptr_t)op < 0x1000 || (uintptr_t)op % sizeof(void *))
        return NULL;
    struct skiff_op *o = (struct skiff_op *)(void *)op;
    return o->magic == SKIFF_OP_MAGIC ? o : NULL;
}

struct skiff_op *skiff_op_user(MPI_Op op)
{
    struct skiff_op *o = op_object(op);
    return o && !o->freed ? o : NULL;
}

int skiff_op_check_valid(MPI_Op op)
{
    if (SKIFF_LIKELY(for_reductions(op) || for_accumulates(op) || skiff_op_user(op)))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_OP, "invalid op %s",
                     op == MPI_OP_NULL ? "(MPI_OP_NULL)" : "(not an op, or already freed)");
}

struct skiff_op *skiff_op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute)
{
    struct skiff_op *o = skiff_objpool_get(&pool);
    if (o)
        *o = (struct skiff_op){.magic = SKIFF_OP_MAGIC, .fn = fn, .fn_c = fn_c, .commute = commute != 0, .refs = 1};
    return o;
}

static void unref(struct skiff_op *o)
{
    if (skiff_ref_dec(&o->refs))
        skiff_objpool_put(&pool, o); /* zeroes the magic */
}

void skiff_op_free(struct skiff_op *o)
{
    o->freed = 1;
    unref(o);
}

int skiff_op_retain(MPI_Op op)
{
    struct skiff_op *o = op_object(op);
    if (o)
        skiff_ref_inc(&o->refs);
    return o != NULL;
}

void skiff_op_release(MPI_Op op)
{
    struct skiff_op *o = op_object(op);
    if (o)
        unref(o);
}

void skiff_op_finalize(void)
{
    skiff_objpool_destroy(&pool);
}

int skiff_op_commutative(MPI_Op op)
{
    struct skiff_op *u = op_object(op);
    return u ? u->commute : 1;
}

const char *skiff_op_name(MPI_Op op)
{
    static const struct { MPI_Op op; const char *name; } names[] = {
        {MPI_SUM, "MPI_SUM"}, {MPI_PROD, "MPI_PROD"}, {MPI_MAX, "MPI_MAX"}, {MPI_MIN, "MPI_MIN"},
        {MPI_LAND, "MPI_LAND"}, {MPI_LOR, "MPI_LOR"}, {MPI_LXOR, "MPI_LXOR"}, {MPI_BAND, "MPI_BAND"},
        {MPI_BOR, "MPI_BOR"}, {MPI_BXOR, "MPI_BXOR"}, {MPI_MAXLOC, "MPI_MAXLOC"}, {MPI_MINLOC, "MPI_MINLOC"},
        {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"}, {MPI_OP_NULL, "MPI_OP_NULL"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].op == op)
            return names[i].name;
    return skiff_op_user(op) ? "a user op" : "an invalid op";
}

/* Dispatch on a scratch pair of one element: the cheapest way to ask "is (op, dt) defined?". */
static int dispatch(MPI_Op op, const void *in, void *inout, size_t n, MPI_Datatype dt)
{
    return arith(op, in, inout, n, dt) || logical(op, in, inout, n, dt) || bitwise(op, in, inout, n, dt) ||
           complex_ops(op, in, inout, n, dt) || location(op, in, inout, n, dt);
}

/* Why a predefined op is refused for dt, the user's datatype. */
static int undefined_for(MPI_Op op, MPI_Datatype dt)
{
    const struct skiff_type *t = skiff_type_get(dt);
    if (!t || t->predefined)
        return skiff_err(MPI_ERR_OP, "%s is not defined for %s", skiff_op_name(op), t ? t->name : "this datatype");
    if (t->basic == MPI_DATATYPE_NULL)
        return skiff_err(MPI_ERR_OP, "%s is not defined for a derived datatype of mixed basic types (a user-defined "
                                     "op can reduce it)", skiff_op_name(op));
    const struct skiff_type *b = skiff_type_get(t->basic);
    return skiff_err(MPI_ERR_OP, "%s is not defined for %s, the basic type of this derived datatype",
                     skiff_op_name(op), b ? b->name : "the basic type");
}

/* MPI-4.1 6.9.2 names predefined types only, but derived types of one basic type are accepted, as
 * Open MPI does, because programs rely on it (MPI_SUM over MPI_Type_contiguous(2, MPI_DOUBLE)). */
int skiff_op_check(MPI_Op op, MPI_Datatype dt)
{
    int rc = skiff_op_check_valid(op);
    if (SKIFF_UNLIKELY(rc))
        return rc;
    if (SKIFF_UNLIKELY(for_accumulates(op)))
        return skiff_err(MPI_ERR_OP, "%s is only for one-sided accumulates, not for reductions", skiff_op_name(op));
    if (skiff_op_user(op) || SKIFF_LIKELY(dispatch(op, NULL, NULL, 0, dt)))
        return MPI_SUCCESS;
    const struct skiff_type *t = skiff_type_get(dt);
    if (t && !t->predefined && t->basic != MPI_DATATYPE_NULL && dispatch(op, NULL, NULL, 0, t->basic))
        return MPI_SUCCESS;
    return undefined_for(op, dt);
}

void skiff_op_apply(MPI_Op op, const void *in, void *inout, size_t count, MPI_Datatype dt)
{
    struct skiff_op *u = op_object(op); /* a pending reduction may outlive the user's handle */
    if (u && u->fn_c) {
        MPI_Count len = (MPI_Count)count;
        u->fn_c((void *)in, inout, &len, &dt);
        return;
    }
    if (u) {
        /* The large-count calls may reduce more elements than the function's int length holds: it is
         * called on pieces of at most INT_MAX elements (elements are independent of one another). */
        const struct skiff_type *t = skiff_type_get(dt);
        size_t step = t ? (size_t)t->extent : 0;
        do {
            int len = count > INT_MAX ? INT_MAX : (int)count;
            u->fn((void *)in, inout, &len, &dt);
            in = (const char *)in + step * (size_t)len;
            inout = (char *)inout + step * (size_t)len;
            count -= (size_t)len;
        } while (count);
        return;
    }
    dispatch(op, in, inout, count, dt);
}
