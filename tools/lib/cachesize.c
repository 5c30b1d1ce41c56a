#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "cachesize.h"

#include <stdio.h>
#include <unistd.h>

enum { FALLBACK_LLC = 32 << 20 };

/* One line of a small sysfs file parsed as "<number>[K|M]"; 0 if absent or unparsable. */
static size_t sysfs_size(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned long long v = 0;
    char unit = 0;
    int got = fscanf(f, "%llu%c", &v, &unit);
    fclose(f);
    if (got < 1)
        return 0;
    if (unit == 'K')
        v <<= 10;
    else if (unit == 'M')
        v <<= 20;
    return (size_t)v;
}

/* The size of the highest-level data or unified cache of CPU 0, 0 if sysfs does not say. */
static size_t sysfs_llc(void)
{
    size_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 16; i++) {
        char path[128];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        int level = (int)sysfs_size(path);
        if (level == 0)
            break;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        FILE *f = fopen(path, "r");
        char type[32] = "";
        if (f) {
            if (!fgets(type, sizeof type, f))
                type[0] = 0;
            fclose(f);
        }
        if (type[0] == 'I') /* instruction caches hold no data */
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        size_t size = sysfs_size(path);
        if (size && level >= best_level) {
            best = size;
            best_level = level;
        }
    }
    return best;
}

size_t m_llc_bytes(void)
{
    size_t n = sysfs_llc();
    if (n)
        return n;
#ifdef _SC_LEVEL3_CACHE_SIZE
    long v = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (v > 0)
        return (size_t)v;
#endif
    return FALLBACK_LLC;
}
