#define _POSIX_C_SOURCE 200809L /* popen */
#include "heatmap.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

int m_heatmap(const char *png, const char *title, const char *cblabel, const double *m, int n)
{
    /* gnuplot chats about blank cells; whether the picture was written is what counts */
    FILE *g = popen("gnuplot >/dev/null 2>&1", "w");
    if (!g) {
        fprintf(stderr, "heatmap: cannot run gnuplot (apt-get install gnuplot-nox)\n");
        return -1;
    }
    fprintf(g, "set terminal pngcairo size 800,700 noenhanced\nset output '%s'\n", png);
    fprintf(g, "set title '%s'\nset xlabel 'receiver rank'\nset ylabel 'sender rank'\nset cblabel '%s'\n", title,
            cblabel);
    fprintf(g, "set xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\nset size ratio -1\nset palette rgbformulae 33,13,10\n",
            n - 1, n - 1);
    if (n <= 32)
        fprintf(g, "set xtics 1\nset ytics 1\n");
    fprintf(g, "set datafile missing 'nan'\nplot '-' matrix with image notitle\n");
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            fprintf(g, isnan(m[i * n + j]) ? "nan " : "%g ", m[i * n + j]);
        fprintf(g, "\n");
    }
    fprintf(g, "e\n");
    int rc = pclose(g);
    if (rc != 0 || access(png, R_OK) != 0) {
        fprintf(stderr, "heatmap: gnuplot failed to write %s (exit %d)\n", png, rc);
        return -1;
    }
    return 0;
}
