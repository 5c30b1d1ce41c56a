/* Forwarding of rank output: whole lines only, so lines of different ranks never mix. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpiexec.h"

/* A line longer than this is written in pieces rather than buffering without bound. */
#define MAX_LINE   (1u << 20)
#define READ_CHUNK 65536u

/* Set once writing to our stdout/stderr fails (reader gone): output for it is dropped. */
static bool dest_broken[3];

/* --tag-output, and whether an unterminated line (last one, or too long to hold) gets a newline so
 * the next rank's output starts on a line of its own. Not with one untagged rank: nothing can mix. */
static bool cfg_tag, cfg_end_partial;

/* Scratch space for tagged output, reused across calls. */
static char *scratch;
static size_t scratch_cap;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        static const char msg[] = "mpiexec: out of memory\n";
        (void)!write(2, msg, sizeof msg - 1);
        _exit(1);
    }
    return p;
}

/* Writes everything, waiting if our output is a non-blocking descriptor that is full. */
static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0 && !dest_broken[fd]) {
        ssize_t w = write(fd, p, n);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
        } else if (w < 0 && errno == EAGAIN) {
            struct pollfd pfd = { .fd = fd, .events = POLLOUT };
            (void)poll(&pfd, 1, -1);
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else {
            dest_broken[fd] = true; /* EPIPE and the like: nobody reads us any more */
        }
    }
}

bool output_broken(int fd)
{
    return dest_broken[fd];
}

void say(int fd, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    write_all(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

void streams_configure(bool tag, bool end_partial)
{
    cfg_tag = tag;
    cfg_end_partial = end_partial;
}

void streams_release(void)
{
    free(scratch);
    scratch = NULL;
    scratch_cap = 0;
}

void stream_init(struct stream *s, int fd, int dest)
{
    *s = (struct stream){ .fd = fd, .dest = dest };
}

static void stream_close(struct stream *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
}

/* Writes buf[0..n), which holds whole lines except perhaps an unterminated tail (at EOF, or a line
 * too long to hold); with cut, that tail is ended with a newline so no other rank can continue it. */
static void emit(struct stream *s, size_t n, int rank, bool cut)
{
    if (!cfg_tag) {
        write_all(s->dest, s->buf, n);
        s->midline = s->buf[n - 1] != '\n';
        if (cut && s->midline) {
            write_all(s->dest, "\n", 1);
            s->midline = false;
            s->cut = true;
        }
        return;
    }
    /* Worst case every byte is a newline and each line gets a prefix; plus the cut's newline. */
    char prefix[16];
    int plen = snprintf(prefix, sizeof prefix, "[%d] ", rank);
    size_t need = n + 1 + ((size_t)plen) * (n + 1);
    if (need > scratch_cap) {
        scratch = xrealloc(scratch, need);
        scratch_cap = need;
    }
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(s->buf + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s->buf) + 1 : n;
        if (!s->midline) {
            memcpy(scratch + o, prefix, (size_t)plen);
            o += (size_t)plen;
        }
        memcpy(scratch + o, s->buf + i, end - i);
        o += end - i;
        s->midline = !nl;
        i = end;
    }
    if (cut && s->midline) {
        scratch[o++] = '\n';
        s->midline = false;
        s->cut = true;
    }
    write_all(s->dest, scratch, o);
}

/* Writes out every complete line in the buffer and keeps the incomplete rest. */
static void flush_lines(struct stream *s, int rank)
{
    char *last = memrchr(s->buf, '\n', s->len);
    size_t n = last ? (size_t)(last - s->buf) + 1 : 0;
    bool huge = n == 0 && s->len >= MAX_LINE;
    if (huge)
        n = s->len; /* one huge line: pass it on in pieces (separate lines when ranks could mix) */
    if (n == 0)
        return;
    emit(s, n, rank, huge && cfg_end_partial);
    memmove(s->buf, s->buf + n, s->len - n);
    s->len -= n;
}

/* Makes room for one read; the buffer grows only while a line is incomplete. */
static size_t reserve(struct stream *s)
{
    if (s->cap - s->len < READ_CHUNK && s->cap < MAX_LINE) {
        size_t cap = s->cap ? s->cap : READ_CHUNK;
        while (cap - s->len < READ_CHUNK && cap < MAX_LINE)
            cap *= 2;
        s->buf = xrealloc(s->buf, cap);
        s->cap = cap;
    }
    return s->cap - s->len;
}

void stream_pump(struct stream *s, int rank, bool drain)
{
    /* Draining is bounded so a stray process that keeps writing cannot stall mpiexec. */
    for (int reads = 0; s->fd >= 0 && reads < 64; reads++) {
        if (dest_broken[s->dest]) {
            /* Closing our end gives the rank SIGPIPE/EPIPE, as in an ordinary pipeline. */
            stream_close(s);
            return;
        }
        ssize_t r = read(s->fd, s->buf + s->len, reserve(s));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && errno == EAGAIN)
            return;
        if (r <= 0) {
            stream_finish(s, rank);
            return;
        }
        s->len += (size_t)r;
        if (s->cut && s->buf[0] == '\n') { /* the line we cut ended right there: already ended */
            memmove(s->buf, s->buf + 1, --s->len);
        }
        s->cut = false;
        flush_lines(s, rank);
        if (!drain)
            return; /* one read per wake-up keeps ranks fair */
    }
}

void stream_finish(struct stream *s, int rank)
{
    if (s->len > 0 && !dest_broken[s->dest])
        emit(s, s->len, rank, cfg_end_partial);
    stream_close(s);
}
