/* CPU cost: the process's user and system time (getrusage(RUSAGE_SELF): every thread of the process,
 * so a library's progress thread counts too) and the wall time over the same span. Read around a run,
 * never inside its timed loop, so the modes' times are what they were without it. */
#define _POSIX_C_SOURCE 200809L /* getrusage */
#include "skiff_pipe.h"

#include "walltime.h"

#include <sys/resource.h>
#include <sys/time.h>

static double seconds_of(struct timeval t)
{
    return (double)t.tv_sec + 1e-6 * (double)t.tv_usec;
}

static void read_rusage(struct pipe_cpu *c)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) {
        c->user = c->sys = 0;
        return;
    }
    c->user = seconds_of(ru.ru_utime);
    c->sys = seconds_of(ru.ru_stime);
}

/* The wall clock is read outside the CPU clock at both ends, so the wall span holds the CPU span. */
void pipe_cpu_now(struct pipe_cpu *c)
{
    c->wall = m_walltime();
    read_rusage(c);
}

void pipe_cpu_since(struct pipe_cpu *c)
{
    struct pipe_cpu now;
    read_rusage(&now);
    now.wall = m_walltime();
    c->user = now.user - c->user;
    c->sys = now.sys - c->sys;
    c->wall = now.wall - c->wall;
}

void pipe_cpu_add(struct pipe_cpu *sum, const struct pipe_cpu *c)
{
    sum->user += c->user;
    sum->sys += c->sys;
    sum->wall += c->wall;
}
