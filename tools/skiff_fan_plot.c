/* skiff-fan's chart. m_plot draws one column per file, so the measured median and the model each go to a
 * temporary two-column file that lives only while gnuplot reads it. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "skiff_fan.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Writes "P value" lines to a new temporary file; its name goes to path. Returns 0 or -1. */
static int write_column(char *path, const struct fan_point *pts, int n, int model)
{
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        perror("skiff-fan: temporary plot data");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    for (int i = 0; i < n; i++)
        fprintf(f, "%d %.4f\n", pts[i].P, (model ? pts[i].model : pts[i].rtt.median) * 1e6);
    return fclose(f) == 0 ? 0 : -1;
}

/* The temporary directory from the environment, as every other tool reads it. */
static const char *tmpdir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

int fan_plot(const struct fan_opts *o, const struct fan_point *pts, int n)
{
    char measured[4096], model[4096];
    snprintf(measured, sizeof measured, "%s/skiff-fan-measured.XXXXXX", tmpdir());
    snprintf(model, sizeof model, "%s/skiff-fan-model.XXXXXX", tmpdir());
    int rc = -1;
    if (write_column(measured, pts, n, 0) == 0) {
        if (write_column(model, pts, n, 1) == 0) {
            const char *files[] = {measured, model};
            const char *labels[] = {"measured (median)", "LogP model 4o+2L+(P-1)max(g,o)"};
            rc = m_plot(o->plot, "skiff-fan: fan-out/fan-in round trip", "P (ranks taking part)",
                        "round trip (us)", files, labels, 2, 1, 2, 0, 0);
            unlink(model);
        }
        unlink(measured);
    }
    return rc;
}
