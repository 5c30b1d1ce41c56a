#include "shm/doorbell.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Shared (not FUTEX_PRIVATE) because the word lives in memory mapped by several processes. */
void skiff_futex_wait(_Atomic uint32_t *word, uint32_t expect, double seconds)
{
    struct timespec ts;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, expect, &ts, NULL, 0);
}

void skiff_futex_wake(_Atomic uint32_t *word)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}
