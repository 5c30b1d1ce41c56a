/* MPI_Init and friends: start-up, shut-down, abort, and the questions about the environment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/async.h"
#include "core/progress.h"
#include "mpi/mpi_impl.h"
#include "mpi/session.h"
#include "util/timer.h"
#include "util/log.h"

_Noreturn void skiff_not_initialized(void)
{
    const char *when = skiff_world_state == SKIFF_WORLD_ENDED ? "after MPI_Finalize"
                       : skiff.finalized                      ? "after the last MPI_Session_finalize"
                                                              : "before MPI_Init or MPI_Session_init";
    skiff_error("%s called %s", skiff_call, when);
    fflush(NULL);
    _exit(1);
}

/* id and t_enter: which of the two init calls this is and when it was called, for the profiler. */
static int start(int required, int *provided, enum skiff_prof_call id, double t_enter)
{
    if (skiff_world_state == SKIFF_WORLD_ACTIVE)
        return skiff_fail_world(skiff_err(MPI_ERR_OTHER, "MPI is already initialized"));
    if (skiff_world_state == SKIFF_WORLD_ENDED) {
        skiff_error("%s called after MPI_Finalize", skiff_call);
        _exit(1);
    }
    /* Sessions may have started the process's MPI already; the world model joins them. */
    int rc = skiff_users_enter(required);
    if (rc) {
        char msg[MPI_MAX_ERROR_STRING];
        skiff_err_string(rc, msg);
        skiff_error_named("%s", msg);
        skiff_abort_job(1, "MPI initialization failed");
    }
    skiff_world_state = SKIFF_WORLD_ACTIVE;
    if (provided)
        *provided = skiff.thread_level < required ? skiff.thread_level : required;
    skiff_mt_check_level(skiff.thread_level < required ? skiff.thread_level : required);
    skiff_prof_init(id, t_enter);
    return MPI_SUCCESS;
}

int PMPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    SKIFF_ASYNC_AFTER_INIT();
    double t_enter = skiff_now();
    SKIFF_ENTER(MPI_Init);
    return start(MPI_THREAD_SINGLE, NULL, SKIFF_PC_MPI_Init, t_enter);
}
SKIFF_ALIAS(MPI_Init)

/* required must be one of the four levels (MPI-4.1 11.2.1), whose ABI values are not 0..3: a value
 * between them is a program's mistake, answered (before MPI_Init: fatally) as Open MPI does, not clamped. */
static int check_level(int required, const int *provided)
{
    if (required != MPI_THREAD_SINGLE && required != MPI_THREAD_FUNNELED && required != MPI_THREAD_SERIALIZED &&
        required != MPI_THREAD_MULTIPLE)
        return skiff_err(MPI_ERR_ARG, "required is %d, which is not a thread level (MPI_THREAD_SINGLE %d, "
                         "MPI_THREAD_FUNNELED %d, MPI_THREAD_SERIALIZED %d, MPI_THREAD_MULTIPLE %d)", required,
                         MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE);
    return skiff_check_ptr(provided, "provided");
}

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    SKIFF_ASYNC_AFTER_INIT();
    double t_enter = skiff_now();
    SKIFF_ENTER(MPI_Init_thread);
    int rc = check_level(required, provided);
    if (SKIFF_UNLIKELY(rc))
        return skiff_fail_world(rc);
    return start(required, provided, SKIFF_PC_MPI_Init_thread, t_enter);
}
SKIFF_ALIAS(MPI_Init_thread)

int PMPI_Initialized(int *flag)
{
    SKIFF_MT_GUARD();
    skiff_call = "MPI_Initialized"; /* unprofiled: may come before MPI_Init, so no SKIFF_ENTER */
    /* Before MPI_Init the handler is MPI_ERRORS_ARE_FATAL. */
    int rc = skiff_fail_world(skiff_check_ptr(flag, "flag"));
    if (rc)
        return rc;
    *flag = skiff_world_state != SKIFF_WORLD_NEVER;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Initialized)

int PMPI_Finalized(int *flag)
{
    SKIFF_MT_GUARD();
    skiff_call = "MPI_Finalized";
    int rc = skiff_fail_world(skiff_check_ptr(flag, "flag"));
    if (rc)
        return rc;
    *flag = skiff_world_state == SKIFF_WORLD_ENDED;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Finalized)

int PMPI_Query_thread(int *provided)
{
    SKIFF_ENTER_ANY_THREAD(MPI_Query_thread);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_fail_world(skiff_check_ptr(provided, "provided"));
    if (rc)
        return rc;
    *provided = skiff.thread_level;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Query_thread)

int PMPI_Is_thread_main(int *flag)
{
    SKIFF_ENTER_ANY_THREAD(MPI_Is_thread_main);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_fail_world(skiff_check_ptr(flag, "flag"));
    if (rc)
        return rc;
    *flag = skiff_mt_main;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Is_thread_main)

int PMPI_Finalize(void)
{
    SKIFF_ENTER(MPI_Finalize);
    SKIFF_REQUIRE_INIT();
    if (skiff_world_state != SKIFF_WORLD_ACTIVE)
        skiff_not_initialized();
    /* First, while every rank's library still runs: the profile report gathers to rank 0. */
    skiff_prof_finalize();
    /* The standard frees MPI_COMM_SELF first, so libraries can hang clean-up on its delete callbacks; a
     * failing callback does not stop the shutdown. */
    (void)skiff_attr_delete_all(&skiff_comm_self);
    skiff_world_state = SKIFF_WORLD_ENDED;
    /* With no session open this tears everything down (lifecycle.c). */
    skiff_users_leave(1);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Finalize)

/* The caller wants the job to stop, and a program that goes on past MPI_Abort may do harm: an invalid
 * comm is reported, then the whole job ends all the same (every abort here ends the whole job). */
int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    SKIFF_ENTER(MPI_Abort);
    struct skiff_comm *c = NULL;
    char why[160];
    int rc = skiff_check_comm(comm, &c);
    if (rc) {
        char msg[MPI_MAX_ERROR_STRING];
        skiff_err_string(rc, msg);
        skiff_error_named("%s; ending the whole job instead", msg);
    }
    snprintf(why, sizeof why, "MPI_Abort(%s, %d) called", c ? skiff_comm_label(c) : "an invalid communicator",
             errorcode);
    skiff_abort_job(errorcode, why);
}
SKIFF_ALIAS(MPI_Abort)

int PMPI_Get_version(int *version, int *subversion)
{
    SKIFF_ENTER_ANY_THREAD(MPI_Get_version);
    int rc;
    if ((rc = skiff_check_ptr(version, "version")) || (rc = skiff_check_ptr(subversion, "subversion")))
        return skiff_fail_world(rc);
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_version)

int PMPI_Get_library_version(char *version, int *resultlen)
{
    SKIFF_ENTER_ANY_THREAD(MPI_Get_library_version);
    int rc;
    if ((rc = skiff_check_ptr(version, "version")) || (rc = skiff_check_ptr(resultlen, "resultlen")))
        return skiff_fail_world(rc);
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "skiff %s (MPI %d.%d standard ABI subset; shared memory and tcp; built %s)", SKIFF_VERSION,
                     MPI_VERSION, MPI_SUBVERSION, SKIFF_BUILD_INFO);
    *resultlen = n;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_library_version)

int PMPI_Get_processor_name(char *name, int *resultlen)
{
    SKIFF_ENTER(MPI_Get_processor_name);
    int rc;
    if ((rc = skiff_check_ptr(name, "name")) || (rc = skiff_check_ptr(resultlen, "resultlen")))
        return skiff_fail_world(rc);
    if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0)
        snprintf(name, MPI_MAX_PROCESSOR_NAME, "localhost");
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_processor_name)

double PMPI_Wtime(void)
{
    return skiff_now();
}
SKIFF_ALIAS(MPI_Wtime)

double PMPI_Wtick(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
SKIFF_ALIAS(MPI_Wtick)
