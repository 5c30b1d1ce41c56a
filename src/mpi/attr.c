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

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
    SKIFF_ENTER(MPI_Comm_create_keyval);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(comm_keyval, "comm_keyval");
    if (!rc)
        rc = skiff_keyval_create(comm_copy_attr_fn, comm_delete_attr_fn, extra_state, comm_keyval);
    return skiff_fail_world(rc);
}
SKIFF_ALIAS(MPI_Comm_create_keyval)

int PMPI_Comm_free_keyval(int *comm_keyval)
{
    SKIFF_ENTER(MPI_Comm_free_keyval);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(comm_keyval, "comm_keyval");
    if (!rc && !(rc = check_user_keyval(*comm_keyval)))
        rc = skiff_keyval_free(*comm_keyval);
    if (rc)
        return skiff_fail_world(rc);
    *comm_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_free_keyval)

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Comm_set_attr);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_user_keyval(comm_keyval)))
        rc = skiff_attr_set(c, comm_keyval, attribute_val);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_set_attr)

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Comm_get_attr);
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
SKIFF_ALIAS(MPI_Comm_get_attr)

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Comm_delete_attr);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_user_keyval(comm_keyval)))
        rc = skiff_attr_delete(c, comm_keyval);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_delete_attr)
