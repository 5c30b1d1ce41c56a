#include "boot/pmi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_MAX_PMI 1024

static struct {
    int fd;
    char kvs[256];
} pmi = {.fd = -1};

int skiff_pmi_active(void)
{
    return pmi.fd >= 0;
}

static int send_line(const char *line)
{
    size_t len = strlen(line), off = 0;
    while (off < len) {
        ssize_t n = write(pmi.fd, line + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            fprintf(stderr, "skiff: writing to the PMI server (PMI_FD=%d) failed: %s\n", pmi.fd, strerror(errno));
            return -1;
        }
        off += (size_t)n;
    }
    return 0;
}

/* One reply line, without its newline. Byte by byte: the server may already have sent the next. */
static int read_line(char *buf, size_t len)
{
    size_t n = 0;
    for (;;) {
        char c;
        ssize_t r = read(pmi.fd, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            fprintf(stderr, "skiff: the PMI server (PMI_FD=%d) closed the connection\n", pmi.fd);
            return -1;
        }
        if (c == '\n')
            break;
        if (n + 1 < len)
            buf[n++] = c;
    }
    buf[n] = '\0';
    return 0;
}

/* The value of key in a reply line, or NULL. */
static const char *field(const char *line, const char *key, char *out, size_t len)
{
    size_t klen = strlen(key);
    for (const char *p = line; p && *p;) {
        while (*p == ' ')
            p++;
        if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
            const char *v = p + klen + 1, *end = strchr(v, ' ');
            size_t n = end ? (size_t)(end - v) : strlen(v);
            if (n >= len)
                n = len - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return out;
        }
        p = strchr(p, ' ');
    }
    return NULL;
}

/* Sends a command and reads the reply whose cmd is `expect`; checks rc when the reply has one. */
static int call(const char *cmd, const char *expect, char *reply, size_t len)
{
    char what[64], rc[16];
    if (send_line(cmd) || read_line(reply, len))
        return -1;
    if (!field(reply, "cmd", what, sizeof what) || strcmp(what, expect) != 0) {
        fprintf(stderr, "skiff: PMI server answered '%s' to '%.*s'\n", reply, (int)strcspn(cmd, "\n"), cmd);
        return -1;
    }
    if (field(reply, "rc", rc, sizeof rc) && strcmp(rc, "0") != 0) {
        fprintf(stderr, "skiff: PMI '%.*s' failed: %s\n", (int)strcspn(cmd, "\n"), cmd, reply);
        return -1;
    }
    return 0;
}

int skiff_pmi_init(int fd)
{
    char reply[LINE_MAX_PMI];
    pmi.fd = fd;
    if (call("cmd=init pmi_version=1 pmi_subversion=1\n", "response_to_init", reply, sizeof reply) ||
        call("cmd=get_my_kvsname\n", "my_kvsname", reply, sizeof reply) ||
        !field(reply, "kvsname", pmi.kvs, sizeof pmi.kvs)) {
        pmi.fd = -1;
        return -1;
    }
    return 0;
}

int skiff_pmi_put(const char *key, const char *value)
{
    char cmd[LINE_MAX_PMI], reply[LINE_MAX_PMI];
    snprintf(cmd, sizeof cmd, "cmd=put kvsname=%s key=%s value=%s\n", pmi.kvs, key, value);
    return call(cmd, "put_result", reply, sizeof reply);
}

int skiff_pmi_barrier(void)
{
    char reply[LINE_MAX_PMI];
    return call("cmd=barrier_in\n", "barrier_out", reply, sizeof reply);
}

int skiff_pmi_get(const char *key, char *value, size_t len)
{
    char cmd[LINE_MAX_PMI], reply[LINE_MAX_PMI];
    snprintf(cmd, sizeof cmd, "cmd=get kvsname=%s key=%s\n", pmi.kvs, key);
    if (call(cmd, "get_result", reply, sizeof reply))
        return -1;
    return field(reply, "value", value, len) ? 0 : -1;
}

void skiff_pmi_finalize(void)
{
    char reply[LINE_MAX_PMI];
    if (pmi.fd < 0)
        return;
    call("cmd=finalize\n", "finalize_ack", reply, sizeof reply);
    close(pmi.fd);
    pmi.fd = -1;
}
