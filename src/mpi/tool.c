/* The MPI tools interface: start-up and control variables. Every SKIFF_* setting is a read-only string
 * control variable, so skiff-info (and any MPI_T tool) lists them with their current values.
 * After the settings come a few facts the library finds out about this host (lower-case names),
 * such as the networks the tcp transport would offer. Performance variables, categories and events
 * are in tool_pvar.c, tool_category.c and tool_event.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_impl.h"
#include "mpi/tool.h"
#include "core/core.h"
#include "core/objpool.h"
#include "util/config.h"

#define CVAR_VALUE_MAX 512
#define CVAR_HANDLE_MAGIC 0x63766172u /* "cvar"; cleared when the handle is freed */

static int t_inits; /* MPI_T_init_thread minus MPI_T_finalize calls */

/* Handles live in a pool (core/objpool.h), so a stale one is still readable and refused by its cleared
 * magic. MPI_T outlives MPI_Init/MPI_Finalize and may start again after its last MPI_T_finalize, so the
 * pool is never destroyed: a handle from an earlier session must stay readable. The last MPI_T_finalize
 * releases the handles still allocated, so the pool holds no more than the most ever live at once.
 * MPI_T calls return their code and call no error handler. */
struct MPI_T_cvar_handle_t {
    unsigned magic;
    int index;
};

static struct skiff_objpool handles = SKIFF_OBJPOOL_INIT(struct MPI_T_cvar_handle_t);

static int live_handle(MPI_T_cvar_handle h)
{
    return h && h->magic == CVAR_HANDLE_MAGIC;
}

struct fact {
    const char *name, *help;
    void (*read)(char *out, size_t len);
};

static const struct fact facts[] = {
    {"skiff_transports", "transports this machine offers, and why one is held back", skiff_core_transports},
    {"skiff_tcp_networks", "IPv4 networks this host offers to tcp peers under the SKIFF_TCP_NETS in force "
                           "(ip/prefix(interface)); each network two ranks share becomes one rail", skiff_core_tcp_networks},
};
#define NFACTS ((int)(sizeof facts / sizeof facts[0]))

static int nsettings(void)
{
    int n = 0;
    while (skiff_config_table[n].name)
        n++;
    return n;
}

static int ncvars(void)
{
    return nsettings() + NFACTS;
}

static void row_at(int i, const char **name, const char **help)
{
    int ns = nsettings();
    *name = i < ns ? skiff_config_table[i].name : facts[i - ns].name;
    *help = i < ns ? skiff_config_table[i].help : facts[i - ns].help;
}

/* The first checks of the calls that take an index. */
static int check_index(int cvar_index)
{
    if (t_inits <= 0)
        return MPI_T_ERR_NOT_INITIALIZED;
    return cvar_index < 0 || cvar_index >= ncvars() ? MPI_T_ERR_INVALID_INDEX : MPI_SUCCESS;
}

/* The checks of the calls that take a handle and a value buffer. */
static int check_handle(MPI_T_cvar_handle h, const void *buf)
{
    if (t_inits <= 0)
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!live_handle(h))
        return MPI_T_ERR_INVALID_HANDLE;
    return buf ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

int skiff_t_active(void)
{
    return t_inits > 0;
}

int skiff_t_ncvars(void)
{
    return ncvars();
}

/* Categories 0 and 1 (tool_category.c): the settings, then the facts about this host. */
int skiff_t_cvar_category(int cvar_index)
{
    return cvar_index < nsettings() ? 0 : 1;
}

void skiff_t_copy_out(char *dst, int *len, const char *src)
{
    if (!len)
        return;
    if (dst && *len > 0) {
        snprintf(dst, (size_t)*len, "%s", src);
        *len = (int)strlen(dst) + 1;
    } else {
        *len = (int)strlen(src) + 1;
    }
}

int PMPI_T_init_thread(int required, int *provided)
{
    SKIFF_MT_GUARD();
    if (!provided || (required != MPI_THREAD_SINGLE && required != MPI_THREAD_FUNNELED &&
                      required != MPI_THREAD_SERIALIZED && required != MPI_THREAD_MULTIPLE))
        return MPI_T_ERR_INVALID;
    *provided = required;
    if (*provided == MPI_THREAD_MULTIPLE && !skiff_mt_on)
        skiff_mt_enable(); /* the tools' calls may then run beside any other call */
    t_inits++;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_init_thread)

static void release_handle(void *h)
{
    skiff_objpool_put(&handles, h);
}

int PMPI_T_finalize(void)
{
    SKIFF_MT_GUARD();
    if (t_inits <= 0)
        return MPI_T_ERR_NOT_INITIALIZED;
    if (--t_inits == 0) {
        skiff_objpool_foreach(&handles, release_handle);
        skiff_t_pvar_release_all();
    }
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_finalize)

int PMPI_T_cvar_get_num(int *num_cvar)
{
    SKIFF_MT_GUARD();
    if (t_inits <= 0)
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!num_cvar)
        return MPI_T_ERR_INVALID;
    *num_cvar = ncvars();
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_cvar_get_num)

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    SKIFF_MT_GUARD();
    int rc = check_index(cvar_index);
    if (rc)
        return rc;
    const char *n, *h;
    char text[640];
    row_at(cvar_index, &n, &h);
    /* A setting's description ends with its default, so tools can show both without a side table. */
    if (cvar_index < nsettings())
        snprintf(text, sizeof text, "%s [default: %s]", h, skiff_config_table[cvar_index].dflt);
    else
        snprintf(text, sizeof text, "%s", h);
    skiff_t_copy_out(name, name_len, n);
    skiff_t_copy_out(desc, desc_len, text);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (datatype)
        *datatype = MPI_CHAR;
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope) /* read once at MPI_Init from the environment: the same on every rank of a job */
        *scope = MPI_T_SCOPE_READONLY;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_cvar_get_info)

int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    SKIFF_MT_GUARD();
    if (t_inits <= 0)
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!name || !cvar_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < ncvars(); i++) {
        const char *n, *h;
        row_at(i, &n, &h);
        if (strcmp(n, name) == 0) {
            *cvar_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}
SKIFF_ALIAS(MPI_T_cvar_get_index)

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count)
{
    SKIFF_MT_GUARD();
    (void)obj_handle;
    int rc = check_index(cvar_index);
    if (rc)
        return rc;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    struct MPI_T_cvar_handle_t *h = skiff_objpool_get(&handles);
    if (!h)
        return MPI_T_ERR_MEMORY;
    *h = (struct MPI_T_cvar_handle_t){CVAR_HANDLE_MAGIC, cvar_index};
    *handle = h;
    *count = CVAR_VALUE_MAX;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_cvar_handle_alloc)

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    SKIFF_MT_GUARD();
    if (t_inits <= 0)
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!handle)
        return MPI_T_ERR_INVALID;
    if (!live_handle(*handle))
        return MPI_T_ERR_INVALID_HANDLE;
    skiff_objpool_put(&handles, *handle); /* clears the magic */
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_cvar_handle_free)

/* The value in force: the environment's, else the default. */
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    SKIFF_MT_GUARD();
    int rc = check_handle(handle, buf);
    if (rc)
        return rc;
    int ns = nsettings();
    if (handle->index >= ns) {
        facts[handle->index - ns].read(buf, CVAR_VALUE_MAX);
        return MPI_SUCCESS;
    }
    const struct skiff_config_row *row = &skiff_config_table[handle->index];
    if (skiff_config_value(row, buf, CVAR_VALUE_MAX) != 0) { /* invalid: show what was given */
        const char *v = getenv(row->name);
        snprintf(buf, CVAR_VALUE_MAX, "%s (invalid)", v ? v : "");
    }
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_cvar_read)

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    SKIFF_MT_GUARD();
    int rc = check_handle(handle, buf);
    return rc ? rc : MPI_T_ERR_CVAR_SET_NEVER; /* settings come from the environment, before MPI_Init */
}
SKIFF_ALIAS(MPI_T_cvar_write)
