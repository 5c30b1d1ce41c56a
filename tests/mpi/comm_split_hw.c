/* comm_split_hw — MPI_Comm_split_type by hardware.
 *
 * HW_GUIDED with "mpi_shared_memory" gives the communicators MPI_COMM_TYPE_SHARED gives; with a level of
 * the machine (hwloc's names) every communicator lies within one node, a finer level's within a coarser
 * one's, and a rank bound to a single CPU is in a PU communicator whose members all run on that CPU; an
 * unknown level or no info gives MPI_COMM_NULL everywhere. HW_UNGUIDED gives MPI_COMM_NULL or a strict
 * subset of the parent (MPI_COMM_NULL on one process). RESOURCE_GUIDED takes mpi_hw_resource_type too.
 * Run under mpiexec (ranks bound to cores when they fit) and oversubscribed (not bound).
 *
 * Also passes with MPICH 4 (which has no RESOURCE_GUIDED, an MPI 4.1 type) and Open MPI 4.1 (MPI 3.1, no
 * hardware split types: the test only runs MPI_COMM_TYPE_SHARED there). What MPI_Comm_get_info names is
 * checked for skiff only. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <sched.h>

#include "testutil.h"

/* 1 if every process of a is in b (both may be MPI_COMM_NULL: then only NULL is within NULL). */
static int within(MPI_Comm a, MPI_Comm b)
{
    if (a == MPI_COMM_NULL)
        return 1;
    if (b == MPI_COMM_NULL)
        return 0;
    MPI_Group ga, gb, diff;
    int n = -1;
    MPI_Comm_group(a, &ga);
    MPI_Comm_group(b, &gb);
    MPI_Group_difference(ga, gb, &diff);
    MPI_Group_size(diff, &n);
    MPI_Group_free(&ga);
    MPI_Group_free(&gb);
    MPI_Group_free(&diff);
    return n == 0;
}

#if MPI_VERSION >= 4
static int size_of(MPI_Comm c)
{
    int s = 0;
    MPI_Comm_size(c, &s);
    return s;
}

static MPI_Comm guided(int type, const char *level)
{
    MPI_Info info = MPI_INFO_NULL;
    MPI_Comm c = MPI_COMM_NULL;
    if (level) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_hw_resource_type", level);
    }
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, type, 0, info, &c));
    if (level)
        MPI_Info_free(&info);
    return c;
}

/* The one CPU this process may run on, or -1. */
static int only_cpu(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1)
        return -1;
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &set))
            return i;
    return -1;
}

static void check_level_name(MPI_Comm c, const char *want)
{
#ifdef SKIFF_MPI
    MPI_Info used;
    char buf[64];
    int flag = 0;
    if (c == MPI_COMM_NULL)
        return;
    CHECK_MPI(MPI_Comm_get_info(c, &used));
    CHECK_MPI(MPI_Info_get(used, "mpi_hw_resource_type", (int)sizeof buf - 1, buf, &flag));
    CHECK_MSG(flag, "MPI_Comm_get_info has no mpi_hw_resource_type");
    if (want)
        CHECK_MSG(strcmp(buf, want) == 0, "mpi_hw_resource_type is %s, expected %s", buf, want);
    CHECK_MPI(MPI_Info_free(&used));
#else
    (void)c;
    (void)want;
#endif
}

static void hardware(MPI_Comm shared)
{
    static const char *levels[] = {"Package", "NUMANode", "L3Cache", "L2Cache", "L1Cache", "Core", "PU"};
    enum { NLEVELS = sizeof levels / sizeof levels[0] };
    MPI_Comm c[NLEVELS], node = guided(MPI_COMM_TYPE_HW_GUIDED, "mpi_shared_memory");
    int cmp = -1;
    CHECK(node != MPI_COMM_NULL);
    CHECK_MPI(MPI_Comm_compare(node, shared, &cmp));
    CHECK_EQ(MPI_CONGRUENT, cmp);
    check_level_name(node, "mpi_shared_memory");
    for (int i = 0; i < NLEVELS; i++) {
        c[i] = guided(MPI_COMM_TYPE_HW_GUIDED, levels[i]);
        CHECK_MSG(within(c[i], shared), "%s communicator spans nodes", levels[i]);
        check_level_name(c[i], levels[i]);
        /* Objects nest: a finer level's communicator lies within a coarser one's (when that one exists). */
        for (int j = 0; j < i; j++)
            if (c[j] != MPI_COMM_NULL && strcmp(levels[j], "NUMANode") != 0)
                CHECK_MSG(within(c[i], c[j]), "%s communicator is not within the %s one", levels[i], levels[j]);
    }
    /* Bound to one CPU: a PU of its own, shared only with processes on that CPU. */
    int cpu = only_cpu();
    MPI_Comm pu = c[NLEVELS - 1];
    if (cpu >= 0) {
        CHECK_MSG(pu != MPI_COMM_NULL, "bound to CPU %d but in no PU communicator", cpu);
        int n = size_of(pu), *cpus = tu_malloc(sizeof(int) * (size_t)n);
        CHECK_MPI(MPI_Allgather(&cpu, 1, MPI_INT, cpus, 1, MPI_INT, pu));
        for (int i = 0; i < n; i++)
            CHECK_EQ(cpu, cpus[i]);
        free(cpus);
    }
    /* Names no level, or no info at all: nobody gets a communicator. */
    MPI_Comm none = guided(MPI_COMM_TYPE_HW_GUIDED, "no_such_level"), bare = guided(MPI_COMM_TYPE_HW_GUIDED, NULL);
    CHECK(none == MPI_COMM_NULL);
    CHECK(bare == MPI_COMM_NULL);
#if MPI_VERSION > 4 || MPI_SUBVERSION >= 1
    /* RESOURCE_GUIDED (MPI 4.1; not in MPICH 4.0) reads the same key. */
    MPI_Comm res = guided(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_shared_memory");
    CHECK(res != MPI_COMM_NULL);
    CHECK_MPI(MPI_Comm_compare(res, shared, &cmp));
    CHECK_EQ(MPI_CONGRUENT, cmp);
    MPI_Comm_free(&res);
#endif
    /* Unguided: a strict subset or nothing. */
    MPI_Comm un = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &un));
    if (un != MPI_COMM_NULL) {
        CHECK_MSG(size_of(un) < size_of(MPI_COMM_WORLD), "HW_UNGUIDED gave all %d processes", size_of(un));
        check_level_name(un, NULL);
        int one = 1, n = 0;
        CHECK_MPI(MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, un));
        CHECK_EQ(size_of(un), n);
        MPI_Comm_free(&un);
    }
    if (size_of(MPI_COMM_WORLD) == 1)
        CHECK(un == MPI_COMM_NULL);
    for (int i = 0; i < NLEVELS; i++)
        if (c[i] != MPI_COMM_NULL)
            MPI_Comm_free(&c[i]);
    MPI_Comm_free(&node);
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm shared;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared));
    CHECK(within(shared, MPI_COMM_WORLD));
#if MPI_VERSION >= 4
    hardware(shared);
#endif
    MPI_Comm_free(&shared);
    tu_barrier();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("OK comm_split_hw\n");
    MPI_Finalize();
    return 0;
}
