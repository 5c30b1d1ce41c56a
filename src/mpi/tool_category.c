/* MPI_T categories and enumerations. Each variable belongs to one category, and the set of
 * categories never changes while the library is loaded (MPI_T_category_changed stays at 0).
 * No category holds events: skiff provides no event types (tool_event.c). */
#include <stdio.h>
#include <string.h>

#include "core/transports.h"

#include "mpi/mpi_impl.h"
#include "mpi/tool.h"

struct category {
    const char *name, *desc;
};

/* The order is the one tool.c and tool_pvar.c use for their variables' categories; after these, one
 * category per transport that keeps counters ("skiff_<name>"), in the order of the list of transports. */
static const struct category cats[] = {
    {"skiff_settings", "the SKIFF_* environment settings, read once at MPI_Init (docs/configuration.md)"},
    {"skiff_host", "what the library finds about this host: transports and networks on offer"},
    {"skiff_pt2pt", "point-to-point traffic: messages that arrived, rendezvous, synchronous and deferred sends"},
    {"skiff_matching", "the unexpected-message queue"},
    {"skiff_runtime", "the state of the library: the thread support level in force"},
    {"skiff_collectives", "which way collectives ran: message schedules, shared-memory shortcuts, node-aware"},
    {"skiff_onesided", "which way one-sided operations went: by a transport's RDMA"},
};
#define NFIXED ((int)(sizeof cats / sizeof cats[0]))
#define MAX_CATS (NFIXED + 8)

static struct category all[MAX_CATS];
static char names[MAX_CATS - NFIXED][48];
static int ncats;

static void build_cats(void)
{
    if (ncats)
        return;
    for (int i = 0; i < NFIXED; i++)
        all[ncats++] = cats[i];
    for (int k = 0; k < skiff_transport_nkinds && ncats < MAX_CATS; k++) {
        if (!skiff_transport_kinds[k].category)
            continue;
        snprintf(names[ncats - NFIXED], sizeof names[0], "skiff_%s", skiff_transport_kinds[k].name);
        all[ncats] = (struct category){names[ncats - NFIXED], skiff_transport_kinds[k].category};
        ncats++;
    }
}
#define NCATS (build_cats(), ncats)

int skiff_t_transport_category(int kind)
{
    int cat = NFIXED;
    for (int k = 0; k < kind; k++)
        cat += skiff_transport_kinds[k].category != NULL;
    return skiff_transport_kinds[kind].category ? cat : -1;
}

enum { CVARS, PVARS };

static int count_in(int cat, int kind)
{
    int n = 0, nv = kind == CVARS ? skiff_t_ncvars() : skiff_t_npvars();
    for (int i = 0; i < nv; i++)
        n += (kind == CVARS ? skiff_t_cvar_category(i) : skiff_t_pvar_category(i)) == cat;
    return n;
}

static int check_cat(int cat_index)
{
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    return cat_index < 0 || cat_index >= NCATS ? MPI_T_ERR_INVALID_INDEX : MPI_SUCCESS;
}

/* The first len members of kind of category cat into indices. */
static int members(int cat, int kind, int len, int indices[])
{
    int rc = check_cat(cat);
    if (rc)
        return rc;
    if (len < 0 || (len > 0 && !indices))
        return MPI_T_ERR_INVALID;
    int nv = kind == CVARS ? skiff_t_ncvars() : skiff_t_npvars();
    for (int i = 0, k = 0; i < nv && k < len; i++)
        if ((kind == CVARS ? skiff_t_cvar_category(i) : skiff_t_pvar_category(i)) == cat)
            indices[k++] = i;
    return MPI_SUCCESS;
}

int PMPI_T_category_get_num(int *num_cat)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!num_cat)
        return MPI_T_ERR_INVALID;
    *num_cat = NCATS;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_category_get_num)

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories)
{
    SKIFF_MT_GUARD();
    int rc = check_cat(cat_index);
    if (rc)
        return rc;
    skiff_t_copy_out(name, name_len, all[cat_index].name);
    skiff_t_copy_out(desc, desc_len, all[cat_index].desc);
    if (num_cvars)
        *num_cvars = count_in(cat_index, CVARS);
    if (num_pvars)
        *num_pvars = count_in(cat_index, PVARS);
    if (num_categories)
        *num_categories = 0;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_category_get_info)

int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!name || !cat_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < NCATS; i++) {
        if (strcmp(all[i].name, name) == 0) {
            *cat_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}
SKIFF_ALIAS(MPI_T_category_get_index)

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    SKIFF_MT_GUARD();
    return members(cat_index, CVARS, len, indices);
}
SKIFF_ALIAS(MPI_T_category_get_cvars)

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    SKIFF_MT_GUARD();
    return members(cat_index, PVARS, len, indices);
}
SKIFF_ALIAS(MPI_T_category_get_pvars)

/* The categories are flat: none contains another. */
int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    SKIFF_MT_GUARD();
    int rc = check_cat(cat_index);
    if (rc)
        return rc;
    return len < 0 || (len > 0 && !indices) ? MPI_T_ERR_INVALID : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_category_get_categories)

int PMPI_T_category_changed(int *update_number)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!update_number)
        return MPI_T_ERR_INVALID;
    *update_number = 0;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_category_changed)

int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    SKIFF_MT_GUARD();
    int rc = check_cat(cat_index);
    if (rc)
        return rc;
    if (!num_events)
        return MPI_T_ERR_INVALID;
    *num_events = 0;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_category_get_num_events)

int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    SKIFF_MT_GUARD();
    int rc = check_cat(cat_index);
    if (rc)
        return rc;
    return len < 0 || (len > 0 && !indices) ? MPI_T_ERR_INVALID : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_category_get_events)

/* Enumerations: one, the thread support levels (the values of the skiff_thread_level pvar). */
#define ENUM_MAGIC 0x656e756du /* "enum" */

struct enum_item {
    int value;
    const char *name;
};

struct MPI_T_enum_t {
    unsigned magic;
    const char *name;
    int n;
    const struct enum_item *items;
};

static const struct enum_item thread_items[] = {
    {MPI_THREAD_SINGLE, "MPI_THREAD_SINGLE"},
    {MPI_THREAD_FUNNELED, "MPI_THREAD_FUNNELED"},
    {MPI_THREAD_SERIALIZED, "MPI_THREAD_SERIALIZED"},
    {MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE"},
};

static struct MPI_T_enum_t thread_enum = {ENUM_MAGIC, "skiff_thread_levels", 4, thread_items};
const MPI_T_enum skiff_t_thread_levels = &thread_enum;

static int live_enum(MPI_T_enum e)
{
    return e == &thread_enum;
}

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!live_enum(enumtype))
        return MPI_T_ERR_INVALID_HANDLE;
    if (num)
        *num = enumtype->n;
    skiff_t_copy_out(name, name_len, enumtype->name);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_enum_get_info)

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int indx, int *value, char *name, int *name_len)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!live_enum(enumtype))
        return MPI_T_ERR_INVALID_HANDLE;
    if (indx < 0 || indx >= enumtype->n)
        return MPI_T_ERR_INVALID_INDEX;
    if (value)
        *value = enumtype->items[indx].value;
    skiff_t_copy_out(name, name_len, enumtype->items[indx].name);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_enum_get_item)
