/* A PMI-1 client for testing mpiexec's PMI server without the library: it connects the way an MPI
 * library would (PMI_FD, or PMI_PORT + PMI_ID with initack) and checks the answers.
 *
 *   pmi_client check          the whole protocol: init, maxes, kvsname, sizes, put/barrier/get of
 *                             every rank's key, put/get errors, finalize; prints the placement keys
 *   pmi_client env            check, plus the launch variables this rank got
 *   pmi_client args A...      check, plus its arguments and working directory (quoting over ssh)
 *   pmi_client abort [C]      rank 1 sends abort (exitcode=C if given) and waits to be killed
 *   pmi_client nofinalize     rank 1 exits 0 after init, without finalize
 *   pmi_client longline       rank 1 sends a line longer than the server takes
 *   pmi_client kill           rank 1 kills itself with SIGKILL after init
 *   pmi_client hang           prints "rank R pid P ready"; every rank but 0 then waits in the PMI
 *                             barrier forever, rank 0 sleeps
 *   pmi_client badid          check, and rank 0 also tries initack with a taken and a bad pmiid
 * The other ranks of a failing mode wait in a barrier that never completes: mpiexec must end them.
 * Failures print "FAIL [rank R] ..." and exit 1. */
#define _GNU_SOURCE
#include <netdb.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int my_rank = -1, my_size = -1;
static char kvsname[256];

static _Noreturn void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL [rank %d] ", my_rank);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    exit(1);
}

static void send_line(int fd, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || write(fd, line, (size_t)n) != n)
        fail("cannot write to the PMI server");
}

/* One line without its newline; byte by byte so that nothing of the next line is taken. Returns
 * false at EOF. */
static int read_line(int fd, char *buf, size_t len)
{
    size_t n = 0;
    char c;
    while (read(fd, &c, 1) == 1) {
        if (c == '\n') {
            buf[n] = '\0';
            return 1;
        }
        if (n + 1 < len)
            buf[n++] = c;
    }
    return 0;
}

/* The value of key in a line of "k=v" pairs, or NULL. */
static const char *field(const char *line, const char *key, char *out, size_t len)
{
    size_t klen = strlen(key);
    for (const char *p = line; *p;) {
        while (*p == ' ')
            p++;
        if (!strncmp(p, key, klen) && p[klen] == '=') {
            size_t n = strcspn(p + klen + 1, " ");
            snprintf(out, len, "%.*s", (int)n, p + klen + 1);
            return out;
        }
        p += strcspn(p, " ");
    }
    return NULL;
}

static void expect(const char *line, const char *key, const char *want)
{
    char v[1024];
    if (!field(line, key, v, sizeof v) || strcmp(v, want) != 0)
        fail("reply '%s': expected %s=%s", line, key, want);
}

/* Sends cmd and reads the reply, which must have cmd=<reply_cmd>. */
static void call(int fd, char *reply, size_t len, const char *reply_cmd, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    send_line(fd, "%s", line);
    if (!read_line(fd, reply, len))
        fail("no reply to '%s'", line);
    expect(reply, "cmd", reply_cmd);
}

static int dial(const char *hostport)
{
    char host[256];
    const char *colon = strrchr(hostport, ':');
    if (!colon)
        fail("PMI_PORT=%s is not host:port", hostport);
    snprintf(host, sizeof host, "%.*s", (int)(colon - hostport), hostport);
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
    if (getaddrinfo(host, colon + 1, &hints, &res) != 0)
        fail("cannot resolve %s", host);
    int fd = -1;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        fail("cannot connect to PMI_PORT=%s", hostport);
    return fd;
}

/* PMI_PORT: initack with id; the server answers rc and then size, rank and debug. */
static int initack(int fd, int id, int *rank, int *size)
{
    char reply[1024], v[64];
    call(fd, reply, sizeof reply, "initack", "cmd=initack pmiid=%d\n", id);
    if (!field(reply, "rc", v, sizeof v) || strcmp(v, "0") != 0)
        return -1;
    for (int i = 0; i < 3; i++) {
        if (!read_line(fd, reply, sizeof reply))
            fail("initack: connection closed after %d set lines", i);
        expect(reply, "cmd", "set");
        if (field(reply, "size", v, sizeof v))
            *size = atoi(v);
        else if (field(reply, "rank", v, sizeof v))
            *rank = atoi(v);
        else if (!field(reply, "debug", v, sizeof v))
            fail("initack: unexpected line '%s'", reply);
    }
    return 0;
}

static int env_int(const char *name)
{
    const char *v = getenv(name);
    if (!v)
        fail("%s is not set", name);
    return atoi(v);
}

static int connect_server(void)
{
    my_rank = env_int("PMI_RANK");
    my_size = env_int("PMI_SIZE");
    if (getenv("PMI_FD"))
        return env_int("PMI_FD");
    const char *port = getenv("PMI_PORT");
    if (!port)
        fail("neither PMI_FD nor PMI_PORT is set");
    int fd = dial(port), rank = -1, size = -1;
    if (initack(fd, env_int("PMI_ID"), &rank, &size) != 0)
        fail("initack refused");
    if (rank != my_rank || size != my_size)
        fail("initack said rank %d of %d, the environment %d of %d", rank, size, my_rank, my_size);
    return fd;
}

static void init(int fd)
{
    char r[1024];
    call(fd, r, sizeof r, "response_to_init", "cmd=init pmi_version=1 pmi_subversion=1\n");
    expect(r, "rc", "0");
    expect(r, "pmi_version", "1");
    call(fd, r, sizeof r, "maxes", "cmd=get_maxes\n");
    expect(r, "kvsname_max", "256");
    expect(r, "keylen_max", "64");
    expect(r, "vallen_max", "1024");
    call(fd, r, sizeof r, "my_kvsname", "cmd=get_my_kvsname\n");
    expect(r, "rc", "0");
    field(r, "kvsname", kvsname, sizeof kvsname);
    char want[64];
    snprintf(want, sizeof want, "skiff_%s", getenv("SKIFF_JOBID") ? getenv("SKIFF_JOBID") : "?");
    if (strcmp(kvsname, want) != 0)
        fail("kvsname %s, expected %s", kvsname, want);
}

static void barrier(int fd)
{
    char r[1024];
    call(fd, r, sizeof r, "barrier_out", "cmd=barrier_in\n");
}

static void put(int fd, const char *key, const char *value, const char *rc)
{
    char r[1024];
    call(fd, r, sizeof r, "put_result", "cmd=put kvsname=%s key=%s value=%s\n", kvsname, key, value);
    expect(r, "rc", rc);
}

/* The value of key, or NULL with rc=-1 and a message. */
static const char *get(int fd, const char *ns, const char *key, char *out, size_t len)
{
    char r[1024], rc[16];
    call(fd, r, sizeof r, "get_result", "cmd=get kvsname=%s key=%s\n", ns, key);
    if (!field(r, "rc", rc, sizeof rc))
        fail("get_result without rc: '%s'", r);
    if (strcmp(rc, "0") != 0) {
        if (!field(r, "msg", out, len))
            fail("failed get_result without msg: '%s'", r);
        return NULL;
    }
    if (!field(r, "value", out, len))
        fail("get_result without value: '%s'", r);
    return out;
}

static void check_sizes(int fd)
{
    char r[1024], v[32];
    call(fd, r, sizeof r, "universe_size", "cmd=get_universe_size\n");
    snprintf(v, sizeof v, "%d", my_size);
    expect(r, "size", v);
    call(fd, r, sizeof r, "appnum", "cmd=get_appnum\n");
    expect(r, "appnum", "0");
}

/* Everyone puts one key; after a barrier everyone sees all of them. Three rounds: the barrier must
 * be reusable. */
static void check_kvs(int fd)
{
    char key[64], val[128], got[1024];
    for (int round = 0; round < 3; round++) {
        snprintf(key, sizeof key, "k%d-%d", round, my_rank);
        snprintf(val, sizeof val, "v%d-%d=x", round, my_rank); /* '=' inside a value survives */
        put(fd, key, val, "0");
        barrier(fd);
        for (int p = 0; p < my_size; p++) {
            snprintf(key, sizeof key, "k%d-%d", round, p);
            snprintf(val, sizeof val, "v%d-%d=x", round, p);
            if (!get(fd, kvsname, key, got, sizeof got) || strcmp(got, val) != 0)
                fail("get %s gave '%s', expected '%s'", key, got, val);
        }
    }
}

static void check_errors(int fd)
{
    char key[128], got[1024];
    snprintf(key, sizeof key, "dup-%d", my_rank);
    put(fd, key, "same", "0");
    put(fd, key, "same", "0");  /* the same value again is fine */
    put(fd, key, "other", "-1"); /* another value is not */
    memset(key, 'k', 70);
    key[70] = '\0';
    put(fd, key, "v", "-1");
    if (get(fd, kvsname, "no-such-key", got, sizeof got) || strcmp(got, "key_not_found") != 0)
        fail("get of a missing key: '%s'", got);
    if (get(fd, "not_our_kvs", "PMI_process_mapping", got, sizeof got))
        fail("get with a wrong kvsname succeeded");
}

static void show_placement(int fd)
{
    char map[1024], hosts[1024];
    if (!get(fd, kvsname, "PMI_process_mapping", map, sizeof map))
        fail("no PMI_process_mapping: %s", map);
    if (!get(fd, kvsname, "skiff-hosts", hosts, sizeof hosts))
        fail("no skiff-hosts: %s", hosts);
    printf("rank %d: mapping=%s hosts=%s\n", my_rank, map, hosts);
}

static void finalize(int fd)
{
    char r[1024];
    call(fd, r, sizeof r, "finalize_ack", "cmd=finalize\n");
    close(fd);
}

static void show_env(void)
{
    static const char *vars[] = { "SKIFF_TEST_HOST", "SKIFF_NODE_CPUS", "SKIFF_RANK", "SKIFF_JOB_FD", "SKIFF_SECRET",
                                  "PMI_FD", "PMI_PORT", "PMI_ID", "SKIFF_X" };
    printf("rank %d env", my_rank);
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        printf(" %s=%s", vars[i], getenv(vars[i]) ? getenv(vars[i]) : "(unset)");
    printf("\n");
}

/* A second connection that claims pmiid=id must be refused. */
static void check_refused(int id)
{
    int rank, size, fd = dial(getenv("PMI_PORT"));
    if (initack(fd, id, &rank, &size) == 0)
        fail("initack pmiid=%d on a second connection was accepted", id);
    close(fd);
}

/* Rank 1 fails the job in one of several ways; the others wait in a barrier that never ends. */
static void fail_mode(int fd, const char *mode, const char *code)
{
    int victim = my_size > 1 ? 1 : 0;
    if (my_rank != victim) {
        barrier(fd);
        fail("the barrier completed although rank %d failed", victim);
    }
    fflush(stdout);
    if (!strcmp(mode, "abort")) {
        fprintf(stderr, "rank %d: last words before abort\n", my_rank);
        if (code)
            send_line(fd, "cmd=abort exitcode=%s\n", code);
        else
            send_line(fd, "cmd=abort\n");
        pause(); /* mpiexec ends us */
    } else if (!strcmp(mode, "nofinalize")) {
        exit(0);
    } else if (!strcmp(mode, "kill")) {
        raise(SIGKILL);
    } else if (!strcmp(mode, "longline")) {
        char line[2100];
        memset(line, 'x', sizeof line - 2);
        memcpy(line, "cmd=put ", 8);
        line[sizeof line - 2] = '\n';
        line[sizeof line - 1] = '\0';
        send_line(fd, "%s", line);
        char r[64];
        exit(read_line(fd, r, sizeof r) ? 4 : 3); /* 3: the server closed the connection, as it should */
    }
    fail("unknown mode %s", mode);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *mode = argc > 1 ? argv[1] : "check";
    int fd = connect_server();
    if (getenv("SKIFF_RANK") || getenv("SKIFF_JOB_FD"))
        fail("SKIFF_RANK or SKIFF_JOB_FD set in PMI mode");
    init(fd);
    if (!strcmp(mode, "hang")) {
        printf("rank %d pid %d ready\n", my_rank, (int)getpid());
        if (my_rank != 0)
            barrier(fd);
        pause();
    }
    if (strcmp(mode, "check") && strcmp(mode, "env") && strcmp(mode, "args") && strcmp(mode, "badid"))
        fail_mode(fd, mode, argc > 2 ? argv[2] : NULL);
    if (!strcmp(mode, "badid") && my_rank == 0) {
        check_refused(0);
        check_refused(my_size);
    }
    check_sizes(fd);
    check_kvs(fd);
    check_errors(fd);
    show_placement(fd);
    if (!strcmp(mode, "env"))
        show_env();
    if (!strcmp(mode, "args")) {
        char cwd[4096];
        for (int i = 2; i < argc; i++)
            printf("rank %d arg%d=[%s]\n", my_rank, i - 1, argv[i]);
        printf("rank %d cwd=%s\n", my_rank, getcwd(cwd, sizeof cwd) ? cwd : "?");
    }
    barrier(fd); /* nobody finalizes before everyone is done with the space */
    finalize(fd);
    printf("OK pmi rank %d of %d\n", my_rank, my_size);
    return 0;
}
