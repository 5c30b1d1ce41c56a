/* skiff-stream's command line. Every rank parses the same argv; only rank 0 speaks. */
#include "stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: mpiexec -n N skiff-stream [-n ELEMS] [-t NTIMES] [-v]\n"
               "  STREAM Copy/Scale/Add/Triad on every rank at once; rank 0 prints the aggregate.\n"
               "  -n ELEMS   doubles per array (default: 4x the last-level cache per array)\n"
               "  -t NTIMES  runs of each kernel, the first not counted (default 10, at least 2)\n"
               "  -v         every rank's rates too\n");
}

/* A whole number in [lo, hi] (1e6 style allowed: array sizes are often written so), or -1. */
static long long parse_count(const char *s, long long lo, long long hi)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < (double)lo || v > (double)hi || v != (double)(long long)v)
        return -1;
    return (long long)v;
}

static int bad(int rank, const char *opt, const char *val, const char *why)
{
    if (rank == 0)
        fprintf(stderr, "skiff-stream: %s %s: %s\n", opt, val ? val : "(missing)", why);
    return -1;
}

int stream_parse(int argc, char **argv, int rank, struct stream_opts *o)
{
    *o = (struct stream_opts){.n = 0, .ntimes = 10, .verbose = 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long x;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            if (rank == 0)
                usage(stdout);
            return 1;
        } else if (!strcmp(a, "-v")) {
            o->verbose = 1;
        } else if (!strcmp(a, "-n")) {
            if (!v || (x = parse_count(v, 1, 1LL << 40)) < 0)
                return bad(rank, a, v, "want a number of doubles >= 1");
            o->n = x;
            i++;
        } else if (!strcmp(a, "-t")) {
            if (!v || (x = parse_count(v, 2, 100000)) < 0)
                return bad(rank, a, v, "want a count >= 2 (the first run is not counted)");
            o->ntimes = (int)x;
            i++;
        } else {
            if (rank == 0)
                usage(stderr);
            return bad(rank, "unknown option", a, "see above");
        }
    }
    return 0;
}
