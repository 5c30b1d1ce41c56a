/* Schedules: a collective algorithm written down as rounds. Each round posts its sends and
 * receives together; when all of them have completed, the round's local steps (reductions, copies)
 * run in order, and the next round starts. The same schedule runs to completion inside a blocking
 * call or advances from the progress engine behind a nonblocking call's request. */
#ifndef SKIFF_COLL_SCHED_H
#define SKIFF_COLL_SCHED_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/request.h"
#include "mpi.h"

enum skiff_step_kind { SKIFF_STEP_SEND = 1, SKIFF_STEP_RECV, SKIFF_STEP_REDUCE, SKIFF_STEP_COPY, SKIFF_STEP_CALL,
                       SKIFF_STEP_THEN };

struct skiff_sched;
/* A THEN step: decides what comes next once the round's data is in (it may add rounds). */
typedef void skiff_sched_then_fn(struct skiff_sched *s, void *arg);

struct skiff_step {
    uint8_t kind;
    int peer;           /* comm rank (SEND/RECV) */
    const void *src;    /* SEND data, REDUCE in, COPY source */
    void *dst;          /* RECV target, REDUCE inout, COPY target */
    size_t bytes;       /* SEND/RECV/COPY bytes, REDUCE element count */
    struct skiff_request *req;
    void (*fn)(void *arg);     /* CALL, with dst as its argument */
    skiff_sched_then_fn *then; /* THEN, with dst as its argument */
};

#define SKIFF_SCHED_INLINE 16

struct skiff_sched {
    struct skiff_comm *comm;
    int tag;
    MPI_Datatype dt; /* for REDUCE steps */
    MPI_Op op;
    /* A nonblocking run holds op and dt, which the user may free before it completes. */
    int held_op;
    const struct skiff_type *held_type;
    struct skiff_step *steps;
    int nsteps, cap;
    int *round_end; /* round r covers steps [round_end[r-1], round_end[r]) */
    int nrounds, rounds_cap;
    int cur;        /* round in flight */
    int posted;     /* its communication has been posted */
    int error;
    int replay;     /* persistent: kept when it completes, to run again at the next start */
    void *scratch;  /* owned temporary memory, freed with the schedule */
    struct skiff_request *req; /* completion seen by the user (nonblocking) */
    struct skiff_sched *next;
    struct skiff_step inline_steps[SKIFF_SCHED_INLINE];
    int inline_rounds[SKIFF_SCHED_INLINE];
};

/* Starts a schedule for one collective call on c: takes the communicator's next collective tag. */
void skiff_sched_init(struct skiff_sched *s, struct skiff_comm *c);
/* Scratch memory owned by the schedule; NULL on failure. */
void *skiff_sched_scratch(struct skiff_sched *s, size_t bytes);
void skiff_sched_send(struct skiff_sched *s, const void *src, size_t bytes, int peer);
void skiff_sched_recv(struct skiff_sched *s, void *dst, size_t bytes, int peer);
void skiff_sched_reduce(struct skiff_sched *s, const void *in, void *inout, size_t count);
void skiff_sched_copy(struct skiff_sched *s, void *dst, const void *src, size_t bytes);
/* A copy that must happen before the first communication (the algorithms' "start from sendbuf"):
 * its own round, so that it runs again each time a persistent schedule is replayed. */
void skiff_sched_copy_first(struct skiff_sched *s, void *dst, const void *src, size_t bytes);
void skiff_sched_call(struct skiff_sched *s, void (*fn)(void *arg), void *arg);
/* Keeps t alive as long as the schedule (the user may free a datatype while a call still uses it). */
void skiff_sched_hold_type(struct skiff_sched *s, const struct skiff_type *t);
/* Calls fn(s, arg) in its turn among the round's local steps. fn may add steps and rounds (ending its
 * last one with skiff_sched_round): a schedule whose length depends on what it receives. */
void skiff_sched_then(struct skiff_sched *s, skiff_sched_then_fn *fn, void *arg);
/* Ends the current round. */
void skiff_sched_round(struct skiff_sched *s);

/* Runs s: to completion when req is NULL (then frees it unless it lives on the stack: see below),
 * else hands it to the progress engine and returns the request that completes with it.
 * s must come from skiff_sched_new() when req is not NULL. Returns an MPI error code. */
int skiff_sched_run(struct skiff_sched *s, struct skiff_request **req);
/* As skiff_sched_run with req, for a request that carries then (core/request.h) from before the
 * schedule starts: its first round may complete it at once, or another thread's progress soon after. */
int skiff_sched_run_then(struct skiff_sched *s, struct skiff_request **req, const struct skiff_req_then *then);
struct skiff_sched *skiff_sched_new(struct skiff_comm *c);
/* For a call collective over part of c only (MPI_Comm_create_group): the tag is given, and the
 * communicator's collective sequence, which every process of c keeps, is left alone. */
struct skiff_sched *skiff_sched_new_tagged(struct skiff_comm *c, int tag);
void skiff_sched_release(struct skiff_sched *s);

/* Persistent schedules: built once (from skiff_sched_new), closed by skiff_sched_plan, then run any
 * number of times, one run at a time, each completing r. skiff_sched_free ends one that is not running. */
void skiff_sched_plan(struct skiff_sched *s);
int skiff_sched_start(struct skiff_sched *s, struct skiff_request *r);
void skiff_sched_free(struct skiff_sched *s);

#endif
