#include "core/hwtopo.h"

#include <hwloc.h>
#include <stddef.h>
#include <strings.h>

/* Coarsest first. Instruction caches and Groups are left out: no code splits by them, and Groups may sit
 * at several depths. */
static const hwloc_obj_type_t candidates[] = {
    HWLOC_OBJ_PACKAGE, HWLOC_OBJ_DIE,      HWLOC_OBJ_NUMANODE, HWLOC_OBJ_L3CACHE,
    HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE, HWLOC_OBJ_CORE,     HWLOC_OBJ_PU,
};
_Static_assert(sizeof candidates / sizeof candidates[0] == SKIFF_HW_LEVELS, "one name per level");

static struct {
    int loaded;             /* 1 loaded, -1 hwloc failed (every level is then absent) */
    hwloc_topology_t topo;
    hwloc_bitmap_t bound;   /* the CPUs this process may run on */
} hw;

static void load(void)
{
    if (hw.loaded)
        return;
    hw.loaded = -1;
    if (hwloc_topology_init(&hw.topo) < 0)
        return;
    /* Devices are not levels of the machine: skipping them keeps the load to a few milliseconds. */
    hwloc_topology_set_io_types_filter(hw.topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    hw.bound = hwloc_bitmap_alloc();
    if (hwloc_topology_load(hw.topo) < 0 || !hw.bound ||
        hwloc_get_cpubind(hw.topo, hw.bound, HWLOC_CPUBIND_PROCESS) < 0) {
        skiff_hw_finalize();
        hw.loaded = -1;
        return;
    }
    hw.loaded = 1;
}

static int present(int level)
{
    load();
    return hw.loaded == 1 && hwloc_get_nbobjs_by_type(hw.topo, candidates[level]) > 0;
}

const char *skiff_hw_level_name(int level)
{
    return level >= 0 && level < SKIFF_HW_LEVELS ? hwloc_obj_type_string(candidates[level]) : NULL;
}

int skiff_hw_level_of(const char *type)
{
    for (int i = 0; i < SKIFF_HW_LEVELS; i++)
        if (strcasecmp(type, hwloc_obj_type_string(candidates[i])) == 0)
            return present(i) ? i : -1;
    return -1;
}

int skiff_hw_object(int level)
{
    if (level < 0 || level >= SKIFF_HW_LEVELS || !present(level))
        return -1;
    hwloc_obj_type_t t = candidates[level];
    int n = hwloc_get_nbobjs_by_type(hw.topo, t);
    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(hw.topo, t, (unsigned)i);
        if (o && o->cpuset && hwloc_bitmap_isincluded(hw.bound, o->cpuset))
            return (int)o->logical_index;
    }
    return -1;
}

void skiff_hw_finalize(void)
{
    if (hw.bound)
        hwloc_bitmap_free(hw.bound);
    if (hw.topo)
        hwloc_topology_destroy(hw.topo);
    hw.bound = NULL;
    hw.topo = NULL;
    hw.loaded = 0;
}
