/* MPI-4 sessions: a handle that keeps the process's MPI running (lifecycle.c), its error handler, its
 * hints, and the process sets it can make groups from. skiff's process sets are fixed for the job:
 *   mpi://WORLD   every process of the job
 *   mpi://SELF    this process alone
 *   skiff://node  the processes on this process's node (those MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)
 *                 groups together, pretend nodes of SKIFF_NODE_SIZE included): the same name gives
 *                 different groups on different nodes.
 * Names compare without regard to case, as MPICH and Open MPI do for the mpi:// ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/async.h"
#include "core/bsend.h"
#include "core/errhandler.h"
#include "core/node.h"
#include "core/objpool.h"
#include "mpi/mpi_impl.h"
#include "mpi/session.h"

#define SESSION_MAGIC 0x73657373u

struct skiff_session {
    uint32_t magic;
    int thread_level;
    MPI_Errhandler errhandler;
    struct skiff_info *hints; /* what Session_init was given, less what skiff does not take */
};

/* Sessions outlive the teardown (a stale handle must still be refused), so their pool is never destroyed. */
static struct skiff_objpool pool = SKIFF_OBJPOOL_INIT(struct skiff_session);

static const char *const pset_names[] = {"mpi://WORLD", "mpi://SELF", "skiff://node"};
#define NPSETS ((int)(sizeof pset_names / sizeof pset_names[0]))

static struct skiff_session *session_get(MPI_Session h)
{
    if ((uintptr_t)h < 0x1000 || (uintptr_t)h % sizeof(void *))
        return NULL;
    struct skiff_session *s = (struct skiff_session *)(void *)h;
    return s->magic == SESSION_MAGIC ? s : NULL;
}

int skiff_session_live(MPI_Session h)
{
    return session_get(h) != NULL;
}

static int check_session(MPI_Session h, struct skiff_session **out)
{
    *out = session_get(h);
    if (SKIFF_LIKELY(*out))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_SESSION, "invalid session %s",
                     h == MPI_SESSION_NULL ? "(MPI_SESSION_NULL)" : "(not a session, or already finalized)");
}

/* An error of a call on session h goes to its handler; without a valid session, to MPI_COMM_WORLD's
 * (the initial handler, MPI_ERRORS_ARE_FATAL unless the program changed it). */
static int session_fail(MPI_Session h, int rc)
{
    struct skiff_session *s = session_get(h);
    if (!rc || !s)
        return rc ? skiff_fail_world(rc) : rc;
    return skiff_eh_invoke(s->errhandler, SKIFF_EH_SESSION, &h, "(a session)", rc);
}

int skiff_session_check(MPI_Session h, const void **obj)
{
    struct skiff_session *s = NULL;
    int rc = check_session(h, &s);
    *obj = s;
    return rc;
}

int skiff_session_fail(MPI_Session h, int rc)
{
    return session_fail(h, rc);
}

static const char *const level_names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                          "MPI_THREAD_MULTIPLE"};
static const int level_values[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                                   MPI_THREAD_MULTIPLE};

static const char *level_name(int level)
{
    for (int i = 0; i < 4; i++)
        if (level_values[i] == level)
            return level_names[i];
    return "MPI_THREAD_SINGLE";
}

/* The level asked for under "thread_level" (MPI-4.1's key; "mpi_thread_support_level" also taken). */
static int requested_level(const struct skiff_info *in, int *level)
{
    const char *v = in ? skiff_info_lookup(in, "thread_level") : NULL;
    if (in && !v)
        v = skiff_info_lookup(in, "mpi_thread_support_level");
    *level = MPI_THREAD_MULTIPLE; /* the most skiff provides, as MPICH gives its most by default */
    if (!v)
        return MPI_SUCCESS;
    for (int i = 0; i < 4; i++)
        if (strcasecmp(v, level_names[i]) == 0) {
            *level = level_values[i];
            return MPI_SUCCESS;
        }
    return skiff_err(MPI_ERR_INFO_VALUE, "info key thread_level has value \"%s\", which is not one of "
                     "MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE", v);
}

static int new_session(const struct skiff_info *in, MPI_Errhandler eh, int level, struct skiff_session **out)
{
    struct skiff_session *s = skiff_objpool_get(&pool);
    if (!s || !(s->hints = skiff_info_dup(in))) {
        if (s)
            skiff_objpool_put(&pool, s);
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a session");
    }
    s->magic = SESSION_MAGIC;
    s->thread_level = level;
    s->errhandler = MPI_ERRORS_ARE_FATAL;
    skiff_eh_attach(&s->errhandler, eh);
    *out = s;
    return MPI_SUCCESS;
}

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    SKIFF_ASYNC_AFTER_INIT();
    SKIFF_ENTER(MPI_Session_init);
    struct skiff_info *in = NULL;
    struct skiff_session *s = NULL;
    int level = 0, rc = skiff_check_info(info);
    if (!rc && info != MPI_INFO_NULL)
        in = skiff_info_get(info);
    if (!rc)
        rc = skiff_eh_check(errhandler, SKIFF_EH_SESSION);
    if (!rc)
        rc = skiff_check_ptr(session, "session");
    if (!rc)
        rc = requested_level(in, &level);
    if (!rc)
        rc = skiff_users_enter(level);
    if (!rc && (rc = new_session(in, errhandler, level, &s)) != MPI_SUCCESS)
        skiff_users_leave(0);
    if (rc) {
        /* No session exists to take the error: the handler given for this call takes it. */
        if (skiff_eh_check(errhandler, SKIFF_EH_SESSION) != MPI_SUCCESS)
            return skiff_fail_world(rc);
        MPI_Session none = MPI_SESSION_NULL;
        return skiff_eh_invoke(errhandler, SKIFF_EH_SESSION, &none, "(being initialized)", rc);
    }
    s->thread_level = level < skiff.thread_level ? level : skiff.thread_level;
    *session = (MPI_Session)(void *)s;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_init)

int PMPI_Session_finalize(MPI_Session *session)
{
    SKIFF_ENTER(MPI_Session_finalize);
    struct skiff_session *s = NULL;
    int rc = skiff_check_ptr(session, "session");
    if (rc || (rc = check_session(*session, &s)))
        return session_fail(session ? *session : MPI_SESSION_NULL, rc);
    skiff_bsend_owner_freed(SKIFF_BBUF_SESSION, s); /* its buffered messages leave first, as a detach waits */
    skiff_eh_release(s->errhandler);
    skiff_info_free(s->hints);
    skiff_objpool_put(&pool, s);
    *session = MPI_SESSION_NULL;
    skiff_users_leave(0);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_finalize)

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    SKIFF_ENTER(MPI_Session_get_num_psets);
    struct skiff_session *s = NULL;
    int rc = check_session(session, &s);
    if (!rc && !(rc = skiff_check_info(info)))
        rc = skiff_check_ptr(npset_names, "npset_names");
    if (rc)
        return session_fail(session, rc);
    *npset_names = NPSETS;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_get_num_psets)

int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
{
    SKIFF_ENTER(MPI_Session_get_nth_pset);
    struct skiff_session *s = NULL;
    int rc = check_session(session, &s);
    if (!rc && !(rc = skiff_check_info(info)) && !(rc = skiff_check_ptr(pset_len, "pset_len")) &&
        (n < 0 || n >= NPSETS))
        rc = skiff_err(MPI_ERR_ARG, "invalid n %d (the session has %d process sets: 0..%d)", n, NPSETS, NPSETS - 1);
    if (!rc && *pset_len > 0)
        rc = skiff_check_ptr(pset_name, "pset_name");
    if (rc)
        return session_fail(session, rc);
    /* The standard's protocol: with *pset_len 0 only the length (terminator included) comes back. */
    int need = (int)strlen(pset_names[n]) + 1;
    if (*pset_len > 0)
        snprintf(pset_name, (size_t)*pset_len, "%s", pset_names[n]);
    *pset_len = need;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_get_nth_pset)

/* The job ranks of process set name (NULL when skiff has no such set); *n of them. */
static int *pset_members(const char *name, int *n)
{
    int which = -1;
    for (int i = 0; i < NPSETS; i++)
        if (strcasecmp(name, pset_names[i]) == 0)
            which = i;
    if (which < 0)
        return NULL;
    int *w = malloc(sizeof(int) * (size_t)skiff.size), node = skiff_node_of(skiff.rank);
    *n = 0;
    for (int r = 0; w && r < skiff.size; r++)
        if (which == 0 || (which == 1 && r == skiff.rank) || (which == 2 && skiff_node_of(r) == node))
            w[(*n)++] = r;
    return w;
}

static int no_such_pset(const char *name)
{
    return skiff_err(MPI_ERR_ARG, "no process set named \"%.200s\" (skiff has mpi://WORLD, mpi://SELF and "
                     "skiff://node)", name);
}

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    SKIFF_ENTER(MPI_Session_get_pset_info);
    struct skiff_session *s = NULL;
    struct skiff_info *out = NULL;
    int n = 0, *w = NULL;
    int rc = check_session(session, &s);
    if (!rc && !(rc = skiff_check_ptr(pset_name, "pset_name")) && !(rc = skiff_check_ptr(info, "info")) &&
        !(w = pset_members(pset_name, &n)))
        rc = no_such_pset(pset_name);
    free(w);
    char size[16];
    snprintf(size, sizeof size, "%d", n);
    if (!rc && (!(out = skiff_info_new()) || skiff_info_set(out, "mpi_size", size) != 0))
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for an info object");
    if (rc) {
        if (out)
            skiff_info_free(out);
        return session_fail(session, rc);
    }
    *info = skiff_info_handle(out);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_get_pset_info)

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    SKIFF_ENTER(MPI_Session_get_info);
    struct skiff_session *s = NULL;
    struct skiff_info *out = NULL;
    int rc = check_session(session, &s);
    if (!rc)
        rc = skiff_check_ptr(info_used, "info_used");
    /* The hints as given, with the thread level this session actually has. */
    if (!rc && (!(out = skiff_info_dup(s->hints)) || skiff_info_set(out, "thread_level", level_name(s->thread_level))))
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for an info object");
    if (rc) {
        if (out)
            skiff_info_free(out);
        return session_fail(session, rc);
    }
    (void)skiff_info_remove(out, "mpi_thread_support_level");
    *info_used = skiff_info_handle(out);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_get_info)

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    SKIFF_ENTER(MPI_Group_from_session_pset);
    struct skiff_session *s = NULL;
    struct skiff_group *g = NULL;
    int n = 0, *w = NULL;
    int rc = check_session(session, &s);
    if (!rc && !(rc = skiff_check_ptr(pset_name, "pset_name")) && !(rc = skiff_check_ptr(newgroup, "newgroup")) &&
        !(w = pset_members(pset_name, &n)))
        rc = no_such_pset(pset_name);
    if (!rc && !(g = skiff_group_from(w, n)))
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for a group of %d processes", n);
    free(w);
    if (rc)
        return session_fail(session, rc);
    g->session = s; /* communicators made from it use the session's buffer for buffered sends */
    *newgroup = skiff_group_handle(g);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Group_from_session_pset)

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    SKIFF_ENTER(MPI_Session_set_errhandler);
    struct skiff_session *s = NULL;
    int rc = check_session(session, &s);
    if (!rc)
        rc = skiff_eh_check(errhandler, SKIFF_EH_SESSION);
    if (rc)
        return session_fail(session, rc);
    skiff_eh_attach(&s->errhandler, errhandler);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_set_errhandler)

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    SKIFF_ENTER(MPI_Session_get_errhandler);
    struct skiff_session *s = NULL;
    int rc = check_session(session, &s);
    if (!rc)
        rc = skiff_check_ptr(errhandler, "errhandler");
    if (rc)
        return session_fail(session, rc);
    /* The caller gets a handle of its own, which it gives back with MPI_Errhandler_free. */
    skiff_eh_retain(s->errhandler);
    *errhandler = s->errhandler;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_get_errhandler)

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    SKIFF_ENTER(MPI_Session_create_errhandler);
    return skiff_errhandler_create((const void *)session_errhandler_fn, "session_errhandler_fn", SKIFF_EH_SESSION,
                                   errhandler);
}
SKIFF_ALIAS(MPI_Session_create_errhandler)

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    SKIFF_ENTER(MPI_Session_call_errhandler);
    struct skiff_session *s = NULL;
    int rc = check_session(session, &s);
    if (rc)
        return skiff_fail_world(rc);
    /* The standard: the call returns MPI_SUCCESS once the handler returns (MPI_ERRORS_RETURN included). */
    (void)skiff_eh_invoke(s->errhandler, SKIFF_EH_SESSION, &session, "(a session)", errorcode);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_call_errhandler)
