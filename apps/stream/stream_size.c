/* The array length. STREAM's rule: each array at least 4 times the last-level cache, so that no kernel
 * runs out of cache. The cache size comes from sysconf (glibc), else sysfs, else an assumed 32 MiB. */
#define _POSIX_C_SOURCE 200809L
#include "stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define FALLBACK_LLC (32LL << 20)

/* sysfs's "32768K" style, for libcs whose sysconf does not know the cache. */
static long long llc_from_sysfs(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
    long long v = 0;
    char unit = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%lld%c", &v, &unit) < 1)
        v = 0;
    fclose(f);
    return unit == 'K' ? v << 10 : unit == 'M' ? v << 20 : v;
}

static long long last_level_cache(const char **src)
{
    long long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    *src = "sysconf(_SC_LEVEL3_CACHE_SIZE)";
    if (llc <= 0) {
        llc = llc_from_sysfs();
        *src = "/sys/devices/system/cpu/cpu0/cache/index3/size";
    }
    if (llc <= 0) {
        llc = FALLBACK_LLC;
        *src = "not reported: assumed";
    }
    return llc;
}

/* Ranks sharing this node: together they must fit in memory. */
static int ranks_on_node(MPI_Comm comm)
{
    MPI_Comm node;
    int n = 1;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS &&
        node != MPI_COMM_NULL) {
        MPI_Comm_size(node, &n);
        MPI_Comm_free(&node);
    }
    return n;
}

/* The longest arrays the node's ranks can have while using at most half the available memory (the
 * machine is shared; swapping would measure the disk). */
static long long memory_cap(MPI_Comm comm)
{
    long long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return 0;
    return pages * page / 2 / (3 * (long long)sizeof(double) * ranks_on_node(comm));
}

struct stream_size stream_choose_size(const struct stream_opts *o, MPI_Comm comm)
{
    struct stream_size sz = {0, 0, NULL, 0};
    sz.llc = last_level_cache(&sz.llc_src);
    long long n = o->n;
    if (n == 0) {
        n = 4 * sz.llc / (long long)sizeof(double);
        long long cap = memory_cap(comm);
        sz.capped = cap > 0 && n > cap;
        if (sz.capped)
            n = cap;
    }
    /* Every rank must run the same length, so the aggregate is one array size times the ranks. */
    MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_LONG_LONG, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, &sz.capped, 1, MPI_INT, MPI_MAX, comm);
    sz.n = (size_t)n;
    return sz;
}
