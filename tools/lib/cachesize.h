/* The last-level cache size a core actually sees, for measurements that must defeat the cache
 * (skiff-pipe --nocache). MPI API and libc only, like the rest of tools/lib. */
#ifndef SKIFF_TOOLS_CACHESIZE_H
#define SKIFF_TOOLS_CACHESIZE_H

#include <stddef.h>

/* Bytes of the largest cache level of CPU 0 (sysfs), else sysconf's level 3 size, else 32 MiB.
 * sysfs comes first because under virtualisation sysconf (cpuid) may report a whole socket's L3
 * (384 MiB on a 2-core EPYC VM) while the core shares only its chiplet's 32 MiB. */
size_t m_llc_bytes(void);

#endif
