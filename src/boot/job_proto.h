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
 *   3  launcher_pid and launcher_start: who owns the job, so that skiff-clean can tell a live job
 *      from ranks a dead launcher left behind (the start time guards against a reused pid); the
 *      state SKIFF_RANK_LOST_PEER.
 */
#ifndef SKIFF_JOB_PROTO_H
#define SKIFF_JOB_PROTO_H

#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SKIFF_JOB_MAGIC   0x736b696666UL /* "skiff" */
#define SKIFF_JOB_VERSION 3
#define SKIFF_JOB_MAX_RANKS 4096
#define SKIFF_JOB_CARD 512 /* bytes of one rank's address card, NUL included */

/* What a rank has told mpiexec about itself; mpiexec reads it when the rank exits. */
enum skiff_rank_state {
    SKIFF_RANK_STARTED = 0,   /* has not called MPI_Init (plain programs may exit like this) */
    SKIFF_RANK_INITIALIZED,   /* inside MPI: exiting now is a failure */
    SKIFF_RANK_FINALIZED,     /* called MPI_Finalize: a clean exit */
    SKIFF_RANK_ABORTED,       /* called MPI_Abort or hit a fatal MPI error; abort_code holds the code */
    SKIFF_RANK_LOST_PEER,     /* ended the job because a peer vanished: fallout, the peer is the cause */
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
    /* mpiexec itself, or under a PMI launcher the node leader's parent (Hydra's proxy, slurmstepd);
     * 0 for a singleton. launcher_start is its start time (skiff_job_proc_start). */
    int32_t launcher_pid;
    uint64_t launcher_start;
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

/* When process pid started (clock ticks since boot, field 22 of /proc/<pid>/stat), or 0 if it does not
 * exist or has already exited (a zombie). A pid and its start time name a process for good: pids are
 * reused, the pair is not. */
static inline uint64_t skiff_job_proc_start(int pid)
{
    char path[32], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
    if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
        return 0;
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    return p ? strtoull(p + 1, NULL, 10) : 0;
}

#endif
