/* Attribute caching on communicators, and the predefined attributes of the environment. */
#include "core/core.h"
#include "mpi/mpi_impl.h"

/* The predefined attributes' values live here for the whole run: users get pointers to them. */
static int tag_ub = SKIFF_TAG_UB;
static int host = MPI_PROC_NULL;
static int io = MPI_ANY_SOURCE;        /* every process can do I/O */
static int wtime_is_global = 0;        /* clocks are per process */
static int universe_size;              /* the job: skiff starts no processes later */
static int appnum = 0;                 /* mpiexec runs one program */
static int lastusedcode = MPI_ERR_LASTCODE;

static int *predefined(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB:
        return &tag_ub;
    case MPI_HOST:
        return &host;
    case MPI_IO:
        return &io;
    case MPI_WTIME_IS_GLOBAL:
        return &wtime_is_global;
    case MPI_UNIVERSE_SIZE:
        universe_size = skiff.size;
        return &universe_size;
    case MPI_APPNUM:
        return &appnum;
    case MPI_LASTUSEDCODE:
        lastusedcode = skiff_err_lastused(); /* grows with MPI_Add_error_class/_code */
        return &lastusedcode;
    default:
        return NULL;
    }
}

/* The table below is indexed by keyval - MPI_TAG_UB. */
_Static_assert(MPI_IO == MPI_TAG_UB + 1 && MPI_HOST == MPI_TAG_UB + 2 && MPI_WTIME_IS_GLOBAL == MPI_TAG_UB + 3 &&
                   MPI_UNIVERSE_SIZE == MPI_TAG_UB + 4 && MPI_APPNUM == MPI_TAG_UB + 5 &&
                   MPI_LASTUSEDCODE == MPI_TAG_UB + 6,
               "the predefined keyvals must be consecutive, in this order, from MPI_TAG_UB");

/* keyval is one that predefined() answers: MPI_TAG_UB .. MPI_LASTUSEDCODE. */
static const char *predefined_name(int keyval)
{
    static const char *const names[] = {"MPI_TAG_UB",        "MPI_IO",     "MPI_HOST",        "MPI_WTIME_IS_GLOBAL",
                                        "MPI_UNIVERSE_SIZE", "MPI_APPNUM", "MPI_LASTUSEDCODE"};
    _Static_assert(sizeof names / sizeof names[0] == MPI_LASTUSEDCODE - MPI_TAG_UB + 1, "a name per keyval");
    return names[keyval - MPI_TAG_UB];
}

/* A keyval the user may set, delete or free: predefined ones are read-only, MPI_KEYVAL_INVALID is no keyval;
 * the others are checked by core/attr.c. */
static int check_user_keyval(int keyval)
{
    if (SKIFF_UNLIKELY(predefined(keyval)))
        return skiff_err(MPI_ERR_KEYVAL, "keyval %d (%s) is predefined: it cannot be set, deleted or freed", keyval,
                         predefined_name(keyval));
    if (SKIFF_UNLIKELY(keyval == MPI_KEYVAL_INVALID))
        return skiff_err(MPI_ERR_KEYVAL, "invalid keyval MPI_KEYVAL_INVALID");
    return MPI_SUCCESS;
}

/* The bodies below are shared by the MPI-2 calls and their MPI-1 names (MPI_Keyval_create, MPI_Attr_put,
 * ...), which differ only in the name their errors give. */
static int create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                         MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval, void *extra_state,
                         const char *keyval_name)
{
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(comm_keyval, keyval_name);
    if (!rc)
        rc = skiff_keyval_create(comm_copy_attr_fn, comm_delete_attr_fn, extra_state, comm_keyval);
    return skiff_fail_world(rc);
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
    SKIFF_ENTER(MPI_Comm_create_keyval);
    return create_keyval(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state, "comm_keyval");
}
SKIFF_ALIAS(MPI_Comm_create_keyval)

static int free_keyval(int *comm_keyval, const char *keyval_name)
{
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(comm_keyval, keyval_name);
    if (!rc && !(rc = check_user_keyval(*comm_keyval)))
        rc = skiff_keyval_free(*comm_keyval);
    if (rc)
        return skiff_fail_world(rc);
    *comm_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

int PMPI_Comm_free_keyval(int *comm_keyval)
{
    SKIFF_ENTER(MPI_Comm_free_keyval);
    return free_keyval(comm_keyval, "comm_keyval");
}
SKIFF_ALIAS(MPI_Comm_free_keyval)

static int set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    struct skiff_comm *c = NULL;
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_user_keyval(comm_keyval)))
        rc = skiff_attr_set(c, comm_keyval, attribute_val);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    SKIFF_ENTER(MPI_Comm_set_attr);
    return set_attr(comm, comm_keyval, attribute_val);
}
SKIFF_ALIAS(MPI_Comm_set_attr)

static int get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    struct skiff_comm *c = NULL;
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = skiff_check_ptr(attribute_val, "attribute_val")))
        rc = skiff_check_ptr(flag, "flag");
    if (rc)
        return skiff_fail(comm, rc);
    /* attribute_val is really a void **: the standard's C binding types it void * for Fortran's sake. */
    int *p = predefined(comm_keyval);
    if (p) {
        *(void **)attribute_val = p;
        *flag = 1;
        return MPI_SUCCESS;
    }
    rc = skiff_attr_get(c, comm_keyval, (void **)attribute_val, flag);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    SKIFF_ENTER(MPI_Comm_get_attr);
    return get_attr(comm, comm_keyval, attribute_val, flag);
}
SKIFF_ALIAS(MPI_Comm_get_attr)

static int delete_attr(MPI_Comm comm, int comm_keyval)
{
    struct skiff_comm *c = NULL;
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_user_keyval(comm_keyval)))
        rc = skiff_attr_delete(c, comm_keyval);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    SKIFF_ENTER(MPI_Comm_delete_attr);
    return delete_attr(comm, comm_keyval);
}
SKIFF_ALIAS(MPI_Comm_delete_attr)

/* The MPI-1 names (deprecated since MPI-2.0, still in MPI-4.1 and in old codes). MPI_Copy_function has
 * MPI_Comm_copy_attr_function's signature, and MPI_DUP_FN / MPI_NULL_COPY_FN / MPI_NULL_DELETE_FN the
 * MPI_COMM_ ones' values. */
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state)
{
    SKIFF_ENTER(MPI_Keyval_create);
    return create_keyval(copy_fn, delete_fn, keyval, extra_state, "keyval");
}
SKIFF_ALIAS(MPI_Keyval_create)

int PMPI_Keyval_free(int *keyval)
{
    SKIFF_ENTER(MPI_Keyval_free);
    return free_keyval(keyval, "keyval");
}
SKIFF_ALIAS(MPI_Keyval_free)

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    SKIFF_ENTER(MPI_Attr_put);
    return set_attr(comm, keyval, attribute_val);
}
SKIFF_ALIAS(MPI_Attr_put)

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    SKIFF_ENTER(MPI_Attr_get);
    return get_attr(comm, keyval, attribute_val, flag);
}
SKIFF_ALIAS(MPI_Attr_get)

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    SKIFF_ENTER(MPI_Attr_delete);
    return delete_attr(comm, keyval);
}
SKIFF_ALIAS(MPI_Attr_delete)
