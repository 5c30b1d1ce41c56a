/* The contract between skiff's mpiexec and every rank it starts.
 *
 * mpiexec creates one anonymous memory file (memfd) per job and hands it to every rank as an inherited
 * file descriptor. Because the file has no name, nothing can ever be left behind in /dev/shm: the kernel
 * frees it when the last process holding it exits. The first page is this header; the library grows the
 * file (ftruncate is idempotent for equal sizes) and lays out its queues after it.
 *
 * Environment given to each rank (read only in src/util/config.c and src/boot/):
 *   SKIFF_RANK, SKIFF_SIZE   this rank and the job size (decimal)
 *   SKIFF_JOBID              job identifier (hex), unique per mpiexec run
 *   SKIFF_SECRET             random 64-bit per-job secret (hex); transports that accept connections check it
 *   SKIFF_JOB_FD             the memfd described here
 *   SKIFF_NODE_CPUS          CPUs usable by the job on this node (tells the library it is oversubscribed)
 *
 * Under a PMI launcher (Hydra, srun, or skiff's mpiexec across hosts) nobody hands the segment down:
 * the lowest rank of each node creates it with the same layout, for the ranks of that node only, and
 * the others open it through /proc (see boot.c). There, rank[] is indexed by the node-local rank.
 *
 * Version history of this layout:
 *   1  first version: magic, version, size, per-rank state and exit information.
 *   2  per-rank address cards (SKIFF_JOB_CARD bytes each) after rank[], and cards_ready: the
 *      transports that connect ranks by address (tcp) exchange them here when mpiexec started the job.
 */
#ifndef SKIFF_JOB_PROTO_H
#define SKIFF_JOB_PROTO_H

#include <stdatomic.h>
#include <stdint.h>

#define SKIFF_JOB_MAGIC   0x736b696666UL /* "skiff" */
#define SKIFF_JOB_VERSION 2
#define SKIFF_JOB_MAX_RANKS 4096
#define SKIFF_JOB_CARD 512 /* bytes of one rank's address card, NUL included */

/* What a rank has told mpiexec about itself; mpiexec reads it when the rank exits. */
enum skiff_rank_state {
    SKIFF_RANK_STARTED = 0,   /* has not called MPI_Init (plain programs may exit like this) */
    SKIFF_RANK_INITIALIZED,   /* inside MPI: exiting now is a failure */
    SKIFF_RANK_FINALIZED,     /* called MPI_Finalize: a clean exit */
    SKIFF_RANK_ABORTED,       /* called MPI_Abort or hit a fatal MPI error; abort_code holds the code */
};

struct skiff_job_rank {
    _Atomic uint32_t state;      /* enum skiff_rank_state */
    int32_t abort_code;          /* valid once state == SKIFF_RANK_ABORTED */
    int32_t pid;
    uint32_t pad;
};

struct skiff_job_header {
    uint64_t magic;
    uint32_t version;
    uint32_t nranks;
    uint64_t jobid;
    /* Ranks grow the file to this size or more; kept here so a debugger can see the whole layout. */
    _Atomic uint64_t segment_size;
    _Atomic uint32_t cards_ready; /* ranks that have written their card */
    uint32_t pad;
    struct skiff_job_rank rank[]; /* nranks entries, then nranks cards of SKIFF_JOB_CARD bytes */
};

/* Bytes mpiexec must allocate before starting ranks; the library rounds up and appends its own areas. */
static inline uint64_t skiff_job_header_size(uint32_t nranks)
{
    uint64_t sz = sizeof(struct skiff_job_header) + (uint64_t)nranks * (sizeof(struct skiff_job_rank) + SKIFF_JOB_CARD);
    return (sz + 4095) & ~(uint64_t)4095;
}

static inline char *skiff_job_card(struct skiff_job_header *h, uint32_t rank)
{
    return (char *)&h->rank[h->nranks] + (uint64_t)rank * SKIFF_JOB_CARD;
}

#endif
