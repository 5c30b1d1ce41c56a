/* MPI_T performance variables: the counters of core/stats.h and of each transport (core/transports.h),
 * the unexpected queue's length and the thread level in force, read through sessions and handles.
 *
 * Counters are not continuous: a handle starts stopped, and its value is what the counter moved while
 * the handle was started (plus what was written into it), so two tools in two sessions never disturb
 * each other. The queue length, its high-water mark and the thread level are continuous and read-only:
 * they describe the process, not a handle. skiff is entered by one thread at a time, so every read and
 * readreset is atomic. Sessions and handles live in pools (core/objpool.h) like control variable handles,
 * so a stale one is refused by its cleared magic. */
#include <string.h>

#include "core/core.h"
#include "core/match.h"
#include "core/objpool.h"
#include "core/stats.h"
#include "mpi/mpi_impl.h"
#include "mpi/tool.h"
#include "core/transports.h"

#define SESSION_MAGIC 0x70736573u /* "pses" */
#define PVAR_MAGIC 0x70766172u    /* "pvar" */

enum { CAT_PT2PT = 2, CAT_MATCHING = 3, CAT_RUNTIME = 4, CAT_COLL = 5, CAT_RMA = 6 }; /* tool_category.c */

struct pvar {
    const char *name, *desc;
    int var_class, category;
    int continuous; /* continuous ones are also read-only */
    unsigned long long (*now)(void);
};

#define COUNTER(field)                                                                                   \
    static unsigned long long now_##field(void)                                                          \
    {                                                                                                    \
        return skiff_stats.field;                                                                        \
    }
COUNTER(recv_msgs)
COUNTER(recv_bytes)
COUNTER(rndv_sends)
COUNTER(sync_sends)
COUNTER(deferred_sends)
COUNTER(rndv_recvs)
COUNTER(rndv_pulls)
COUNTER(data_in_place)
COUNTER(unexp_msgs)
COUNTER(unexp_hwm)
COUNTER(coll_scheds)
COUNTER(coll_node_barriers)
COUNTER(coll_shm_allreduces)
COUNTER(coll_hier)
COUNTER(rma_rdma)

static unsigned long long now_unexp_queued(void)
{
    return (unsigned long long)skiff_unexp_count();
}

static unsigned long long now_thread_level(void)
{
    return (unsigned long long)skiff.thread_level;
}

#define THREAD_LEVEL_PVAR "skiff_thread_level"

static const struct pvar core_pvars[] = {
    {"skiff_recv_msgs", "messages that arrived (eager ones and rendezvous announcements, self-sends included)",
     MPI_T_PVAR_CLASS_COUNTER, CAT_PT2PT, 0, now_recv_msgs},
    {"skiff_recv_bytes", "payload bytes of the messages that arrived", MPI_T_PVAR_CLASS_COUNTER, CAT_PT2PT, 0,
     now_recv_bytes},
    {"skiff_rndv_sends", "sends above the eager limit: announced, then moved once the receive matched",
     MPI_T_PVAR_CLASS_COUNTER, CAT_PT2PT, 0, now_rndv_sends},
    {"skiff_sync_sends", "synchronous-mode eager sends (each waits for the receiver's acknowledgement)",
     MPI_T_PVAR_CLASS_COUNTER, CAT_PT2PT, 0, now_sync_sends},
    {"skiff_deferred_sends", "eager sends queued because the transport to the peer was full",
     MPI_T_PVAR_CLASS_COUNTER, CAT_PT2PT, 0, now_deferred_sends},
    {"skiff_rndv_recvs", "rendezvous receives started", MPI_T_PVAR_CLASS_COUNTER, CAT_PT2PT, 0, now_rndv_recvs},
    {"skiff_rndv_pulls", "rendezvous receives that read the sender's buffer in one copy (CMA)",
     MPI_T_PVAR_CLASS_COUNTER, CAT_PT2PT, 0, now_rndv_pulls},
    {"skiff_data_in_place", "pieces of large messages that the transport received straight into the receive buffer (ucx), not copied by the core",
     MPI_T_PVAR_CLASS_COUNTER, CAT_PT2PT, 0, now_data_in_place},
    {"skiff_unexp_msgs", "messages that arrived before a matching receive was posted", MPI_T_PVAR_CLASS_COUNTER,
     CAT_MATCHING, 0, now_unexp_msgs},
    {"skiff_unexp_queued", "messages in the unexpected queue now", MPI_T_PVAR_CLASS_LEVEL, CAT_MATCHING, 1,
     now_unexp_queued},
    {"skiff_unexp_hwm", "the most messages the unexpected queue held at once since MPI_Init",
     MPI_T_PVAR_CLASS_HIGHWATERMARK, CAT_MATCHING, 1, now_unexp_hwm},
    {THREAD_LEVEL_PVAR, "the thread support level in force (an enumeration of MPI_THREAD_*)",
     MPI_T_PVAR_CLASS_STATE, CAT_RUNTIME, 1, now_thread_level},
    {"skiff_coll_scheds", "collectives run as message schedules (blocking, nonblocking, persistent starts)",
     MPI_T_PVAR_CLASS_COUNTER, CAT_COLL, 0, now_coll_scheds},
    {"skiff_coll_node_barriers", "barriers of the whole job on one node, through a shared counter (no messages)",
     MPI_T_PVAR_CLASS_COUNTER, CAT_COLL, 0, now_coll_node_barriers},
    {"skiff_coll_shm_allreduces", "allreduces through shared slots (small messages, the whole job on one node)",
     MPI_T_PVAR_CLASS_COUNTER, CAT_COLL, 0, now_coll_shm_allreduces},
    {"skiff_coll_hier", "node-aware barriers, broadcasts and allreduces (communicators spanning nodes)",
     MPI_T_PVAR_CLASS_COUNTER, CAT_COLL, 0, now_coll_hier},
    {"skiff_rma_rdma", "transfers of put and get that went by a transport's RDMA (ucx), one per contiguous run of the target type, without the target's library",
     MPI_T_PVAR_CLASS_COUNTER, CAT_RMA, 0, now_rma_rdma},
};
#define NCORE ((int)(sizeof core_pvars / sizeof core_pvars[0]))
#define MAX_PVARS (NCORE + 32)

/* The core's variables, then each transport's counters in the order of the list of transports, each in
 * its transport's category (skiff_t_transport_category). Built once: the set never
 * changes while the library is loaded. */
static struct pvar pvars[MAX_PVARS];
static int npvars;

static void build_pvars(void)
{
    if (npvars)
        return;
    for (int i = 0; i < NCORE; i++)
        pvars[npvars++] = core_pvars[i];
    for (int k = 0; k < skiff_transport_nkinds; k++) {
        const struct skiff_transport_counter *c = skiff_transport_kinds[k].counters;
        int cat = skiff_t_transport_category(k);
        for (int i = 0; c && cat >= 0 && c[i].name && npvars < MAX_PVARS; i++)
            pvars[npvars++] = (struct pvar){c[i].name, c[i].desc, MPI_T_PVAR_CLASS_COUNTER, cat, 0, c[i].read};
    }
}
#define NPVARS (build_pvars(), npvars)

static int is_enum(const struct pvar *v)
{
    return v->var_class == MPI_T_PVAR_CLASS_STATE;
}

struct MPI_T_pvar_session_t {
    unsigned magic;
};

struct MPI_T_pvar_handle_t {
    unsigned magic;
    MPI_T_pvar_session session;
    const struct pvar *var;
    int started;
    unsigned long long value; /* counters: what the counter moved while started, up to base */
    unsigned long long base;  /* counters while started: the counter's reading value was taken at */
};

static struct skiff_objpool sessions = SKIFF_OBJPOOL_INIT(struct MPI_T_pvar_session_t);
static struct skiff_objpool handles = SKIFF_OBJPOOL_INIT(struct MPI_T_pvar_handle_t);

int skiff_t_npvars(void)
{
    return NPVARS;
}

int skiff_t_pvar_category(int pvar_index)
{
    return pvars[pvar_index].category;
}

static int live_session(MPI_T_pvar_session s)
{
    return s && s->magic == SESSION_MAGIC;
}

static int live_handle(MPI_T_pvar_handle h)
{
    return h && h != MPI_T_PVAR_ALL_HANDLES && h->magic == PVAR_MAGIC;
}

static MPI_T_pvar_session doomed; /* the session whose handles free_handle_of releases */

static void free_handle_of(void *obj)
{
    struct MPI_T_pvar_handle_t *h = obj;
    if (!doomed || h->session == doomed)
        skiff_objpool_put(&handles, h);
}

static void free_session(void *obj)
{
    skiff_objpool_put(&sessions, obj);
}

void skiff_t_pvar_release_all(void)
{
    doomed = NULL;
    skiff_objpool_foreach(&handles, free_handle_of);
    skiff_objpool_foreach(&sessions, free_session);
}

int PMPI_T_pvar_get_num(int *num_pvar)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!num_pvar)
        return MPI_T_ERR_INVALID;
    *num_pvar = NPVARS;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_pvar_get_num)

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
                         int *readonly, int *continuous, int *atomic)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (pvar_index < 0 || pvar_index >= NPVARS)
        return MPI_T_ERR_INVALID_INDEX;
    const struct pvar *v = &pvars[pvar_index];
    skiff_t_copy_out(name, name_len, v->name);
    skiff_t_copy_out(desc, desc_len, v->desc);
    if (verbosity)
        *verbosity = v->continuous ? MPI_T_VERBOSITY_USER_BASIC : MPI_T_VERBOSITY_TUNER_BASIC;
    if (var_class)
        *var_class = v->var_class;
    if (datatype) /* an enumeration's values are ints, as the standard requires */
        *datatype = is_enum(v) ? MPI_INT : MPI_UNSIGNED_LONG_LONG;
    if (enumtype)
        *enumtype = is_enum(v) ? skiff_t_thread_levels : MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (readonly)
        *readonly = v->continuous;
    if (continuous)
        *continuous = v->continuous;
    if (atomic)
        *atomic = 1;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_pvar_get_info)

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!name || !pvar_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < NPVARS; i++) {
        if (pvars[i].var_class == var_class && strcmp(pvars[i].name, name) == 0) {
            *pvar_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}
SKIFF_ALIAS(MPI_T_pvar_get_index)

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!session)
        return MPI_T_ERR_INVALID;
    struct MPI_T_pvar_session_t *s = skiff_objpool_get(&sessions);
    if (!s)
        return MPI_T_ERR_OUT_OF_SESSIONS;
    s->magic = SESSION_MAGIC;
    *session = s;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_pvar_session_create)

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!session)
        return MPI_T_ERR_INVALID;
    if (!live_session(*session))
        return MPI_T_ERR_INVALID_SESSION;
    doomed = *session; /* its handles go with it, as the standard says */
    skiff_objpool_foreach(&handles, free_handle_of);
    doomed = NULL;
    skiff_objpool_put(&sessions, *session);
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_pvar_session_free)

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    SKIFF_MT_GUARD();
    (void)obj_handle; /* every variable is bound to no object */
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!live_session(session))
        return MPI_T_ERR_INVALID_SESSION;
    if (pvar_index < 0 || pvar_index >= NPVARS)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    struct MPI_T_pvar_handle_t *h = skiff_objpool_get(&handles);
    if (!h)
        return MPI_T_ERR_OUT_OF_HANDLES;
    const struct pvar *v = &pvars[pvar_index];
    *h = (struct MPI_T_pvar_handle_t){PVAR_MAGIC, session, v, v->continuous, 0, 0};
    *handle = h;
    *count = 1;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_pvar_handle_alloc)

/* The first checks of the calls that take a session and one handle (not MPI_T_PVAR_ALL_HANDLES). */
static int check_one(MPI_T_pvar_session session, MPI_T_pvar_handle h)
{
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!live_session(session))
        return MPI_T_ERR_INVALID_SESSION;
    return live_handle(h) && h->session == session ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

/* As check_one, but MPI_T_PVAR_ALL_HANDLES is also accepted. */
static int check_any(MPI_T_pvar_session session, MPI_T_pvar_handle h)
{
    if (skiff_t_active() && live_session(session) && h == MPI_T_PVAR_ALL_HANDLES)
        return MPI_SUCCESS;
    return check_one(session, h);
}

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    SKIFF_MT_GUARD();
    if (!handle)
        return skiff_t_active() ? MPI_T_ERR_INVALID : MPI_T_ERR_NOT_INITIALIZED;
    int rc = check_one(session, *handle);
    if (rc)
        return rc;
    skiff_objpool_put(&handles, *handle);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_pvar_handle_free)

static unsigned long long value_of(const struct MPI_T_pvar_handle_t *h)
{
    unsigned long long now = h->var->now();
    if (h->var->continuous)
        return now;
    /* tcp's byte counts go back to 0 when MPI_Finalize closes the transport */
    return h->value + (h->started && now > h->base ? now - h->base : 0);
}

static void set_value(struct MPI_T_pvar_handle_t *h, unsigned long long v)
{
    h->value = v;
    h->base = h->var->now();
}

/* Applies op to h, or with MPI_T_PVAR_ALL_HANDLES to every handle of the session op does not skip
 * (it returns -1 for those); the first error wins, as "all" asks that each succeed. */
static MPI_T_pvar_session each_session;
static int each_rc;
static int (*each_op)(struct MPI_T_pvar_handle_t *h, int all);

static void each_one(void *obj)
{
    struct MPI_T_pvar_handle_t *h = obj;
    if (h->session != each_session)
        return;
    int rc = each_op(h, 1);
    if (rc > 0 && each_rc == MPI_SUCCESS)
        each_rc = rc;
}

static int apply(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                 int (*op)(struct MPI_T_pvar_handle_t *h, int all))
{
    int rc = check_any(session, handle);
    if (rc)
        return rc;
    if (handle != MPI_T_PVAR_ALL_HANDLES)
        return op(handle, 0);
    each_session = session;
    each_rc = MPI_SUCCESS;
    each_op = op;
    skiff_objpool_foreach(&handles, each_one);
    return each_rc;
}

/* Continuous variables and those already started are skipped under MPI_T_PVAR_ALL_HANDLES. */
static int start_one(struct MPI_T_pvar_handle_t *h, int all)
{
    if (h->var->continuous)
        return all ? -1 : MPI_T_ERR_PVAR_NO_STARTSTOP;
    if (!h->started) {
        h->base = h->var->now();
        h->started = 1;
    }
    return MPI_SUCCESS;
}

static int stop_one(struct MPI_T_pvar_handle_t *h, int all)
{
    if (h->var->continuous)
        return all ? -1 : MPI_T_ERR_PVAR_NO_STARTSTOP;
    if (h->started) {
        h->value = value_of(h);
        h->started = 0;
    }
    return MPI_SUCCESS;
}

/* Read-only variables are skipped under MPI_T_PVAR_ALL_HANDLES. */
static int reset_one(struct MPI_T_pvar_handle_t *h, int all)
{
    if (h->var->continuous)
        return all ? -1 : MPI_T_ERR_PVAR_NO_WRITE;
    set_value(h, 0);
    return MPI_SUCCESS;
}

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    SKIFF_MT_GUARD();
    return apply(session, handle, start_one);
}
SKIFF_ALIAS(MPI_T_pvar_start)

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    SKIFF_MT_GUARD();
    return apply(session, handle, stop_one);
}
SKIFF_ALIAS(MPI_T_pvar_stop)

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    SKIFF_MT_GUARD();
    return apply(session, handle, reset_one);
}
SKIFF_ALIAS(MPI_T_pvar_reset)

static void store(const struct MPI_T_pvar_handle_t *h, void *buf)
{
    unsigned long long v = value_of(h);
    if (is_enum(h->var))
        *(int *)buf = (int)v;
    else
        memcpy(buf, &v, sizeof v);
}

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    SKIFF_MT_GUARD();
    int rc = check_one(session, handle);
    if (rc)
        return rc;
    if (!buf)
        return MPI_T_ERR_INVALID;
    store(handle, buf);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_pvar_read)

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    SKIFF_MT_GUARD();
    int rc = check_one(session, handle);
    if (rc)
        return rc;
    if (!buf)
        return MPI_T_ERR_INVALID;
    if (handle->var->continuous)
        return MPI_T_ERR_PVAR_NO_WRITE;
    store(handle, buf);
    set_value(handle, 0);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_pvar_readreset)

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    SKIFF_MT_GUARD();
    int rc = check_one(session, handle);
    if (rc)
        return rc;
    if (!buf)
        return MPI_T_ERR_INVALID;
    if (handle->var->continuous)
        return MPI_T_ERR_PVAR_NO_WRITE;
    unsigned long long v;
    memcpy(&v, buf, sizeof v);
    set_value(handle, v);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_pvar_write)
