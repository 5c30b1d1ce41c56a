/* MPI_Pcontrol drives the built-in profiler (docs/profiler.md): 0 stops recording, 1 resumes it, 2 writes
 * this rank's calls so far to a partial report. Other levels are accepted and do nothing, as the
 * standard leaves them to the profiler. Without SKIFF_PROFILE=1 every level is a no-op. */
#include "mpi/mpi_impl.h"

int PMPI_Pcontrol(const int level, ...)
{
    SKIFF_ENTER(MPI_Pcontrol);
    SKIFF_REQUIRE_INIT();
    if (level == 0)
        skiff_prof_pause();
    else if (level == 1)
        skiff_prof_resume();
    else if (level == 2)
        skiff_prof_flush();
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Pcontrol)
