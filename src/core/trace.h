/* The call tracer (SKIFF_TRACE=1; docs/trace.md): every outermost MPI call's start and end, and inside
 * it each message the call started or finished, collectives' messages included, as fixed-size records
 * in a bounded buffer that each rank writes to a file of its own at MPI_Finalize.
 *
 * Call boundaries come from the profiler's span (mpi/profile.h): SKIFF_ENTER's span is the one hook
 * of the entry points, and skiff_prof_on gates it for both. Messages are recorded where every path
 * that makes one meets: the point-to-point core starting a send or posting a receive, a request being
 * taken complete, a collective schedule starting. Each of those hooks is one predictable branch on
 * skiff_trace_on when tracing is off. */
#ifndef SKIFF_TRACE_H
#define SKIFF_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core/trace_format.h"
#include "util/arch.h"

struct skiff_comm;
struct skiff_request;

/* 1 while records are being kept: from the end of MPI_Init to the start of MPI_Finalize with
 * SKIFF_TRACE=1, unless MPI_Pcontrol(0) paused it or the buffer filled. */
extern SKIFF_HIDDEN int skiff_trace_on;

/* At the end of MPI_Init (when SKIFF_TRACE=1): allocates the buffer, starts recording. */
int skiff_trace_init(void);
/* At the start of MPI_Finalize: stops, writes this rank's file. No communication. */
void skiff_trace_finalize(void);
/* MPI_Pcontrol(0) and (1). */
void skiff_trace_pause(void);
void skiff_trace_resume(void);

/* From the profiler's span: an outermost call begins; ends (call id); carries bytes; has a root. */
void skiff_trace_call_begin(void);
void skiff_trace_call_end(int call);
void skiff_trace_call_bytes(size_t bytes);
void skiff_trace_call_root(int root);
/* From the core. */
void skiff_trace_send(struct skiff_comm *c, uint32_t ctx, int world_peer, int tag, size_t bytes,
                      const struct skiff_request *r, int rndv, int sync);
void skiff_trace_recv(const struct skiff_request *r);
void skiff_trace_done(const struct skiff_request *r);
void skiff_trace_coll(struct skiff_comm *c, int tag, const struct skiff_request *req);
void skiff_trace_sync(struct skiff_comm *c, int what, size_t bytes);

/* 1 while records are kept: a relaxed atomic load, since threads may record at once. */
static inline int skiff_tracing(void)
{
    return __atomic_load_n(&skiff_trace_on, __ATOMIC_RELAXED);
}

#define SKIFF_TRACE_HOOK(call)                                                                           \
    do {                                                                                                 \
        if (SKIFF_UNLIKELY(skiff_tracing()))                                                             \
            call;                                                                                        \
    } while (0)

#endif
