/* How a schedule sees user buffers when it outlives the call (nonblocking and persistent
 * collectives): contiguous data is the user's memory itself; other datatypes get a packed copy in
 * the schedule's scratch, packed by a step before the first round and unpacked by one after the
 * last. Being steps, they run again whenever a persistent schedule is replayed, so each start sends
 * what the buffers hold then. The datatypes are held as long as the schedule. */
#ifndef SKIFF_MPI_COLL_PLAN_H
#define SKIFF_MPI_COLL_PLAN_H

#include <stddef.h>

#include "coll/sched.h"
#include "core/datatype.h"
#include "mpi.h"
#include "mpi/coll_counts.h"

/* One packed block: count elements of t at user, packed at packed. */
struct skiff_pk {
    char *user;
    size_t count;
    const struct skiff_type *t;
    char *packed;
};

/* Data to send: count elements of t at buf. copy: always through a copy of the schedule's (the
 * data is also received into, as with MPI_IN_PLACE alltoall). The packing step goes into the round
 * being built: call skiff_sched_round before the algorithm's first round. */
char *skiff_plan_in(struct skiff_sched *s, const void *buf, size_t count, const struct skiff_type *t, int copy);

/* Room to receive count elements of t at buf; *u is what skiff_plan_out_done unpacks (NULL when the
 * data lands in buf directly). */
char *skiff_plan_out(struct skiff_sched *s, void *buf, size_t count, const struct skiff_type *t,
                     struct skiff_pk **u);
/* Block `keep` (of block_count elements) of a receive staged by skiff_plan_out already holds data
 * (MPI_IN_PLACE): packed into its place before the first round. */
void skiff_plan_keep(struct skiff_sched *s, struct skiff_pk *u, int keep, size_t block_count);
/* Ends the schedule with the unpacking of u (nothing for NULL). */
void skiff_plan_out_done(struct skiff_sched *s, struct skiff_pk *u);
/* Only the unpacking step, into the round being built. */
void skiff_plan_unpack(struct skiff_sched *s, struct skiff_pk *u);

/* The same for per-rank blocks (counts[i] elements at displacement displs[i]): data, and byte counts
 * and displacements into it, a block per process that point-to-point names (the remote group's on an
 * intercommunicator). Like skiff_vstage_init's modes: 0 receive, 1 send (2: send through a
 * copy), 3 receive but block `keep` already holds data. */
struct skiff_vplan {
    char *data;
    size_t *bc, *bd;
    struct skiff_pk *pk; /* one per block, or NULL when contiguous */
    int n;
};
void skiff_plan_v(struct skiff_sched *s, struct skiff_vplan *v, const void *buf, struct skiff_cnts counts,
                  struct skiff_dsps displs, const struct skiff_type *t, int mode, int keep);
void skiff_plan_v_done(struct skiff_sched *s, const struct skiff_vplan *v);

/* A new schedule on c for a call that outlives itself; NULL (and *rc the error) on an intercommunicator
 * or without memory. */
struct skiff_sched *skiff_plan_new(struct skiff_comm *c, int *rc);
/* The same on an intra- or intercommunicator (the caller checked the rules of its kind). */
struct skiff_sched *skiff_plan_new_any(struct skiff_comm *c, int *rc);

/* Every collective call written into a new schedule, after the same argument checks as its blocking
 * form (an MPI error code; then no schedule was made). The schedule is complete but not closed: run it
 * (skiff_sched_run) or keep it for replays (skiff_sched_plan). */
int skiff_plan_barrier(MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_bcast(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                      MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                         MPI_Comm comm,
                         struct skiff_sched **out);
int skiff_plan_gather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_gatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       struct skiff_cnts recvcounts, struct skiff_dsps displs, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_scatter(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_scatterv(const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps displs,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_allgatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          struct skiff_cnts recvcounts, struct skiff_dsps displs, MPI_Datatype recvtype,
                          MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_alltoall(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_alltoallv(const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps sdispls,
                         MPI_Datatype sendtype, void *recvbuf, struct skiff_cnts recvcounts, struct skiff_dsps rdispls,
                         MPI_Datatype recvtype, MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_alltoallw(const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps sdispls,
                         const MPI_Datatype sendtypes[], void *recvbuf, struct skiff_cnts recvcounts,
                         struct skiff_dsps rdispls, const MPI_Datatype recvtypes[], MPI_Comm comm,
                         struct skiff_sched **out);
/* counts: MPI_Reduce_scatter's recvcounts, or NULL for block elements each (the _block variant). */
int skiff_plan_reduce_scatter(const void *sendbuf, void *recvbuf, const MPI_Count counts[], MPI_Count block,
                              MPI_Datatype dt,
                              MPI_Op op, MPI_Comm comm, struct skiff_sched **out);
int skiff_plan_scan(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                    int exclusive, struct skiff_sched **out);

/* A nonblocking call's end: runs s (after rc, the planner's result, says it was made) and gives the
 * request's handle, or raises the error on comm. */
int skiff_nb_start(MPI_Comm comm, int rc, struct skiff_sched *s, MPI_Request *request);
/* A blocking call's end, for a schedule made by a planner: runs s to completion and frees it, or raises
 * the planner's error rc on comm. */
int skiff_blocking_run(MPI_Comm comm, int rc, struct skiff_sched *s);

/* A persistent (_init) call's first checks: the request pointer, then the info (the error raised on comm). */
int skiff_persist_check(MPI_Comm comm, MPI_Info info, const MPI_Request *request);
/* Its end: the planned schedule (rc says whether the planner made it) behind a new inactive persistent
 * request, or the error raised on comm. */
int skiff_persist_make(MPI_Comm comm, int rc, struct skiff_sched *s, MPI_Request *request);

#endif
