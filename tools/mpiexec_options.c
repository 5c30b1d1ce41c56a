/* mpiexec's command line: the usage text, the options, host lists and hostfiles. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiexec.h"

#define EXIT_USAGE 2

static void usage(FILE *f)
{
    fputs("Usage: mpiexec [-n N] [options] program [args...]\n"
          "Start N copies (ranks) of program as one skiff MPI job, on this host or on several.\n"
          "\n"
          "  -n, -np N           number of ranks (default 1; with host slots or -ppn: all of them)\n"
          "  --bind-to core|none bind rank i to core i (default: core, when N <= cores)\n"
          "  --tag-output        prefix every output line with \"[rank] \"\n"
          "  --timeout S         kill the job after S seconds (exit status 124); without it,\n"
          "                      $MPIEXEC_TIMEOUT seconds if set (0: none)\n"
          "  -x VAR[=VAL]        set VAR=VAL for all ranks (VAR alone: pass mpiexec's value)\n"
          "  --profile           record every rank's MPI calls; rank 0 writes a report at\n"
          "                      MPI_Finalize (SKIFF_PROFILE=1; see docs/profiler.md)\n"
          "  --trace             every rank records its MPI calls and messages in a file of its\n"
          "                      own at MPI_Finalize, for skiff-replay (SKIFF_TRACE=1; docs/trace.md)\n"
          "  --help, --version\n"
          "\n"
          "Several hosts (PMI mode: mpiexec is the ranks' PMI-1 server; see docs/launch.md):\n"
          "  --hosts H[:S],...   hosts in order; S = slots (how many ranks it may take)\n"
          "  --hostfile F        one host per line: H, H:S or \"H slots=S\"; # comments\n"
          "  -ppn, --ppn K       K ranks per host (default: fill the slots, else ceil(N/hosts))\n"
          "  --launcher ssh|local\n"
          "                      how ranks start (default: local for localhost and this host's\n"
          "                      name, ssh for others)\n"
          "  --launcher-template 'CMD... {host}...'\n"
          "                      start each rank as CMD... env VAR=VAL... program args, with {host}\n"
          "                      replaced (CMD = ssh ...: one quoted command, as --launcher ssh)\n"
          "  --pmi fd|port       ranks reach mpiexec by an inherited socket (PMI_FD; default for\n"
          "                      local and template launchers) or TCP (PMI_PORT; default for ssh)\n"
          "  --pmi-host ADDR     address remote ranks connect to (default: this host's name)\n"
          "  --pmi-trace         show every PMI line received and sent, on stderr\n"
          "\n"
          "Exit status: 0 if all ranks succeed; the MPI_Abort code; a failing rank's exit code;\n"
          "128+S if a rank dies of signal S; 1 if a rank exits without MPI_Finalize; 124 on timeout;\n"
          "127 if program cannot be run. SIGINT/SIGTERM/SIGHUP end the job and then mpiexec itself.\n",
          f);
}

_Noreturn void usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "mpiexec: %s%s%s\nTry 'mpiexec --help'.\n", what, arg ? ": " : "", arg ? arg : "");
    exit(EXIT_USAGE);
}

static void *xalloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fputs("mpiexec: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

/* Matches argv[*i] against an option that takes a value, given as "NAME VALUE", "--NAME=VALUE", or
 * "-nVALUE" for one-letter options. Returns the value, or NULL if argv[*i] is another option. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t len = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, len) != 0)
        return NULL;
    if (a[len] == '\0') {
        if (*i + 1 >= argc)
            usage_error("option needs a value", name);
        return argv[++*i];
    }
    if (a[len] == '=' && name[1] == '-')
        return a + len + 1;
    if (len == 2)
        return a + len;
    return NULL;
}

/* A count of ranks (or slots, or ranks per host): 1..SKIFF_JOB_MAX_RANKS. */
static int parse_count(const char *s, const char *what)
{
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (errno || end == s || *end || n < 1 || n > SKIFF_JOB_MAX_RANKS)
        usage_error(what, s);
    return (int)n;
}

static double parse_timeout(const char *s)
{
    char *end;
    double t = strtod(s, &end);
    if (end == s || *end || !isfinite(t) || t <= 0)
        usage_error("bad timeout (seconds > 0)", s);
    return t;
}

/* MPIEXEC_TIMEOUT, the variable Hydra and test harnesses set (seconds, 0 or empty: none), stands in
 * for a --timeout not given. A value that is not a number is refused: a harness that thinks it set
 * a timeout must not get a job that never ends. */
static void timeout_from_env(struct options *o)
{
    const char *s = getenv("MPIEXEC_TIMEOUT");
    if (o->timeout > 0 || !s || !*s)
        return;
    char *end;
    double t = strtod(s, &end);
    if (end == s || *end || !isfinite(t) || t < 0)
        usage_error("bad MPIEXEC_TIMEOUT (seconds >= 0)", s);
    o->timeout = t;
    o->timeout_env = t > 0;
}

/* ---- hosts ------------------------------------------------------------------------------------ */

static void add_host(struct options *o, const char *name, size_t len, int slots)
{
    if (len == 0)
        usage_error("empty host name", NULL);
    o->hosts = xalloc(o->hosts, (size_t)(o->nhosts + 1) * sizeof *o->hosts);
    char *copy = xalloc(NULL, len + 1);
    memcpy(copy, name, len);
    copy[len] = '\0';
    o->hosts[o->nhosts++] = (struct host){ copy, slots };
}

/* "name" or "name:slots" (the last colon: a name never ends in digits after a colon). */
static void add_host_entry(struct options *o, const char *entry, size_t len)
{
    char tmp[512];
    if (len >= sizeof tmp)
        usage_error("host entry too long", entry);
    memcpy(tmp, entry, len);
    tmp[len] = '\0';
    char *colon = strrchr(tmp, ':');
    int slots = 0;
    if (colon) {
        *colon = '\0';
        slots = parse_count(colon + 1, "bad slot count (1..4096) in host entry");
    }
    add_host(o, tmp, strlen(tmp), slots);
}

/* --hosts a,b:2,c */
static void parse_hosts(struct options *o, const char *list)
{
    for (const char *p = list;; p++) {
        size_t n = strcspn(p, ",");
        if (n == 0)
            usage_error("empty entry in --hosts", list);
        add_host_entry(o, p, n);
        p += n;
        if (!*p)
            break;
    }
}

/* One hostfile line without its comment: "name", "name:slots" or "name slots=N". */
static void parse_hostfile_line(struct options *o, char *line, const char *file, int lineno)
{
    char *save, *name = strtok_r(line, " \t\r\n", &save);
    if (!name)
        return;
    char *extra = strtok_r(NULL, " \t\r\n", &save);
    if (!extra) {
        add_host_entry(o, name, strlen(name));
        return;
    }
    char where[300];
    snprintf(where, sizeof where, "%s line %d", file, lineno);
    if (strncmp(extra, "slots=", 6) != 0 || strtok_r(NULL, " \t\r\n", &save) || strchr(name, ':'))
        usage_error("hostfile lines are 'name', 'name:slots' or 'name slots=N'", where);
    add_host(o, name, strlen(name), parse_count(extra + 6, "bad slot count (1..4096) in hostfile"));
}

static void parse_hostfile(struct options *o, const char *path)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        fprintf(stderr, "mpiexec: cannot read hostfile %s: %s\n", path, strerror(errno));
        exit(EXIT_USAGE);
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, before = o->nhosts;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        line[strcspn(line, "#")] = '\0';
        parse_hostfile_line(o, line, path, lineno);
    }
    free(line);
    fclose(f);
    if (o->nhosts == before)
        usage_error("hostfile names no host", path);
}

/* ---- launchers -------------------------------------------------------------------------------- */

/* Splits on whitespace; the words stay in the template's order, "{host}" replaced at launch. */
static char **split_words(const char *s)
{
    char *copy = xalloc(NULL, strlen(s) + 1), *save;
    strcpy(copy, s);
    char **w = NULL;
    size_t n = 0;
    for (char *t = strtok_r(copy, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
        w = xalloc(w, (n + 2) * sizeof *w);
        w[n] = xalloc(NULL, strlen(t) + 1);
        strcpy(w[n++], t);
        w[n] = NULL;
    }
    free(copy);
    if (!n)
        usage_error("empty --launcher-template", s);
    return w;
}

/* A template that starts with ssh gets ssh's treatment: its remote side is a shell that joins the
 * words, so the command must travel as one quoted string (see mpiexec_launch.c). */
static enum launcher template_kind(char **words)
{
    const char *slash = strrchr(words[0], '/');
    return !strcmp(slash ? slash + 1 : words[0], "ssh") ? LAUNCH_SSH : LAUNCH_TEMPLATE;
}

static void set_launcher(struct options *o, const char *v, bool is_template)
{
    if (o->launcher != LAUNCH_DEFAULT)
        usage_error("give --launcher or --launcher-template once", v);
    if (is_template) {
        o->prefix = split_words(v);
        o->launcher = template_kind(o->prefix);
    } else if (!strcmp(v, "ssh")) {
        o->launcher = LAUNCH_SSH; /* prefix stays NULL: ssh's default words (mpiexec_launch.c) */
    } else if (!strcmp(v, "local")) {
        o->launcher = LAUNCH_LOCAL;
    } else {
        usage_error("--launcher takes ssh or local", v);
    }
}

/* ---- the command line ------------------------------------------------------------------------- */

/* The options of PMI mode; false if argv[*i] is none of them. */
static bool parse_pmi_option(int argc, char **argv, int *i, struct options *o)
{
    const char *v;
    if ((v = opt_value(argc, argv, i, "--hosts")) || (v = opt_value(argc, argv, i, "-hosts"))) {
        parse_hosts(o, v);
    } else if ((v = opt_value(argc, argv, i, "--hostfile")) || (v = opt_value(argc, argv, i, "-hostfile"))) {
        parse_hostfile(o, v);
    } else if ((v = opt_value(argc, argv, i, "-ppn")) || (v = opt_value(argc, argv, i, "--ppn"))) {
        o->ppn = parse_count(v, "bad number of ranks per host (1..4096)");
        return true; /* does not choose PMI mode by itself */
    } else if ((v = opt_value(argc, argv, i, "--launcher-template"))) {
        set_launcher(o, v, true);
    } else if ((v = opt_value(argc, argv, i, "--launcher"))) {
        set_launcher(o, v, false);
    } else if (!strcmp(argv[*i], "--pmi-trace")) {
        o->pmi_trace = true;
        return true;
    } else if ((v = opt_value(argc, argv, i, "--pmi-host"))) {
        o->pmi_host = v;
        return true;
    } else if ((v = opt_value(argc, argv, i, "--pmi"))) {
        if (strcmp(v, "fd") && strcmp(v, "port"))
            usage_error("--pmi takes fd or port", v);
        o->channel = !strcmp(v, "fd") ? CHAN_FD : CHAN_PORT;
    } else {
        return false;
    }
    o->pmi_mode = true;
    return true;
}

/* One option at argv[*i]; returns false when argv[*i] is where the program starts. */
static bool parse_one(int argc, char **argv, int *i, struct options *o)
{
    const char *a = argv[*i], *v;
    if (a[0] != '-')
        return false;
    if (!strcmp(a, "--")) {
        ++*i;
        return false;
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
        usage(stdout);
        exit(0);
    }
    if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
        printf("mpiexec (skiff) %s\n", SKIFF_VERSION);
        exit(0);
    }
    if (!strcmp(a, "--tag-output")) {
        o->tag_output = true;
    } else if (!strcmp(a, "--profile")) {
        o->profile = true;
    } else if (!strcmp(a, "--trace")) {
        o->trace = true;
    } else if (parse_pmi_option(argc, argv, i, o)) {
        /* done */
    } else if ((v = opt_value(argc, argv, i, "-np")) || (v = opt_value(argc, argv, i, "--np")) ||
               (v = opt_value(argc, argv, i, "-n"))) {
        o->nranks = parse_count(v, "bad number of ranks (1..4096)");
        o->nranks_given = true;
    } else if ((v = opt_value(argc, argv, i, "--bind-to"))) {
        if (strcmp(v, "core") && strcmp(v, "none"))
            usage_error("--bind-to takes core or none", v);
        o->bind = !strcmp(v, "core");
    } else if ((v = opt_value(argc, argv, i, "--timeout"))) {
        o->timeout = parse_timeout(v);
    } else if ((v = opt_value(argc, argv, i, "-x"))) {
        if (!*v || *v == '=')
            usage_error("-x needs VAR or VAR=VAL", v);
        o->xvars[o->nxvars++] = (char *)v;
    } else {
        usage_error("unknown option", a);
    }
    return true;
}

void parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){ .nranks = 1, .bind = true };
    o->xvars = calloc((size_t)argc, sizeof *o->xvars); /* never more -x than arguments */
    if (!o->xvars)
        exit(1);
    int i = 1;
    while (i < argc && parse_one(argc, argv, &i, o))
        i++;
    if (i >= argc)
        usage_error("no program given", NULL);
    o->argv = argv + i;
    timeout_from_env(o);
    /* Said rather than ignored: on one host these would silently do nothing. */
    if (!o->pmi_mode && o->ppn)
        usage_error("-ppn needs --hosts or --hostfile", NULL);
    if (!o->pmi_mode && (o->pmi_host || o->pmi_trace))
        usage_error("--pmi-host and --pmi-trace need PMI mode (--hosts, --hostfile, --launcher... or --pmi)",
                    NULL);
}

void options_release(struct options *o)
{
    for (int i = 0; i < o->nhosts; i++)
        free(o->hosts[i].name);
    free(o->hosts);
    for (char **w = o->prefix; w && *w; w++)
        free(*w);
    free(o->prefix);
    free(o->xvars);
}
