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

/* One write per line, so lines from different ranks never interleave mid-line. */
static void emit(int with_rank, int level, const char *fmt, va_list ap)
{
    static const char *names[] = {"", "info: ", "debug: ", "warning: "};
    int saved = errno;
    char line[1024];
    int n = with_rank && log_rank >= 0
                ? snprintf(line, sizeof line, "skiff: rank %d: %s", log_rank, names[level & 3])
                : snprintf(line, sizeof line, "skiff: %s", names[level & 3]);
    n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, (size_t)n);
    (void)w;
    errno = saved;
}

void skiff_log_write(int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(1, level, fmt, ap);
    va_end(ap);
}

void skiff_log_vwrite(int level, const char *fmt, va_list ap)
{
    emit(1, level, fmt, ap);
}

void skiff_error_named(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(0, SKIFF_LOG_ERROR, fmt, ap);
    va_end(ap);
}
