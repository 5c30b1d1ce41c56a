/* What the MPI_T files (tool.c: start-up and control variables; tool_pvar.c: performance variables;
 * tool_category.c: categories and enumerations; tool_event.c: event sources and events) share. */
#ifndef SKIFF_MPI_TOOL_H
#define SKIFF_MPI_TOOL_H

#include "mpi.h"

/* 1 between a first MPI_T_init_thread and its matching last MPI_T_finalize. */
int skiff_t_active(void);
/* MPI_T's string rule: *len in is the buffer size (0: only the length is wanted), out the length
 * written including the NUL. */
void skiff_t_copy_out(char *dst, int *len, const char *src);

int skiff_t_ncvars(void);
int skiff_t_cvar_category(int cvar_index);
int skiff_t_npvars(void);
int skiff_t_pvar_category(int pvar_index);
/* The category of the transport skiff_transport_kinds[kind] (tool_category.c), -1 if it has none. */
int skiff_t_transport_category(int kind);
/* The last MPI_T_finalize: every session and performance variable handle still allocated is freed. */
void skiff_t_pvar_release_all(void);

/* The thread support levels, as the enumeration of the pvar that reports the level in force. */
extern const MPI_T_enum skiff_t_thread_levels;

#endif
