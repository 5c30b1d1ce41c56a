/* bad_input driver: see bad_input.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bad_input.h"

static const struct {
    const char *name;
    const struct bad_case *rows;
} tables[] = {
    {"p2p", bad_p2p}, {"coll", bad_coll}, {"comm", bad_comm}, {"dtype", bad_dtype}, {"misc", bad_misc},
    {"topo", bad_topo}, {"req", bad_req}, {"large", bad_large}, {"rma", bad_rma},
};
#define NTABLES (sizeof tables / sizeof tables[0])

MPI_Comm bad_freed_comm(void)
{
    MPI_Comm c = MPI_COMM_NULL, stale;
    MPI_Comm_dup(MPI_COMM_SELF, &c);
    stale = c;
    MPI_Comm_free(&c);
    return stale;
}

MPI_Group bad_freed_group(void)
{
    MPI_Group g = MPI_GROUP_NULL, stale;
    int r0 = 0;
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &r0, &g);
    MPI_Group_free(&world);
    stale = g;
    MPI_Group_free(&g);
    return stale;
}

MPI_Datatype bad_uncommitted_type(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Type_vector(2, 1, 3, MPI_INT, &t);
    return t;
}

MPI_Datatype bad_freed_type(void)
{
    MPI_Datatype t = bad_uncommitted_type(), stale = t;
    MPI_Type_free(&t);
    return stale;
}

static void noop(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

MPI_Op bad_freed_op(void)
{
    MPI_Op op = MPI_OP_NULL, stale;
    MPI_Op_create(noop, 1, &op);
    stale = op;
    MPI_Op_free(&op);
    return stale;
}

static int failures;

static void failf(const struct bad_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failf(const struct bad_case *c, const char *fmt, ...)
{
    int rank = -1;
    va_list ap;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "FAIL [rank %d] %s (%s): ", rank, c->name, c->call);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    failures++;
}

/* Two kinds of rows keep other rules, told by their call:
 *   MPI_T_*    cls is the exact MPI_T_ERR_* code returned, want is NULL: the tools interface has no
 *              messages and calls no error handler, so the row runs under MPI_ERRORS_ARE_FATAL and
 *              must return all the same; --list leaves it out, as it has nothing to show under --fatal.
 *   MPI_Abort  never returns: the row runs only under --fatal. */
static int tool_row(const struct bad_case *c)
{
    return strncmp(c->call, "MPI_T_", 6) == 0;
}

static void check_tool_row(const struct bad_case *c, struct bad_ctx *x)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    int rc = c->run(x);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rc != c->cls)
        failf(c, "expected MPI_T code %d, got %d", c->cls, rc);
}

static void check_row(const struct bad_case *c, struct bad_ctx *x)
{
    if (tool_row(c)) {
        check_tool_row(c, x);
        return;
    }
    if (strcmp(c->call, "MPI_Abort") == 0)
        return;
    int rc = c->run(x), cls = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING] = "", head[160];
    if (rc == MPI_SUCCESS) {
        failf(c, "returned MPI_SUCCESS, expected error class %d", c->cls);
        return;
    }
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != c->cls) {
        failf(c, "expected error class %d, got class %d (code %d)", c->cls, cls, rc);
        return;
    }
    MPI_Error_string(rc, msg, &len);
    snprintf(head, sizeof head, "%s on rank %d: ", c->call, x->rank);
    if (strncmp(msg, head, strlen(head)) != 0)
        failf(c, "message \"%s\" does not start with \"%s\"", msg, head);
    else if (c->want && !strstr(msg, c->want))
        failf(c, "message \"%s\" does not contain \"%s\"", msg, c->want);
}

/* After all rows: the library must still move data (a ring exchange and a barrier). */
static void still_works(struct bad_ctx *x)
{
    int out = x->rank, in = -1, next = (x->rank + 1) % x->size, prev = (x->rank + x->size - 1) % x->size;
    if (MPI_Sendrecv(&out, 1, MPI_INT, next, 5, &in, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ||
        in != prev || MPI_Barrier(MPI_COMM_WORLD)) {
        fprintf(stderr, "FAIL [rank %d] communication broken after the bad calls (got %d from %d)\n", x->rank,
                in, prev);
        failures++;
    }
}

static const struct bad_case *find_row(const char *name)
{
    for (size_t t = 0; t < NTABLES; t++)
        for (const struct bad_case *c = tables[t].rows; c->name; c++)
            if (strcmp(c->name, name) == 0)
                return c;
    return NULL;
}

static int list_rows(const char *table)
{
    for (size_t t = 0; t < NTABLES; t++) {
        if (table && strcmp(table, tables[t].name) != 0)
            continue;
        for (const struct bad_case *c = tables[t].rows; c->name; c++)
            if (!tool_row(c))
                printf("%s\t%s\t%s\n", c->name, c->call, c->want ? c->want : "");
    }
    return 0;
}

static int run_all(struct bad_ctx *x, const char *table)
{
    int rows = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &x->comm); /* inherits MPI_ERRORS_RETURN */
    for (size_t t = 0; t < NTABLES; t++) {
        if (table && strcmp(table, tables[t].name) != 0)
            continue;
        for (const struct bad_case *c = tables[t].rows; c->name; c++, rows++)
            check_row(c, x);
    }
    MPI_Comm_free(&x->comm);
    still_works(x);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (x->rank == 0 && all == 0)
        printf("OK bad_input: %d rows, each returned its class and named the call, rank and value\n", rows);
    return all != 0;
}

static int run_fatal(struct bad_ctx *x, const char *name)
{
    const struct bad_case *c = find_row(name);
    if (!c) {
        fprintf(stderr, "bad_input: no row named '%s'\n", name);
        return 2;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &x->comm); /* inherits MPI_ERRORS_ARE_FATAL */
    int rc = c->run(x);
    printf("NOT-ABORTED: %s (%s) returned %d under MPI_ERRORS_ARE_FATAL\n", c->name, c->call, rc);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--list") == 0)
        return list_rows(argc > 2 ? argv[2] : NULL);
    MPI_Init(&argc, &argv);
    static struct bad_ctx x;
    x.self = MPI_COMM_SELF;
    x.req = MPI_REQUEST_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &x.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &x.size);
    int rc;
    if (argc > 2 && strcmp(argv[1], "--fatal") == 0)
        rc = run_fatal(&x, argv[2]);
    else
        rc = run_all(&x, argc > 1 ? argv[1] : NULL);
    MPI_Finalize();
    return rc;
}
