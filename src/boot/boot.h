/* How a process learns who it is: rank, job size, and the job's shared segment.
 * Launched by skiff's mpiexec (see job_proto.h) or started alone as a one-rank job (singleton). */
#ifndef SKIFF_BOOT_H
#define SKIFF_BOOT_H

#include "util/arch.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "boot/job_proto.h"
#include "boot/nodemap.h"

struct skiff_boot_info {
    int rank, size;
    uint64_t jobid, secret;
    int node_cpus;     /* CPUs the job may use on this node */
    int launched;      /* 1 under mpiexec, 0 for a singleton */
    int pmi;           /* 1 when started through a PMI-1 or PMIx server (skiff_boot_pmi says which) */
    struct skiff_nodemap map; /* where the launcher placed every rank */
    int node, local_rank, local_size;
    int job_fd;
    unsigned char *seg; /* the whole job segment once mapped */
    size_t seg_size;
    struct skiff_job_header *hdr;
};

extern SKIFF_HIDDEN struct skiff_boot_info skiff_boot;

/* 0, or -1 after printing why on stderr (a launcher's environment that is present but unusable). */
int skiff_boot_init(void);
/* Grows the job segment to at least total bytes and maps it; NULL after printing why. */
unsigned char *skiff_boot_map(size_t total);
/* Tells the launcher where this rank stands (it reads this when the rank exits). */
void skiff_boot_set_state(enum skiff_rank_state s, int abort_code);
/* 1 once a rank of this node has finalized, aborted or ended the job (its state is past INITIALIZED). */
int skiff_boot_peer_finalized(int rank);
pid_t skiff_boot_pid(int rank);
/* Address cards (a line of text per rank, < SKIFF_JOB_CARD bytes) for transports that connect by
 * address. Collective: every rank calls exchange once with its own card; afterwards card(r) reads
 * rank r's. 0, or -1 after printing why. */
int skiff_boot_cards_exchange(const char *mine);
int skiff_boot_card(int rank, char *out, size_t len);
void skiff_boot_finalize(void);
/* Under a PMI launcher, asks it to end the whole job with code (PMIx_Abort); returns if it cannot.
 * Called after this rank has said why on stderr and flushed its output. */
void skiff_boot_abort(int code, const char *why);
/* 1 if the launcher that started us through PMI has gone away (0 without PMI). */
int skiff_boot_launcher_gone(void);
/* Under a PMI launcher: a rank of this node that aborted (*aborted = 1) or died inside MPI, or -1. */
int skiff_boot_dead_peer(int *aborted);


#endif
