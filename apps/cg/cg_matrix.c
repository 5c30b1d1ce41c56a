/* The matrix: generated Poisson problems and Matrix Market files, each rank keeping only its row block. */
#include "cg.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Triplets of the rank's rows, collected before they become CSR. */
struct cg_coo {
    int *row, *col;
    double *val;
    size_t n, cap;
};

static void *xalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "skiff-cg: out of memory (%zu x %zu bytes)\n", n, size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

static void coo_add(struct cg_coo *c, int row, int col, double v)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 1024;
        c->row = realloc(c->row, c->cap * sizeof *c->row);
        c->col = realloc(c->col, c->cap * sizeof *c->col);
        c->val = realloc(c->val, c->cap * sizeof *c->val);
        if (!c->row || !c->col || !c->val) {
            fprintf(stderr, "skiff-cg: out of memory for %zu matrix entries\n", c->cap);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    c->row[c->n] = row;
    c->col[c->n] = col;
    c->val[c->n] = v;
    c->n++;
}

void cg_block(long n, int nparts, int part, int *r0, int *nloc)
{
    long base = n / nparts, rem = n % nparts;
    *r0 = (int)(part * base + (part < rem ? part : rem));
    *nloc = (int)(base + (part < rem ? 1 : 0));
}

/* CSR of the triplets (rows relative to r0), order within a row kept; sums the global count. */
static void coo_to_csr(struct cg_coo *c, struct cg_matrix *a, MPI_Comm comm)
{
    a->rowptr = xalloc((size_t)a->nloc + 1, sizeof *a->rowptr);
    a->col = xalloc(c->n, sizeof *a->col);
    a->val = xalloc(c->n, sizeof *a->val);
    for (size_t k = 0; k < c->n; k++)
        a->rowptr[c->row[k] + 1]++;
    for (int i = 0; i < a->nloc; i++)
        a->rowptr[i + 1] += a->rowptr[i];
    int *fill = xalloc((size_t)a->nloc + 1, sizeof *fill);
    memcpy(fill, a->rowptr, ((size_t)a->nloc + 1) * sizeof *fill);
    for (size_t k = 0; k < c->n; k++) {
        int at = fill[c->row[k]]++;
        a->col[at] = c->col[k];
        a->val[at] = c->val[k];
    }
    free(fill);
    long long mine = (long long)c->n, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, comm);
    a->nnz_global = (long)all;
    free(c->row);
    free(c->col);
    free(c->val);
}

/* Dirichlet Poisson stencils: the diagonal is the number of neighbours a point has in the full stencil,
 * every neighbour inside the grid -1, so A is symmetric positive definite. */
int cg_generate(const struct cg_options *o, MPI_Comm comm, struct cg_matrix *a)
{
    int rank, np, dims = o->gen == CG_GEN_2D5 ? 2 : 3;
    long m = o->size, nz = dims == 2 ? 1 : m;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &np);
    a->n = m * m * nz;
    cg_block(a->n, np, rank, &a->r0, &a->nloc);
    struct cg_coo c = {0};
    double diag = o->gen == CG_GEN_2D5 ? 4 : o->gen == CG_GEN_3D7 ? 6 : 26;
    for (long g = a->r0; g < a->r0 + a->nloc; g++) {
        long x = g % m, y = (g / m) % m, z = g / (m * m);
        for (int dz = dims == 2 ? 0 : -1; dz <= (dims == 2 ? 0 : 1); dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int away = (dx != 0) + (dy != 0) + (dz != 0);
                    if (o->gen != CG_GEN_3D27 && away > 1)
                        continue;
                    long xx = x + dx, yy = y + dy, zz = z + dz;
                    if (xx < 0 || yy < 0 || zz < 0 || xx >= m || yy >= m || zz >= nz)
                        continue;
                    coo_add(&c, (int)(g - a->r0), (int)(xx + m * (yy + m * zz)), away ? -1.0 : diag);
                }
    }
    coo_to_csr(&c, a, comm);
    return 0;
}

/* ------------------------------------------------------------------ Matrix Market */

struct mm_reader {
    FILE *f;
    const char *path;
    long line;
    char buf[4096];
    char err[512];
};

static int mm_fail(struct mm_reader *r, const char *fmt, ...)
{
    int n = snprintf(r->err, sizeof r->err, "skiff-cg: %s:%ld: ", r->path, r->line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
    va_end(ap);
    return 1;
}

/* The next line that is not a comment or blank; 0 at end of file. */
static int mm_next(struct mm_reader *r, int comments_allowed)
{
    while (fgets(r->buf, sizeof r->buf, r->f)) {
        r->line++;
        const char *s = r->buf;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0' || (comments_allowed && *s == '%'))
            continue;
        return 1;
    }
    return 0;
}

static void lower(char *s)
{
    for (; *s; s++)
        *s = (char)tolower((unsigned char)*s);
}

/* The banner: %%MatrixMarket matrix coordinate real|integer general|symmetric (keywords any case). */
static int mm_banner(struct mm_reader *r, int *symmetric)
{
    char tag[64], object[64], format[64], field[64], sym[64];
    if (!fgets(r->buf, sizeof r->buf, r->f))
        return r->line = 1, mm_fail(r, "empty file, expected a %%%%MatrixMarket header");
    r->line = 1;
    if (sscanf(r->buf, "%63s %63s %63s %63s %63s", tag, object, format, field, sym) != 5 ||
        strcmp(tag, "%%MatrixMarket") != 0)
        return mm_fail(r, "not a Matrix Market file: the first line must be "
                          "'%%%%MatrixMarket matrix coordinate real general|symmetric'");
    lower(object), lower(format), lower(field), lower(sym);
    if (strcmp(object, "matrix") != 0)
        return mm_fail(r, "object '%s' is not supported (only 'matrix')", object);
    if (strcmp(format, "coordinate") != 0)
        return mm_fail(r, "format '%s' is not supported (only 'coordinate', the sparse format)", format);
    if (strcmp(field, "real") != 0 && strcmp(field, "integer") != 0)
        return mm_fail(r, "field '%s' is not supported (only 'real' or 'integer')", field);
    if (strcmp(sym, "general") != 0 && strcmp(sym, "symmetric") != 0)
        return mm_fail(r, "symmetry '%s' is not supported (only 'general' or 'symmetric')", sym);
    *symmetric = strcmp(sym, "symmetric") == 0;
    return 0;
}

static int mm_entries(struct mm_reader *r, struct cg_matrix *a, long nnz, int symmetric, struct cg_coo *c)
{
    for (long k = 0; k < nnz; k++) {
        long i, j;
        double v;
        char extra;
        if (!mm_next(r, 1))
            return mm_fail(r, "file ends after %ld of the %ld entries the size line announced", k, nnz);
        if (sscanf(r->buf, "%ld %ld %lf %c", &i, &j, &v, &extra) != 3)
            return mm_fail(r, "expected an entry 'row column value', got '%.60s'", strtok(r->buf, "\n"));
        if (i < 1 || j < 1 || i > a->n || j > a->n)
            return mm_fail(r, "entry (%ld, %ld) is outside the %ld x %ld matrix (indices are 1-based)", i, j,
                           a->n, a->n);
        if (symmetric && j > i)
            return mm_fail(r, "entry (%ld, %ld) is above the diagonal; a symmetric file stores only the "
                              "lower triangle", i, j);
        i--, j--;
        if (i >= a->r0 && i < a->r0 + a->nloc)
            coo_add(c, (int)(i - a->r0), (int)j, v);
        if (symmetric && i != j && j >= a->r0 && j < a->r0 + a->nloc)
            coo_add(c, (int)(j - a->r0), (int)i, v);
    }
    if (mm_next(r, 1))
        return mm_fail(r, "more entries than the %ld the size line announced", nnz);
    return 0;
}

static int mm_read(struct mm_reader *r, MPI_Comm comm, struct cg_matrix *a, struct cg_coo *c)
{
    int symmetric = 0, rank, np;
    long rows, cols, nnz;
    char extra;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &np);
    if (mm_banner(r, &symmetric))
        return 1;
    if (!mm_next(r, 1))
        return mm_fail(r, "no size line 'rows columns entries' after the header");
    if (sscanf(r->buf, "%ld %ld %ld %c", &rows, &cols, &nnz, &extra) != 3 || rows < 1 || cols < 1 || nnz < 0)
        return mm_fail(r, "bad size line, expected 'rows columns entries'");
    if (rows != cols)
        return mm_fail(r, "the matrix is %ld x %ld; CG needs a square matrix", rows, cols);
    if (rows > 2000000000L)
        return mm_fail(r, "%ld rows are more than this solver's int indices hold", rows);
    a->n = rows;
    cg_block(a->n, np, rank, &a->r0, &a->nloc);
    return mm_entries(r, a, nnz, symmetric, c);
}

/* Every rank reads the whole file and keeps its rows (and, for a symmetric file, the mirrored entries
 * that land in them): simple, and the files this is for are small. */
int cg_read_mtx(const char *path, MPI_Comm comm, struct cg_matrix *a)
{
    struct mm_reader r = {.path = path};
    struct cg_coo c = {0};
    int rank, np, bad = 0, first = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &np);
    r.f = fopen(path, "r");
    if (!r.f) {
        snprintf(r.err, sizeof r.err, "skiff-cg: cannot open '%s': %s", path, strerror(errno));
        bad = 1;
    } else {
        bad = mm_read(&r, comm, a, &c);
        fclose(r.f);
    }
    /* Every rank reads the same file, so they fail alike; the lowest failing rank speaks. */
    int me = bad ? rank : np;
    MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first < np) {
        if (rank == first)
            fprintf(stderr, "%s\n", r.err);
        free(c.row), free(c.col), free(c.val);
        return 1;
    }
    coo_to_csr(&c, a, comm);
    return 0;
}

/* The whole matrix (one rank holding every row), 1-based, the lower triangle only when symmetric. */
int cg_write_mtx(const char *path, const struct cg_matrix *a, int general)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "skiff-cg: cannot write '%s': %s\n", path, strerror(errno));
        return 1;
    }
    long count = 0;
    for (int i = 0; i < a->nloc; i++)
        for (int k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            count += general || a->col[k] <= i;
    fprintf(f, "%%%%MatrixMarket matrix coordinate real %s\n", general ? "general" : "symmetric");
    fprintf(f, "%% written by skiff-cg --write-mtx\n%ld %ld %ld\n", a->n, a->n, count);
    for (int i = 0; i < a->nloc; i++)
        for (int k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            if (general || a->col[k] <= i)
                fprintf(f, "%d %d %.17g\n", i + 1, a->col[k] + 1, a->val[k]);
    return fclose(f) != 0;
}

void cg_matrix_free(struct cg_matrix *a)
{
    free(a->rowptr);
    free(a->col);
    free(a->val);
    memset(a, 0, sizeof *a);
}
