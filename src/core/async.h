/* SKIFF_ASYNC_PROGRESS: one thread per process that runs the progress engine while the application
 * computes (docs/design.md, Threads, "The progress thread"). */
#ifndef SKIFF_ASYNC_H
#define SKIFF_ASYNC_H

/* Starts the thread if SKIFF_ASYNC_PROGRESS=1 and it is not running yet; turns the library's lock on
 * first (core/mt.h). Called last in MPI_Init, MPI_Init_thread and MPI_Session_init, when the caller is
 * the only thread in MPI. Returns MPI_SUCCESS or an MPI error class with a message. */
int skiff_async_start(void);
/* Declared first in MPI_Init, MPI_Init_thread and MPI_Session_init, before SKIFF_ENTER: its cleanup runs
 * after the call's own (the profiler's record of the call), so the thread starts when nothing of the
 * call remains to run; it calls skiff_async_start and ends the job if the thread cannot start. */
void skiff_async_after_init(const int *unused);
#define SKIFF_ASYNC_AFTER_INIT()                                                                         \
    __attribute__((cleanup(skiff_async_after_init), unused)) const int skiff_async_gate_ = 0

/* Stops and joins it (before the library is torn down). A no-op if it is not running, or if called
 * from the thread itself (an abort inside its progress ends the process without tearing down). */
void skiff_async_stop(void);
/* 1 while the thread runs. */
int skiff_async_running(void);

#endif
