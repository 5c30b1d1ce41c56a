/* --memcpy: the floor under every shared-memory transport, one process, no MPI. Throughput counts the
 * bytes copied once (not read plus written), like a message's payload. */
#include "skiff_pipe.h"

#include "walltime.h"

#include <string.h>

struct memcpy_ctx {
    struct pipe_buf src, dst;
    volatile unsigned char sink; /* one read of the result, so no copy can be optimised away */
};

/* Nobody to agree with: the leader is alone. */
static void memcpy_agree(void *ctx, struct pipe_job *job)
{
    (void)ctx;
    (void)job;
}

static struct pipe_result memcpy_run(void *ctx, const struct pipe_job *job)
{
    struct memcpy_ctx *c = ctx;
    size_t bytes = (size_t)job->bytes;
    unsigned char *d = NULL;
    struct pipe_result res = {0};
    pipe_cpu_now(&res.cpu[0]);
    double t0 = m_walltime();
    for (long long i = 0; i < job->reps; i++) {
        d = pipe_buf_next(&c->dst, bytes);
        memcpy(d, pipe_buf_next(&c->src, bytes), bytes);
    }
    res.seconds = res.mean_seconds = m_walltime() - t0;
    pipe_cpu_since(&res.cpu[0]);
    if (d)
        c->sink = d[bytes - 1];
    return res;
}

int pipe_memcpy_main(const struct pipe_opts *o)
{
    struct memcpy_ctx c;
    size_t window = o->nocache ? pipe_window(o) : 0;
    int rc = 1;
    memset(&c, 0, sizeof c);
    if (pipe_buf_init(&c.src, o->end, o->soffset, window, 1) == 0 &&
        pipe_buf_init(&c.dst, o->end, o->roffset, window, 1) == 0) {
        struct pipe_link l = {.ctx = &c, .leader = 1, .agree = memcpy_agree, .run = memcpy_run, .legs = 1, .dirs = 1};
        rc = pipe_measure(&l, o, "memcpy");
    }
    pipe_buf_free(&c.src);
    pipe_buf_free(&c.dst);
    return rc;
}
