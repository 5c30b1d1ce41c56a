/* The library's one logger: every message it prints goes through here, one write per line, as
 * "skiff: rank R: [level: ]text" ("skiff: text" before the rank is known). Errors and warnings always
 * print; info and debug lines only when SKIFF_DEBUG is at least their level. errno survives a call. */
#ifndef SKIFF_LOG_H
#define SKIFF_LOG_H

#include <stdarg.h>

#include "util/config.h"

#define SKIFF_LOG_ERROR 0
#define SKIFF_LOG_INFO 1
#define SKIFF_LOG_DEBUG 2
#define SKIFF_LOG_WARNING 3 /* printed at every SKIFF_DEBUG level, as errors are */

void skiff_log_set_rank(int rank);
void skiff_log_write(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void skiff_log_vwrite(int level, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* An error whose text already names the call and the rank (an MPI error's message): "skiff: text". */
void skiff_error_named(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define skiff_log(level, ...)                                                                      \
    do {                                                                                           \
        if ((level) <= skiff_cfg.debug)                                                            \
            skiff_log_write((level), __VA_ARGS__);                                                 \
    } while (0)
#define skiff_error(...) skiff_log_write(SKIFF_LOG_ERROR, __VA_ARGS__)
#define skiff_warn(...) skiff_log_write(SKIFF_LOG_WARNING, __VA_ARGS__)

#endif
