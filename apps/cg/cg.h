/* skiff-cg: conjugate gradient (plain or Jacobi-preconditioned) on a sparse matrix distributed in row
 * blocks. MPI-only C11, so the same source builds with skiff, MPICH and Open MPI. docs/cg.md. */
#ifndef SKIFF_CG_H
#define SKIFF_CG_H

#include <mpi.h>

enum cg_gen { CG_GEN_NONE, CG_GEN_2D5, CG_GEN_3D7, CG_GEN_3D27 };
enum cg_exchange { CG_EX_P2P, CG_EX_PERSIST, CG_EX_NEIGHBOR, CG_EX_NEIGHBOR_INIT };
enum cg_time { CG_T_SPMV, CG_T_HALO, CG_T_REDUCE, CG_T_UPDATE, CG_T_COUNT };

struct cg_options {
    const char *mtx;       /* Matrix Market input, or NULL for a generated problem */
    enum cg_gen gen;
    int size;              /* grid points per dimension of the generated problem */
    enum cg_exchange exchange;
    int jacobi;
    int by_nodes;          /* order ranks node by node before cutting row blocks */
    double tol;
    int maxit;
    int check;             /* also solve serially on rank 0 and compare */
    const char *write_mtx; /* write the generated matrix and stop */
    int write_general;
};

/* The rows [r0, r0 + nloc) of an n x n matrix in CSR. Columns are global indices until
 * cg_halo_setup renumbers them: local rows first, then ghosts in the halo's receive order. */
struct cg_matrix {
    long n;
    long nnz_global;
    int r0, nloc;
    int *rowptr, *col;
    double *val;
};

struct cg_halo {
    MPI_Comm comm;
    enum cg_exchange mode;
    int nloc, nghost;
    int nsrc, ndst;           /* ranks this one receives from / sends to */
    int *src, *rcount, *rdispl;
    int *dst, *scount, *sdispl;
    int *sendidx;             /* local rows to pack, sdispl-ordered */
    double *sendbuf;
    double *x;                /* the exchanged vector: nloc owned values, then nghost ghosts */
    MPI_Request *reqs;        /* persistent: nsrc receives then ndst sends; or one neighbourhood request */
    int nreqs;
    MPI_Comm graph;
    long long bytes_sent;     /* per exchange */
};

struct cg_result {
    int iterations, converged;
    int breakdown; /* p.Ap <= 0: A is not positive definite */
    double true_residual;
    double t[CG_T_COUNT], t_solve;
};

/* cg_options.c */
int cg_parse_options(int argc, char **argv, struct cg_options *o, int rank); /* 0 ok, 1 exit ok, 2 error */
const char *cg_gen_name(enum cg_gen g);
const char *cg_exchange_name(enum cg_exchange e);

/* cg_matrix.c: each returns 0, or prints (rank 0 of comm) a message and returns nonzero on every rank */
void cg_block(long n, int nparts, int part, int *r0, int *nloc);
int cg_generate(const struct cg_options *o, MPI_Comm comm, struct cg_matrix *a);
int cg_read_mtx(const char *path, MPI_Comm comm, struct cg_matrix *a);
int cg_write_mtx(const char *path, const struct cg_matrix *a, int general);
void cg_matrix_free(struct cg_matrix *a);

/* cg_halo.c */
int cg_halo_setup(struct cg_halo *h, struct cg_matrix *a, MPI_Comm comm, enum cg_exchange mode);
void cg_halo_exchange(struct cg_halo *h);
void cg_halo_free(struct cg_halo *h);

/* cg_solve.c */
void cg_spmv(const struct cg_matrix *a, const double *x, double *y);
int cg_solve(struct cg_matrix *a, struct cg_halo *h, const struct cg_options *o, const double *b, double *x,
             struct cg_result *res);

#endif
