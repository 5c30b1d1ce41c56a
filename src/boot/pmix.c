/* The PMIx client: how a rank boots under srun --mpi=pmix, Open MPI's mpirun or PRRTE's prterun.
 * Built only when libpmix is found (SKIFF_HAVE_PMIX); boot.c picks it when PMIX_RANK is set.
 *
 * What skiff needs from a launcher maps onto PMIx as MPICH's and Open MPI's PMIx paths do it:
 *   rank, size     PMIx_Init's proc, PMIX_JOB_SIZE
 *   placement      PMIX_NODEID of every rank (job-level data the server hands every client at init:
 *                  Slurm gives it for all ranks, Open MPI's mpirun only for the ranks of the asking
 *                  node), else the job's nodes by name (PMIx_Resolve_nodes/_peers, as MPICH does);
 *                  checked against PMIX_LOCAL_SIZE
 *   key-value      PMIx_Put (PMIX_GLOBAL), then at the next fence PMIx_Commit + PMIx_Fence over the
 *                  whole namespace with PMIX_COLLECT_DATA, so that every later PMIx_Get is answered
 *                  from what the node already holds (PMIX_IMMEDIATE: a missing key fails instead of
 *                  waiting for a rank that will never put it)
 *   abort          PMIx_Abort: the launcher ends the job with the code
 *   faults         an event handler: a rank the launcher reports as aborted, killed or ended without
 *                  finalizing, and the loss of the server itself; recorded here, acted on by the
 *                  progress engine's idle check (the handler runs on PMIx's own thread, where no
 *                  blocking PMIx call may be made). */
#include "boot/pmi.h"

#include <pmix.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/config.h"
#include "util/log.h"

static struct {
    pmix_proc_t me, all; /* this rank; every rank of the namespace (PMIX_RANK_WILDCARD) */
    int active;
    size_t handler;
    int have_handler;
    atomic_int gone;         /* the server's connection was lost */
    atomic_int dead;         /* 1 + the first rank reported dead, or 0 */
    atomic_int dead_status;  /* the event that reported it */
    int told;                /* the report has been printed */
} px;

/* An unsigned number of the widths launchers use for sizes and ids; -1 if v is none of them. */
static long number(const pmix_value_t *v)
{
    switch (v->type) {
    case PMIX_UINT32:
        return (long)v->data.uint32;
    case PMIX_UINT16:
        return (long)v->data.uint16;
    case PMIX_INT:
        return v->data.integer >= 0 ? (long)v->data.integer : -1;
    case PMIX_UINT64:
        return v->data.uint64 <= 0x7fffffff ? (long)v->data.uint64 : -1;
    case PMIX_PROC_RANK:
        return (long)v->data.rank;
    default:
        return -1;
    }
}

/* A number the launcher holds about proc; -1 after printing why when print is set. */
static long get_number(const pmix_proc_t *proc, const char *key, int print)
{
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &v);
    long x = rc == PMIX_SUCCESS ? number(v) : -1;
    if (x < 0 && print)
        skiff_error("the PMIx launcher gives no %s for rank %d (%s)", key,
                    proc->rank == PMIX_RANK_WILDCARD ? -1 : (int)proc->rank,
                    rc == PMIX_SUCCESS ? "not a number" : PMIx_Error_string(rc));
    if (v)
        PMIX_VALUE_RELEASE(v);
    return x;
}

static int is_death(pmix_status_t s)
{
    switch (s) {
#ifdef PMIX_ERR_PROC_ABORTED
    case PMIX_ERR_PROC_ABORTED:
#endif
#ifdef PMIX_ERR_PROC_ABORTING
    case PMIX_ERR_PROC_ABORTING:
#endif
    case PMIX_ERR_PROC_REQUESTED_ABORT:
    case PMIX_ERR_PROC_TERM_WO_SYNC:
    case PMIX_ERR_PROC_KILLED_BY_CMD:
    case PMIX_ERR_PROC_ABORTED_BY_SIG:
    case PMIX_ERR_EXIT_NONZERO_TERM:
    case PMIX_ERR_PROC_FAILED_TO_START:
        return 1;
    default:
        return 0;
    }
}

static int is_abort(pmix_status_t s)
{
#ifdef PMIX_ERR_PROC_ABORTED
    if (s == PMIX_ERR_PROC_ABORTED)
        return 1;
#endif
#ifdef PMIX_ERR_PROC_ABORTING
    if (s == PMIX_ERR_PROC_ABORTING)
        return 1;
#endif
    return s == PMIX_ERR_PROC_REQUESTED_ABORT;
}

/* The rank an event is about: PMIX_EVENT_AFFECTED_PROC when given, else its source; -1 when it is
 * not a rank of this job. *code gets PMIX_EXIT_CODE (0 when absent). */
static int affected_rank(const pmix_proc_t *source, const pmix_info_t info[], size_t ninfo, int *code)
{
    const pmix_proc_t *p = source;
    *code = 0;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) && info[i].value.type == PMIX_PROC)
            p = info[i].value.data.proc;
        else if (PMIX_CHECK_KEY(&info[i], PMIX_EXIT_CODE) && info[i].value.type == PMIX_INT)
            *code = info[i].value.data.integer;
    }
    if (!p || !PMIX_CHECK_NSPACE(p->nspace, px.me.nspace) || p->rank >= (pmix_rank_t)SKIFF_PMI_MAX_RANKS)
        return -1;
    return (int)p->rank;
}

/* Runs on PMIx's progress thread: only records, the progress engine acts (see the top). */
static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                     size_t ninfo, pmix_info_t results[], size_t nresults,
                     pmix_event_notification_cbfunc_fn_t done, void *done_data)
{
    (void)id;
    (void)results;
    (void)nresults;
    int code, rank = affected_rank(source, info, ninfo, &code);
    if (status == PMIX_ERR_LOST_CONNECTION || status == PMIX_ERR_UNREACH) {
        atomic_store(&px.gone, 1);
    } else if (rank >= 0 && rank != (int)px.me.rank &&
               (is_death(status) || ((status == PMIX_EVENT_PROC_TERMINATED || status == PMIX_PROC_TERMINATED) && code != 0))) {
        int none = 0;
        if (atomic_compare_exchange_strong(&px.dead, &none, rank + 1))
            atomic_store(&px.dead_status, status);
    }
    if (done)
        done(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, done_data);
}

static void register_events(void)
{
    pmix_status_t codes[] = {
#ifdef PMIX_ERR_PROC_ABORTED
        PMIX_ERR_PROC_ABORTED,
#endif
#ifdef PMIX_ERR_PROC_ABORTING
        PMIX_ERR_PROC_ABORTING,
#endif
        PMIX_ERR_PROC_REQUESTED_ABORT, PMIX_ERR_PROC_TERM_WO_SYNC,    PMIX_ERR_PROC_KILLED_BY_CMD,
        PMIX_ERR_PROC_ABORTED_BY_SIG,  PMIX_ERR_EXIT_NONZERO_TERM,    PMIX_ERR_PROC_FAILED_TO_START,
        PMIX_EVENT_PROC_TERMINATED,    PMIX_PROC_TERMINATED,          PMIX_ERR_LOST_CONNECTION,
        PMIX_ERR_UNREACH,
    };
    /* Without a callback the call blocks and returns the handler's id (or a negative error). */
    pmix_status_t rc = PMIx_Register_event_handler(codes, sizeof codes / sizeof codes[0], NULL, 0, on_event, NULL, NULL);
    px.have_handler = rc >= 0;
    if (rc >= 0)
        px.handler = (size_t)rc;
    else
        skiff_warn("cannot register for the PMIx launcher's fault events (%s); failures are still seen "
                   "through the node's segment and closed connections", PMIx_Error_string(rc));
}

static int px_init(int *rank, int *size)
{
    pmix_status_t rc = PMIx_Init(&px.me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        const char *r = skiff_config_launch_var("PMIX_RANK"), *ns = skiff_config_launch_var("PMIX_NAMESPACE");
        skiff_error("this process was started by a PMIx launcher (PMIX_RANK is set: %s, PMIX_NAMESPACE=%s), "
                    "but PMIx_Init failed: %s", r ? r : "", ns ? ns : "(unset)", PMIx_Error_string(rc));
        return -1;
    }
    px.active = 1;
    PMIX_LOAD_PROCID(&px.all, px.me.nspace, PMIX_RANK_WILDCARD);
    long n = get_number(&px.all, PMIX_JOB_SIZE, 1);
    if (n < 1 || n > SKIFF_PMI_MAX_RANKS || px.me.rank >= (pmix_rank_t)n) {
        if (n >= 0)
            skiff_error("the PMIx launcher gave rank %u of %ld ranks (skiff takes at most %d)",
                        px.me.rank, n, SKIFF_PMI_MAX_RANKS);
        return -1;
    }
    *rank = (int)px.me.rank;
    *size = (int)n;
    skiff_log_set_rank(*rank);
    register_events();
    return 0;
}

static int px_put(const char *key, const char *value)
{
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_STRING;
    v.data.string = (char *)value;
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    if (rc == PMIX_SUCCESS)
        return 0;
    skiff_error("PMIx_Put of %s failed: %s", key, PMIx_Error_string(rc));
    return -1;
}

static int px_fence(void)
{
    pmix_info_t info;
    bool collect = true;
    pmix_status_t rc = PMIx_Commit();
    if (rc == PMIX_SUCCESS) {
        PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
        rc = PMIx_Fence(&px.all, 1, &info, 1);
        PMIX_INFO_DESTRUCT(&info);
    }
    if (rc == PMIX_SUCCESS)
        return 0;
    skiff_error("the PMIx fence failed: %s", PMIx_Error_string(rc));
    return -1;
}

static int px_get(int owner, const char *key, char *value, size_t len)
{
    pmix_proc_t p;
    pmix_info_t info;
    pmix_value_t *v = NULL;
    bool immediate = true;
    PMIX_LOAD_PROCID(&p, px.me.nspace, (pmix_rank_t)owner);
    PMIX_INFO_LOAD(&info, PMIX_IMMEDIATE, &immediate, PMIX_BOOL);
    pmix_status_t rc = PMIx_Get(&p, key, &info, 1, &v);
    PMIX_INFO_DESTRUCT(&info);
    int ok = rc == PMIX_SUCCESS && v->type == PMIX_STRING && v->data.string && strlen(v->data.string) < len;
    if (ok)
        strcpy(value, v->data.string);
    else
        skiff_error("PMIx_Get of %s from rank %d failed: %s", key, owner,
                    rc == PMIX_SUCCESS ? "not a string of the expected length" : PMIx_Error_string(rc));
    if (v)
        PMIX_VALUE_RELEASE(v);
    return ok ? 0 : -1;
}

/* Every rank's node by name, as MPICH does it: the job's nodes (PMIx_Resolve_nodes) and the ranks on
 * each (PMIx_Resolve_peers). Open MPI's mpirun across hosts answers this but gives PMIX_NODEID only
 * for the ranks of the asking node. Node ids are positions in the list. 0, or -1 after printing why. */
static int nodes_by_name(int *node, int size)
{
    char *list = NULL, *save = NULL;
    pmix_status_t rc = PMIx_Resolve_nodes(px.me.nspace, &list);
    if (rc != PMIX_SUCCESS || !list) {
        skiff_error("the PMIx launcher gives neither PMIX_NODEID for every rank nor the job's "
                    "nodes (PMIx_Resolve_nodes: %s)", PMIx_Error_string(rc));
        free(list);
        return -1;
    }
    for (int r = 0; r < size; r++)
        node[r] = -1;
    int id = 0;
    for (char *name = strtok_r(list, ",", &save); name && id < SKIFF_NODEMAP_MAX_ID; name = strtok_r(NULL, ",", &save), id++) {
        pmix_proc_t *procs = NULL;
        size_t n = 0;
        if (PMIx_Resolve_peers(name, px.me.nspace, &procs, &n) != PMIX_SUCCESS)
            continue;
        for (size_t i = 0; i < n; i++)
            if (procs[i].rank < (pmix_rank_t)size)
                node[procs[i].rank] = id;
        if (procs)
            PMIX_PROC_FREE(procs, n);
    }
    free(list);
    for (int r = 0; r < size; r++)
        if (node[r] < 0) {
            skiff_error("the PMIx launcher places rank %d on none of the job's nodes (no "
                        "PMIX_NODEID, not in PMIx_Resolve_peers)", r);
            return -1;
        }
    return 0;
}

/* PMIX_NODEID of every rank (job-level data, no round trip), else the nodes by name. */
static int node_ids(int *node, int size)
{
    pmix_proc_t p;
    for (int r = 0; r < size; r++) {
        PMIX_LOAD_PROCID(&p, px.me.nspace, (pmix_rank_t)r);
        long id = get_number(&p, PMIX_NODEID, 0);
        if (id < 0)
            return nodes_by_name(node, size);
        node[r] = id < SKIFF_NODEMAP_MAX_ID ? (int)id : -1;
    }
    return 0;
}

static int px_nodemap(struct skiff_nodemap *m, int size)
{
    int *node = calloc((size_t)size, sizeof *node), rc = -1;
    if (!node || node_ids(node, size))
        goto out;
    if (skiff_nodemap_from_nodes(m, size, node)) {
        skiff_error("cannot use the PMIx launcher's node ids (out of memory, or an id of %d or "
                    "more)", SKIFF_NODEMAP_MAX_ID);
        goto out;
    }
    /* Our node's share of ranks must be what the launcher says runs here: a map that disagreed would
     * size the node's segment wrong. */
    long local = get_number(&px.all, PMIX_LOCAL_SIZE, 0);
    int mine = m->local_count[m->node[px.me.rank]];
    if (local >= 0 && local != mine) {
        skiff_error("the PMIx launcher says %ld ranks run on this node (PMIX_LOCAL_SIZE), but "
                    "its node map puts %d here", local, mine);
        skiff_nodemap_free(m);
        goto out;
    }
    rc = 0;
out:
    free(node);
    return rc;
}

static void px_abort(int code, const char *why)
{
    if (px.active && !atomic_load(&px.gone))
        PMIx_Abort(code, why, NULL, 0);
}

static void px_finalize(void)
{
    if (!px.active)
        return;
    if (px.have_handler)
        PMIx_Deregister_event_handler(px.handler, NULL, NULL);
    px.have_handler = 0;
    PMIx_Finalize(NULL, 0);
    px.active = 0;
}

static int px_gone(void)
{
    return px.active && atomic_load_explicit(&px.gone, memory_order_relaxed);
}

/* Called by the progress engine when idle, so the first report may name the host (a PMIx_Get is
 * safe here, not on the event thread). */
static int px_dead_rank(int *aborted)
{
    int d = atomic_load_explicit(&px.dead, memory_order_relaxed) - 1;
    *aborted = 0;
    if (d < 0)
        return -1;
    pmix_status_t status = atomic_load(&px.dead_status);
    *aborted = is_abort(status);
    if (!px.told) {
        pmix_proc_t p;
        pmix_value_t *v = NULL;
        PMIX_LOAD_PROCID(&p, px.me.nspace, (pmix_rank_t)d);
        int host = PMIx_Get(&p, PMIX_HOSTNAME, NULL, 0, &v) == PMIX_SUCCESS && v->type == PMIX_STRING;
        skiff_error("the PMIx launcher reports rank %d%s%s: %s", d,
                    host ? " on host " : "", host ? v->data.string : "", PMIx_Error_string(status));
        if (v)
            PMIX_VALUE_RELEASE(v);
        px.told = 1;
    }
    return d;
}

const struct skiff_pmi_client skiff_pmix = {
    .name = "PMIx",
    .init = px_init,
    .put = px_put,
    .fence = px_fence,
    .get = px_get,
    .nodemap = px_nodemap,
    .abort = px_abort,
    .finalize = px_finalize,
    .gone = px_gone,
    .dead_rank = px_dead_rank,
};
