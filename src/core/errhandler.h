/* Error handlers: the predefined ones (handles below 0x400) and user handlers made by
 * MPI_Comm_create_errhandler (and, through the same object, the session, window and file forms).
 *
 * A user handler is an object from a pool whose address is its handle. It is reference-counted: the
 * user's handle is one reference, every object it is attached to holds one more, and
 * MPI_Comm_get_errhandler hands out another (which the caller gives back with MPI_Errhandler_free). So
 * freeing a handler that a communicator still uses keeps it alive until that communicator goes. */
#ifndef SKIFF_ERRHANDLER_H
#define SKIFF_ERRHANDLER_H

#include "mpi.h"

#define SKIFF_EH_MAGIC 0x65726868u

/* What a handler was made for; MPI forbids attaching it to another kind of object. */
enum skiff_eh_kind { SKIFF_EH_COMM, SKIFF_EH_SESSION, SKIFF_EH_WIN, SKIFF_EH_FILE };

/* void fn(X *object, int *errorcode, ...) where X is the kind's handle type (MPI_Comm, MPI_Session,
 * MPI_Win, MPI_File), kept as a generic function pointer and cast back by kind when called. */
typedef void (*skiff_eh_fn)(void);

struct skiff_errhandler {
    unsigned magic; /* zero once the last reference is gone: a stale handle is refused */
    enum skiff_eh_kind kind;
    skiff_eh_fn fn;
    int refs;
};

/* "communicator", "session", ...: for messages. */
const char *skiff_eh_kind_name(enum skiff_eh_kind kind);

/* NULL unless h is a live user handler (of any kind). */
struct skiff_errhandler *skiff_eh_user(MPI_Errhandler h);

/* MPI_SUCCESS if h may be attached to an object of kind: a predefined handler other than
 * MPI_ERRHANDLER_NULL, or a live user handler made for that kind; else an MPI_ERR_ERRHANDLER code. */
int skiff_eh_check(MPI_Errhandler h, enum skiff_eh_kind kind);

/* A new user handler with one reference (the caller's handle), or MPI_ERRHANDLER_NULL when memory is
 * out. */
MPI_Errhandler skiff_eh_create(enum skiff_eh_kind kind, skiff_eh_fn fn);

/* Take and give back a reference; both do nothing for predefined handlers. The object goes back to
 * the pool with its last reference. */
void skiff_eh_retain(MPI_Errhandler h);
void skiff_eh_release(MPI_Errhandler h);

/* Replaces *slot (an object's handler) by h, moving the references. */
void skiff_eh_attach(MPI_Errhandler *slot, MPI_Errhandler h);

/* Applies handler eh of an object of kind to code (not MPI_SUCCESS): MPI_ERRORS_RETURN returns code;
 * a user handler is called with (&object, &code) and code is returned; MPI_ERRORS_ARE_FATAL and
 * MPI_ERRORS_ABORT print the message and end the job (label names the object in the message). object
 * points at the object's handle (an MPI_Comm, MPI_Session, ...). */
int skiff_eh_invoke(MPI_Errhandler eh, enum skiff_eh_kind kind, void *object, const char *label, int code);

#endif
