/* The process managers a rank can boot through, behind one table that boot.c and cards.c use:
 *   skiff_pmi1  the PMI-1 wire protocol, which MPICH's Hydra (mpiexec.mpich), Slurm's srun --mpi=pmi2
 *               and skiff's own mpiexec in PMI mode answer on the socket named by PMI_FD or PMI_PORT
 *               (pmi.c). Replies are parsed as key=value pairs, never by position (Hydra puts rc
 *               last, Slurm first).
 *   skiff_pmix  the PMIx client library (pmix.c, built when libpmix is found): srun --mpi=pmix, Open
 *               MPI's mpirun, PRRTE's prterun.
 * boot.c picks one by the environment the launcher set. */
#ifndef SKIFF_BOOT_PMI_H
#define SKIFF_BOOT_PMI_H

#include <stddef.h>

#include "boot/nodemap.h"

#define SKIFF_PMI_MAX_RANKS 4096

struct skiff_pmi_client {
    const char *name; /* for messages: "PMI-1", "PMIx" */
    /* Connects and says hello; sets the rank and job size. 0, or -1 after printing why. */
    int (*init)(int *rank, int *size);
    /* Publishes key=value for the other ranks; visible to them after the next fence. */
    int (*put)(const char *key, const char *value);
    /* A barrier of the whole job that also makes every put before it visible everywhere. */
    int (*fence)(void);
    /* The value rank `owner` put under key (PMI-1's one space ignores owner). 0, or -1. */
    int (*get)(int owner, const char *key, char *value, size_t len);
    /* Where the launcher placed every rank. 0, or -1 after printing why. */
    int (*nodemap)(struct skiff_nodemap *m, int size);
    /* Asks the launcher to end the whole job with code (after this rank said why on stderr). */
    void (*abort)(int code, const char *why);
    void (*finalize)(void);
    /* 1 once the launcher has gone away (its connection closed): a waiting rank checks this, so
     * ranks do not outlive a killed launcher. */
    int (*gone)(void);
    /* A rank the launcher reported as dead (*aborted = 1 if it aborted), or -1. */
    int (*dead_rank)(int *aborted);
};

extern const struct skiff_pmi_client skiff_pmi1;
#ifdef SKIFF_HAVE_PMIX
extern const struct skiff_pmi_client skiff_pmix;
#endif

/* The client this rank booted through, or NULL (skiff's mpiexec on one host, a singleton). */
extern const struct skiff_pmi_client *skiff_boot_pmi;

/* PMI-1's own calls, which the table wraps (the unit tests drive them on a socket pair). */
/* Says hello on an already connected descriptor. 0, or -1 after printing why. */
int skiff_pmi_init(int fd);
int skiff_pmi_put(const char *key, const char *value);
int skiff_pmi_barrier(void);
int skiff_pmi_get(const char *key, char *value, size_t len);
int skiff_pmi_active(void);

#endif
