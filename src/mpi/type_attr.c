/* Attribute caching on datatypes: the keyvals and lists of core/attr.c, which keeps datatype keyvals apart
 * from communicator ones. Predefined datatypes take attributes too (MPICH and Open MPI allow it); MPI_Type_dup
 * runs the copy callbacks and MPI_Type_free the delete callbacks (src/mpi/datatype.c). */
#include "core/type_extra.h"
#include "mpi/mpi_impl.h"

static int check_keyval(int keyval)
{
    if (SKIFF_UNLIKELY(keyval == MPI_KEYVAL_INVALID))
        return skiff_err(MPI_ERR_KEYVAL, "invalid keyval MPI_KEYVAL_INVALID");
    return MPI_SUCCESS;
}

/* The datatype and its attribute list (made on first use when create). */
static int get_attrs(MPI_Datatype dt, int keyval, int create, const struct skiff_type **t,
                     struct skiff_type_extra **x)
{
    int rc = skiff_check_dtype(dt, 0, t);
    if (rc || (rc = check_keyval(keyval)))
        return rc;
    *x = skiff_type_extra(*t, create);
    if (create && !*x)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory caching an attribute on a datatype");
    return MPI_SUCCESS;
}

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state)
{
    SKIFF_ENTER(MPI_Type_create_keyval);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(type_keyval, "type_keyval");
    if (!rc)
        rc = skiff_type_keyval_create(type_copy_attr_fn, type_delete_attr_fn, extra_state, type_keyval);
    return skiff_fail_world(rc);
}
SKIFF_ALIAS(MPI_Type_create_keyval)

int PMPI_Type_free_keyval(int *type_keyval)
{
    SKIFF_ENTER(MPI_Type_free_keyval);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(type_keyval, "type_keyval");
    if (!rc && !(rc = check_keyval(*type_keyval)))
        rc = skiff_type_keyval_free(*type_keyval);
    if (rc)
        return skiff_fail_world(rc);
    *type_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_free_keyval)

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    const struct skiff_type *t = NULL;
    struct skiff_type_extra *x = NULL;
    SKIFF_ENTER(MPI_Type_set_attr);
    SKIFF_REQUIRE_INIT();
    int rc = get_attrs(datatype, type_keyval, 1, &t, &x);
    if (!rc)
        rc = skiff_type_attr_set(&x->attrs, skiff_type_user_handle(t), type_keyval, attribute_val);
    return skiff_fail_world(rc);
}
SKIFF_ALIAS(MPI_Type_set_attr)

/* attribute_val is really a void **: the standard's C binding types it void * for Fortran's sake. */
int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    const struct skiff_type *t = NULL;
    struct skiff_type_extra *x = NULL;
    static const struct skiff_attrs none;
    SKIFF_ENTER(MPI_Type_get_attr);
    SKIFF_REQUIRE_INIT();
    int rc = get_attrs(datatype, type_keyval, 0, &t, &x);
    if (!rc && !(rc = skiff_check_ptr(attribute_val, "attribute_val")) && !(rc = skiff_check_ptr(flag, "flag")))
        rc = skiff_type_attr_get(x ? &x->attrs : &none, type_keyval, (void **)attribute_val, flag);
    return skiff_fail_world(rc);
}
SKIFF_ALIAS(MPI_Type_get_attr)

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    const struct skiff_type *t = NULL;
    struct skiff_type_extra *x = NULL;
    SKIFF_ENTER(MPI_Type_delete_attr);
    SKIFF_REQUIRE_INIT();
    int rc = get_attrs(datatype, type_keyval, 1, &t, &x);
    if (!rc)
        rc = skiff_type_attr_delete(&x->attrs, skiff_type_user_handle(t), type_keyval);
    return skiff_fail_world(rc);
}
SKIFF_ALIAS(MPI_Type_delete_attr)
