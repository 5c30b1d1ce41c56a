/* The built-in profiler (SKIFF_PROFILE=1; docs/profiler.md): what every entry point sees of it.
 *
 * SKIFF_ENTER (mpi_impl.h) opens a span on the entry point's stack; a cleanup attribute closes it at
 * every return, so no entry point needs an exit hook of its own. With the profiler off, opening a
 * span costs one predictable branch on skiff_prof_on and closing it a test of a local that is 0. */
#ifndef SKIFF_PROFILE_H
#define SKIFF_PROFILE_H

#include <stddef.h>

#include "mpi.h"
#include "core/profile_calls.h"
#include "util/arch.h"

/* Set from the end of MPI_Init to the start of MPI_Finalize when SKIFF_PROFILE=1 or SKIFF_TRACE=1. */
extern SKIFF_HIDDEN int skiff_prof_on;

enum skiff_prof_state {
    SKIFF_PROF_OFF,    /* profiler off when the call started */
    SKIFF_PROF_NESTED, /* inside another MPI call (a user op, a callback): the outer call owns the time */
    SKIFF_PROF_TIMED,  /* the outermost call: recorded when it returns */
};

struct skiff_prof_span {
    enum skiff_prof_call id;
    enum skiff_prof_state state;
};

enum skiff_prof_state skiff_prof_enter(void);
void skiff_prof_leave_slow(const struct skiff_prof_span *s);
void skiff_prof_msg_slow(enum skiff_prof_call id, size_t bytes);

static inline void skiff_prof_leave(const struct skiff_prof_span *s)
{
    if (SKIFF_UNLIKELY(s->state != SKIFF_PROF_OFF))
        skiff_prof_leave_slow(s);
}

/* unused: the cleanup handler is its use, which gcc sees and clang does not. */
#define SKIFF_PROF_SPAN(name)                                                                            \
    __attribute__((cleanup(skiff_prof_leave), unused)) const struct skiff_prof_span skiff_span_ = {      \
        SKIFF_PC_##name, SKIFF_UNLIKELY(skiff_prof_on) ? skiff_prof_enter() : SKIFF_PROF_OFF}

/* The current call moved one message of `bytes` bytes (evaluated only when the call is recorded). */
#define SKIFF_PROFILE_MSG(bytes)                                                                         \
    do {                                                                                                 \
        if (SKIFF_UNLIKELY(skiff_span_.state == SKIFF_PROF_TIMED))                                       \
            skiff_prof_msg_slow(skiff_span_.id, (bytes));                                                \
    } while (0)

/* The current call is a rooted collective (for the tracer: docs/trace.md). */
void skiff_trace_call_root(int root);
#define SKIFF_PROFILE_ROOT(root)                                                                         \
    do {                                                                                                 \
        if (SKIFF_UNLIKELY(skiff_span_.state == SKIFF_PROF_TIMED))                                       \
            skiff_trace_call_root(root);                                                                 \
    } while (0)

/* Message sizes as the caller gave them: count elements of dt; the sum of counts[0..size of comm) (this
 * rank's entry alone: skiff_prof_own_cnt, mpi/coll_counts.h). Invalid arguments give 0 (the call's own
 * checks report them). */
size_t skiff_prof_bytes(MPI_Count count, MPI_Datatype dt);
size_t skiff_prof_vbytes(const int counts[], MPI_Datatype dt, MPI_Comm comm);
size_t skiff_prof_vbytes_c(const MPI_Count counts[], MPI_Datatype dt, MPI_Comm comm);

/* MPI_Init (id: which of the two) succeeded; t_enter is when it was called. Starts recording if
 * SKIFF_PROFILE=1. */
void skiff_prof_init(enum skiff_prof_call id, double t_enter);
/* At the start of MPI_Finalize, while the library still runs: stops recording, gathers every rank's
 * table to rank 0, which writes the report. Collective over MPI_COMM_WORLD when profiling. */
void skiff_prof_finalize(void);
/* MPI_Pcontrol's levels, each a no-op without SKIFF_PROFILE=1: 0 stops recording, 1 resumes it, 2 writes
 * this rank's table so far as a report of its own. */
void skiff_prof_pause(void);
void skiff_prof_resume(void);
void skiff_prof_flush(void);

#endif
