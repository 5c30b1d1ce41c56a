/* skiff-pipe's MPI parts that span files: the multi-rank plumbing that --pairs (skiff_pipe_mpi.c)
 * and --pattern (skiff_pipe_multi.c) share. MPI API only. */
#ifndef SKIFF_PIPE_MPI_H
#define SKIFF_PIPE_MPI_H

#include "skiff_pipe.h"

/* The link's agree with every rank of MPI_COMM_WORLD: rank 0's job, broadcast. */
void pipe_mpi_agree_all(void *ctx, struct pipe_job *job);
/* Gathers every rank's result at rank 0 of MPI_COMM_WORLD. timed: this rank's seconds count as a
 * flow's time. Rank 0 gets seconds = the slowest flow's, mean_seconds = the flows' mean,
 * comm/work_seconds the slowest flow's, failures summed, cpu[0] the mean over all ranks, cpu[1] the
 * rank that used the most CPU (user + system). Other ranks get their own result back. */
struct pipe_result pipe_mpi_gather(const struct pipe_result *mine, int timed);
/* --pattern: the whole session on every rank; returns the exit status. */
int pipe_pattern_main(const struct pipe_opts *o, const char *what, struct pipe_work *work);

#endif
