/* skiff-fan's command line. Every rank parses the same argv, so every rank agrees on the repeat counts
 * without a message; only rank 0 speaks. */
#include "skiff_fan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_REPEATS = 1000, QUICK_REPEATS = 100, MAX_SIZE = 64 << 20 };

static void usage(FILE *f)
{
    fprintf(f, "usage: mpiexec -n N skiff-fan [--quick] [--repeats R] [--size B] [-o FILE] [--plot FILE.png] [-q]\n"
               "  Fan-out/fan-in round trip RTT(P) for P = 2..N (rank 0 sends one message to each of P-1 peers,\n"
               "  which answer at once) beside the LogP model 4o + 2L + (P-1) max(g,o) from measured parameters.\n"
               "  --quick        fewer repeats and sizes (a few seconds)\n"
               "  --repeats R    timed round trips per P and samples per parameter (default %d, quick %d)\n"
               "  --size B       bytes of each small message (default 8)\n"
               "  -o FILE        data file (default fan.out): 'P rtt_min rtt_avg rtt_median model' in us,\n"
               "                 LogP parameters and the barrier suggestion as '#' lines\n"
               "  --plot F.png   chart of the measured median and the model against P (needs gnuplot)\n"
               "  -q             nothing on stdout\n",
            DEFAULT_REPEATS, QUICK_REPEATS);
}

/* A whole non-negative number in [lo, hi], or -1. */
static long parse_count(const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    return v;
}

/* The option's value (the next word), or NULL with a message when it is missing. */
static const char *value(int argc, char **argv, int *i, int rank)
{
    if (*i + 1 >= argc) {
        if (rank == 0)
            fprintf(stderr, "skiff-fan: %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

static int bad(int rank, const char *opt, const char *val, const char *why)
{
    if (rank == 0)
        fprintf(stderr, "skiff-fan: %s %s: %s\n", opt, val, why);
    return -1;
}

/* The value of a count option in [lo, hi], or -1 with a message. */
static long count_value(int argc, char **argv, int *i, int rank, long lo, long hi, const char *want)
{
    const char *opt = argv[*i], *v = value(argc, argv, i, rank);
    if (!v)
        return -1;
    long n = parse_count(v, lo, hi);
    if (n < 0)
        bad(rank, opt, v, want);
    return n;
}

/* One option at argv[*i]: 0 handled, 1 help, -1 error. */
static int parse_one(int argc, char **argv, int *i, int rank, struct fan_opts *o, int *repeats_set)
{
    const char *a = argv[*i];
    long n;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
        if (rank == 0)
            usage(stdout);
        return 1;
    }
    if (!strcmp(a, "--quick"))
        o->quick = 1;
    else if (!strcmp(a, "-q"))
        o->quiet = 1;
    else if (!strcmp(a, "-o"))
        return (o->out = value(argc, argv, i, rank)) ? 0 : -1;
    else if (!strcmp(a, "--plot"))
        return (o->plot = value(argc, argv, i, rank)) ? 0 : -1;
    else if (!strcmp(a, "--size")) {
        if ((n = count_value(argc, argv, i, rank, 0, MAX_SIZE, "want bytes in 0..64 MiB")) < 0)
            return -1;
        o->size = (size_t)n;
    } else if (!strcmp(a, "--repeats")) {
        if ((n = count_value(argc, argv, i, rank, 1, 100000000L, "want a count >= 1")) < 0)
            return -1;
        o->repeats = (int)n;
        *repeats_set = 1;
    } else {
        if (rank == 0) {
            fprintf(stderr, "skiff-fan: unknown option %s\n", a);
            usage(stderr);
        }
        return -1;
    }
    return 0;
}

int fan_parse(int argc, char **argv, int rank, struct fan_opts *o)
{
    *o = (struct fan_opts){.size = 8, .repeats = DEFAULT_REPEATS, .out = "fan.out"};
    int repeats_set = 0;
    for (int i = 1; i < argc; i++) {
        int rc = parse_one(argc, argv, &i, rank, o, &repeats_set);
        if (rc)
            return rc;
    }
    if (o->quick && !repeats_set)
        o->repeats = QUICK_REPEATS;
    return 0;
}
