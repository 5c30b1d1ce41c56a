/* Single-copy transfers between processes with process_vm_readv (cross-memory attach): the kernel
 * facility the shared-memory transport (rendezvous pulls) and one-sided windows (rma/cma.c) both use. */
#ifndef SKIFF_UTIL_CMA_H
#define SKIFF_UTIL_CMA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* 1 if this kernel lets us read a peer's memory, else 0 (containers often forbid it). Also lets
 * peers read us where Yama restricts ptrace to descendants. */
int skiff_cma_probe(void);
/* The same probe: 0, or the errno that refused it (for tools that say why). */
int skiff_cma_probe_errno(void);

/* 1 if a single-copy read runs at least at a good fraction of memcpy speed. On some virtual
 * machines pinning the peer's pages costs more than the second copy it saves: there the pipelined
 * copy through shared memory (both cores copying at once) is faster. */
int skiff_cma_worthwhile(void);

/* Reads len bytes at remote_addr in process pid into dst; 0 or -errno. */
int skiff_cma_read(pid_t pid, uint64_t remote_addr, void *dst, size_t len);

#endif
