/* MPI_Type_get_envelope and MPI_Type_get_contents for every combiner: the contents are exactly the
 * constructor's arguments; a type rebuilt from them, all the way down to the named types, has the same
 * bounds and the same type map (packing a patterned buffer gives the same bytes); derived datatypes come
 * back as new types the caller frees, even when the user freed the originals long ago. Each rank decodes
 * locally; a rebuilt type also carries a message from each rank to the next. */
#include "testutil.h"

static int rank, size;

static int is_fixed(int combiner)
{
    return combiner == MPI_COMBINER_NAMED || combiner == MPI_COMBINER_F90_REAL ||
           combiner == MPI_COMBINER_F90_COMPLEX || combiner == MPI_COMBINER_F90_INTEGER;
}

static int combiner_of(MPI_Datatype t)
{
    int ni, na, nd, c;
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &c));
    return c;
}

struct contents {
    int ni, na, nd, combiner;
    int *ints;
    MPI_Aint *addrs;
    MPI_Datatype *types;
};

static struct contents get(MPI_Datatype t)
{
    struct contents c;
    CHECK_MPI(MPI_Type_get_envelope(t, &c.ni, &c.na, &c.nd, &c.combiner));
    c.ints = tu_malloc(sizeof(int) * (size_t)(c.ni + 1));
    c.addrs = tu_malloc(sizeof(MPI_Aint) * (size_t)(c.na + 1));
    c.types = tu_malloc(sizeof(MPI_Datatype) * (size_t)(c.nd + 1));
    if (c.combiner != MPI_COMBINER_NAMED)
        CHECK_MPI(MPI_Type_get_contents(t, c.ni, c.na, c.nd, c.ints, c.addrs, c.types));
    return c;
}

/* Frees the derived datatypes get_contents handed out (predefined ones are not to be freed). */
static void put(struct contents *c)
{
    for (int i = 0; i < c->nd; i++)
        if (!is_fixed(combiner_of(c->types[i])))
            CHECK_MPI(MPI_Type_free(&c->types[i]));
    free(c->ints);
    free(c->addrs);
    free(c->types);
}

static MPI_Datatype construct(const struct contents *c, const MPI_Datatype *d)
{
    const int *I = c->ints;
    const MPI_Aint *A = c->addrs;
    MPI_Datatype u = MPI_DATATYPE_NULL;
    int n;
    switch (c->combiner) {
    case MPI_COMBINER_DUP: CHECK_MPI(MPI_Type_dup(d[0], &u)); break;
    case MPI_COMBINER_CONTIGUOUS: CHECK_MPI(MPI_Type_contiguous(I[0], d[0], &u)); break;
    case MPI_COMBINER_VECTOR: CHECK_MPI(MPI_Type_vector(I[0], I[1], I[2], d[0], &u)); break;
    case MPI_COMBINER_HVECTOR: CHECK_MPI(MPI_Type_create_hvector(I[0], I[1], A[0], d[0], &u)); break;
    case MPI_COMBINER_INDEXED: CHECK_MPI(MPI_Type_indexed(I[0], I + 1, I + 1 + I[0], d[0], &u)); break;
    case MPI_COMBINER_HINDEXED: CHECK_MPI(MPI_Type_create_hindexed(I[0], I + 1, A, d[0], &u)); break;
    case MPI_COMBINER_INDEXED_BLOCK: CHECK_MPI(MPI_Type_create_indexed_block(I[0], I[1], I + 2, d[0], &u)); break;
    case MPI_COMBINER_HINDEXED_BLOCK: CHECK_MPI(MPI_Type_create_hindexed_block(I[0], I[1], A, d[0], &u)); break;
    case MPI_COMBINER_STRUCT: CHECK_MPI(MPI_Type_create_struct(I[0], I + 1, A, d, &u)); break;
    case MPI_COMBINER_SUBARRAY:
        n = I[0];
        CHECK_MPI(MPI_Type_create_subarray(n, I + 1, I + 1 + n, I + 1 + 2 * n, I[1 + 3 * n], d[0], &u));
        break;
    case MPI_COMBINER_DARRAY:
        n = I[2];
        CHECK_MPI(MPI_Type_create_darray(I[0], I[1], n, I + 3, I + 3 + n, I + 3 + 2 * n, I + 3 + 3 * n,
                                         I[3 + 4 * n], d[0], &u));
        break;
    case MPI_COMBINER_RESIZED: CHECK_MPI(MPI_Type_create_resized(d[0], A[0], A[1], &u)); break;
    case MPI_COMBINER_F90_REAL: CHECK_MPI(MPI_Type_create_f90_real(I[0], I[1], &u)); break;
    case MPI_COMBINER_F90_COMPLEX: CHECK_MPI(MPI_Type_create_f90_complex(I[0], I[1], &u)); break;
    case MPI_COMBINER_F90_INTEGER: CHECK_MPI(MPI_Type_create_f90_integer(I[0], &u)); break;
    default: TU_FAIL("unexpected combiner %d", c->combiner);
    }
    return u;
}

/* The type made again from its contents, and theirs, down to the named types. */
static MPI_Datatype rebuild(MPI_Datatype t)
{
    struct contents c = get(t);
    if (c.combiner == MPI_COMBINER_NAMED) {
        put(&c);
        return t;
    }
    MPI_Datatype *d = tu_malloc(sizeof(MPI_Datatype) * (size_t)(c.nd + 1));
    for (int i = 0; i < c.nd; i++)
        d[i] = rebuild(c.types[i]);
    MPI_Datatype u = construct(&c, d);
    for (int i = 0; i < c.nd; i++)
        if (!is_fixed(combiner_of(d[i])))
            CHECK_MPI(MPI_Type_free(&d[i]));
    free(d);
    put(&c);
    return u;
}

/* A buffer whose every byte says where it is, with room on both sides for negative displacements. */
#define SPAN 16384
static unsigned char pattern[2 * SPAN];

static void same_layout(MPI_Datatype t, MPI_Datatype u, const char *what)
{
    MPI_Aint lb1, ex1, lb2, ex2, tlb1, tex1, tlb2, tex2;
    int s1, s2;
    CHECK_MPI(MPI_Type_get_extent(t, &lb1, &ex1));
    CHECK_MPI(MPI_Type_get_extent(u, &lb2, &ex2));
    CHECK_MPI(MPI_Type_get_true_extent(t, &tlb1, &tex1));
    CHECK_MPI(MPI_Type_get_true_extent(u, &tlb2, &tex2));
    CHECK_MPI(MPI_Type_size(t, &s1));
    CHECK_MPI(MPI_Type_size(u, &s2));
    CHECK_MSG(lb1 == lb2 && ex1 == ex2 && tlb1 == tlb2 && tex1 == tex2 && s1 == s2,
              "%s: rebuilt type differs: lb %ld/%ld extent %ld/%ld true lb %ld/%ld true extent %ld/%ld size %d/%d",
              what, (long)lb1, (long)lb2, (long)ex1, (long)ex2, (long)tlb1, (long)tlb2, (long)tex1, (long)tex2, s1,
              s2);
    CHECK(2 * (tlb1 > 0 ? tlb1 : -tlb1) + 2 * tex1 + 2 * (ex1 > 0 ? ex1 : -ex1) < SPAN);
    MPI_Datatype tc = t, uc = u;
    CHECK_MPI(MPI_Type_commit(&tc));
    CHECK_MPI(MPI_Type_commit(&uc));
    char *p1 = tu_malloc(2 * (size_t)s1 + 1), *p2 = tu_malloc(2 * (size_t)s1 + 1);
    int pos1 = 0, pos2 = 0;
    CHECK_MPI(MPI_Pack(pattern + SPAN, 2, tc, p1, 2 * s1 + 1, &pos1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(pattern + SPAN, 2, uc, p2, 2 * s1 + 1, &pos2, MPI_COMM_WORLD));
    CHECK_EQ(pos1, pos2);
    CHECK_MSG(memcmp(p1, p2, (size_t)pos1) == 0, "%s: the rebuilt type packs other bytes", what);
    free(p1);
    free(p2);
}

/* Rebuilds t, compares, and checks the envelope's combiner and counts. */
static void round_trip(MPI_Datatype t, int combiner, int ni, int na, int nd, const char *what)
{
    int a, b, c, k;
    CHECK_MPI(MPI_Type_get_envelope(t, &a, &b, &c, &k));
    CHECK_MSG(k == combiner && a == ni && b == na && c == nd, "%s: envelope (%d, %d, %d, combiner %d), expected "
              "(%d, %d, %d, combiner %d)", what, a, b, c, k, ni, na, nd, combiner);
    MPI_Datatype u = rebuild(t);
    same_layout(t, u, what);
    if (is_fixed(combiner))
        CHECK_MSG(u == t, "%s: the same parameters give another handle", what);
    else
        CHECK_MPI(MPI_Type_free(&u));
}

static void check_ints(const struct contents *c, const int *expected, int n, const char *what)
{
    CHECK_EQ(n, c->ni);
    for (int i = 0; i < n; i++)
        CHECK_MSG(c->ints[i] == expected[i], "%s: integer %d is %d, expected %d", what, i, c->ints[i], expected[i]);
}

/* Every combiner, each built on a derived type that is freed before it is decoded. */
static void every_combiner(void)
{
    MPI_Datatype base, t;
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &base)); /* ints 0 and 3, extent 4 ints */
    round_trip(MPI_INT, MPI_COMBINER_NAMED, 0, 0, 0, "MPI_INT");
    round_trip(MPI_DOUBLE_INT, MPI_COMBINER_NAMED, 0, 0, 0, "MPI_DOUBLE_INT");
    round_trip(base, MPI_COMBINER_VECTOR, 3, 0, 1, "vector");

    CHECK_MPI(MPI_Type_dup(base, &t));
    round_trip(t, MPI_COMBINER_DUP, 0, 0, 1, "dup");
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_dup(MPI_FLOAT, &t));
    struct contents c = get(t);
    CHECK(c.types[0] == MPI_FLOAT);
    put(&c);
    round_trip(t, MPI_COMBINER_DUP, 0, 0, 1, "dup of MPI_FLOAT");
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_contiguous(3, base, &t));
    round_trip(t, MPI_COMBINER_CONTIGUOUS, 1, 0, 1, "contiguous");
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_hvector(3, 2, -40, base, &t));
    c = get(t);
    CHECK_EQ(-40, c.addrs[0]);
    check_ints(&c, (const int[]){3, 2}, 2, "hvector");
    put(&c);
    round_trip(t, MPI_COMBINER_HVECTOR, 2, 1, 1, "hvector");
    CHECK_MPI(MPI_Type_free(&t));

    const int bl[3] = {2, 1, 3}, di[3] = {5, 0, 9};
    CHECK_MPI(MPI_Type_indexed(3, bl, di, base, &t));
    c = get(t);
    check_ints(&c, (const int[]){3, 2, 1, 3, 5, 0, 9}, 7, "indexed");
    put(&c);
    round_trip(t, MPI_COMBINER_INDEXED, 7, 0, 1, "indexed");
    CHECK_MPI(MPI_Type_free(&t));

    const MPI_Aint hd[3] = {64, 0, -32};
    CHECK_MPI(MPI_Type_create_hindexed(3, bl, hd, base, &t));
    round_trip(t, MPI_COMBINER_HINDEXED, 4, 3, 1, "hindexed");
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, di, base, &t));
    c = get(t);
    check_ints(&c, (const int[]){3, 2, 5, 0, 9}, 5, "indexed_block");
    put(&c);
    round_trip(t, MPI_COMBINER_INDEXED_BLOCK, 5, 0, 1, "indexed_block");
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, hd, base, &t));
    round_trip(t, MPI_COMBINER_HINDEXED_BLOCK, 2, 3, 1, "hindexed_block");
    CHECK_MPI(MPI_Type_free(&t));

    MPI_Datatype types[3] = {MPI_CHAR, base, MPI_DOUBLE};
    const MPI_Aint sd[3] = {0, 8, 48};
    CHECK_MPI(MPI_Type_create_struct(3, bl, sd, types, &t));
    c = get(t);
    check_ints(&c, (const int[]){3, 2, 1, 3}, 4, "struct");
    CHECK(c.addrs[0] == 0 && c.addrs[1] == 8 && c.addrs[2] == 48);
    CHECK(c.types[0] == MPI_CHAR && c.types[2] == MPI_DOUBLE);
#ifdef SKIFF_MPI
    /* A new type the caller frees (MPICH hands back the same handle with one more reference, which the
     * caller's MPI_Type_free drops: as good for a program, but not checkable the same way). */
    CHECK(c.types[1] != base);
#endif
    CHECK_EQ(MPI_COMBINER_VECTOR, combiner_of(c.types[1]));
    put(&c);
    round_trip(t, MPI_COMBINER_STRUCT, 4, 3, 3, "struct");
    CHECK_MPI(MPI_Type_free(&t));

    const int sz[2] = {5, 4}, sub[2] = {2, 3}, st[2] = {1, 1};
    CHECK_MPI(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_FORTRAN, base, &t));
    c = get(t);
    check_ints(&c, (const int[]){2, 5, 4, 2, 3, 1, 1, MPI_ORDER_FORTRAN}, 8, "subarray");
    put(&c);
    round_trip(t, MPI_COMBINER_SUBARRAY, 8, 0, 1, "subarray");
    CHECK_MPI(MPI_Type_free(&t));

    const int gs[2] = {6, 7}, dist[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK},
              dargs[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {size, 1};
    CHECK_MPI(MPI_Type_create_darray(size, rank, 2, gs, dist, dargs, ps, MPI_ORDER_C, base, &t));
    c = get(t);
    check_ints(&c,
               (const int[]){size, rank, 2, 6, 7, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK, 2,
                             MPI_DISTRIBUTE_DFLT_DARG, size, 1, MPI_ORDER_C},
               12, "darray");
    put(&c);
    round_trip(t, MPI_COMBINER_DARRAY, 12, 0, 1, "darray");
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_resized(base, -8, 40, &t));
    c = get(t);
    CHECK(c.addrs[0] == -8 && c.addrs[1] == 40);
    put(&c);
    round_trip(t, MPI_COMBINER_RESIZED, 0, 2, 1, "resized");
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t));
    round_trip(t, MPI_COMBINER_F90_REAL, 2, 0, 0, "f90 real");
    c = get(t);
    check_ints(&c, (const int[]){6, MPI_UNDEFINED}, 2, "f90 real");
    put(&c);
    CHECK_MPI(MPI_Type_create_f90_complex(15, 300, &t));
    round_trip(t, MPI_COMBINER_F90_COMPLEX, 2, 0, 0, "f90 complex");
    CHECK_MPI(MPI_Type_create_f90_integer(9, &t));
    round_trip(t, MPI_COMBINER_F90_INTEGER, 1, 0, 0, "f90 integer");
    c = get(t);
    check_ints(&c, (const int[]){9}, 1, "f90 integer");
    put(&c);
    CHECK_MPI(MPI_Type_free(&base));
}

/* A deep type whose parts the user has all freed: decoding still reaches every level. */
static MPI_Datatype deep_type(void)
{
    MPI_Datatype v, r, s, d, types[2];
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_SHORT, &v));
    CHECK_MPI(MPI_Type_create_resized(v, 0, 30, &r));
    CHECK_MPI(MPI_Type_free(&v));
    const int sz[1] = {5}, sub[1] = {3}, st[1] = {2};
    CHECK_MPI(MPI_Type_create_subarray(1, sz, sub, st, MPI_ORDER_C, r, &s));
    types[0] = s;
    types[1] = r;
    const int bl[2] = {1, 2};
    const MPI_Aint disp[2] = {0, 200};
    CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &d));
    CHECK_MPI(MPI_Type_free(&s));
    CHECK_MPI(MPI_Type_free(&r));
    return d;
}

static void freed_parts(void)
{
    MPI_Datatype d = deep_type(), u = rebuild(d);
    same_layout(d, u, "deep struct");
    struct contents c = get(d);
    CHECK_EQ(MPI_COMBINER_SUBARRAY, combiner_of(c.types[0]));
    CHECK_EQ(MPI_COMBINER_RESIZED, combiner_of(c.types[1]));
    struct contents c2 = get(c.types[1]);
    CHECK_EQ(MPI_COMBINER_VECTOR, combiner_of(c2.types[0]));
    put(&c2);
    put(&c);
    /* The rebuilt type carries a message as the original does. */
    CHECK_MPI(MPI_Type_commit(&d));
    CHECK_MPI(MPI_Type_commit(&u));
    short out[200], in[200];
    for (int i = 0; i < 200; i++) {
        out[i] = (short)(rank * 1000 + i);
        in[i] = -1;
    }
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    CHECK_MPI(MPI_Sendrecv(out, 1, d, to, 3, in, 1, u, from, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int bytes = 0, pos = 0;
    CHECK_MPI(MPI_Type_size(d, &bytes));
    short *mine = tu_malloc((size_t)bytes), *got = tu_malloc((size_t)bytes);
    for (int i = 0; i < 200; i++)
        out[i] = (short)(from * 1000 + i);
    CHECK_MPI(MPI_Pack(out, 1, d, mine, bytes, &pos, MPI_COMM_WORLD));
    pos = 0;
    CHECK_MPI(MPI_Pack(in, 1, u, got, bytes, &pos, MPI_COMM_WORLD));
    CHECK_MSG(memcmp(mine, got, (size_t)bytes) == 0, "a message through the rebuilt type lost its layout");
    free(mine);
    free(got);
    CHECK_MPI(MPI_Type_free(&d));
    CHECK_MPI(MPI_Type_free(&u));
}

#if MPI_VERSION >= 4
/* The MPI_Count forms (MPI-4.0; Open MPI 4.1 is MPI-3.1 and lacks them) agree with the int forms. */
static void count_forms(void)
{
    MPI_Datatype base, t, types[2] = {MPI_INT, MPI_DATATYPE_NULL};
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &base));
    types[1] = base;
    const int bl[2] = {1, 2};
    const MPI_Aint d[2] = {0, 16};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, types, &t));
    MPI_Count ni, na, nl, nd;
    int combiner;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &combiner));
    CHECK(ni == 3 && na == 2 && nl == 0 && nd == 2 && combiner == MPI_COMBINER_STRUCT);
    int ints[3];
    MPI_Aint addrs[2];
    MPI_Count counts[1] = {-7};
    MPI_Datatype out[2];
    CHECK_MPI(MPI_Type_get_contents_c(t, 3, 2, 1, 2, ints, addrs, counts, out));
    CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 2 && addrs[0] == 0 && addrs[1] == 16 && out[0] == MPI_INT);
    CHECK_EQ(-7, counts[0]);
    CHECK_EQ(MPI_COMBINER_VECTOR, combiner_of(out[1]));
    CHECK_MPI(MPI_Type_free(&out[1]));
    CHECK_MPI(MPI_Type_get_envelope_c(MPI_INT, &ni, &na, &nl, &nd, &combiner));
    CHECK(ni == 0 && na == 0 && nl == 0 && nd == 0 && combiner == MPI_COMBINER_NAMED);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&base));
}
#endif

#ifdef SKIFF_MPI
/* skiff's MPI-1 constructors (removed from the standard) decode as their MPI-2 forms: the MPI-5 ABI has no
 * MPI_COMBINER_HVECTOR_INTEGER and kin, which only Fortran bindings ever produced. */
static void mpi1_names(void)
{
    MPI_Datatype t, types[2] = {MPI_INT, MPI_DOUBLE};
    int bl[2] = {1, 2};
    MPI_Aint d[2] = {0, 8};
    CHECK_MPI(MPI_Type_hvector(2, 1, 12, MPI_INT, &t));
    round_trip(t, MPI_COMBINER_HVECTOR, 2, 1, 1, "MPI_Type_hvector");
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_hindexed(2, bl, d, MPI_INT, &t));
    round_trip(t, MPI_COMBINER_HINDEXED, 3, 2, 1, "MPI_Type_hindexed");
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_struct(2, bl, d, types, &t));
    round_trip(t, MPI_COMBINER_STRUCT, 3, 2, 2, "MPI_Type_struct");
    CHECK_MPI(MPI_Type_free(&t));
}

static void errors(void)
{
    int cls, ints[4];
    MPI_Aint addrs[1];
    MPI_Datatype types[1], t;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Error_class(MPI_Type_get_contents(MPI_INT, 0, 0, 0, ints, addrs, types), &cls));
    CHECK_EQ(MPI_ERR_TYPE, cls);
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &t));
    CHECK_MPI(MPI_Error_class(MPI_Type_get_contents(t, 2, 0, 1, ints, addrs, types), &cls));
    CHECK_EQ(MPI_ERR_ARG, cls);
    CHECK_MPI(MPI_Error_class(MPI_Type_get_contents(t, 3, 0, 0, ints, addrs, types), &cls));
    CHECK_EQ(MPI_ERR_ARG, cls);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}
#endif

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    rank = tu_rank();
    size = tu_size();
    for (int i = 0; i < 2 * SPAN; i++)
        pattern[i] = (unsigned char)(i * 7 + i / 251);
    every_combiner();
    freed_parts();
#if MPI_VERSION >= 4
    count_forms();
#endif
#ifdef SKIFF_MPI
    mpi1_names();
    errors();
#endif
    return tu_finish("dt_decode");
}
