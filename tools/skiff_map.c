/* skiff-map: NodeMap for an MPI job. Finds which ranks share a node (the library's own node
 * discovery, through MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)), where each rank is bound and what
 * each node is made of (hwloc: packages, NUMA nodes, cores, caches), measures the latency and
 * bandwidth of every pair of ranks one pair at a time, and groups the pairs into classes of
 * equivalent ones (regular structure), naming what the pairs of each class have in common.
 *
 * Output: a summary on stdout, a machine-readable map (JSON) and heat-map pictures. */
#include <hwloc.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heatmap.h"
#include "measure.h"

enum { TAG_PING = 11, LAT_BYTES = 8 };

struct opts {
    size_t bw_bytes;
    double target;   /* seconds per measurement */
    const char *json, *plot;
    int quiet;
};

/* Where one rank is, as gathered on rank 0. */
struct place {
    int node;      /* lowest world rank of its node: the same number on every member */
    int package;   /* -1: not bound within one */
    int numa;
    int core;
    int npus;      /* PUs in its binding */
    char host[MPI_MAX_PROCESSOR_NAME];
};

/* A node's make-up, described by its first rank. */
struct node_desc {
    int packages, numa, cores, pus;
    unsigned long cache[4]; /* bytes of one L1d, L2, L3 (0: none) */
};

static void usage(FILE *f)
{
    fputs("usage: mpiexec -n N skiff-map [--quick] [--bw-bytes B] [-o FILE.json] [--plot PREFIX] [-q]\n"
          "Finds which ranks share a node and how each node is built (hwloc), measures the latency (8 B\n"
          "ping-pong) and bandwidth (ping-pong of --bw-bytes, default 1 MiB) of every pair of ranks, one\n"
          "pair at a time, and groups the pairs into classes of equivalent ones.\n"
          "  -o FILE     machine-readable map (default skiff-map.json)\n"
          "  --plot P    heat maps P-latency.png and P-bandwidth.png\n"
          "  --quick     short measurements\n",
          f);
}

static int parse(int argc, char **argv, struct opts *o)
{
    *o = (struct opts){1 << 20, 0.05, "skiff-map.json", NULL, 0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            o->target = 0.005;
        else if (!strcmp(argv[i], "-q"))
            o->quiet = 1;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            o->json = argv[++i];
        else if (!strcmp(argv[i], "--plot") && i + 1 < argc)
            o->plot = argv[++i];
        else if (!strcmp(argv[i], "--bw-bytes") && i + 1 < argc)
            o->bw_bytes = (size_t)strtoull(argv[++i], NULL, 10);
        else
            return argv[i][0] == '-' && strcmp(argv[i], "-h") && strcmp(argv[i], "--help") ? -1 : 1;
    }
    return o->bw_bytes >= 1 ? 0 : -1;
}

/* ---- where am I --------------------------------------------------------------------------------- */

static int index_covering(hwloc_topology_t t, hwloc_const_cpuset_t set, hwloc_obj_type_t type)
{
    hwloc_obj_t o = hwloc_get_obj_covering_cpuset(t, set);
    while (o && o->type != type)
        o = o->parent;
    return o ? (int)o->logical_index : -1;
}

static void locate(hwloc_topology_t t, struct place *p)
{
    hwloc_cpuset_t set = hwloc_bitmap_alloc();
    p->package = p->numa = p->core = -1;
    /* Bound to more than one core is as good as unbound here: the kernel moves the rank around. */
    if (hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS) == 0 && !hwloc_bitmap_iszero(set) &&
        hwloc_get_nbobjs_inside_cpuset_by_type(t, set, HWLOC_OBJ_CORE) <= 1) {
        p->npus = hwloc_bitmap_weight(set);
        p->package = index_covering(t, set, HWLOC_OBJ_PACKAGE);
        p->core = index_covering(t, set, HWLOC_OBJ_CORE);
        /* NUMA nodes hang beside the CPU tree in hwloc 2: the node(s) local to the set. */
        hwloc_obj_t n = hwloc_get_next_obj_covering_cpuset_by_type(t, set, HWLOC_OBJ_NUMANODE, NULL);
        p->numa = n ? (int)n->logical_index : -1;
    }
    hwloc_bitmap_free(set);
}

static void describe(hwloc_topology_t t, struct node_desc *d)
{
    memset(d, 0, sizeof *d);
    d->packages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
    d->numa = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
    d->cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
    d->pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    hwloc_obj_type_t caches[4] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE};
    for (int l = 1; l <= 3; l++) {
        hwloc_obj_t c = hwloc_get_obj_by_type(t, caches[l], 0);
        d->cache[l] = c && c->attr ? (unsigned long)c->attr->cache.size : 0;
    }
}

/* ---- measuring one pair ------------------------------------------------------------------------ */

static double pingpong(int me, int peer, char *buf, int bytes, long reps)
{
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++) {
        if (me < peer) {
            MPI_Send(buf, bytes, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, bytes, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * (double)reps); /* one way */
}

/* Median one-way time of 5 trials, the repeat count chosen by the lower rank and shared. */
static double measure(int me, int peer, char *buf, int bytes, double target)
{
    long reps = 4;
    double t = pingpong(me, peer, buf, bytes, reps) * 2.0 * (double)reps;
    reps = m_repeats_for(t, reps, target / 5, 2, 100000);
    long theirs = 0;
    MPI_Sendrecv(&reps, 1, MPI_LONG, peer, TAG_PING + 1, &theirs, 1, MPI_LONG, peer, TAG_PING + 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    /* Both proposed a count; the larger is the same number on both sides. */
    if (theirs > reps)
        reps = theirs;
    double trial[5];
    for (int k = 0; k < 5; k++)
        trial[k] = pingpong(me, peer, buf, bytes, reps);
    return m_stats_of(trial, 5).median;
}

/* Pairs run one at a time (a barrier between them) so no measurement shares a link or a core with
 * another; each rank fills the row of the pairs it led, and rank 0 sums the rows. */
static void matrices(int me, int n, const struct opts *o, double *lat, double *bw)
{
    char *buf = calloc(1, o->bw_bytes > LAT_BYTES ? o->bw_bytes : LAT_BYTES);
    double *mine = calloc((size_t)(2 * n * n), sizeof *mine);
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (me != i && me != j)
                continue;
            int peer = me == i ? j : i;
            double l = measure(me, peer, buf, LAT_BYTES, o->target);
            double t = measure(me, peer, buf, (int)o->bw_bytes, o->target);
            if (me == i) {
                mine[i * n + j] = mine[j * n + i] = l * 1e6;
                mine[n * n + i * n + j] = mine[n * n + j * n + i] = (double)o->bw_bytes / t / 1e9;
            }
        }
        if (me == 0 && !o->quiet && i + 1 < n)
            fprintf(stderr, "skiff-map: pairs of rank %d measured\n", i);
    }
    MPI_Reduce(mine, lat, n * n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(mine + n * n, bw, n * n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    for (int i = 0; me == 0 && i < n; i++)
        lat[i * n + i] = bw[i * n + i] = NAN;
    free(mine);
    free(buf);
}

/* ---- structure --------------------------------------------------------------------------------- */

static const char *relation(const struct place *a, const struct place *b)
{
    if (a->node != b->node)
        return "different nodes";
    if (a->package < 0 || b->package < 0)
        return "same node (unbound)";
    if (a->core >= 0 && a->core == b->core)
        return "same core";
    if (a->package != b->package)
        return "same node, different packages";
    if (a->numa >= 0 && a->numa != b->numa)
        return "same package, different NUMA nodes";
    return "same package";
}

struct pair {
    int i, j;
    double lat, bw;
};

static int by_lat(const void *a, const void *b)
{
    double x = ((const struct pair *)a)->lat, y = ((const struct pair *)b)->lat;
    return x < y ? -1 : x > y;
}

/* Pairs sorted by latency fall into classes wherever the next latency is more than 30% above the
 * previous one: a gap that size separates real levels of the hierarchy from measurement noise. */
static void classify(int n, const double *lat, const double *bw, const struct place *pl)
{
    int np = n * (n - 1) / 2, k = 0;
    if (np == 0)
        return;
    struct pair *p = malloc((size_t)np * sizeof *p);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            p[k++] = (struct pair){i, j, lat[i * n + j], bw[i * n + j]};
    qsort(p, (size_t)np, sizeof *p, by_lat);
    printf("\npair classes (latencies more than 30%% apart start a new class):\n");
    for (int a = 0, cls = 1; a < np; cls++) {
        int b = a + 1;
        while (b < np && p[b].lat <= p[b - 1].lat * 1.3)
            b++;
        const char *rel = relation(&pl[p[a].i], &pl[p[a].j]);
        int uniform = 1;
        double bws[4096];
        int nb = 0;
        for (int x = a; x < b; x++) {
            uniform &= strcmp(rel, relation(&pl[p[x].i], &pl[p[x].j])) == 0;
            if (nb < 4096)
                bws[nb++] = p[x].bw;
        }
        struct m_stats s = m_stats_of(bws, nb);
        printf("  class %d: %d pair(s), latency %.2f .. %.2f us, bandwidth median %.2f GB/s; %s%s\n", cls, b - a,
               p[a].lat, p[b - 1].lat, s.median, uniform ? "all " : "mixed, e.g. ", rel);
        a = b;
    }
    free(p);
}

/* ---- output ------------------------------------------------------------------------------------ */

static void write_matrix(FILE *f, const char *name, const double *m, int n)
{
    fprintf(f, "  \"%s\": [\n", name);
    for (int i = 0; i < n; i++) {
        fprintf(f, "    [");
        for (int j = 0; j < n; j++)
            fprintf(f, isnan(m[i * n + j]) ? "%snull" : "%s%.4g", j ? ", " : "", m[i * n + j]);
        fprintf(f, "]%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "  ]");
}

static int write_json(const char *path, int n, const struct place *pl, const struct node_desc *nd,
                      const double *lat, const double *bw, size_t bw_bytes)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "{\n  \"ranks\": %d,\n  \"bandwidth_bytes\": %zu,\n  \"places\": [\n", n, bw_bytes);
    for (int r = 0; r < n; r++)
        fprintf(f, "    {\"rank\": %d, \"host\": \"%s\", \"node\": %d, \"package\": %d, \"numa\": %d, \"core\": %d, "
                   "\"pus\": %d}%s\n",
                r, pl[r].host, pl[r].node, pl[r].package, pl[r].numa, pl[r].core, pl[r].npus, r + 1 < n ? "," : "");
    fprintf(f, "  ],\n  \"nodes\": [\n");
    int first = 1;
    for (int r = 0; r < n; r++) {
        if (pl[r].node != r)
            continue;
        const struct node_desc *d = &nd[r];
        fprintf(f, "%s    {\"node\": %d, \"host\": \"%s\", \"packages\": %d, \"numa_nodes\": %d, \"cores\": %d, "
                   "\"pus\": %d, \"l1d_bytes\": %lu, \"l2_bytes\": %lu, \"l3_bytes\": %lu}",
                first ? "" : ",\n", r, pl[r].host, d->packages, d->numa, d->cores, d->pus, d->cache[1], d->cache[2],
                d->cache[3]);
        first = 0;
    }
    fprintf(f, "\n  ],\n");
    write_matrix(f, "latency_us", lat, n);
    fprintf(f, ",\n");
    write_matrix(f, "bandwidth_GBps", bw, n);
    fprintf(f, "\n}\n");
    return fclose(f);
}

static void print_summary(int n, const struct place *pl, const struct node_desc *nd)
{
    int nodes = 0;
    for (int r = 0; r < n; r++)
        nodes += pl[r].node == r;
    printf("skiff-map: %d ranks on %d node(s)\n", n, nodes);
    for (int r = 0; r < n; r++) {
        if (pl[r].node != r)
            continue;
        const struct node_desc *d = &nd[r];
        char l3[32];
        printf("  node %d (%s): %d package(s), %d NUMA node(s), %d cores, %d PUs, L3 %s; ranks", r, pl[r].host,
               d->packages, d->numa, d->cores, d->pus, d->cache[3] ? m_bytes(d->cache[3], l3, sizeof l3) : "none");
        for (int q = 0; q < n; q++)
            if (pl[q].node == r)
                printf(" %d%s", q, pl[q].core >= 0 ? "" : "(unbound)");
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    struct opts o;
    int rc = parse(argc, argv, &o);
    if (rc) {
        usage(rc < 0 ? stderr : stdout);
        return rc < 0 ? 2 : 0;
    }
    MPI_Init(&argc, &argv);
    int me, n, nlen;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
    struct place mine = {0};
    struct node_desc desc;
    hwloc_topology_t topo;
    hwloc_topology_init(&topo);
    hwloc_topology_load(topo);
    locate(topo, &mine);
    describe(topo, &desc);
    hwloc_topology_destroy(topo);
    MPI_Allreduce(&me, &mine.node, 1, MPI_INT, MPI_MIN, node); /* the node's lowest world rank */
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(name, &nlen);
    snprintf(mine.host, sizeof mine.host, "%s", name);
    struct place *pl = calloc((size_t)n, sizeof *pl);
    struct node_desc *nd = calloc((size_t)n, sizeof *nd);
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, pl, (int)sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Gather(&desc, (int)sizeof desc, MPI_BYTE, nd, (int)sizeof desc, MPI_BYTE, 0, MPI_COMM_WORLD);
    double *lat = calloc((size_t)(n * n), sizeof *lat), *bw = calloc((size_t)(n * n), sizeof *bw);
    matrices(me, n, &o, lat, bw);
    int status = 0;
    if (me == 0) {
        print_summary(n, pl, nd);
        classify(n, lat, bw, pl);
        status |= write_json(o.json, n, pl, nd, lat, bw, o.bw_bytes) != 0;
        printf("\nmap written to %s\n", o.json);
        if (o.plot) {
            char png[1024];
            snprintf(png, sizeof png, "%s-latency.png", o.plot);
            status |= m_heatmap(png, "one-way latency of 8 B (us)", "us", lat, n) != 0;
            snprintf(png, sizeof png, "%s-bandwidth.png", o.plot);
            status |= m_heatmap(png, "ping-pong bandwidth (GB/s)", "GB/s", bw, n) != 0;
            printf("heat maps written to %s-latency.png and %s-bandwidth.png\n", o.plot, o.plot);
        }
    }
    free(lat);
    free(bw);
    free(pl);
    free(nd);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return status;
}
