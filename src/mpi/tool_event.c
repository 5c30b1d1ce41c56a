/* MPI_T event sources and events (MPI-4). skiff has one source, the process's monotonic clock in
 * nanoseconds, and provides no event types: MPI_T_event_get_num is 0, so no registration can be
 * allocated and no event instance ever reaches a callback. Every call still checks what it is given
 * as the standard says: an index is out of range, a registration or instance is not one skiff handed
 * out. */
#include <stdint.h>
#include <time.h>

#include "mpi/mpi_impl.h"
#include "mpi/tool.h"

#define NSOURCES 1
#define NEVENTS 0

static int check_source(int source_index)
{
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    return source_index < 0 || source_index >= NSOURCES ? MPI_T_ERR_INVALID_INDEX : MPI_SUCCESS;
}

/* No registration or instance is ever valid: none can exist. */
static int no_handle(void)
{
    return skiff_t_active() ? MPI_T_ERR_INVALID_HANDLE : MPI_T_ERR_NOT_INITIALIZED;
}

static int no_event(void)
{
    return skiff_t_active() ? MPI_T_ERR_INVALID_INDEX : MPI_T_ERR_NOT_INITIALIZED;
}

int PMPI_T_source_get_num(int *num_sources)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!num_sources)
        return MPI_T_ERR_INVALID;
    *num_sources = NSOURCES;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_source_get_num)

int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                           MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                           MPI_Info *info)
{
    SKIFF_MT_GUARD();
    int rc = check_source(source_index);
    if (rc)
        return rc;
    skiff_t_copy_out(name, name_len, "skiff_clock");
    skiff_t_copy_out(desc, desc_len, "the process's monotonic clock (CLOCK_MONOTONIC), in nanoseconds");
    if (ordering)
        *ordering = MPI_T_SOURCE_ORDERED;
    if (ticks_per_second)
        *ticks_per_second = 1000000000;
    if (max_ticks)
        *max_ticks = INT64_MAX;
    if (info) /* no hints to give; MPICH answers the same */
        *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_source_get_info)

int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    SKIFF_MT_GUARD();
    int rc = check_source(source_index);
    if (rc)
        return rc;
    if (!timestamp)
        return MPI_T_ERR_INVALID;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    *timestamp = (MPI_Count)ts.tv_sec * 1000000000 + ts.tv_nsec;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_source_get_timestamp)

int PMPI_T_event_get_num(int *num_events)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    if (!num_events)
        return MPI_T_ERR_INVALID;
    *num_events = NEVENTS;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_T_event_get_num)

int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int *num_elements,
                          MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len, int *bind)
{
    SKIFF_MT_GUARD();
    (void)event_index, (void)name, (void)name_len, (void)verbosity, (void)array_of_datatypes;
    (void)array_of_displacements, (void)num_elements, (void)enumtype, (void)info, (void)desc, (void)desc_len;
    (void)bind;
    return no_event();
}
SKIFF_ALIAS(MPI_T_event_get_info)

int PMPI_T_event_get_index(const char *name, int *event_index)
{
    SKIFF_MT_GUARD();
    if (!skiff_t_active())
        return MPI_T_ERR_NOT_INITIALIZED;
    return name && event_index ? MPI_T_ERR_INVALID_NAME : MPI_T_ERR_INVALID;
}
SKIFF_ALIAS(MPI_T_event_get_index)

int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    SKIFF_MT_GUARD();
    (void)event_index, (void)obj_handle, (void)info, (void)event_registration;
    return no_event();
}
SKIFF_ALIAS(MPI_T_event_handle_alloc)

int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    SKIFF_MT_GUARD();
    (void)event_registration, (void)info;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_handle_set_info)

int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    SKIFF_MT_GUARD();
    (void)event_registration, (void)info_used;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_handle_get_info)

int PMPI_T_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info, void *user_data, MPI_T_event_cb_function event_cb_function)
{
    SKIFF_MT_GUARD();
    (void)event_registration, (void)cb_safety, (void)info, (void)user_data, (void)event_cb_function;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_register_callback)

int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info)
{
    SKIFF_MT_GUARD();
    (void)event_registration, (void)cb_safety, (void)info;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_callback_set_info)

int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info *info_used)
{
    SKIFF_MT_GUARD();
    (void)event_registration, (void)cb_safety, (void)info_used;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_callback_get_info)

int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function free_cb_function)
{
    SKIFF_MT_GUARD();
    (void)event_registration, (void)user_data, (void)free_cb_function;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_handle_free)

int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function dropped_cb_function)
{
    SKIFF_MT_GUARD();
    (void)event_registration, (void)dropped_cb_function;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_set_dropped_handler)

int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    SKIFF_MT_GUARD();
    (void)event_instance, (void)element_index, (void)buffer;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_read)

int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    SKIFF_MT_GUARD();
    (void)event_instance, (void)buffer;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_copy)

int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    SKIFF_MT_GUARD();
    (void)event_instance, (void)event_timestamp;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_get_timestamp)

int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    SKIFF_MT_GUARD();
    (void)event_instance, (void)source_index;
    return no_handle();
}
SKIFF_ALIAS(MPI_T_event_get_source)
