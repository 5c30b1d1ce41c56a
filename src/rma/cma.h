/* Single copy for windows over user memory (Win_create) within a node: put and get move the data with
 * process_vm_writev/readv, so the target does nothing (docs/design.md, "One-sided"). */
#ifndef SKIFF_RMA_CMA_H
#define SKIFF_RMA_CMA_H

#include <stdint.h>
#include <sys/types.h>

struct skiff_rma_op;

/* 1 if this process may use single copy for windows: SKIFF_SHM_CMA is not 0 and the kernel lets it read
 * itself with process_vm_readv (which also lets peers read it where Yama restricts ptrace). Probed once. */
int skiff_rma_cma_usable(void);

/* op (a PUT or a GET) on the memory of process pid whose target displacement 0 is at taddr: 0, or -errno
 * (EPERM, ESRCH, ENOSYS: the kernel refused; the caller sends the operation as a message instead). */
int skiff_rma_cma(pid_t pid, uint64_t taddr, const struct skiff_rma_op *op);

#endif
