/* Error codes that carry their story. A code is class | slot << 7: the class says what kind of
 * failure it is (MPI_Error_class), the slot points at the message that names the call, the rank and
 * the numbers (MPI_Error_string). The function that first sees an error composes the message;
 * callers only pass the code up. */
#ifndef SKIFF_ERROR_H
#define SKIFF_ERROR_H

#include "mpi.h"

struct skiff_comm;

/* The MPI call being executed, for messages; set at the top of every MPI_* entry point. Per thread:
 * under MPI_THREAD_MULTIPLE each thread names its own call, with no setting aside while it waits
 * (initial-exec: one %fs-relative access, as for skiff_mt_depth). */
extern __thread const char *skiff_call __attribute__((tls_model("initial-exec")));

int skiff_err(int errclass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int skiff_err_class(int code);
/* Fills str (at least MPI_MAX_ERROR_STRING bytes); returns -1 for a code that is not an MPI error. */
int skiff_err_string(int code, char *str);

/* Classes and codes the program added (core/error_user.c): values from SKIFF_ERR_USER_BASE up. */
#define SKIFF_ERR_USER_BASE (MPI_ERR_LASTCODE + 1)
/* The class of a live added code or class (a class is its own), or -1. */
int skiff_err_user_class(int code);
int skiff_err_user_is_class(int code);
/* Its string ("" when none was added), or NULL for a value that is not a live added code. */
const char *skiff_err_user_string(int code);
int skiff_err_user_has_string(int code);
/* Live codes added to the added class cls. */
int skiff_err_user_live_codes(int cls);
/* A new class (cls 0) or a new code of class cls (a predefined or live added class): 0, or -1 when
 * memory or values are out. */
int skiff_err_user_add(int cls, int *out);
/* Replaces the string of the live added code (NULL removes it): 0, or -1 when memory is out. */
int skiff_err_user_set_string(int code, const char *s);
/* Removes the live added code or class. */
void skiff_err_user_remove(int code);
/* The largest value handed out so far (MPI_LASTUSEDCODE): MPI_ERR_LASTCODE before any. */
int skiff_err_lastused(void);

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
