/* Error codes that carry their story. A code is class | slot << 7: the class says what kind of
 * failure it is (MPI_Error_class), the slot points at the message that names the call, the rank and
 * the numbers (MPI_Error_string). The function that first sees an error composes the message;
 * callers only pass the code up. */
#ifndef SKIFF_ERROR_H
#define SKIFF_ERROR_H

#include "mpi.h"

struct skiff_comm;

/* The MPI call being executed, for messages; set at the top of every MPI_* entry point. */
extern const char *skiff_call;

int skiff_err(int errclass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int skiff_err_class(int code);
/* Fills str (at least MPI_MAX_ERROR_STRING bytes); returns -1 for a code that is not an MPI error. */
int skiff_err_string(int code, char *str);

/* Applies comm's error handler to code: returns code (MPI_ERRORS_RETURN, user handlers) or ends the
 * job (MPI_ERRORS_ARE_FATAL, MPI_ERRORS_ABORT). comm may be NULL: the handler of MPI_COMM_WORLD. */
int skiff_err_handle(struct skiff_comm *comm, int code);

/* Ends the whole job: tells the launcher and exits. */
_Noreturn void skiff_abort_job(int code, const char *why);

/* How long a rank that sees another rank die leaves the launcher to end the job: skiff's mpiexec,
 * Hydra and srun see the death too, and when they end the job they name the rank that failed, where
 * a bystander could only say that it lost a peer. */
#define SKIFF_DEAD_PEER_GRACE_MS 1000

/* A transport found a peer gone (connection reset or closed without goodbye): waits out the grace
 * period, then ends the job with why. */
_Noreturn void skiff_abort_job_peer_lost(const char *why);

#endif
