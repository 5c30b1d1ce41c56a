/* Handles as integers: MPI-5's MPI_X_toint/MPI_X_fromint and Fortran's MPI_X_c2f/MPI_X_f2c, for every
 * kind of handle. They give the same integers (MPI_Fint is int): a predefined handle is its ABI value; a
 * user handle (communicator, group, datatype, op, request, info, message, session, error handler) gets
 * one from its kind's table (core/handle_table.h), the same for as long as the handle lives. The calls
 * have no error code to return, so a handle that is not live converts to its kind's null value and an
 * integer that names no live handle to the null handle. For kinds skiff has no objects of (file)
 * only the predefined handles convert. Unprofiled, like MPI_Wtime: bindings call these around
 * every call they forward. */
#include "mpi/handle_convert.h"

#include "core/errhandler.h"
#include "core/handle_table.h"
#include "core/op.h"
#include "core/request.h"
#include "mpi/mpi_impl.h"
#include "mpi/session.h"
#include "rma/win.h"

/* Every predefined handle of the ABI is below this; every user handle (an address or a request id
 * whose generation is >= 1) is above it. */
#define PREDEFINED_LIMIT 0x400u

static int comm_live(uintptr_t h)
{
    return skiff_comm_get((MPI_Comm)h) != NULL;
}

static int group_live(uintptr_t h)
{
    return skiff_group_get((MPI_Group)h) != NULL;
}

static int type_live(uintptr_t h)
{
    return skiff_type_get((MPI_Datatype)h) != NULL;
}

static int op_live(uintptr_t h)
{
    return skiff_op_user((MPI_Op)h) != NULL;
}

static int info_live(uintptr_t h)
{
    return skiff_info_get((MPI_Info)h) != NULL;
}

/* A request the user released with MPI_Request_free may still be in flight, but its handle is dead. */
static int request_live(uintptr_t h)
{
    struct skiff_request *r = skiff_req_of((MPI_Request)h);
    return r && !r->freed;
}

/* A message MPI_Mprobe matched and no MPI_Mrecv has received yet (its object is a request's, mpi/mprobe.c). */
static int message_live(uintptr_t h)
{
    struct skiff_request *m = skiff_req_lookup((uint64_t)h);
    return m && m->kind == SKIFF_REQ_MSG;
}

static int errhandler_live(uintptr_t h)
{
    return skiff_eh_user((MPI_Errhandler)h) != NULL;
}

static int win_live(uintptr_t h)
{
    return skiff_win_get((MPI_Win)h) != NULL;
}

static int session_live(uintptr_t h)
{
    return skiff_session_live((MPI_Session)h);
}

static struct skiff_htab comms = SKIFF_HTAB_INIT(comm_live), groups = SKIFF_HTAB_INIT(group_live),
                         types = SKIFF_HTAB_INIT(type_live), ops = SKIFF_HTAB_INIT(op_live),
                         requests = SKIFF_HTAB_INIT(request_live), infos = SKIFF_HTAB_INIT(info_live),
                         messages = SKIFF_HTAB_INIT(message_live), sessions = SKIFF_HTAB_INIT(session_live),
                         errhandlers = SKIFF_HTAB_INIT(errhandler_live), wins = SKIFF_HTAB_INIT(win_live);

struct kind {
    const char *what;       /* for the message when the table is full */
    uintptr_t null;         /* the kind's null handle */
    const uint16_t *predef; /* its other predefined handles, 0-terminated */
    int (*predefined)(uintptr_t h); /* instead of predef, for datatypes */
    struct skiff_htab *table;       /* NULL: skiff has no objects of this kind */
};

static int type_predefined(uintptr_t h)
{
    return h < PREDEFINED_LIMIT && (skiff_type_get((MPI_Datatype)h) || skiff_type_unsupported((MPI_Datatype)h));
}

static const struct kind comm_kind = {"communicator", 0x100, (const uint16_t[]){0x101, 0x102, 0}, NULL, &comms},
                         group_kind = {"group", 0x108, (const uint16_t[]){0x109, 0}, NULL, &groups},
                         win_kind = {"window", 0x110, (const uint16_t[]){0}, NULL, &wins},
                         file_kind = {"file", 0x118, (const uint16_t[]){0}, NULL, NULL},
                         session_kind = {"session", 0x120, (const uint16_t[]){0}, NULL, &sessions},
                         message_kind = {"message", 0x128, (const uint16_t[]){0x129, 0}, NULL, &messages},
                         info_kind = {"info", 0x130, (const uint16_t[]){0x131, 0}, NULL, &infos},
                         errhandler_kind = {"error handler", 0x140, (const uint16_t[]){0x141, 0x142, 0x143, 0},
                                            NULL, &errhandlers},
                         request_kind = {"request", 0x180, (const uint16_t[]){0}, NULL, &requests},
                         type_kind = {"datatype", 0x200, (const uint16_t[]){0}, type_predefined, &types},
                         op_kind = {"op", 0x20,
                                    (const uint16_t[]){0x21, 0x22, 0x23, 0x24, 0x28, 0x29, 0x2a, 0x30, 0x31, 0x32,
                                                       0x38, 0x39, 0x3c, 0x3d, 0},
                                    NULL, &ops};

static int is_predefined(const struct kind *k, uintptr_t h)
{
    if (h == k->null)
        return 1;
    if (k->predefined)
        return k->predefined(h);
    for (const uint16_t *p = k->predef; *p; p++)
        if (h == *p)
            return 1;
    return 0;
}

/* User objects exist only between MPI_Init and MPI_Finalize; outside, their pools are not there to ask. */
static int user_objects(const struct kind *k)
{
    return k->table && skiff.initialized && !skiff.finalized;
}

static int toint(const struct kind *k, uintptr_t h, const char *call)
{
    SKIFF_MT_GUARD();
    if (is_predefined(k, h))
        return (int)h;
    if (h < PREDEFINED_LIMIT || !user_objects(k) || !k->table->live(h))
        return (int)k->null;
    int v = skiff_htab_toint(k->table, h);
    if (SKIFF_LIKELY(v >= 0))
        return v;
    skiff_call = call;
    skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "no integer left for this %s: %u converted ones are live "
                                               "(the most one kind can have), or memory is out",
                               k->what, skiff_htab_used(k->table)));
    return (int)k->null;
}

static uintptr_t fromint(const struct kind *k, int v)
{
    SKIFF_MT_GUARD();
    if (v >= 0 && is_predefined(k, (uintptr_t)v))
        return (uintptr_t)v;
    uintptr_t h = user_objects(k) ? skiff_htab_fromint(k->table, v) : 0;
    return h ? h : k->null;
}

void skiff_handles_finalize(void)
{
    skiff_htab_destroy(&comms);
    skiff_htab_destroy(&groups);
    skiff_htab_destroy(&types);
    skiff_htab_destroy(&ops);
    skiff_htab_destroy(&requests);
    skiff_htab_destroy(&infos);
    skiff_htab_destroy(&messages);
    skiff_htab_destroy(&sessions);
    skiff_htab_destroy(&errhandlers);
    skiff_htab_destroy(&wins);
}

/* The four calls of one kind, and their MPI_ names. */
#define CONVERSIONS(Kind, CType, kind)                                                                   \
    int PMPI_##Kind##_toint(CType h)                                                                     \
    {                                                                                                    \
        return toint(&kind, (uintptr_t)h, "MPI_" #Kind "_toint");                                        \
    }                                                                                                    \
    SKIFF_ALIAS(MPI_##Kind##_toint)                                                                      \
    CType PMPI_##Kind##_fromint(int v)                                                                   \
    {                                                                                                    \
        return (CType)fromint(&kind, v);                                                                 \
    }                                                                                                    \
    SKIFF_ALIAS(MPI_##Kind##_fromint)                                                                    \
    MPI_Fint PMPI_##Kind##_c2f(CType h)                                                                  \
    {                                                                                                    \
        return toint(&kind, (uintptr_t)h, "MPI_" #Kind "_c2f");                                          \
    }                                                                                                    \
    SKIFF_ALIAS(MPI_##Kind##_c2f)                                                                        \
    CType PMPI_##Kind##_f2c(MPI_Fint v)                                                                  \
    {                                                                                                    \
        return (CType)fromint(&kind, v);                                                                 \
    }                                                                                                    \
    SKIFF_ALIAS(MPI_##Kind##_f2c)

CONVERSIONS(Comm, MPI_Comm, comm_kind)
CONVERSIONS(Errhandler, MPI_Errhandler, errhandler_kind)
CONVERSIONS(File, MPI_File, file_kind)
CONVERSIONS(Group, MPI_Group, group_kind)
CONVERSIONS(Info, MPI_Info, info_kind)
CONVERSIONS(Message, MPI_Message, message_kind)
CONVERSIONS(Op, MPI_Op, op_kind)
CONVERSIONS(Request, MPI_Request, request_kind)
CONVERSIONS(Session, MPI_Session, session_kind)
CONVERSIONS(Type, MPI_Datatype, type_kind)
CONVERSIONS(Win, MPI_Win, win_kind)
