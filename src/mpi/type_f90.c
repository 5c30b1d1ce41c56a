/* Fortran 90 parameterized types and matching a size to a type: MPI_Type_create_f90_integer/real/complex
 * and MPI_Type_match_size. The kinds are gfortran's on this platform (selected_int_kind and
 * selected_real_kind pick the smallest that holds the range r and precision p): INTEGER(1,2,4,8,16) and
 * REAL(4,8,16), REAL(16) being IEEE binary128. gfortran's REAL(10) (x87 extended) has no MPI datatype, so a
 * precision of 16 to 33 digits gets REAL(16). */
#include <stdlib.h>

#include "core/type_extra.h"
#include "mpi/mpi_impl.h"

/* The standard makes these types predefined: the same (p, r) gives the same handle, which cannot be freed.
 * Each is a copy of the sized type it stands for, recorded with the F90 combiner and its (p, r). */
struct f90 {
    int combiner, p, r;
    MPI_Datatype h;
};

static struct {
    struct f90 *v;
    int n;
} cache;

static MPI_Datatype cached(int combiner, int p, int r)
{
    for (int i = 0; i < cache.n; i++)
        if (cache.v[i].combiner == combiner && cache.v[i].p == p && cache.v[i].r == r)
            return cache.v[i].h;
    return MPI_DATATYPE_NULL;
}

static int make(int combiner, int p, int r, MPI_Datatype base, MPI_Datatype *out)
{
    struct skiff_type *t = NULL;
    struct f90 *v = realloc(cache.v, sizeof *v * (size_t)(cache.n + 1));
    if (!v)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a Fortran 90 datatype");
    cache.v = v;
    int rc = skiff_type_dup(skiff_type_get(base), &t);
    if (rc)
        return rc;
    t->name = skiff_type_get(base)->name;
    const int pr[2] = {p, r};
    struct skiff_type_record rec = {combiner, {{combiner == MPI_COMBINER_F90_INTEGER ? pr + 1 : pr,
                                                combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2}}, NULL, 0, NULL, 0};
    if ((rc = skiff_type_record(t, &rec))) {
        skiff_type_free(t);
        return rc;
    }
    *out = skiff_type_handle(t);
    cache.v[cache.n++] = (struct f90){combiner, p, r, *out};
    return MPI_SUCCESS;
}

/* The handle for (p, r), made on first use; base is the sized type, or MPI_DATATYPE_NULL for none. */
static int f90_type(int combiner, int p, int r, MPI_Datatype base, MPI_Datatype *newtype)
{
    int rc = skiff_check_ptr(newtype, "newtype");
    if (rc)
        return skiff_fail_world(rc);
    if (base == MPI_DATATYPE_NULL || !skiff_type_get(base))
        return skiff_fail_world(skiff_err(MPI_ERR_ARG, "no Fortran kind here has precision p = %d and range r = %d "
                                                       "(MPI_UNDEFINED = %d: not asked for)", p, r, MPI_UNDEFINED));
    MPI_Datatype h = cached(combiner, p, r);
    if (h == MPI_DATATYPE_NULL && (rc = make(combiner, p, r, base, &h)))
        return skiff_fail_world(rc);
    *newtype = h;
    return MPI_SUCCESS;
}

/* selected_real_kind(p, r): index 0, 1, 2 for REAL(4), (8), (16); -1 if none. */
static int real_kind(int p, int r)
{
    static const int maxp[3] = {6, 15, 33}, maxr[3] = {37, 307, 4931};
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return -1;
    p = p == MPI_UNDEFINED ? 0 : p;
    r = r == MPI_UNDEFINED ? 0 : r;
    for (int k = 0; k < 3; k++)
        if (p <= maxp[k] && r <= maxr[k])
            return k;
    return -1;
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    static const int maxr[5] = {2, 4, 9, 18, 38};
    static const MPI_Datatype kinds[5] = {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8, MPI_INTEGER16};
    SKIFF_ENTER(MPI_Type_create_f90_integer);
    MPI_Datatype base = MPI_DATATYPE_NULL;
    for (int k = 0; k < 5 && base == MPI_DATATYPE_NULL && r != MPI_UNDEFINED; k++)
        if (r <= maxr[k])
            base = kinds[k];
    return f90_type(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, base, newtype);
}
SKIFF_ALIAS(MPI_Type_create_f90_integer)

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    static const MPI_Datatype kinds[3] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
    SKIFF_ENTER(MPI_Type_create_f90_real);
    int k = real_kind(p, r);
    return f90_type(MPI_COMBINER_F90_REAL, p, r, k < 0 ? MPI_DATATYPE_NULL : kinds[k], newtype);
}
SKIFF_ALIAS(MPI_Type_create_f90_real)

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    static const MPI_Datatype kinds[3] = {MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
    SKIFF_ENTER(MPI_Type_create_f90_complex);
    int k = real_kind(p, r);
    return f90_type(MPI_COMBINER_F90_COMPLEX, p, r, k < 0 ? MPI_DATATYPE_NULL : kinds[k], newtype);
}
SKIFF_ALIAS(MPI_Type_create_f90_complex)

/* The Fortran default kinds first where their size matches (as MPICH answers), then the sized ones. */
static MPI_Datatype match(int typeclass, int size)
{
    static const struct {
        int cls, size;
        MPI_Datatype h;
    } table[] = {
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER},         {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},
        {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},        {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16},      {MPI_TYPECLASS_REAL, 4, MPI_REAL},
        {MPI_TYPECLASS_REAL, 8, MPI_DOUBLE_PRECISION},   {MPI_TYPECLASS_REAL, 16, MPI_REAL16},
        {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX},         {MPI_TYPECLASS_COMPLEX, 16, MPI_DOUBLE_COMPLEX},
        {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].cls == typeclass && table[i].size == size && skiff_type_get(table[i].h))
            return table[i].h;
    return MPI_DATATYPE_NULL;
}

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    SKIFF_ENTER(MPI_Type_match_size);
    int rc = skiff_check_ptr(datatype, "datatype");
    if (rc)
        return skiff_fail_world(rc);
    if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL && typeclass != MPI_TYPECLASS_COMPLEX)
        return skiff_fail_world(skiff_err(MPI_ERR_ARG, "invalid typeclass %d (must be MPI_TYPECLASS_INTEGER, _REAL "
                                                       "or _COMPLEX)", typeclass));
    MPI_Datatype h = match(typeclass, size);
    if (h == MPI_DATATYPE_NULL)
        return skiff_fail_world(skiff_err(MPI_ERR_ARG, "no %s datatype here has %d bytes",
                                          typeclass == MPI_TYPECLASS_INTEGER ? "integer"
                                          : typeclass == MPI_TYPECLASS_REAL  ? "real"
                                                                             : "complex",
                                          size));
    *datatype = h;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_match_size)
