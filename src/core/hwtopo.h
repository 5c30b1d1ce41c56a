/* Where this process runs inside its node, as hwloc sees the machine: for MPI_Comm_split_type's
 * hardware-guided types. The topology is loaded on first use only (it costs milliseconds), never on the
 * way through MPI_Init. */
#ifndef SKIFF_HWTOPO_H
#define SKIFF_HWTOPO_H

/* The hardware levels below the node, coarsest first, as hwloc names them: Package, Die, NUMANode,
 * L3Cache, L2Cache, L1Cache, Core, PU. The list is the same on every machine (processes compare levels by
 * number); a machine without objects of a level has no process in one. */
#define SKIFF_HW_LEVELS 8
const char *skiff_hw_level_name(int level);

/* The level a resource type names (hwloc's names, any case; "mpi_shared_memory" is not one of them: the
 * node is the caller's business), or -1 if this machine has no such level. */
int skiff_hw_level_of(const char *type);

/* Which object of that level holds every CPU this process may run on (its logical index, equal on
 * processes of one node that share the object), or -1 when the process's CPUs span several (it is not
 * bound that tightly) or the machine has no such level. */
int skiff_hw_object(int level);

void skiff_hw_finalize(void);

#endif
