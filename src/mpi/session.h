/* The process's MPI has several users since MPI-4: the world model (MPI_Init .. MPI_Finalize) and any number
 * of sessions (MPI_Session_init .. MPI_Session_finalize), in any order and overlapping. The bootstrap
 * (launcher, transports, predefined communicators) is started by the first user and belongs to all of
 * them; lifecycle.c counts the users. */
#ifndef SKIFF_MPI_SESSION_H
#define SKIFF_MPI_SESSION_H

#include "mpi.h"

struct skiff_comm;

/* The world model's state: MPI_Initialized and MPI_Finalized answer from it alone. */
enum skiff_world_state { SKIFF_WORLD_NEVER, SKIFF_WORLD_ACTIVE, SKIFF_WORLD_ENDED };
extern enum skiff_world_state skiff_world_state;

/* A new user (MPI_Init or a session) that asks for thread_level: starts the bootstrap if no user has, or
 * takes up the one the last user left running. Returns an MPI error code; on failure there is no new
 * user. */
int skiff_users_enter(int thread_level);
/* A user ends. The last one out of the world model (MPI_Finalize) tears everything down, as MPI_Finalize
 * always did; the last session leaves the bootstrap running for a later MPI_Init or MPI_Session_init,
 * and the process's exit ends it. */
void skiff_users_leave(int world);
/* 1 once MPI_Finalize tore the bootstrap down: it cannot start again in this process. */
int skiff_users_torn_down(void);

/* 1 if h is an open session (for the handle conversions). */
int skiff_session_live(MPI_Session h);
/* Checks h; *obj is the session object (what a communicator's session field points to). */
int skiff_session_check(MPI_Session h, const void **obj);
/* Reports rc to h's error handler (MPI_COMM_WORLD's when h is not a session). */
int skiff_session_fail(MPI_Session h, int rc);

/* An intracommunicator of every process of the job, never handed to the user: the calls that make
 * communicators from a group alone (MPI_Comm_create_from_group, MPI_Intercomm_create_from_groups) agree
 * on their context ids through it, where no parent communicator exists. */
struct skiff_comm *skiff_session_comm(void);

#endif
