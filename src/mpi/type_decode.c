/* Decoding a datatype (MPI_Type_get_envelope, MPI_Type_get_contents) and naming one. The constructors
 * record their arguments (core/type_extra.h); these calls give them back. */
#include <string.h>

#include "core/type_extra.h"
#include "mpi/mpi_impl.h"

/* A derived type always has its record; one without would be a skiff bug, said as such. */
static int get_contents_record(MPI_Datatype dt, const struct skiff_type **t, const struct skiff_type_contents **c)
{
    int rc = skiff_check_dtype(dt, 0, t);
    if (rc || (*t)->predefined)
        return rc;
    const struct skiff_type_extra *x = skiff_type_extra(*t, 0);
    if (!x || !x->contents)
        return skiff_err(MPI_ERR_INTERN, "this derived datatype (%zu bytes of data) has no record of its constructor",
                         (*t)->size);
    *c = x->contents;
    return MPI_SUCCESS;
}

/* A type made by a large-count (_c) constructor decodes only through the _c calls (MPI-4.0 5.1.13). */
static int not_large(const struct skiff_type_contents *c, const char *instead)
{
    if (!c || !c->nl)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_TYPE, "the datatype was made by a large-count constructor (%d large counts): "
                                   "decode it with %s", c->nl, instead);
}

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes,
                           int *combiner)
{
    const struct skiff_type *t = NULL;
    const struct skiff_type_contents *c = NULL;
    SKIFF_ENTER(MPI_Type_get_envelope);
    int rc = get_contents_record(datatype, &t, &c);
    if (rc || (rc = skiff_check_ptr(num_integers, "num_integers")) ||
        (rc = skiff_check_ptr(num_addresses, "num_addresses")) ||
        (rc = skiff_check_ptr(num_datatypes, "num_datatypes")) || (rc = skiff_check_ptr(combiner, "combiner")) ||
        (rc = not_large(c, "MPI_Type_get_envelope_c")))
        return skiff_fail_world(rc);
    *num_integers = c ? c->ni : 0;
    *num_addresses = c ? c->na : 0;
    *num_datatypes = c ? c->nd : 0;
    *combiner = c ? c->combiner : MPI_COMBINER_NAMED;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_get_envelope)

static int check_room(int max, int need, const void *array, const char *maxname, const char *arrayname)
{
    if (max < need)
        return skiff_err(MPI_ERR_ARG, "%s = %d, but the datatype has %d of them (MPI_Type_get_envelope says how "
                                      "many)", maxname, max, need);
    return skiff_check_array(need, array, arrayname);
}

static int check_contents(const struct skiff_type *t, const struct skiff_type_contents *c, int max_integers,
                          int max_addresses, int max_datatypes, const int *ints, const MPI_Aint *addrs,
                          const MPI_Datatype *types)
{
    int rc;
    if (!c)
        return skiff_err(MPI_ERR_TYPE, "%s is a predefined datatype (combiner MPI_COMBINER_NAMED): it has no "
                                       "contents to get", skiff_type_name(t));
    if ((rc = check_room(max_integers, c->ni, ints, "max_integers", "array_of_integers")) ||
        (rc = check_room(max_addresses, c->na, addrs, "max_addresses", "array_of_addresses")) ||
        (rc = check_room(max_datatypes, c->nd, types, "max_datatypes", "array_of_datatypes")))
        return rc;
    return MPI_SUCCESS;
}

/* Derived datatypes come back as new types the caller frees; if making one fails, those made go again. */
static int copy_types(const struct skiff_type_contents *c, MPI_Datatype *types)
{
    for (int i = 0; i < c->nd; i++) {
        int rc = skiff_type_copy_for_user(&c->types[i], &types[i]);
        if (rc) {
            for (int j = 0; j < i; j++)
                if (!skiff_type_fixed(c->types[j].t))
                    skiff_type_free(skiff_type_get(types[j]));
            return rc;
        }
    }
    return MPI_SUCCESS;
}

static int give_contents(const struct skiff_type_contents *c, int *ints, MPI_Aint *addrs, MPI_Datatype *types)
{
    int rc = copy_types(c, types);
    if (rc)
        return rc;
    if (c->ni)
        memcpy(ints, c->ints, sizeof *c->ints * (size_t)c->ni);
    if (c->na)
        memcpy(addrs, c->addrs, sizeof *c->addrs * (size_t)c->na);
    return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                           int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    const struct skiff_type *t = NULL;
    const struct skiff_type_contents *c = NULL;
    SKIFF_ENTER(MPI_Type_get_contents);
    int rc = get_contents_record(datatype, &t, &c);
    if (rc || (rc = not_large(c, "MPI_Type_get_contents_c")) ||
        (rc = check_contents(t, c, max_integers, max_addresses, max_datatypes, array_of_integers,
                             array_of_addresses, array_of_datatypes)))
        return skiff_fail_world(rc);
    return skiff_fail_world(give_contents(c, array_of_integers, array_of_addresses, array_of_datatypes));
}
SKIFF_ALIAS(MPI_Type_get_contents)

/* The MPI_Count forms (MPI-4.0): also the large counts of the types the _c constructors made. */
static int count_to_int(MPI_Count n, const char *name, int *out)
{
    if (n < 0)
        return skiff_err(MPI_ERR_ARG, "invalid %s = %lld (must be >= 0)", name, (long long)n);
    *out = n > INT_MAX ? INT_MAX : (int)n; /* more room than any record needs */
    return MPI_SUCCESS;
}

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                             MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner)
{
    const struct skiff_type *t = NULL;
    const struct skiff_type_contents *c = NULL;
    SKIFF_ENTER(MPI_Type_get_envelope_c);
    int rc = get_contents_record(datatype, &t, &c);
    if (rc || (rc = skiff_check_ptr(num_integers, "num_integers")) ||
        (rc = skiff_check_ptr(num_addresses, "num_addresses")) ||
        (rc = skiff_check_ptr(num_large_counts, "num_large_counts")) ||
        (rc = skiff_check_ptr(num_datatypes, "num_datatypes")) || (rc = skiff_check_ptr(combiner, "combiner")))
        return skiff_fail_world(rc);
    *num_integers = c ? c->ni : 0;
    *num_addresses = c ? c->na : 0;
    *num_large_counts = c ? c->nl : 0;
    *num_datatypes = c ? c->nd : 0;
    *combiner = c ? c->combiner : MPI_COMBINER_NAMED;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_get_envelope_c)

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    const struct skiff_type *t = NULL;
    const struct skiff_type_contents *c = NULL;
    int mi = 0, ma = 0, ml = 0, md = 0;
    SKIFF_ENTER(MPI_Type_get_contents_c);
    int rc = get_contents_record(datatype, &t, &c);
    if (rc || (rc = count_to_int(max_integers, "max_integers", &mi)) ||
        (rc = count_to_int(max_addresses, "max_addresses", &ma)) ||
        (rc = count_to_int(max_large_counts, "max_large_counts", &ml)) ||
        (rc = count_to_int(max_datatypes, "max_datatypes", &md)) ||
        (rc = check_contents(t, c, mi, ma, md, array_of_integers, array_of_addresses, array_of_datatypes)) ||
        (rc = check_room(ml, c->nl, array_of_large_counts, "max_large_counts", "array_of_large_counts")))
        return skiff_fail_world(rc);
    if (c->nl)
        memcpy(array_of_large_counts, c->lcounts, sizeof *c->lcounts * (size_t)c->nl);
    return skiff_fail_world(give_contents(c, array_of_integers, array_of_addresses, array_of_datatypes));
}
SKIFF_ALIAS(MPI_Type_get_contents_c)

/* Predefined types may be renamed too (MPICH and Open MPI allow it); longer names are cut to
 * MPI_MAX_OBJECT_NAME - 1 characters. */
int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_set_name);
    int rc = skiff_check_dtype(datatype, 0, &t);
    if (rc || (rc = skiff_check_ptr(type_name, "type_name")) || (rc = skiff_type_set_name(t, type_name)))
        return skiff_fail_world(rc);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_set_name)
