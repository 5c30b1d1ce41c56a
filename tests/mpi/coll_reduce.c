/* coll_reduce — every predefined reduction op on every datatype the standard allows it on, and
 * every reduction collective, against a serial reference each rank computes locally.
 *
 * A table of datatypes (C integer, multi-language, floating, complex, logical, byte, pair types)
 * and a table of ops are crossed; each (op, type) pair the standard allows runs
 *   - MPI_Reduce_local on 37 elements (no communication: every kernel, including its tail),
 *   - MPI_Allreduce (alternately MPI_IN_PLACE), and
 *   - one more collective chosen in rotation: Reduce (root varies, alternately IN_PLACE), Scan,
 *     Exscan, Reduce_scatter_block, Reduce_scatter, Allreduce IN_PLACE.
 * Input values are chosen so every result is exact in every type (no overflow, no rounding):
 * SUM adds small values, PROD multiplies +-1 with one +-2 per element, MAX/MIN spread values over
 * the type's whole range (so a kernel working in a narrower type fails), logical ops mix 0 with
 * nonzero values other than 1, bitwise ops flip sparse bits of a shared pattern, MAXLOC/MINLOC
 * values repeat so ties (lowest index wins) are common.
 *
 * Then four representative pairs (SUM/int, MAX/double, BXOR/byte, MINLOC/double_int) go through
 * every reduction collective at counts 0, 1, 7 and 1000 (SUM/int and MAX/double also at >= 1 MiB),
 * with and without MPI_IN_PLACE, Reduce at every root (small counts) or the last rank (large),
 * Reduce_scatter with unequal and zero counts. Receive buffers carry guard bytes that must
 * survive; non-root send buffers must be unchanged.
 *
 * COLL_TRACE=1 in the environment names each case on stderr before it runs.
 *
 * usage: coll_reduce
 */
#include "testutil.h"

#include <complex.h>
#include <float.h>
#include <stdbool.h>

#define NAME "coll_reduce"

/* ---------------------------------------------------------------- ops */

enum { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, O_MAXLOC,
       O_MINLOC, NOPS };

static const struct {
    MPI_Op op;
    const char *name;
} ops[NOPS] = {
    [O_MAX] = {MPI_MAX, "MAX"},       [O_MIN] = {MPI_MIN, "MIN"},
    [O_SUM] = {MPI_SUM, "SUM"},       [O_PROD] = {MPI_PROD, "PROD"},
    [O_LAND] = {MPI_LAND, "LAND"},    [O_LOR] = {MPI_LOR, "LOR"},
    [O_LXOR] = {MPI_LXOR, "LXOR"},    [O_BAND] = {MPI_BAND, "BAND"},
    [O_BOR] = {MPI_BOR, "BOR"},       [O_BXOR] = {MPI_BXOR, "BXOR"},
    [O_MAXLOC] = {MPI_MAXLOC, "MAXLOC"}, [O_MINLOC] = {MPI_MINLOC, "MINLOC"},
};

/* ---------------------------------------------------------------- datatypes */

enum kind { K_SINT, K_UINT, K_FLT, K_CPLX, K_BOOL, K_BYTE, K_PAIR };

/* One element, widened. Only the field of the type's kind is meaningful. */
typedef struct {
    long long s;            /* K_SINT */
    unsigned long long u;   /* K_UINT, K_BOOL, K_BYTE */
    long double f;          /* K_FLT, K_PAIR value */
    long double complex c;  /* K_CPLX */
    int idx;                /* K_PAIR index */
} wval;

struct tinfo {
    const char *name;
    MPI_Datatype dt;
    enum kind kind;
    size_t size;       /* extent of one element */
    int bits;          /* integer width */
    int multilang;     /* MPI_AINT, MPI_OFFSET, MPI_COUNT: no logical ops */
    long double scale; /* floating: magnitude used for MAX/MIN */
    void (*ld)(const void *buf, size_t i, wval *v);
    void (*st)(void *buf, size_t i, const wval *v);
};

#define SINT_TYPES(X)                                                                              \
    X(short, MPI_SHORT, short, 0)                                                                  \
    X(int, MPI_INT, int, 0)                                                                        \
    X(long, MPI_LONG, long, 0)                                                                     \
    X(long_long, MPI_LONG_LONG, long long, 0)                                                      \
    X(signed_char, MPI_SIGNED_CHAR, signed char, 0)                                                \
    X(int8, MPI_INT8_T, int8_t, 0)                                                                 \
    X(int16, MPI_INT16_T, int16_t, 0)                                                              \
    X(int32, MPI_INT32_T, int32_t, 0)                                                              \
    X(int64, MPI_INT64_T, int64_t, 0)                                                              \
    X(aint, MPI_AINT, MPI_Aint, 1)                                                                 \
    X(offset, MPI_OFFSET, MPI_Offset, 1)                                                           \
    X(count, MPI_COUNT, MPI_Count, 1)
#define UINT_TYPES(X)                                                                              \
    X(unsigned_short, MPI_UNSIGNED_SHORT, unsigned short)                                          \
    X(unsigned, MPI_UNSIGNED, unsigned)                                                            \
    X(unsigned_long, MPI_UNSIGNED_LONG, unsigned long)                                             \
    X(unsigned_long_long, MPI_UNSIGNED_LONG_LONG, unsigned long long)                              \
    X(unsigned_char, MPI_UNSIGNED_CHAR, unsigned char)                                             \
    X(uint8, MPI_UINT8_T, uint8_t)                                                                 \
    X(uint16, MPI_UINT16_T, uint16_t)                                                              \
    X(uint32, MPI_UINT32_T, uint32_t)                                                              \
    X(uint64, MPI_UINT64_T, uint64_t)
#define FLT_TYPES(X)                                                                               \
    X(float, MPI_FLOAT, float, 1e30L)                                                              \
    X(double, MPI_DOUBLE, double, 1e300L)                                                          \
    X(long_double, MPI_LONG_DOUBLE, long double,                                                   \
      (LDBL_MAX_10_EXP > 4000 ? 1e4000L : 1e300L))
#define CPLX_TYPES(X)                                                                              \
    X(c_float_complex, MPI_C_FLOAT_COMPLEX, float complex)                                         \
    X(c_double_complex, MPI_C_DOUBLE_COMPLEX, double complex)                                      \
    X(c_long_double_complex, MPI_C_LONG_DOUBLE_COMPLEX, long double complex)
#define PAIR_TYPES(X)                                                                              \
    X(float_int, MPI_FLOAT_INT, float)                                                             \
    X(double_int, MPI_DOUBLE_INT, double)                                                          \
    X(long_int, MPI_LONG_INT, long)                                                                \
    X(2int, MPI_2INT, int)                                                                         \
    X(short_int, MPI_SHORT_INT, short)                                                             \
    X(long_double_int, MPI_LONG_DOUBLE_INT, long double)

/* Loaders and storers, one pair per C type. */
#define DEF_SINT(id, dt, T, ml)                                                                    \
    static void ld_##id(const void *b, size_t i, wval *v) { v->s = ((const T *)b)[i]; }           \
    static void st_##id(void *b, size_t i, const wval *v) { ((T *)b)[i] = (T)v->s; }
#define DEF_UINT(id, dt, T)                                                                        \
    static void ld_##id(const void *b, size_t i, wval *v) { v->u = ((const T *)b)[i]; }           \
    static void st_##id(void *b, size_t i, const wval *v) { ((T *)b)[i] = (T)v->u; }
#define DEF_FLT(id, dt, T, sc)                                                                     \
    static void ld_##id(const void *b, size_t i, wval *v) { v->f = ((const T *)b)[i]; }           \
    static void st_##id(void *b, size_t i, const wval *v) { ((T *)b)[i] = (T)v->f; }
#define DEF_CPLX(id, dt, T)                                                                        \
    static void ld_##id(const void *b, size_t i, wval *v) { v->c = ((const T *)b)[i]; }           \
    static void st_##id(void *b, size_t i, const wval *v) { ((T *)b)[i] = (T)v->c; }
#define DEF_PAIR(id, dt, VT)                                                                       \
    struct pair_##id {                                                                             \
        VT v;                                                                                      \
        int i;                                                                                     \
    };                                                                                             \
    static void ld_##id(const void *b, size_t i, wval *v)                                          \
    {                                                                                              \
        v->f = ((const struct pair_##id *)b)[i].v;                                                 \
        v->idx = ((const struct pair_##id *)b)[i].i;                                               \
    }                                                                                              \
    static void st_##id(void *b, size_t i, const wval *v)                                          \
    {                                                                                              \
        ((struct pair_##id *)b)[i].v = (VT)v->f;                                                   \
        ((struct pair_##id *)b)[i].i = v->idx;                                                     \
    }
SINT_TYPES(DEF_SINT)
UINT_TYPES(DEF_UINT)
FLT_TYPES(DEF_FLT)
CPLX_TYPES(DEF_CPLX)
PAIR_TYPES(DEF_PAIR)
static void ld_c_bool(const void *b, size_t i, wval *v) { v->u = ((const bool *)b)[i]; }
static void st_c_bool(void *b, size_t i, const wval *v) { ((bool *)b)[i] = v->u != 0; }
static void ld_byte(const void *b, size_t i, wval *v) { v->u = ((const unsigned char *)b)[i]; }
static void st_byte(void *b, size_t i, const wval *v)
{
    ((unsigned char *)b)[i] = (unsigned char)v->u;
}

#define ROW_SINT(id, dt, T, ml)                                                                    \
    {#dt, dt, K_SINT, sizeof(T), 8 * (int)sizeof(T), ml, 0, ld_##id, st_##id},
#define ROW_UINT(id, dt, T)                                                                        \
    {#dt, dt, K_UINT, sizeof(T), 8 * (int)sizeof(T), 0, 0, ld_##id, st_##id},
#define ROW_FLT(id, dt, T, sc) {#dt, dt, K_FLT, sizeof(T), 0, 0, sc, ld_##id, st_##id},
#define ROW_CPLX(id, dt, T) {#dt, dt, K_CPLX, sizeof(T), 0, 0, 0, ld_##id, st_##id},
#define ROW_PAIR(id, dt, VT) {#dt, dt, K_PAIR, sizeof(struct pair_##id), 0, 0, 0, ld_##id, st_##id},

static const struct tinfo types[] = {
    SINT_TYPES(ROW_SINT) UINT_TYPES(ROW_UINT) FLT_TYPES(ROW_FLT) CPLX_TYPES(ROW_CPLX)
    PAIR_TYPES(ROW_PAIR)
    {"MPI_C_BOOL", MPI_C_BOOL, K_BOOL, sizeof(bool), 8, 0, 0, ld_c_bool, st_c_bool},
    {"MPI_BYTE", MPI_BYTE, K_BYTE, 1, 8, 0, 0, ld_byte, st_byte},
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

/* Which (op, type) pairs the standard defines (MPI-4.0 section 6.9.2). */
static int allowed(const struct tinfo *t, int op)
{
    switch (op) {
    case O_MAX:
    case O_MIN:
        return t->kind == K_SINT || t->kind == K_UINT || t->kind == K_FLT;
    case O_SUM:
    case O_PROD:
        return t->kind == K_SINT || t->kind == K_UINT || t->kind == K_FLT || t->kind == K_CPLX;
    case O_LAND:
    case O_LOR:
    case O_LXOR:
        return (t->kind == K_SINT && !t->multilang) || t->kind == K_UINT || t->kind == K_BOOL;
    case O_BAND:
    case O_BOR:
    case O_BXOR:
        return t->kind == K_SINT || t->kind == K_UINT || t->kind == K_BYTE;
    default:
        return t->kind == K_PAIR;
    }
}

static const struct tinfo *find_type(MPI_Datatype dt)
{
    for (int i = 0; i < NTYPES; i++)
        if (types[i].dt == dt)
            return &types[i];
    TU_FAIL("type not in table");
    return NULL;
}

/* ---------------------------------------------------------------- reference values */

static int g_rank, g_np;
/* Peers only: MPICH 4.0.2 (pmodels/mpich#6083) and Open MPI 4.1.x (open-mpi/ompi#10648) compare
 * unsigned integers as signed in MAX/MIN. When such a peer is detected, unsigned MAX/MIN inputs
 * stay below the sign bit so the rest of the table can still be validated. Never under skiff. */
static int g_unsigned_minmax_bug;
/* MPICH 4.0.x (peers only, never skiff), IN_PLACE bugs at medium and large sizes:
 *   - MPI_Reduce at a root other than 0 crashes (pmodels/mpich#6540, fixed in 4.1.2);
 *   - MPI_Reduce_scatter with unequal counts fails "memcpy argument memory ranges overlap".
 * Under MPICH those cases run without IN_PLACE. */
static int g_mpich;

static void probe_peer_bugs(void)
{
#ifndef SKIFF_MPI
    unsigned in = 1u << 31, io = 1;
    CHECK_MPI(MPI_Reduce_local(&in, &io, 1, MPI_UNSIGNED, MPI_MAX));
    g_unsigned_minmax_bug = io != in;
    if (g_unsigned_minmax_bug && g_rank == 0)
        printf("%s: this MPI compares unsigned as signed in MAX/MIN (known peer bug); unsigned "
               "MAX/MIN values kept below the sign bit\n", NAME);
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    CHECK_MPI(MPI_Get_library_version(v, &len));
    g_mpich = strstr(v, "MPICH Version:") != NULL;
    if (g_mpich && g_rank == 0)
        printf("%s: MPICH: no MPI_IN_PLACE for Reduce at root != 0 (pmodels/mpich#6540) nor for "
               "large Reduce_scatter (memcpy overlap)\n", NAME);
#endif
}

static uint64_t hash64(uint32_t a, uint64_t b, uint64_t c)
{
    return (uint64_t)tu_seed(a, b, c, 1) << 32 | tu_seed(a, b, c, 2);
}

/* Sign-extends the low `bits` bits. */
static long long sext(uint64_t x, int bits)
{
    if (bits >= 64)
        return (long long)x;
    uint64_t m = 1ull << (bits - 1);
    x &= (1ull << bits) - 1;
    return (long long)(x ^ m) - (long long)m;
}

static uint64_t mask(int bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* Cheap 32-bit mix of (seed, rank, element, op): the reference recomputes every rank's input, so
 * this runs np times per checked element. */
static uint32_t mix(uint32_t seed, int r, size_t i, int op)
{
    uint32_t h = seed * 0x9E3779B1u ^ (uint32_t)r * 0x85EBCA77u ^ (uint32_t)op * 0xC2B2AE3Du ^
                 (uint32_t)i * 0x27D4EB2Fu ^ (uint32_t)((uint64_t)i >> 32);
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

/* The value rank `r` contributes at element i of the (global) input vector. Only the field of
 * the type's kind is set. */
static wval gen_raw(const struct tinfo *t, int op, uint32_t seed, int r, size_t i)
{
    wval v;
    v.s = 0;
    v.u = 0;
    v.f = 0;
    v.idx = 0;
    uint32_t h = mix(seed, r, i, op);
    int special = (int)(i % (size_t)g_np) == r; /* PROD: the one rank that is not +-1 */
    enum kind k = t->kind;
    if (k == K_CPLX) {
        static const long double complex cs[4] = {2, 1 + I, 1 - I, 0.5L};
        static const long double complex units[4] = {1, -1, I, -I};
        if (op == O_SUM)
            v.c = ((int)(h % 9) - 4) * 0.5L + ((int)((h >> 8) % 9) - 4) * 0.5L * I;
        else
            v.c = special ? cs[h % 4] : units[(h >> 4) % 4];
        return v;
    }
    v.c = 0;
    switch (op) {
    case O_SUM:
        if (k == K_SINT)
            v.s = (long long)(h % 16) - 8;
        else if (k == K_UINT)
            v.u = h % 16;
        else
            v.f = ((int)(h % 33) - 16) * 0.25L;
        break;
    case O_PROD: {
        static const long double fs[4] = {2, -2, 0.5L, -0.5L};
        if (k == K_SINT)
            v.s = special ? ((h & 1) ? 2 : -2) : ((h & 2) ? 1 : -1);
        else if (k == K_UINT)
            v.u = special ? 2 + (h & 1) : 1;
        else
            v.f = special ? fs[h % 4] : ((h & 2) ? 1 : -1);
        break;
    }
    case O_MAX:
    case O_MIN:
        if (k == K_SINT) {
            long long sc = 1ll << (t->bits - 5);
            v.s = ((long long)(h % 16) - 8) * sc + (long long)((h >> 4) % (uint64_t)sc);
        } else if (k == K_UINT) {
            unsigned long long sc = 1ull << (t->bits - 4 - g_unsigned_minmax_bug);
            v.u = (h % 16) * sc + (h >> 4) % sc;
        } else {
            v.f = ((int)(h % 2001) - 1000) * 0.125L * t->scale;
        }
        break;
    case O_LAND:
    case O_LOR:
    case O_LXOR: {
        /* element classes: always true, always false, or per rank; true is not always 1 */
        int truth = i % 5 == 0 ? 1 : i % 5 == 4 ? 0 : (int)(h & 1);
        unsigned mag = 1 + (h >> 3) % 3;
        v.u = truth ? (k == K_BOOL ? 1 : mag) : 0;
        v.s = truth ? ((h & 4) ? -(long long)mag : (long long)mag) : 0;
        break;
    }
    case O_BAND:
    case O_BOR:
    case O_BXOR: {
        uint64_t base = hash64(seed, i, 77); /* shared by all ranks */
        uint64_t noise = hash64(h, 1, 0) & hash64(h, 2, 0) & hash64(h, 3, 0);
        uint64_t bits = base ^ noise;
        v.u = bits & mask(t->bits);
        v.s = sext(bits, t->bits);
        break;
    }
    default: /* MAXLOC, MINLOC: few distinct values, so ties are common */
        v.f = (int)(h % 4) - 1;
        v.idx = (int)((h >> 8) % 1000);
        break;
    }
    return v;
}

/* Through the type and back, so the reference works on exactly what was sent. */
static wval roundtrip(const struct tinfo *t, wval v)
{
    union {
        long double complex c;
        unsigned char b[64];
    } scratch;
    wval r;
    memset(&r, 0, sizeof r);
    t->st(scratch.b, 0, &v);
    t->ld(scratch.b, 0, &r);
    return r;
}

/* Only floating MAX/MIN inputs can change on the way through the type (rounding to float or
 * double); every other generated value is exactly representable. */
static wval gen(const struct tinfo *t, int op, uint32_t seed, int r, size_t i)
{
    wval v = gen_raw(t, op, seed, r, i);
    return t->kind == K_FLT && (op == O_MAX || op == O_MIN) ? roundtrip(t, v) : v;
}

/* a = a op b, with a from the lower rank. */
static void combine(const struct tinfo *t, int op, wval *a, const wval *b)
{
#define ARITH(F)                                                                                   \
    switch (op) {                                                                                  \
    case O_MAX: a->F = a->F > b->F ? a->F : b->F; break;                                           \
    case O_MIN: a->F = a->F < b->F ? a->F : b->F; break;                                           \
    case O_SUM: a->F = a->F + b->F; break;                                                         \
    case O_PROD: a->F = a->F * b->F; break;                                                        \
    case O_LAND: a->F = a->F && b->F; break;                                                       \
    case O_LOR: a->F = a->F || b->F; break;                                                        \
    case O_LXOR: a->F = !a->F != !b->F; break;                                                     \
    case O_BAND: a->F = a->F & b->F; break;                                                        \
    case O_BOR: a->F = a->F | b->F; break;                                                         \
    case O_BXOR: a->F = a->F ^ b->F; break;                                                        \
    default: break;                                                                                \
    }
    switch (t->kind) {
    case K_SINT:
        ARITH(s)
        break;
    case K_UINT:
    case K_BOOL:
    case K_BYTE:
        ARITH(u)
        break;
    case K_FLT:
        switch (op) {
        case O_MAX: a->f = a->f > b->f ? a->f : b->f; break;
        case O_MIN: a->f = a->f < b->f ? a->f : b->f; break;
        case O_SUM: a->f = a->f + b->f; break;
        default: a->f = a->f * b->f; break;
        }
        break;
    case K_CPLX:
        a->c = op == O_SUM ? a->c + b->c : a->c * b->c;
        break;
    case K_PAIR:
        if (a->f == b->f)
            a->idx = a->idx < b->idx ? a->idx : b->idx;
        else if ((op == O_MAXLOC) == (b->f > a->f))
            *a = *b;
        break;
    }
#undef ARITH
}

static int same(const struct tinfo *t, const wval *a, const wval *b)
{
    switch (t->kind) {
    case K_SINT:
        return a->s == b->s;
    case K_FLT:
        return a->f == b->f;
    case K_CPLX:
        return a->c == b->c;
    case K_PAIR:
        return a->f == b->f && a->idx == b->idx;
    default:
        return a->u == b->u;
    }
}

static void show(const struct tinfo *t, const wval *v, char *out, size_t n)
{
    switch (t->kind) {
    case K_SINT:
        snprintf(out, n, "%lld", v->s);
        break;
    case K_FLT:
        snprintf(out, n, "%Lg", v->f);
        break;
    case K_CPLX:
        snprintf(out, n, "(%Lg%+Lgi)", creall(v->c), cimagl(v->c));
        break;
    case K_PAIR:
        snprintf(out, n, "(%Lg, %d)", v->f, v->idx);
        break;
    default:
        snprintf(out, n, "%llu", v->u);
        break;
    }
}

/* ---------------------------------------------------------------- one reduction case */

/* COLL_TRACE=1 in the environment: every rank names each case before running it. */
static void trace(const char *coll, const char *op, const char *type, size_t n, int root)
{
    static int on = -1;
    if (on < 0)
        on = getenv("COLL_TRACE") != NULL;
    if (on)
        fprintf(stderr, "[rank %d] %s %s %s n=%zu root=%d\n", g_rank, coll, op, type, n, root);
}

struct red {
    const struct tinfo *t;
    int op;
    uint32_t seed;
    const char *coll; /* for messages */
};

/* buf[0..n) = rank r's contribution at global elements off..off+n-1. */
static void fill(const struct red *c, int r, void *buf, size_t off, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        wval v = gen_raw(c->t, c->op, c->seed, r, off + j);
        c->t->st(buf, j, &v);
    }
}

/* buf[0..n) must be the reduction over ranks rlo..rhi-1 of global elements off..off+n-1. */
static void check_red(const struct red *c, const void *buf, size_t off, size_t n, int rlo, int rhi)
{
    for (size_t j = 0; j < n; j++) {
        wval e = gen(c->t, c->op, c->seed, rlo, off + j);
        for (int r = rlo + 1; r < rhi; r++) {
            wval x = gen(c->t, c->op, c->seed, r, off + j);
            combine(c->t, c->op, &e, &x);
        }
        e = roundtrip(c->t, e);
        wval a;
        memset(&a, 0, sizeof a);
        c->t->ld(buf, j, &a);
        if (!same(c->t, &e, &a)) {
            char se[96], sa[96];
            show(c->t, &e, se, sizeof se);
            show(c->t, &a, sa, sizeof sa);
            TU_FAIL("%s %s on %s, np %d: element %zu of %zu (ranks %d..%d): expected %s, got %s",
                    c->coll, ops[c->op].name, c->t->name, g_np, off + j, n, rlo, rhi - 1, se, sa);
        }
    }
}

static void *buf_with_guard(const struct red *c, size_t n)
{
    void *b = tu_malloc(n * c->t->size + TU_GUARD);
    memset(b, 0x5c, n * c->t->size);
    tu_set_guard(b, n * c->t->size);
    return b;
}

static void check_guard(const struct red *c, const void *b, size_t n)
{
    CHECK_GUARD(b, n * c->t->size);
}

/* ---------------------------------------------------------------- the collectives */

static void t_reduce_local(struct red c, size_t n)
{
    c.coll = "Reduce_local";
    void *in = buf_with_guard(&c, n), *io = buf_with_guard(&c, n);
    int r1 = g_np > 1 ? 1 : 0;
    /* result = (contribution of rank 0) op (contribution of rank 1) */
    fill(&c, 0, in, 0, n);
    fill(&c, r1, io, 0, n);
    trace(c.coll, ops[c.op].name, c.t->name, n, -1);
    CHECK_MPI(MPI_Reduce_local(in, io, (int)n, c.t->dt, ops[c.op].op));
    if (r1 == 1)
        check_red(&c, io, 0, n, 0, 2);
    else {
        /* np=1: x op x */
        for (size_t j = 0; j < n; j++) {
            wval x = gen(c.t, c.op, c.seed, 0, j), a;
            wval e = x;
            combine(c.t, c.op, &e, &x);
            e = roundtrip(c.t, e);
            memset(&a, 0, sizeof a);
            c.t->ld(io, j, &a);
            CHECK_MSG(same(c.t, &e, &a), "Reduce_local %s on %s: x op x wrong at %zu",
                      ops[c.op].name, c.t->name, j);
        }
    }
    check_guard(&c, io, n);
    free(in);
    free(io);
}

static void t_allreduce(struct red c, size_t n, int inplace)
{
    c.coll = inplace ? "Allreduce(IN_PLACE)" : "Allreduce";
    void *sb = buf_with_guard(&c, n), *rb = buf_with_guard(&c, n);
    fill(&c, g_rank, inplace ? rb : sb, 0, n);
    trace(c.coll, ops[c.op].name, c.t->name, n, -1);
    CHECK_MPI(MPI_Allreduce(inplace ? MPI_IN_PLACE : sb, rb, (int)n, c.t->dt, ops[c.op].op,
                            MPI_COMM_WORLD));
    check_red(&c, rb, 0, n, 0, g_np);
    check_guard(&c, rb, n);
    free(sb);
    free(rb);
}

static void t_reduce(struct red c, size_t n, int root, int inplace)
{
    if (g_mpich && root != 0)
        inplace = 0;
    c.coll = inplace ? "Reduce(IN_PLACE at root)" : "Reduce";
    int me_root = g_rank == root;
    void *sb = buf_with_guard(&c, n), *rb = me_root ? buf_with_guard(&c, n) : NULL;
    int ip = inplace && me_root;
    fill(&c, g_rank, ip ? rb : sb, 0, n);
    trace(c.coll, ops[c.op].name, c.t->name, n, root);
    CHECK_MPI(MPI_Reduce(ip ? MPI_IN_PLACE : sb, rb, (int)n, c.t->dt, ops[c.op].op, root,
                         MPI_COMM_WORLD));
    if (me_root) {
        check_red(&c, rb, 0, n, 0, g_np);
        check_guard(&c, rb, n);
    }
    if (!ip)
        check_red(&c, sb, 0, n, g_rank, g_rank + 1); /* send buffer untouched */
    free(sb);
    free(rb);
}

static void t_scan(struct red c, size_t n, int inplace, int exclusive)
{
    c.coll = exclusive ? (inplace ? "Exscan(IN_PLACE)" : "Exscan")
                       : (inplace ? "Scan(IN_PLACE)" : "Scan");
    void *sb = buf_with_guard(&c, n), *rb = buf_with_guard(&c, n);
    fill(&c, g_rank, inplace ? rb : sb, 0, n);
    trace(c.coll, ops[c.op].name, c.t->name, n, -1);
    if (exclusive)
        CHECK_MPI(MPI_Exscan(inplace ? MPI_IN_PLACE : sb, rb, (int)n, c.t->dt, ops[c.op].op,
                             MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Scan(inplace ? MPI_IN_PLACE : sb, rb, (int)n, c.t->dt, ops[c.op].op,
                           MPI_COMM_WORLD));
    if (!exclusive)
        check_red(&c, rb, 0, n, 0, g_rank + 1);
    else if (g_rank > 0) /* rank 0's receive buffer is undefined after Exscan */
        check_red(&c, rb, 0, n, 0, g_rank);
    check_guard(&c, rb, n);
    free(sb);
    free(rb);
}

/* Reduce_scatter_block: everyone contributes np*n elements, rank r gets block r. */
static void t_rsb(struct red c, size_t n, int inplace)
{
    c.coll = inplace ? "Reduce_scatter_block(IN_PLACE)" : "Reduce_scatter_block";
    size_t total = n * (size_t)g_np;
    void *sb = buf_with_guard(&c, total), *rb = buf_with_guard(&c, inplace ? total : n);
    fill(&c, g_rank, inplace ? rb : sb, 0, total);
    trace(c.coll, ops[c.op].name, c.t->name, n, -1);
    CHECK_MPI(MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : sb, rb, (int)n, c.t->dt,
                                       ops[c.op].op, MPI_COMM_WORLD));
    check_red(&c, rb, (size_t)g_rank * n, n, 0, g_np);
    check_guard(&c, rb, inplace ? total : n);
    free(sb);
    free(rb);
}

/* Reduce_scatter with unequal counts: rank r gets base + r elements, or none when r % 3 == 1. */
static void t_rs(struct red c, size_t base, int inplace)
{
    if (g_mpich && base > 1000)
        inplace = 0;
    c.coll = inplace ? "Reduce_scatter(IN_PLACE)" : "Reduce_scatter";
    int *counts = tu_malloc(sizeof(int) * (size_t)g_np);
    size_t total = 0, off = 0;
    for (int r = 0; r < g_np; r++) {
        counts[r] = r % 3 == 1 ? 0 : (int)base + r;
        if (r < g_rank)
            off += (size_t)counts[r];
        total += (size_t)counts[r];
    }
    size_t mine = (size_t)counts[g_rank];
    void *sb = buf_with_guard(&c, total), *rb = buf_with_guard(&c, inplace ? total : mine);
    fill(&c, g_rank, inplace ? rb : sb, 0, total);
    trace(c.coll, ops[c.op].name, c.t->name, base, -1);
    CHECK_MPI(MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : sb, rb, counts, c.t->dt, ops[c.op].op,
                                 MPI_COMM_WORLD));
    check_red(&c, rb, off, mine, 0, g_np);
    check_guard(&c, rb, inplace ? total : mine);
    free(counts);
    free(sb);
    free(rb);
}

/* ---------------------------------------------------------------- drivers */

/* Every allowed (op, type): Reduce_local, Allreduce and one rotating collective. */
static int matrix(void)
{
    int k = 0;
    for (int ti = 0; ti < NTYPES; ti++) {
        for (int op = 0; op < NOPS; op++) {
            if (!allowed(&types[ti], op))
                continue;
            struct red c = {&types[ti], op, (uint32_t)(1000 + k), ""};
            size_t n = 1 + (size_t)(k % 9);
            t_reduce_local(c, 37);
            t_allreduce(c, n, k & 1);
            switch (k % 6) {
            case 0: t_reduce(c, n, k % g_np, (k / 6) & 1); break;
            case 1: t_scan(c, n, (k / 6) & 1, 0); break;
            case 2: t_scan(c, n, (k / 6) & 1, 1); break;
            case 3: t_rsb(c, 1 + n / 3, (k / 6) & 1); break;
            case 4: t_rs(c, n / 2, (k / 6) & 1); break;
            default: t_allreduce(c, n + 100, !(k & 1)); break;
            }
            k++;
        }
    }
    return k;
}

/* Representative pairs through every collective, sizes 0 .. >= 1 MiB. */
static void sizes(void)
{
    static const struct {
        MPI_Datatype dt;
        int op;
    } reps[] = {{MPI_INT, O_SUM}, {MPI_DOUBLE, O_MAX}, {MPI_BYTE, O_BXOR},
                {MPI_DOUBLE_INT, O_MINLOC}};
    for (int p = 0; p < (int)(sizeof reps / sizeof reps[0]); p++) {
        const struct tinfo *t = find_type(reps[p].dt);
        size_t big = (1u << 20) / t->size + 3; /* >= 1 MiB, not a power of two */
        const size_t ns[] = {0, 1, 7, 1000, big};
        for (int s = 0; s < 5; s++) {
            size_t n = ns[s];
            int large = n == big;
            /* large sizes: the first two pairs only, to keep the run short */
            if (large && p >= 2)
                continue;
            for (int ip = 0; ip < 2; ip++) {
                struct red c = {t, reps[p].op, (uint32_t)(7000 + 100 * p + 10 * s + ip), ""};
                t_allreduce(c, n, ip);
                if (large) {
                    t_reduce(c, n, g_np - 1, ip);
                } else {
                    for (int root = 0; root < g_np; root++)
                        t_reduce(c, n, root, ip);
                }
                t_scan(c, n, ip, 0);
                t_scan(c, n, ip, 1);
                t_rsb(c, large ? n / (size_t)g_np + 1 : n, ip);
                t_rs(c, large ? n / (size_t)g_np : n, ip);
                if (!ip)
                    t_reduce_local(c, n);
            }
        }
    }
}

/* Reductions on MPI_COMM_SELF: the rank's own data back, whatever the world size. */
static void self(void)
{
    int in[5] = {1, -2, 3, -4, 5}, out[5] = {0};
    CHECK_MPI(MPI_Allreduce(in, out, 5, MPI_INT, MPI_SUM, MPI_COMM_SELF));
    for (int i = 0; i < 5; i++)
        CHECK_EQ(in[i], out[i]);
    memset(out, 0, sizeof out);
    CHECK_MPI(MPI_Reduce(in, out, 5, MPI_INT, MPI_MAX, 0, MPI_COMM_SELF));
    for (int i = 0; i < 5; i++)
        CHECK_EQ(in[i], out[i]);
    CHECK_MPI(MPI_Scan(in, out, 5, MPI_INT, MPI_PROD, MPI_COMM_SELF));
    for (int i = 0; i < 5; i++)
        CHECK_EQ(in[i], out[i]);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    g_rank = tu_rank();
    g_np = tu_size();
    probe_peer_bugs();
    int pairs = matrix();
    sizes();
    self();
    if (g_rank == 0)
        printf("%s: %d (op, type) pairs, np=%d\n", NAME, pairs, g_np);
    return tu_finish(NAME);
}
