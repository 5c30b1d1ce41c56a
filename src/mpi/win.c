/* Windows as objects: making and freeing them, their group, name, hints, attributes and error handlers.
 * The engine behind them is src/rma/ (docs/design.md, "One-sided"). */
#include <string.h>

#include "core/errhandler.h"
#include "mpi/mpi_impl.h"
#include "rma/win.h"

static int check_win(MPI_Win h, struct skiff_win **out)
{
    struct skiff_win *w = skiff_win_get(h);
    if (SKIFF_UNLIKELY(!w))
        return skiff_err(MPI_ERR_WIN, "invalid window %s",
                         h == MPI_WIN_NULL ? "(MPI_WIN_NULL)" : "(not a window, or already freed)");
    *out = w;
    return MPI_SUCCESS;
}

/* Shared by every creating call: comm an intracommunicator, size >= 0, disp_unit > 0, a valid info. */
static int make(MPI_Comm comm, int flavor, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                void *baseptr, MPI_Win *win)
{
    struct skiff_comm *c = NULL;
    struct skiff_win *w = NULL;
    int rc;
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_intra(c)) || (rc = skiff_check_info(info)) ||
        (rc = skiff_check_ptr(win, "win")))
        return skiff_fail(comm, rc);
    int allocates = flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED;
    if (allocates && (rc = skiff_check_ptr(baseptr, "baseptr")))
        return skiff_fail(comm, rc);
    if (size < 0)
        return skiff_fail(comm, skiff_err(MPI_ERR_SIZE, "invalid window size %lld (must be >= 0)", (long long)size));
    if (disp_unit <= 0 || disp_unit > INT_MAX)
        return skiff_fail(comm, skiff_err(MPI_ERR_DISP, "invalid disp_unit %lld (must be 1..%d)",
                                          (long long)disp_unit, INT_MAX));
    void *got = NULL;
    rc = skiff_win_make(c, flavor, base, size, (int)disp_unit, skiff_info_get(info), &got, &w);
    if (rc)
        return skiff_fail(comm, rc);
    if (allocates)
        memcpy(baseptr, &got, sizeof got);
    *win = w->handle;
    return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    SKIFF_ENTER(MPI_Win_create);
    return make(comm, MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, NULL, win);
}
SKIFF_ALIAS(MPI_Win_create)

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    SKIFF_ENTER(MPI_Win_create_c);
    return make(comm, MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, NULL, win);
}
SKIFF_ALIAS(MPI_Win_create_c)

/* Dynamic: no memory at first; MPI_Win_attach adds some, and displacements are addresses (MPI_BOTTOM). */
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    SKIFF_ENTER(MPI_Win_create_dynamic);
    return make(comm, MPI_WIN_FLAVOR_DYNAMIC, MPI_BOTTOM, 0, 1, info, NULL, win);
}
SKIFF_ALIAS(MPI_Win_create_dynamic)

static int check_dynamic(MPI_Win win, struct skiff_win **w)
{
    int rc = check_win(win, w);
    if (!rc && (*w)->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        rc = skiff_err(MPI_ERR_RMA_FLAVOR, "the window was not made by MPI_Win_create_dynamic");
    return rc;
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_attach);
    SKIFF_REQUIRE_INIT();
    int rc = check_dynamic(win, &w);
    if (!rc && size < 0)
        rc = skiff_err(MPI_ERR_SIZE, "invalid size %lld (must be >= 0)", (long long)size);
    if (!rc && !base && size)
        rc = skiff_err(MPI_ERR_BASE, "base is NULL but size is %lld", (long long)size);
    if (!rc)
        rc = skiff_win_attach(w, base, (size_t)size);
    return rc ? skiff_win_fail(win, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_attach)

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_detach);
    SKIFF_REQUIRE_INIT();
    int rc = check_dynamic(win, &w);
    if (!rc)
        rc = skiff_win_detach(w, base);
    return rc ? skiff_win_fail(win, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_detach)

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    SKIFF_ENTER(MPI_Win_allocate);
    return make(comm, MPI_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info, baseptr, win);
}
SKIFF_ALIAS(MPI_Win_allocate)

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                        MPI_Win *win)
{
    SKIFF_ENTER(MPI_Win_allocate_c);
    return make(comm, MPI_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info, baseptr, win);
}
SKIFF_ALIAS(MPI_Win_allocate_c)

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                             MPI_Win *win)
{
    SKIFF_ENTER(MPI_Win_allocate_shared);
    return make(comm, MPI_WIN_FLAVOR_SHARED, NULL, size, disp_unit, info, baseptr, win);
}
SKIFF_ALIAS(MPI_Win_allocate_shared)

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                               MPI_Win *win)
{
    SKIFF_ENTER(MPI_Win_allocate_shared_c);
    return make(comm, MPI_WIN_FLAVOR_SHARED, NULL, size, disp_unit, info, baseptr, win);
}
SKIFF_ALIAS(MPI_Win_allocate_shared_c)

static int shared_query(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *unit, void *baseptr)
{
    struct skiff_win *w = NULL;
    int rc, du = 0;
    SKIFF_REQUIRE_INIT();
    if ((rc = check_win(win, &w)) || (rc = skiff_check_ptr(size, "size")) ||
        (rc = skiff_check_ptr(unit, "disp_unit")) || (rc = skiff_check_ptr(baseptr, "baseptr")))
        return skiff_win_fail(win, rc);
    if (w->flavor != MPI_WIN_FLAVOR_SHARED)
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_FLAVOR, "the window was not made by "
                                                                 "MPI_Win_allocate_shared"));
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size))
        return skiff_win_fail(win, skiff_err(MPI_ERR_RANK, "invalid rank %d (the window has %d processes)", rank,
                                             w->size));
    skiff_win_shared_query(w, rank, size, &du, baseptr);
    *unit = du;
    return MPI_SUCCESS;
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    SKIFF_ENTER(MPI_Win_shared_query);
    MPI_Aint u = 0;
    int rc = shared_query(win, rank, size, disp_unit ? &u : NULL, baseptr);
    if (!rc)
        *disp_unit = (int)u;
    return rc;
}
SKIFF_ALIAS(MPI_Win_shared_query)

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    SKIFF_ENTER(MPI_Win_shared_query_c);
    return shared_query(win, rank, size, disp_unit, baseptr);
}
SKIFF_ALIAS(MPI_Win_shared_query_c)

int PMPI_Win_free(MPI_Win *win)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_free);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(win, "win");
    if (rc)
        return skiff_fail_world(rc);
    if ((rc = check_win(*win, &w)))
        return skiff_win_fail(*win, rc);
    for (int t = 0; t < w->size; t++)
        if (w->locks[t])
            return skiff_win_fail(*win, skiff_err(MPI_ERR_RMA_SYNC, "the window is still locked on rank %d: call "
                                                                    "MPI_Win_unlock first", t));
    MPI_Win h = *win;
    if ((rc = skiff_win_free(w)))
        return skiff_win_fail(h, rc);
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_free)

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_get_group);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) || (rc = skiff_check_ptr(group, "group")))
        return skiff_win_fail(win, rc);
    struct skiff_group *g = skiff_group_from(w->comm->group->world, w->comm->group->size);
    if (!g)
        return skiff_win_fail(win, skiff_err(MPI_ERR_NO_MEM, "out of memory for a group of %d processes", w->size));
    g->session = w->comm->session;
    *group = skiff_group_handle(g);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_get_group)

int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_set_name);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) || (rc = skiff_check_ptr(win_name, "win_name")))
        return skiff_win_fail(win, rc);
    size_t n = strnlen(win_name, sizeof w->name - 1); /* longer names are cut, as the standard allows */
    memcpy(w->name, win_name, n);
    w->name[n] = '\0';
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_set_name)

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_get_name);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) || (rc = skiff_check_ptr(win_name, "win_name")) ||
        (rc = skiff_check_ptr(resultlen, "resultlen")))
        return skiff_win_fail(win, rc);
    size_t n = strlen(w->name);
    memcpy(win_name, w->name, n + 1);
    *resultlen = (int)n;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_get_name)

/* No hint changes how a window works yet: they are kept and given back. */
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    struct skiff_win *w = NULL;
    struct skiff_info *in = NULL;
    SKIFF_ENTER(MPI_Win_set_info);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) || (rc = skiff_check_info_obj(info, &in)))
        return skiff_win_fail(win, rc);
    for (int i = 0; i < in->n; i++)
        if (skiff_info_set(w->info, in->e[i].key, in->e[i].value))
            return skiff_win_fail(win, skiff_err(MPI_ERR_NO_MEM, "out of memory for the window's hints"));
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_set_info)

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_get_info);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) || (rc = skiff_check_ptr(info_used, "info_used")))
        return skiff_win_fail(win, rc);
    struct skiff_info *in = skiff_info_dup(w->info);
    if (!in)
        return skiff_win_fail(win, skiff_err(MPI_ERR_NO_MEM, "out of memory for the window's hints"));
    *info_used = skiff_info_handle(in);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_get_info)

/* ---- attributes ---- */

static int win_model = MPI_WIN_UNIFIED;

static int predefined_key(int keyval)
{
    return keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL;
}

static int check_user_keyval(int keyval)
{
    if (SKIFF_UNLIKELY(predefined_key(keyval)))
        return skiff_err(MPI_ERR_KEYVAL, "keyval %d is a predefined window attribute: it cannot be set, deleted "
                                         "or freed", keyval);
    if (SKIFF_UNLIKELY(keyval == MPI_KEYVAL_INVALID))
        return skiff_err(MPI_ERR_KEYVAL, "invalid keyval MPI_KEYVAL_INVALID");
    return MPI_SUCCESS;
}

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval, void *extra_state)
{
    SKIFF_ENTER(MPI_Win_create_keyval);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(win_keyval, "win_keyval");
    if (!rc)
        rc = skiff_win_keyval_create(win_copy_attr_fn, win_delete_attr_fn, extra_state, win_keyval);
    return rc ? skiff_fail_world(rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_create_keyval)

int PMPI_Win_free_keyval(int *win_keyval)
{
    SKIFF_ENTER(MPI_Win_free_keyval);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(win_keyval, "win_keyval");
    if (!rc && !(rc = check_user_keyval(*win_keyval)))
        rc = skiff_win_keyval_free(*win_keyval);
    if (rc)
        return skiff_fail_world(rc);
    *win_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_free_keyval)

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_set_attr);
    SKIFF_REQUIRE_INIT();
    int rc = check_win(win, &w);
    if (!rc && !(rc = check_user_keyval(win_keyval)))
        rc = skiff_win_attr_set(&w->attrs, win, win_keyval, attribute_val);
    return rc ? skiff_win_fail(win, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_set_attr)

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_get_attr);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) || (rc = skiff_check_ptr(attribute_val, "attribute_val")) ||
        (rc = skiff_check_ptr(flag, "flag")))
        return skiff_win_fail(win, rc);
    /* Predefined attributes: MPI_WIN_BASE is the base itself, the others point at their values. */
    void *v = NULL;
    switch (win_keyval) {
    case MPI_WIN_BASE:
        v = w->base;
        break;
    case MPI_WIN_SIZE:
        v = &w->bytes;
        break;
    case MPI_WIN_DISP_UNIT:
        v = &w->disp_unit;
        break;
    case MPI_WIN_CREATE_FLAVOR:
        v = &w->flavor;
        break;
    case MPI_WIN_MODEL:
        v = &win_model;
        break;
    default:
        if (win_keyval == MPI_KEYVAL_INVALID)
            return skiff_win_fail(win, skiff_err(MPI_ERR_KEYVAL, "invalid keyval MPI_KEYVAL_INVALID"));
        if ((rc = skiff_win_attr_get(&w->attrs, win_keyval, &v, flag)))
            return skiff_win_fail(win, rc);
        if (*flag)
            memcpy(attribute_val, &v, sizeof v);
        return MPI_SUCCESS;
    }
    memcpy(attribute_val, &v, sizeof v);
    *flag = 1;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_get_attr)

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_delete_attr);
    SKIFF_REQUIRE_INIT();
    int rc = check_win(win, &w);
    if (!rc && !(rc = check_user_keyval(win_keyval)))
        rc = skiff_win_attr_delete(&w->attrs, win, win_keyval);
    return rc ? skiff_win_fail(win, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_delete_attr)

/* ---- error handlers ---- */

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler)
{
    SKIFF_ENTER(MPI_Win_create_errhandler);
    SKIFF_REQUIRE_INIT();
    return skiff_errhandler_create((const void *)win_errhandler_fn, "win_errhandler_fn", SKIFF_EH_WIN, errhandler);
}
SKIFF_ALIAS(MPI_Win_create_errhandler)

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_set_errhandler);
    SKIFF_REQUIRE_INIT();
    int rc = check_win(win, &w);
    if (!rc)
        rc = skiff_eh_check(errhandler, SKIFF_EH_WIN);
    if (rc)
        return skiff_win_fail(win, rc);
    skiff_eh_attach(&w->errhandler, errhandler);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_set_errhandler)

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_get_errhandler);
    SKIFF_REQUIRE_INIT();
    int rc = check_win(win, &w);
    if (!rc)
        rc = skiff_check_ptr(errhandler, "errhandler");
    if (rc)
        return skiff_win_fail(win, rc);
    skiff_eh_retain(w->errhandler); /* the caller's own reference, given back by MPI_Errhandler_free */
    *errhandler = w->errhandler;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_get_errhandler)

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_call_errhandler);
    SKIFF_REQUIRE_INIT();
    int rc = check_win(win, &w);
    if (rc)
        return skiff_fail_world(rc);
    /* As for communicators: MPI_SUCCESS once the handler returns. */
    (void)skiff_win_fail(win, errorcode);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_call_errhandler)
