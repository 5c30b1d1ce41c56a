/* Who shares this machine: transports between nodes count the peers whose "node" is a network namespace
 * of this same machine (the emulated cluster), since those share its CPUs. */
#ifndef SKIFF_HOST_H
#define SKIFF_HOST_H

#include <stdint.h>

/* FNV-1a of the host name: equal on two namespaces of one machine, which keep its name. */
uint32_t skiff_host_hash(void);

#endif
