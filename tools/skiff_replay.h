/* skiff-replay: a trace (SKIFF_TRACE=1) replayed under a LogGP model (docs/trace.md). Not an MPI program. */
#ifndef SKIFF_REPLAY_H
#define SKIFF_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "core/trace_format.h"

/* One class of pairs (within a node, between nodes): seconds, and seconds per byte for G. */
struct rp_loggp {
    double L, o, g, G;
};

struct rp_rank {
    struct skiff_trace_head head;
    struct skiff_trace_rec *rec;
    size_t n;
    int node;              /* as replayed (the trace's, or --ppn's) */
    long *link;            /* DONE record -> its SEND/RECV record, or -1 */
};

struct rp_trace {
    int size;
    struct rp_rank *rank;
    char **names;          /* call names (rank 0's table) */
    int ncalls;
    int truncated;         /* some rank's buffer filled */
    double recorded;       /* max over ranks of MPI_Init end -> MPI_Finalize start, seconds */
};

struct rp_result {
    double time;           /* predicted: max over ranks of the model time at MPI_Finalize */
    int last_rank;
    double compute;        /* computation intervals and local calls, max over ranks */
    size_t msgs[2], bytes[2]; /* messages and bytes modelled, [0] within nodes, [1] between */
    int blocked;           /* ranks that could not finish (truncated trace, unmatched message) */
    char why[256];         /* what the first of them waited for */
};

/* Reads PREFIX.0 ... PREFIX.<size-1>; 0, or -1 with a message on stderr. */
int rp_load(const char *prefix, struct rp_trace *t);
void rp_free(struct rp_trace *t);
/* Re-maps ranks to nodes, ppn consecutive ranks each (0: keep the trace's nodes). */
void rp_set_ppn(struct rp_trace *t, int ppn);
/* Replays t with p[0] for pairs on one node and p[1] for pairs across nodes. */
int rp_replay(const struct rp_trace *t, const struct rp_loggp p[2], struct rp_result *res);

#endif
