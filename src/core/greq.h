/* Generalized requests (MPI_Grequest_start): operations the program runs itself and ends with
 * MPI_Grequest_complete, possibly from another thread while this one waits in MPI_Wait.
 *
 * The completing thread touches only a registry of its own (a mutex, a list, an atomic word per request):
 * never the request pool, the profiler or any other state of the library. The thread that started the
 * request (the one making MPI calls) sees the completion in its progress loop and only then marks the
 * request done, so everything the wait loops read stays single-threaded. */
#ifndef SKIFF_GREQ_H
#define SKIFF_GREQ_H

#include <stdint.h>

#include "mpi.h"

#include "core/request.h"
#include "util/arch.h"

/* Registered requests whose completion the owning thread has not seen yet: progress polls while > 0.
 * Read and written by the owning thread only. */
extern SKIFF_HIDDEN int skiff_greq_waiting;

/* A new generalized request in *out; an MPI error class on failure. */
int skiff_greq_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                     MPI_Grequest_cancel_function *cancel_fn, void *extra_state, struct skiff_request **out);

/* From any thread. 0: completed; -1: id names no generalized request still registered; -2: it was
 * completed already. */
int skiff_greq_complete(uint64_t id);
/* Whether the calling thread started the request id names (also when it names none: the caller then
 * reports the bad handle as any call does). */
int skiff_greq_started_here(uint64_t id);

/* Progress: marks done the requests whose completion arrived; how many. */
int skiff_greq_poll(void);

/* The status its query function gives (the function's return value: an MPI error code). */
int skiff_greq_status(struct skiff_request *r, MPI_Status *status);
/* A completed request leaves the user: status from the query function, then the free function, then
 * the request object goes; the first error code of the two functions. */
int skiff_greq_retire(struct skiff_request *r, MPI_Status *status);
/* MPI_Request_free: the free function runs now if the request is complete, else when it completes. */
int skiff_greq_free(struct skiff_request *r);
/* MPI_Cancel: the cancel function, told whether MPI_Grequest_complete was called already. */
int skiff_greq_cancel(struct skiff_request *r);

#endif
