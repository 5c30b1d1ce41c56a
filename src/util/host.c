#include "util/host.h"

#include <unistd.h>

uint32_t skiff_host_hash(void)
{
    char name[256] = "";
    uint32_t h = 2166136261u;
    gethostname(name, sizeof name - 1);
    for (const char *p = name; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return h;
}
