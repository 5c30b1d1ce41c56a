#ifndef SKIFF_SHM_H
#define SKIFF_SHM_H

#include "core/transport.h"

/* Maps the job segment and builds this rank's view of it; NULL after printing why. */
const struct skiff_transport *skiff_shm_init(void);
/* 1 when large messages are pulled with one copy (process_vm_readv). */
int skiff_shm_single_copy(void);

#endif
