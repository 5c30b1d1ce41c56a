/* A wake-up descriptor: an eventfd that sits in a transport's epoll set, so that another thread of this
 * process can end a sleep there (the transport table's wake: tcp and ucx). Header-only, since the ucx
 * module, which links nothing of libmpi, uses it too. */
#ifndef SKIFF_WAKE_H
#define SKIFF_WAKE_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "util/log.h"

/* A descriptor, or -1 with errno set. */
static inline int skiff_wake_open(void)
{
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

/* Makes it readable until drained; who names the transport in the message of a failure. */
static inline void skiff_wake_ring(int fd, const char *who)
{
    uint64_t one = 1;
    if (write(fd, &one, sizeof one) < 0 && errno != EAGAIN)
        skiff_error("%s: cannot ring the wake-up descriptor: %s", who, strerror(errno));
}

static inline void skiff_wake_drain(int fd, const char *who)
{
    uint64_t n;
    if (read(fd, &n, sizeof n) < 0 && errno != EAGAIN)
        skiff_error("%s: cannot read the wake-up descriptor: %s", who, strerror(errno));
}

#endif
