/* Command line of skiff-cg. */
#include "cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *usage =
    "usage: mpiexec -n N skiff-cg [options]\n"
    "  (no options: CG on the 2-D 5-point Poisson problem of 100 x 100 points)\n"
    "Problem:\n"
    "  --mtx FILE           read a Matrix Market file (coordinate real|integer general|symmetric)\n"
    "  --gen KIND           generate: poisson2d (5-point), poisson3d (7-point), poisson3d27 (27-point)\n"
    "  --size M             grid points per dimension of the generated problem (default 100; 3-D: 30)\n"
    "  --write-mtx FILE     write the generated matrix to FILE and stop (np 1)\n"
    "  --general            with --write-mtx: store both triangles (default: symmetric, lower triangle)\n"
    "Solver:\n"
    "  --jacobi             Jacobi (diagonal) preconditioner\n"
    "  --tol T              stop when ||r||/||b|| < T (default 1e-8)\n"
    "  --maxit K            at most K iterations (default 10000)\n"
    "Parallel:\n"
    "  --exchange MODE      halo exchange: persist (default; persistent Send_init/Recv_init), p2p\n"
    "                       (Isend/Irecv), neighbor (Dist_graph + Neighbor_alltoallv), neighbor-init\n"
    "                       (Neighbor_alltoallv_init; MPI-4 libraries only)\n"
    "  --by-nodes           cut row blocks node by node, then core by core (Comm_split_type SHARED)\n"
    "  --check              also solve serially on rank 0 and compare iterations and solution;\n"
    "                       prints 'OK skiff-cg check' or 'FAIL ...' and exits nonzero on failure\n"
    "  -h, --help           this text\n"
    "b = A * (1, ..., 1), x0 = 0. Output fields: docs/cg.md.\n";

const char *cg_gen_name(enum cg_gen g)
{
    static const char *names[] = {"file", "poisson2d", "poisson3d", "poisson3d27"};
    return names[g];
}

const char *cg_exchange_name(enum cg_exchange e)
{
    static const char *names[] = {"p2p", "persist", "neighbor", "neighbor-init"};
    return names[e];
}

static int bad(int rank, const char *fmt, const char *arg)
{
    if (rank == 0) {
        fprintf(stderr, "skiff-cg: ");
        fprintf(stderr, fmt, arg);
        fprintf(stderr, "\n(skiff-cg --help lists the options)\n");
    }
    return 2;
}

static int number(const char *s, double lo, double hi, double *out)
{
    char *end;
    if (!s)
        return 1;
    *out = strtod(s, &end);
    return end == s || *end || !(*out >= lo && *out <= hi);
}

static int pick(const char *s, const char *const *names, int count)
{
    for (int i = 0; s && i < count; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static int parse_one(char **argv, int *i, struct cg_options *o, int rank)
{
    static const char *const gens[] = {"poisson2d", "poisson3d", "poisson3d27"};
    static const char *const modes[] = {"p2p", "persist", "neighbor", "neighbor-init"};
    const char *a = argv[*i], *v = argv[*i + 1];
    double d;
    int k;
    if (!strcmp(a, "--jacobi")) return o->jacobi = 1, 0;
    if (!strcmp(a, "--by-nodes")) return o->by_nodes = 1, 0;
    if (!strcmp(a, "--check")) return o->check = 1, 0;
    if (!strcmp(a, "--general")) return o->write_general = 1, 0;
    (*i)++;
    if (!strcmp(a, "--mtx") && v) return o->mtx = v, 0;
    if (!strcmp(a, "--write-mtx") && v) return o->write_mtx = v, 0;
    if (!strcmp(a, "--gen"))
        return (k = pick(v, gens, 3)) < 0 ? bad(rank, "--gen wants poisson2d, poisson3d or poisson3d27, not '%s'",
                                                v ? v : "") : (o->gen = (enum cg_gen)(k + 1), 0);
    if (!strcmp(a, "--exchange")) {
        if ((k = pick(v, modes, 4)) < 0)
            return bad(rank, "--exchange wants p2p, persist, neighbor or neighbor-init, not '%s'", v ? v : "");
#if MPI_VERSION < 4
        if (k == CG_EX_NEIGHBOR_INIT)
            return bad(rank, "--exchange %s needs an MPI-4 library (MPI_Neighbor_alltoallv_init)", v);
#endif
        return o->exchange = (enum cg_exchange)k, 0;
    }
    if (!strcmp(a, "--size"))
        return number(v, 2, 1e6, &d) ? bad(rank, "--size wants a number of points >= 2, not '%s'", v ? v : "")
                                     : (o->size = (int)d, 0);
    if (!strcmp(a, "--tol"))
        return number(v, 1e-300, 1, &d) ? bad(rank, "--tol wants a number in (0, 1], not '%s'", v ? v : "")
                                        : (o->tol = d, 0);
    if (!strcmp(a, "--maxit"))
        return number(v, 1, 2e9, &d) ? bad(rank, "--maxit wants a positive count, not '%s'", v ? v : "")
                                     : (o->maxit = (int)d, 0);
    return bad(rank, "unknown option or missing value: '%s'", a);
}

int cg_parse_options(int argc, char **argv, struct cg_options *o, int rank)
{
    *o = (struct cg_options){.exchange = CG_EX_PERSIST, .tol = 1e-8, .maxit = 10000};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            if (rank == 0)
                fputs(usage, stdout);
            return 1;
        }
        int rc = parse_one(argv, &i, o, rank);
        if (rc)
            return rc;
    }
    if (o->mtx && o->gen != CG_GEN_NONE)
        return bad(rank, "%s", "--mtx and --gen exclude each other");
    if (o->write_mtx && o->mtx)
        return bad(rank, "%s", "--write-mtx writes a generated problem; it does not go with --mtx");
    if (!o->mtx && o->gen == CG_GEN_NONE)
        o->gen = CG_GEN_2D5;
    if (!o->size)
        o->size = o->gen == CG_GEN_2D5 ? 100 : 30;
    return 0;
}
