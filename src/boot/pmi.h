/* A client of the PMI-1 wire protocol, which MPICH's Hydra (mpiexec.mpich) and Slurm's
 * srun --mpi=pmi2 both answer on the socket named by PMI_FD: "cmd=... key=value ..." lines.
 * Replies are parsed as key=value pairs, never by position (Hydra puts rc last, Slurm first). */
#ifndef SKIFF_BOOT_PMI_H
#define SKIFF_BOOT_PMI_H

#include <stddef.h>

#define SKIFF_PMI_MAX_RANKS 4096

/* Connects through PMI_FD, or PMI_PORT (+ PMI_ID), and says hello. rank and size start at -1 and
 * come from the server (PMI_PORT) or from PMI_RANK/PMI_SIZE. 0, or -1 after printing why. */
int skiff_pmi_connect(int *rank, int *size);
/* Says hello on an already connected descriptor. 0, or -1 after printing why. */
int skiff_pmi_init(int fd);
int skiff_pmi_put(const char *key, const char *value);
int skiff_pmi_barrier(void);
int skiff_pmi_get(const char *key, char *value, size_t len);
void skiff_pmi_finalize(void);
int skiff_pmi_active(void);
/* 1 once the PMI server has closed our connection (the launcher is gone): a rank that is waiting
 * for messages checks this, so ranks started by ssh do not outlive a killed launcher. */
int skiff_pmi_gone(void);

#endif
