#include "util/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static int log_rank = -1;

void skiff_log_set_rank(int rank)
{
    log_rank = rank;
}

void skiff_log_write(int level, const char *fmt, ...)
{
    static const char *names[] = {"error", "info", "debug", "trace"};
    int saved = errno;
    char line[1024];
    int n = snprintf(line, sizeof line, "skiff[%d] %s: ", log_rank, names[level & 3]);
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    /* One write per line so lines from different ranks never interleave mid-line. */
    ssize_t w = write(STDERR_FILENO, line, (size_t)n);
    (void)w;
    errno = saved;
}
