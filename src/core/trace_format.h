/* The trace file (SKIFF_TRACE=1; docs/trace.md): what the library writes at MPI_Finalize and what
 * tools/skiff_replay.c reads. Plain C, no other skiff header, so the tool can include it alone.
 *
 * One file per rank, all integers little-endian as the machine writes them (traces are read on the
 * kind of machine that wrote them; the magic's version changes if this layout does):
 *   struct skiff_trace_head                         (once)
 *   struct skiff_trace_rec        x head.nrecs      (40 bytes each)
 *   head.ncalls NUL-terminated call names           (the profiler's ids: rec.call indexes them)
 */
#ifndef SKIFF_TRACE_FORMAT_H
#define SKIFF_TRACE_FORMAT_H

#include <stdint.h>

#define SKIFF_TRACE_MAGIC "SKTRACE1"

enum skiff_trace_kind {
    /* One outermost MPI call: call = its id, t = start, x = end (ns since the end of this rank's
     * MPI_Init), bytes = the message bytes the profiler counts for it, peer = root of a rooted
     * collective (rank in comm) or -1. The records up to the next CALL happened inside it. */
    SKIFF_TR_CALL = 1,
    /* A send started: peer = destination's world rank, tag, comm = context id, bytes, x = request id
     * (0: a blocking eager send that completed at once). flags: SKIFF_TRF_*. */
    SKIFF_TR_SEND,
    /* A receive posted: peer = source's world rank or -1 (any), tag (-1 any), comm, bytes = room, x = request id. */
    SKIFF_TR_RECV,
    /* The program (or the collective's schedule) took request x's completion here: for a receive, peer
     * is the actual source's world rank, tag the actual tag, bytes the bytes received. flags: SKIFF_TRF_RECV
     * for a receive. */
    SKIFF_TR_DONE,
    /* A collective's message schedule starts (its messages follow as SEND/RECV/DONE): comm = the
     * communicator's context id, tag = the schedule's tag, peer = this rank's rank in comm, bytes = comm
     * size. flags: SKIFF_TRF_NONBLOCKING. */
    SKIFF_TR_COLL,
    /* A barrier through the node's shared memory, without messages (MPI_Barrier of a one-node job, and
     * inside the shared-slot MPI_Allreduce, which then reduces locally): comm, peer = SKIFF_TRS_BARRIER,
     * tag = comm size. */
    SKIFF_TR_SYNC,
    /* A communicator first seen (or seen again with other members): comm = context id (its point-to-
     * point one; collectives use comm + 1), peer = size, tag = this rank's rank in it; its members'
     * world ranks follow in ceil(size / 9) MEMBERS records. */
    SKIFF_TR_COMM,
    SKIFF_TR_MEMBERS,
};

enum skiff_trace_flag {
    SKIFF_TRF_RNDV = 1,        /* SEND: larger than the transport's eager limit (rendezvous) */
    SKIFF_TRF_SYNC = 2,        /* SEND: synchronous mode */
    SKIFF_TRF_RECV = 4,        /* DONE: of a receive */
    SKIFF_TRF_NONBLOCKING = 8, /* COLL: behind a nonblocking call's request */
    SKIFF_TRF_TRUNCATED = 16,  /* CALL: the buffer filled inside this call; nothing after it was kept */
};

enum { SKIFF_TRS_BARRIER = 1 };

struct skiff_trace_rec {
    uint8_t kind, flags;
    uint16_t call;
    int32_t peer, tag;
    uint32_t comm;
    uint64_t t, x, bytes;
};

/* MEMBERS: up to 9 world ranks (n of them) of the communicator announced by the COMM before it. */
struct skiff_trace_members {
    uint8_t kind, n;
    uint16_t pad;
    int32_t rank[9];
};

_Static_assert(sizeof(struct skiff_trace_rec) == 40, "trace records are 40 bytes");
_Static_assert(sizeof(struct skiff_trace_members) == 40, "a MEMBERS record is a record");

#define SKIFF_TRACE_HEAD_TRUNCATED 1u

struct skiff_trace_head {
    char magic[8];          /* SKIFF_TRACE_MAGIC */
    uint32_t rank, size;    /* this rank, the job's size */
    uint32_t node, nnodes;  /* this rank's node number (equal numbers: one node), the job's node count */
    uint32_t flags;         /* SKIFF_TRACE_HEAD_TRUNCATED: the buffer filled and recording stopped */
    uint32_t ncalls;        /* call names after the records */
    uint64_t nrecs, max_recs;
    uint64_t jobid;
    uint64_t wall_ns;       /* from the end of MPI_Init to the start of MPI_Finalize */
    uint64_t start_ns;      /* CLOCK_MONOTONIC at the end of MPI_Init (comparable within one host) */
    uint64_t shm_eager, tcp_eager; /* eager limits in force (bytes) */
    char host[64];
};

#endif
