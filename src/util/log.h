/* Levelled logging to stderr, prefixed with the rank; errno survives a call. */
#ifndef SKIFF_LOG_H
#define SKIFF_LOG_H

#include "util/config.h"

#define SKIFF_LOG_ERROR 0
#define SKIFF_LOG_INFO 1
#define SKIFF_LOG_DEBUG 2

void skiff_log_set_rank(int rank);
void skiff_log_write(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define skiff_log(level, ...)                                                                      \
    do {                                                                                           \
        if ((level) <= skiff_cfg.debug)                                                            \
            skiff_log_write((level), __VA_ARGS__);                                                 \
    } while (0)
#define skiff_error(...) skiff_log_write(SKIFF_LOG_ERROR, __VA_ARGS__)

#endif
