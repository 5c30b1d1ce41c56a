/* Who keeps the process's MPI running: a count of users (the world model and each open session).
 *
 * The bootstrap cannot be started twice in one process: the launcher hands over one job segment and one
 * set of connections, and the shared-memory queues are laid out once. So when the last session ends the
 * bootstrap stays up, idle, and a later MPI_Session_init or MPI_Init takes it up again; the process's exit
 * (atexit) ends it and tells the launcher that this rank finished cleanly. MPI_Finalize, when no session
 * is open, still tears everything down at once, so the world model's behaviour (unreceived sends reported,
 * the launcher told) is what it always was. */
#include <stdio.h>
#include <stdlib.h>

#include "core/async.h"
#include "core/ctxid.h"
#include "core/hwtopo.h"
#include "core/info.h"
#include "core/op.h"
#include "core/pt2pt.h"
#include "mpi/handle_convert.h"
#include "mpi/mpi_impl.h"
#include "mpi/session.h"
#include "rma/win.h"
#include "util/log.h"

enum skiff_world_state skiff_world_state = SKIFF_WORLD_NEVER;

static int users;
static enum { NOT_STARTED, RUNNING, IDLE, TORN_DOWN } state;
static struct skiff_comm *hidden;

struct skiff_comm *skiff_session_comm(void)
{
    return hidden;
}

int skiff_users_torn_down(void)
{
    return state == TORN_DOWN;
}

static void tear_down(void)
{
    skiff_async_stop(); /* first: it runs the progress engine that everything below takes apart */
    /* A peer may still be reading one of our send buffers or waiting for our data pieces; sends that
     * nobody can receive any more are reported and ended. */
    skiff_rma_finalize(); /* windows the program did not free: forgotten, their hook stopped */
    skiff_finalize_sends();
    skiff_core_finalize();
    skiff_op_finalize();
    skiff_handles_finalize();
    skiff_info_finalize();
    skiff_hw_finalize();
    hidden = NULL;
    state = TORN_DOWN;
}

static void at_exit(void)
{
    /* Users still open at exit are a program that did not finalize: the launcher must see a failure. */
    if (state == IDLE)
        tear_down();
}

static int clamp_level(int level)
{
    return level < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE : level > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : level;
}

/* MULTIPLE turns the lock on (core/mt.h) while the caller is still the only thread inside MPI. */
static void set_level(int level)
{
    skiff.thread_level = level;
    if (level == MPI_THREAD_MULTIPLE && !skiff_mt_on)
        skiff_mt_enable();
}

/* Every process runs this first after the bootstrap, so every process claims the same id for it. */
static int make_hidden(void)
{
    uint32_t ctx = 0;
    int *world = malloc(sizeof(int) * (size_t)skiff.size), rc;
    if (!world)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a group of %d processes", skiff.size);
    for (int i = 0; i < skiff.size; i++)
        world[i] = i;
    rc = skiff_ctx_claim(skiff_ctx_next(), &ctx);
    if (!rc)
        rc = skiff_comm_make_ctx(ctx, world, skiff.size, MPI_ERRORS_RETURN, &hidden);
    free(world);
    if (!rc)
        snprintf(hidden->name, sizeof hidden->name, "(the sessions' internal communicator)");
    return rc;
}

static int start(int thread_level)
{
    if (skiff_core_init() != MPI_SUCCESS) {
        skiff_error("%s failed; see the message above", skiff_call);
        skiff_abort_job(1, "MPI initialization failed");
    }
    set_level(clamp_level(thread_level));
    skiff_info_init_env(skiff.thread_level, skiff.size);
    atexit(at_exit);
    state = RUNNING;
    return make_hidden();
}

int skiff_users_enter(int thread_level)
{
    int rc = MPI_SUCCESS;
    switch (state) {
    case NOT_STARTED:
        rc = start(thread_level);
        break;
    case TORN_DOWN:
        return skiff_err(MPI_ERR_OTHER, "MPI_Finalize ended this process's MPI while no session was open; skiff "
                         "cannot start it again (open a session before MPI_Finalize to keep it running)");
    case IDLE:
        skiff.initialized = 1;
        skiff.finalized = 0;
        state = RUNNING;
        /* fall through */
    case RUNNING:
        if (clamp_level(thread_level) > skiff.thread_level)
            set_level(clamp_level(thread_level));
        break;
    }
    if (!rc)
        users++;
    return rc;
}

void skiff_users_leave(int world)
{
    if (--users > 0)
        return;
    if (world) {
        tear_down();
        return;
    }
    /* Idle: every call but a new MPI_Init or MPI_Session_init is refused as after a finalize. */
    skiff.initialized = 0;
    skiff.finalized = 1;
    state = IDLE;
}
