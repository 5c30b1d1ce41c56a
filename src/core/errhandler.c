#include "core/errhandler.h"

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "core/error.h"
#include "core/objpool.h"
#include "util/arch.h"
#include "util/log.h"
#include "util/refcount.h"

static struct skiff_objpool pool = SKIFF_OBJPOOL_INIT(struct skiff_errhandler);

const char *skiff_eh_kind_name(enum skiff_eh_kind kind)
{
    static const char *const names[] = {"communicator", "session", "window", "file"};
    return names[kind];
}

struct skiff_errhandler *skiff_eh_user(MPI_Errhandler h)
{
    /* Predefined handles are small integers; anything else is a pointer into the pool. */
    if ((uintptr_t)h < 0x1000 || (uintptr_t)h % sizeof(void *))
        return NULL;
    struct skiff_errhandler *e = (struct skiff_errhandler *)(void *)h;
    return e->magic == SKIFF_EH_MAGIC ? e : NULL;
}

int skiff_eh_check(MPI_Errhandler h, enum skiff_eh_kind kind)
{
    if (SKIFF_LIKELY(h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT))
        return MPI_SUCCESS;
    if (h == MPI_ERRHANDLER_NULL)
        return skiff_err(MPI_ERR_ERRHANDLER, "invalid error handler MPI_ERRHANDLER_NULL");
    struct skiff_errhandler *e = skiff_eh_user(h);
    if (!e)
        return skiff_err(MPI_ERR_ERRHANDLER, "invalid error handler %p (not a predefined one, not made by a "
                         "create_errhandler call, or already freed)", (void *)h);
    if (e->kind != kind)
        return skiff_err(MPI_ERR_ERRHANDLER, "error handler %p was made for a %s; it cannot be attached to a %s",
                         (void *)h, skiff_eh_kind_name(e->kind), skiff_eh_kind_name(kind));
    return MPI_SUCCESS;
}

MPI_Errhandler skiff_eh_create(enum skiff_eh_kind kind, skiff_eh_fn fn)
{
    struct skiff_errhandler *e = skiff_objpool_get(&pool);
    if (!e)
        return MPI_ERRHANDLER_NULL;
    *e = (struct skiff_errhandler){.magic = SKIFF_EH_MAGIC, .kind = kind, .fn = fn, .refs = 1};
    return (MPI_Errhandler)(void *)e;
}

void skiff_eh_retain(MPI_Errhandler h)
{
    struct skiff_errhandler *e = skiff_eh_user(h);
    if (e)
        skiff_ref_inc(&e->refs);
}

void skiff_eh_release(MPI_Errhandler h)
{
    struct skiff_errhandler *e = skiff_eh_user(h);
    if (e && skiff_ref_dec(&e->refs))
        skiff_objpool_put(&pool, e); /* zeroes the magic */
}

void skiff_eh_attach(MPI_Errhandler *slot, MPI_Errhandler h)
{
    /* Retain first: h may be the handler already there, held only by this object. */
    skiff_eh_retain(h);
    skiff_eh_release(*slot);
    *slot = h;
}

/* The handler's function has the object's own handle type; calling it through another function
 * type would be undefined, so each kind gets its own cast. */
static void call_user(const struct skiff_errhandler *e, void *object, int *code)
{
    switch (e->kind) {
    case SKIFF_EH_COMM:
        ((void (*)(MPI_Comm *, int *, ...))e->fn)(object, code);
        break;
    case SKIFF_EH_SESSION:
        ((void (*)(MPI_Session *, int *, ...))e->fn)(object, code);
        break;
    case SKIFF_EH_WIN:
        ((void (*)(MPI_Win *, int *, ...))e->fn)(object, code);
        break;
    case SKIFF_EH_FILE:
        ((void (*)(MPI_File *, int *, ...))e->fn)(object, code);
        break;
    }
}

/* MPI_ERRORS_ABORT asks to end only the processes of the object's group, but a skiff job ends as a
 * whole when one of its ranks aborts (the launcher tears the others down): like MPI_Abort on that
 * communicator, it ends the whole job and says so. */
static _Noreturn void fatal(MPI_Errhandler eh, enum skiff_eh_kind kind, const char *label, int code)
{
    char msg[MPI_MAX_ERROR_STRING];
    if (skiff_err_string(code, msg) != 0 || !msg[0])
        snprintf(msg, sizeof msg, "error code %d", code);
    skiff_error_named("%s", msg);
    char why[160];
    if (eh == MPI_ERRORS_ABORT)
        snprintf(why, sizeof why, "MPI_ERRORS_ABORT on %s %s (skiff ends the whole job)", skiff_eh_kind_name(kind),
                 label);
    else
        snprintf(why, sizeof why, "MPI_ERRORS_ARE_FATAL");
    skiff_abort_job(skiff_err_class(code), why);
}

int skiff_eh_invoke(MPI_Errhandler eh, enum skiff_eh_kind kind, void *object, const char *label, int code)
{
    if (SKIFF_LIKELY(eh == MPI_ERRORS_RETURN))
        return code;
    struct skiff_errhandler *e = skiff_eh_user(eh);
    if (!e)
        fatal(eh, kind, label, code);
    /* The handler may free the last reference (MPI_Errhandler_free inside it, or freeing the object):
     * keep it alive for the call. */
    skiff_ref_inc(&e->refs);
    int arg = code;
    call_user(e, object, &arg);
    skiff_eh_release(eh);
    return code;
}
