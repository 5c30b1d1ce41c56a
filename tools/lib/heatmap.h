/* A heat-map picture of an n x n matrix (gnuplot 'with image'), for pairwise measurements. */
#ifndef SKIFF_TOOLS_HEATMAP_H
#define SKIFF_TOOLS_HEATMAP_H

/* Writes m (row-major, n x n; NaN cells are left blank) to png with the given title and colour-bar
 * label. Returns 0, or -1 with a message on stderr. */
int m_heatmap(const char *png, const char *title, const char *cblabel, const double *m, int n);

#endif
