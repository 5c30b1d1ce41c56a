/* Forwarding of rank output. Complete lines go out as they arrive, each with one write(), so lines
 * of different ranks never mix. A partial line (a prompt, progress dots) goes out once it has waited
 * PARTIAL_DELAY for its newline, or when the buffer is full; from then on the destination is "open"
 * on that stream's line, and the stream's further bytes continue it at once, untagged.
 *
 * The rule when another stream writes to an open destination (docs/launch.md): mpiexec first ends
 * the open line with a newline of its own; the interrupted stream then starts a new line (tagged
 * again), and a newline it sends right after is dropped, as it only ended what we already ended.
 * mpiexec's own messages do the same. With one untagged rank nothing is delayed or cut: the output
 * is what the program wrote, as on a terminal. stdout and stderr count as one destination when they
 * are the same file (2>&1, a terminal). */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpiexec.h"

/* A line longer than this is written in pieces rather than buffering without bound. */
#define MAX_LINE   (1u << 20)
#define READ_CHUNK 65536u
/* How long a partial line waits for its newline: long enough for a line written in pieces (an
 * unbuffered stderr) to come out whole, short enough that a prompt looks immediate. */
#define PARTIAL_DELAY 0.1

/* Set once writing to our stdout/stderr fails (reader gone): output for it is dropped. */
static bool dest_broken[3];

/* --tag-output, and whether partial lines wait and open lines are ended by other streams' output
 * and at EOF. Not with one untagged rank: nothing can mix. */
static bool cfg_tag, cfg_end_partial;

/* Per destination (1, 2): the stream whose partial line it currently ends with, or NULL at the start
 * of a line. When fd 1 and 2 are the same file, both use slot 1. */
static struct stream *open_line[3];
static bool same_file;

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

static struct stream **open_slot(int dest)
{
    return &open_line[dest == 2 && same_file ? 1 : dest];
}

/* Ends the line left open at dest's destination, marking its stream so that it starts afresh. */
static void end_open_line(int dest)
{
    struct stream **slot = open_slot(dest), *s = *slot;
    if (!s)
        return;
    write_all(s->dest, "\n", 1);
    s->cut = true;
    *slot = NULL;
}

void say(int fd, const char *fmt, ...)
{
    end_open_line(fd);
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
    struct stat a, b;
    same_file = fstat(1, &a) == 0 && fstat(2, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
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
    if (*open_slot(s->dest) == s)
        *open_slot(s->dest) = NULL;
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
    s->since = 0;
}

/* Writes buf[0..n) (whole lines, perhaps ending in a partial one) and removes it from the buffer.
 * Another stream's open line is ended first where ranks could mix. */
static void emit(struct stream *s, size_t n, int rank)
{
    struct stream **slot = open_slot(s->dest);
    if (*slot && *slot != s && cfg_end_partial)
        end_open_line(s->dest);
    bool midline = *slot == s;
    const char *out = s->buf;
    size_t o = n;
    if (cfg_tag) {
        /* Worst case every byte is a newline and each line gets a prefix. */
        char prefix[16];
        int plen = snprintf(prefix, sizeof prefix, "[%d] ", rank);
        size_t need = n + ((size_t)plen) * (n + 1);
        if (need > scratch_cap) {
            scratch = xrealloc(scratch, need);
            scratch_cap = need;
        }
        o = 0;
        for (size_t i = 0; i < n;) {
            const char *nl = memchr(s->buf + i, '\n', n - i);
            size_t end = nl ? (size_t)(nl - s->buf) + 1 : n;
            if (!midline) {
                memcpy(scratch + o, prefix, (size_t)plen);
                o += (size_t)plen;
            }
            memcpy(scratch + o, s->buf + i, end - i);
            o += end - i;
            midline = !nl;
            i = end;
        }
        out = scratch;
    }
    write_all(s->dest, out, o);
    *slot = s->buf[n - 1] == '\n' ? NULL : s;
    memmove(s->buf, s->buf + n, s->len - n);
    s->len -= n;
    s->since = 0;
}

/* Writes out every complete line, and the partial rest when it may go: it continues this stream's
 * open line, it has waited long enough (due), the buffer is full, or nothing can mix. */
static void forward(struct stream *s, int rank, bool due)
{
    char *last = memrchr(s->buf, '\n', s->len);
    if (last)
        emit(s, (size_t)(last - s->buf) + 1, rank);
    if (s->len == 0)
        return;
    if (!cfg_end_partial || due || s->len >= MAX_LINE || *open_slot(s->dest) == s)
        emit(s, s->len, rank);
    else if (!s->since)
        s->since = clock_now();
}

double stream_due(const struct stream *s)
{
    return s->since ? s->since + PARTIAL_DELAY : 0;
}

void stream_flush_partial(struct stream *s, int rank)
{
    if (s->len > 0 && !dest_broken[s->dest])
        forward(s, rank, true);
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
        size_t old = s->len;
        s->len += (size_t)r;
        if (s->cut && s->buf[old] == '\n') /* the line we ended ended right there: already ended */
            memmove(s->buf + old, s->buf + old + 1, --s->len - old);
        s->cut = false;
        forward(s, rank, false);
        if (!drain)
            return; /* one read per wake-up keeps ranks fair */
    }
}

void stream_finish(struct stream *s, int rank)
{
    if (s->len > 0 && !dest_broken[s->dest])
        emit(s, s->len, rank);
    /* An unterminated last line ends here, so that the next rank's output starts a line of its own. */
    if (*open_slot(s->dest) == s && cfg_end_partial)
        end_open_line(s->dest);
    stream_close(s);
}
