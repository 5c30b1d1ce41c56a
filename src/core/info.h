/* Info objects: ordered lists of (key, value) strings that carry hints into calls that take them.
 * A user info is a pooled object whose address is the handle, like a communicator; MPI_INFO_ENV is one
 * static object filled at MPI_Init. Keys keep the order they were first set in (MPI_Info_get_nthkey numbers
 * them that way, as MPICH and Open MPI do); setting a key again replaces its value in place. */
#ifndef SKIFF_INFO_H
#define SKIFF_INFO_H

#include <stdint.h>

#include "mpi.h"

#define SKIFF_INFO_MAGIC 0x696e666fu

struct skiff_info_entry {
    char *key, *value;
};

struct skiff_info {
    uint32_t magic;  /* cleared when freed: the handle is refused from then on */
    int n, cap;
    struct skiff_info_entry *e;
};

/* NULL for MPI_INFO_NULL and anything that is not a live info (MPI_INFO_ENV is live after MPI_Init). */
struct skiff_info *skiff_info_get(MPI_Info h);
MPI_Info skiff_info_handle(struct skiff_info *in);
static inline int skiff_info_is_env(MPI_Info h)
{
    return h == MPI_INFO_ENV;
}

/* An empty info, or NULL when memory is out. */
struct skiff_info *skiff_info_new(void);
/* A copy of in (NULL: an empty one), or NULL when memory is out. */
struct skiff_info *skiff_info_dup(const struct skiff_info *in);
void skiff_info_free(struct skiff_info *in);

/* The value of key, or NULL. */
const char *skiff_info_lookup(const struct skiff_info *in, const char *key);
/* Adds key or replaces its value; -1 when memory is out (in is unchanged then). */
int skiff_info_set(struct skiff_info *in, const char *key, const char *value);
/* Removes key; -1 when it is not there. */
int skiff_info_remove(struct skiff_info *in, const char *key);

/* Adds the keys MPI_INFO_ENV has: command and argv from argc/argv when argv is not NULL, maxprocs when
 * it is > 0, host, arch, wdir, thread_level. (soft and file are never there: mpiexec has no such
 * options.) -1 when memory is out. */
int skiff_info_fill_env(struct skiff_info *in, int argc, char **argv, int thread_level, int maxprocs);
/* Fills MPI_INFO_ENV from the program's own command line (MPI_Init). */
void skiff_info_init_env(int thread_level, int maxprocs);
/* Empties MPI_INFO_ENV (MPI_Finalize). User infos outlive it: the standard lets a program make, read and
 * free infos before MPI_Init and after MPI_Finalize, so their pool stays for the life of the process. */
void skiff_info_finalize(void);

#endif
