/* A monotonic clock for measurements that run without MPI (skiff-pipe --memcpy and --tcp never call
 * MPI_Init, and MPI_Wtime is not promised to work before it). */
#ifndef SKIFF_TOOLS_WALLTIME_H
#define SKIFF_TOOLS_WALLTIME_H

/* Seconds since an arbitrary fixed point, from CLOCK_MONOTONIC (not affected by clock changes). */
double m_walltime(void);

#endif
