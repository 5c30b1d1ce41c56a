/* skiff-pipe's command line: parsed before MPI_Init, so that --memcpy, --tcp and the overlay mode can
 * run without MPI at all, and so that a usage error exits 2 without starting anything. */
#include "skiff_pipe.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MB = 1 << 20, MAX_END = 1 << 30, MAX_OFFSET = 1 << 20 };

/* Every option; the bit of each seen option is kept so that combinations can be checked afterwards. */
enum opt_id {
    O_STREAM, O_BIDIR, O_INTEGRITY, O_NOCACHE, O_ASYNC, O_QUICK, O_SILENT, O_HELP, O_MEMCPY,
    O_TCP_SERVER, O_PERT, O_START, O_END, O_REPEATS, O_TRIALS, O_SOFFSET, O_ROFFSET, O_WINDOW, O_OUT,
    O_PLOT, O_PLOT_FILES, O_LABELS, O_TCP, O_PORT, O_PUT, O_GET, O_FOP, O_CAS, O_CACHELINE, O_NOFENCE, O_PAIRS,
    O_PATTERN, O_WORKLOAD, O_PLOT_Y, O_COUNT
};

struct opt_def {
    const char *name;
    enum opt_id id;
    int takes_value;
};

static const struct opt_def defs[] = {
    {"--stream", O_STREAM, 0},        {"--bidir", O_BIDIR, 0},         {"--integrity", O_INTEGRITY, 0},
    {"--nocache", O_NOCACHE, 0},      {"--async", O_ASYNC, 0},         {"--quick", O_QUICK, 0},
    {"-q", O_SILENT, 0},              {"--silent", O_SILENT, 0},       {"-h", O_HELP, 0},
    {"--help", O_HELP, 0},            {"--memcpy", O_MEMCPY, 0},       {"--tcp-server", O_TCP_SERVER, 0},
    {"--pert", O_PERT, 1},            {"--start", O_START, 1},         {"--end", O_END, 1},
    {"--repeats", O_REPEATS, 1},      {"--trials", O_TRIALS, 1},       {"--soffset", O_SOFFSET, 1},
    {"--roffset", O_ROFFSET, 1},      {"--window", O_WINDOW, 1},       {"-o", O_OUT, 1},
    {"--plot", O_PLOT, 1},            {"--plot-files", O_PLOT_FILES, 1}, {"--labels", O_LABELS, 1},
    {"--tcp", O_TCP, 1},              {"--port", O_PORT, 1},           {"--put", O_PUT, 0},
    {"--get", O_GET, 0},              {"--pairs", O_PAIRS, 0},         {"--pattern", O_PATTERN, 1},
    {"--workload", O_WORKLOAD, 1},    {"--plot-y", O_PLOT_Y, 1},       {"--fop", O_FOP, 0},
    {"--cas", O_CAS, 0},              {"--cacheline", O_CACHELINE, 0}, {"--nofence", O_NOFENCE, 0},
};

static const char *const PATTERNS[] = {"", "ring", "bisection", "alltoall", "neighbour2d"};
enum { MAX_WORKLOAD_US = 1000000 };

void pipe_usage(FILE *f)
{
    fputs("usage: mpiexec -n 2 skiff-pipe [options]      NetPIPE-style curves: MPI between 2 ranks\n"
          "       skiff-pipe --memcpy [options]            memcpy in one process (no MPI)\n"
          "       skiff-pipe --tcp-server [--port P]       TCP peer for --tcp (no MPI)\n"
          "       skiff-pipe --tcp HOST [options]          plain TCP to a --tcp-server (no MPI)\n"
          "       skiff-pipe --plot F.png --plot-files a.out,b.out [--labels x,y]   overlay, no MPI\n"
          "modes (default ping-pong: one-way time = half the round trip):\n"
          "  --stream         one direction: rank 0 sends a burst, rank 1 acknowledges the end\n"
          "  --bidir          both ranks send at once (Isend/Irecv); throughput counts both directions\n"
          "  --integrity      no timing: fill each message with a pattern, check every byte on receipt,\n"
          "                   print failures per size; exit status 1 if any\n"
          "  --async          pre-posted receives: each Irecv is posted before the message is sent\n"
          "  --nocache        messages move through buffers larger than the last-level cache\n"
          "  --window B       --nocache: bytes each buffer walks through (default 4 x LLC)\n"
          "one-sided (2 ranks, MPI_Win_allocate windows; docs/skiff-pipe.md says what each round does):\n"
          "  --put            rank 0 MPI_Puts into rank 1's window, then MPI_Win_fence on both\n"
          "  --get            rank 0 MPI_Gets from rank 1's window, then MPI_Win_fence on both\n"
          "  --nofence        with --put/--get: MPI_Win_lock_all once, MPI_Win_flush per transfer; --put\n"
          "                   becomes a ping-pong of puts, each announced by an atomic flag the peer polls\n"
          "  --fop            8-byte MPI_Fetch_and_op + MPI_Win_flush on rank 1's window (lock_all)\n"
          "  --cas            8-byte MPI_Compare_and_swap + MPI_Win_flush on rank 1's window (lock_all)\n"
          "  --cacheline      the floor: an 8-byte counter bounced through a shared window with C11\n"
          "                   atomics, no MPI call in the loop (one-way: half the round trip)\n"
          "many ranks at once (mpiexec -n N):\n"
          "  --pairs          N/2 pairs at once, rank i with N-1-i, in the chosen mode: aggregate\n"
          "                   and per-pair throughput and latency\n"
          "  --pattern P      every rank at once: ring, bisection, alltoall or neighbour2d\n"
          "overlap:\n"
          "  --workload US    with --bidir, --stream or --pattern: US microseconds of calibrated daxpy\n"
          "                   between each Isend/Irecv and its wait (--stream: the sender's only);\n"
          "                   reports the overlap in %\n"
          "  --workload auto  the same, as long as each size's exchange alone\n"
          "sizes and repeats (B accepts k, m, g suffixes, 1k = 1024):\n"
          "  --start B        smallest size (default 1)\n"
          "  --end B          largest size (default 8m; 1m with --quick)\n"
          "  --pert N         also measure each size +-N bytes (default 3; 0 = none)\n"
          "  --repeats N      fixed repeats per trial (default: adaptive, ~0.1 s per size)\n"
          "  --trials N       timed trials per size for min/avg/max (default 5; 3 with --quick)\n"
          "  --quick          end 1m and ~0.01 s per size\n"
          "  --soffset B      send buffers start B bytes after a page boundary\n"
          "  --roffset B      receive buffers start B bytes after a page boundary\n"
          "output:\n"
          "  -o FILE          data file (default np.out): bytes avg_Gbit/s min_Gbit/s max_Gbit/s avg_usec,\n"
          "                   then CPU per message: user_us sys_us busy% of rank 0, then of rank 1\n"
          "  --plot F.png     chart of the data file (gnuplot)\n"
          "  --plot-files L   with --plot: overlay these comma-separated data files, measure nothing\n"
          "  --labels L       with --plot-files: comma-separated legend labels\n"
          "  --plot-y N       with --plot: chart data-file column N (default 2, throughput; 8 rank 0's busy %)\n"
          "  -q, --silent     no progress lines on stderr\n"
          "raw floors:\n"
          "  --memcpy         memcpy throughput per size (single process)\n"
          "  --tcp HOST       TCP_NODELAY ping-pong (or --stream) against skiff-pipe --tcp-server\n"
          "  --tcp-server     serve one --tcp client, then exit\n"
          "  --port P         TCP port (default 5002; server: 0 = any, printed on stderr)\n"
          "  -h, --help       this text\n",
          f);
}

const char *pipe_pattern_name(enum pipe_pattern p)
{
    return PATTERNS[p];
}

static const char *rma_mode_name(const struct pipe_opts *o)
{
    switch (o->rma) {
    case PIPE_RMA_PUT: return o->nofence ? "put (lock_all, flush, flag)" : "put (fence)";
    case PIPE_RMA_GET: return o->nofence ? "get (lock_all, flush)" : "get (fence)";
    case PIPE_RMA_FOP: return "fetch_and_op (lock_all, flush)";
    case PIPE_RMA_CAS: return "compare_and_swap (lock_all, flush)";
    case PIPE_RMA_CACHELINE: return "cache-line ping-pong";
    default: return "";
    }
}

const char *pipe_mode_name(const struct pipe_opts *o)
{
    if (o->rma)
        return rma_mode_name(o);
    static const char *names[] = {"ping-pong", "stream", "bidir"};
    static const char *patterns[] = {"", "pattern ring", "pattern bisection", "pattern alltoall",
                                     "pattern neighbour2d"};
    if (o->pattern)
        return patterns[o->pattern];
    return o->module == PIPE_MEMCPY ? "copy" : names[o->mode];
}

static int parse_pattern(const char *v, enum pipe_pattern *out)
{
    for (int i = 1; i < (int)(sizeof PATTERNS / sizeof PATTERNS[0]); i++)
        if (!strcmp(v, PATTERNS[i])) {
            *out = (enum pipe_pattern)i;
            return 0;
        }
    return -1;
}

static int parse_workload(const char *v, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end || errno || !(d > 0) || d > MAX_WORKLOAD_US)
        return -1;
    *out = d;
    return 0;
}

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "skiff-pipe: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see --help)\n");
    return 2;
}

/* "64", "64k", "8m", "1g", "4KiB": binary multiples. */
static int parse_bytes(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || *s == '-')
        return -1;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (shift && (!strcmp(end, "iB") || !strcmp(end, "B")))
        end += strlen(end);
    if (*end || v > (SIZE_MAX >> shift))
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static const struct opt_def *find_def(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        if (strlen(defs[i].name) == len && !strncmp(defs[i].name, name, len))
            return &defs[i];
    return NULL;
}

static void set_flag(struct pipe_opts *o, enum opt_id id)
{
    switch (id) {
    case O_STREAM: o->mode = PIPE_STREAM; break;
    case O_BIDIR: o->mode = PIPE_BIDIR; break;
    case O_INTEGRITY: o->integrity = 1; break;
    case O_NOCACHE: o->nocache = 1; break;
    case O_ASYNC: o->async = 1; break;
    case O_QUICK: o->quick = 1; break;
    case O_SILENT: o->silent = 1; break;
    case O_HELP: o->module = PIPE_HELP; break;
    case O_MEMCPY: o->module = PIPE_MEMCPY; break;
    case O_TCP_SERVER: o->module = PIPE_TCP_SERVER; break;
    case O_PAIRS: o->pairs = 1; break;
    case O_PUT: o->rma = PIPE_RMA_PUT; break;
    case O_GET: o->rma = PIPE_RMA_GET; break;
    case O_FOP: o->rma = PIPE_RMA_FOP; break;
    case O_CAS: o->rma = PIPE_RMA_CAS; break;
    case O_CACHELINE: o->rma = PIPE_RMA_CACHELINE; break;
    case O_NOFENCE: o->nofence = 1; break;
    default: break;
    }
}

/* Stores an option's value; -1 if it does not parse. */
static int set_value(struct pipe_opts *o, enum opt_id id, const char *v)
{
    long n = 0;
    switch (id) {
    case O_PERT: return parse_bytes(v, &o->pert);
    case O_START: return parse_bytes(v, &o->start);
    case O_END: return parse_bytes(v, &o->end);
    case O_SOFFSET: return parse_bytes(v, &o->soffset);
    case O_ROFFSET: return parse_bytes(v, &o->roffset);
    case O_WINDOW: return parse_bytes(v, &o->window);
    case O_REPEATS: return parse_long(v, 1, LONG_MAX, &o->repeats);
    case O_TRIALS: return parse_long(v, 1, PIPE_MAX_TRIALS, &n) ? -1 : (o->trials = (int)n, 0);
    case O_PORT: return parse_long(v, 0, 65535, &n) ? -1 : (o->port = (int)n, 0);
    case O_OUT: o->out = v; return *v ? 0 : -1;
    case O_PLOT: o->plot = v; return *v ? 0 : -1;
    case O_PLOT_FILES: o->plot_files = v; o->module = PIPE_OVERLAY; return *v ? 0 : -1;
    case O_LABELS: o->labels = v; return *v ? 0 : -1;
    case O_TCP: o->host = v; o->module = PIPE_TCP_CLIENT; return *v ? 0 : -1;
    case O_PATTERN: return parse_pattern(v, &o->pattern);
    case O_PLOT_Y: return parse_long(v, 2, PIPE_MAX_COLUMN, &n) ? -1 : (o->plot_y = (int)n, 0);
    case O_WORKLOAD:
        if (!strcmp(v, "auto")) {
            o->workload_auto = 1;
            o->workload = 1;
            return 0;
        }
        return parse_workload(v, &o->workload);
    default: return -1;
    }
}

static void defaults(struct pipe_opts *o)
{
    memset(o, 0, sizeof *o);
    o->module = PIPE_MPI;
    o->mode = PIPE_PINGPONG;
    o->start = 1;
    o->end = 8 * (size_t)MB;
    o->pert = 3;
    o->trials = 5;
    o->target = 0.1;
    o->out = "np.out";
    o->port = 5002;
    o->plot_y = 2;
}

#define SEEN(id) (seen & (1ul << (id)))

/* The one-sided modes: one at a time, MPI only, two ranks; the atomics and the floor move 8 bytes. */
static int check_one_sided(struct pipe_opts *o, unsigned long seen)
{
    int modes = !!SEEN(O_PUT) + !!SEEN(O_GET) + !!SEEN(O_FOP) + !!SEEN(O_CAS) + !!SEEN(O_CACHELINE);
    if (modes > 1)
        return bad("%s", "--put, --get, --fop, --cas and --cacheline exclude each other");
    if (SEEN(O_NOFENCE) && o->rma != PIPE_RMA_PUT && o->rma != PIPE_RMA_GET)
        return bad("%s", "--nofence goes with --put or --get (--fop and --cas always use lock_all and flush)");
    if (!o->rma)
        return 0;
    if (o->module != PIPE_MPI)
        return bad("%s", "the one-sided modes measure MPI (not --memcpy, --tcp or the overlay)");
    if (o->pairs || o->pattern || SEEN(O_WORKLOAD))
        return bad("%s", "the one-sided modes run one pair of ranks: no --pairs, --pattern or --workload");
    if (SEEN(O_STREAM) || SEEN(O_BIDIR) || o->async || o->nocache || SEEN(O_WINDOW))
        return bad("%s", "the one-sided modes decide their own transfer: no --stream, --bidir, --async, "
                         "--nocache or --window");
    if (SEEN(O_SOFFSET) || SEEN(O_ROFFSET))
        return bad("%s", "the one-sided modes take no --soffset or --roffset (window data starts at displacement 0)");
    if (o->rma == PIPE_RMA_PUT || o->rma == PIPE_RMA_GET)
        return 0;
    if (SEEN(O_START) || SEEN(O_END) || SEEN(O_PERT))
        return bad("%s", "--fop, --cas and --cacheline move 8 bytes: no --start, --end or --pert");
    if (o->rma == PIPE_RMA_CACHELINE && o->integrity)
        return bad("%s", "--cacheline moves a counter, not data: no --integrity");
    return 0;
}

/* Options that only make sense in some modules, and the --quick defaults. */
static int check_combinations(struct pipe_opts *o, unsigned long seen)
{
    int modules = !!SEEN(O_MEMCPY) + !!SEEN(O_TCP) + !!SEEN(O_TCP_SERVER) + !!SEEN(O_PLOT_FILES);
    if (SEEN(O_HELP)) { /* wins over everything, wherever it stands */
        o->module = PIPE_HELP;
        return 0;
    }
    if (modules > 1)
        return bad("%s", "--memcpy, --tcp, --tcp-server and --plot-files exclude each other");
    if (SEEN(O_STREAM) && SEEN(O_BIDIR))
        return bad("%s", "--stream and --bidir exclude each other");
    if (SEEN(O_PLOT_FILES) && !o->plot)
        return bad("%s", "--plot-files needs --plot FILE.png");
    if (o->plot && o->integrity)
        return bad("%s", "--plot needs timing data, --integrity has none");
    if (SEEN(O_PLOT_Y) && !o->plot)
        return bad("%s", "--plot-y goes with --plot");
    if (SEEN(O_LABELS) && !SEEN(O_PLOT_FILES))
        return bad("%s", "--labels goes with --plot-files");
    if (o->module == PIPE_MEMCPY && (SEEN(O_STREAM) || SEEN(O_BIDIR) || o->async || o->integrity))
        return bad("%s", "--memcpy takes no --stream, --bidir, --async or --integrity");
    if (o->module == PIPE_TCP_CLIENT && (SEEN(O_BIDIR) || o->async || o->integrity))
        return bad("%s", "--tcp measures ping-pong and --stream only");
    if (o->module == PIPE_TCP_CLIENT && o->port == 0)
        return bad("%s", "--tcp needs a port other than 0");
    if (o->module == PIPE_TCP_SERVER && (seen & ~(1ul << O_TCP_SERVER | 1ul << O_PORT | 1ul << O_SILENT)))
        return bad("%s", "--tcp-server takes only --port and -q (the client's options decide the rest)");
    if ((o->pairs || o->pattern || SEEN(O_WORKLOAD)) && o->module != PIPE_MPI)
        return bad("%s", "--pairs, --pattern and --workload measure MPI (not --memcpy, --tcp or the overlay)");
    if (o->pairs && o->pattern)
        return bad("%s", "--pairs and --pattern exclude each other");
    if (o->pattern && (SEEN(O_STREAM) || SEEN(O_BIDIR) || o->async || o->nocache))
        return bad("%s", "--pattern decides its own exchange: no --stream, --bidir, --async or --nocache");
    int rc = check_one_sided(o, seen);
    if (rc)
        return rc;
    if (SEEN(O_WORKLOAD) && o->mode == PIPE_PINGPONG && !o->pattern)
        return bad("%s", "--workload needs --bidir, --stream or --pattern (a nonblocking start and a wait to compute between)");
    if (o->quick && !SEEN(O_END))
        o->end = (size_t)MB;
    if (o->quick && !SEEN(O_TRIALS))
        o->trials = 3;
    if (o->quick)
        o->target = 0.01;
    if (o->rma == PIPE_RMA_FOP || o->rma == PIPE_RMA_CAS || o->rma == PIPE_RMA_CACHELINE) {
        o->start = o->end = 8; /* one size, after --quick's default end */
        o->pert = 0;
    }
    if (o->start < 1 || o->start > o->end || o->end > MAX_END)
        return bad("%s", "sizes must satisfy 1 <= --start <= --end <= 1g");
    if (o->soffset > MAX_OFFSET || o->roffset > MAX_OFFSET)
        return bad("%s", "--soffset and --roffset must be at most 1m");
    return 0;
}

/* One argument (and maybe its value, as "--opt=value" or the next argument). */
static int parse_one(struct pipe_opts *o, int argc, char **argv, int *i, unsigned long *seen)
{
    const char *arg = argv[*i], *eq = strchr(arg, '=');
    const struct opt_def *d = find_def(arg, eq ? (size_t)(eq - arg) : strlen(arg));
    if (!d || (eq && !d->takes_value))
        return bad("unknown option '%s'", arg);
    *seen |= 1ul << d->id;
    if (!d->takes_value) {
        set_flag(o, d->id);
        return 0;
    }
    const char *v = eq ? eq + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
    if (!v)
        return bad("%s needs a value", d->name);
    if (set_value(o, d->id, v) != 0) {
        fprintf(stderr, "skiff-pipe: bad value '%s' for %s (see --help)\n", v, d->name);
        return 2;
    }
    return 0;
}

int pipe_parse(int argc, char **argv, struct pipe_opts *o)
{
    unsigned long seen = 0;
    defaults(o);
    for (int i = 1; i < argc; i++) {
        int rc = parse_one(o, argc, argv, &i, &seen);
        if (rc)
            return rc;
    }
    return check_combinations(o, seen);
}
