# Collectives (issue 3). Included by tests/CMakeLists.txt.
#
# Every program checks its results against a serial reference computed on each rank, and also
# passes with MPICH (mpicc.mpich -std=c11 -Wall -Wextra -Werror tests/mpi/coll_x.c &&
# mpiexec.mpich -n N ./a.out). COLL_TRACE=1 in the environment makes the reduction, gather and
# alltoall programs name each case on stderr before running it.
#
# mpi.h declares only what skiff implements, so a program is registered once mpi.h declares every
# call it uses; until then CMake says which one is missing and the program is skipped.

file(READ ${PROJECT_SOURCE_DIR}/include/mpi.h skiff_coll_mpi_h)

# skiff_coll_test(<name> <source> <np-list> REQUIRES call... [ENV ...] [ARGS ...] [TIMEOUT s])
function(skiff_coll_test name source nps)
  cmake_parse_arguments(C "" "TIMEOUT" "REQUIRES;ENV;ARGS" ${ARGN})
  foreach(call IN LISTS C_REQUIRES)
    if(NOT skiff_coll_mpi_h MATCHES "[ *]${call}\\(")
      message(STATUS "coll tests: ${name} skipped, mpi.h does not declare ${call} yet")
      return()
    endif()
  endforeach()
  set(extra)
  if(C_ENV)
    list(APPEND extra ENV ${C_ENV})
  endif()
  if(C_ARGS)
    list(APPEND extra ARGS ${C_ARGS})
  endif()
  if(C_TIMEOUT)
    list(APPEND extra TIMEOUT ${C_TIMEOUT})
  endif()
  skiff_mpi_test(${name} ${source} "${nps}" ${extra})
endfunction()

set(all_np "1;2;3;4;5;7;8")
set(tiny SKIFF_SHM_FBOX=4096 SKIFF_SHM_CELLS=4 SKIFF_SHM_CELL=4096)
set(red MPI_Reduce MPI_Allreduce MPI_Scan MPI_Exscan MPI_Reduce_scatter MPI_Reduce_scatter_block
        MPI_Reduce_local MPI_Get_library_version)

#               name                  source                 ranks        requires / options
# Barrier really separates rounds (file counters, timing-free); no interference with wildcards.
skiff_coll_test(coll_barrier          coll_barrier.c         "${all_np}"  REQUIRES MPI_Barrier MPI_Allreduce)
# Bcast every root, 0 B .. 4 MiB, typed counts, 64 back-to-back broadcasts from rotating roots.
skiff_coll_test(coll_bcast            coll_bcast.c           "${all_np}"  REQUIRES MPI_Bcast)
# Gather(v) / Scatter(v) / Allgather(v): every root, gaps, zero counts, IN_PLACE, >= 1 MiB.
skiff_coll_test(coll_gather_scatter   coll_gather_scatter.c  "${all_np}"
  REQUIRES MPI_Gather MPI_Gatherv MPI_Scatter MPI_Scatterv MPI_Allgather MPI_Allgatherv MPI_Get_library_version)
# Alltoall(v): per-pair patterns, unequal counts, gaps, IN_PLACE, >= 1 MiB per rank.
skiff_coll_test(coll_alltoall         coll_alltoall.c        "${all_np}"  REQUIRES MPI_Alltoall MPI_Alltoallv)
# Every predefined op x every allowed type; every reduction collective at 0 .. >= 1 MiB, IN_PLACE.
skiff_coll_test(coll_reduce           coll_reduce.c          "${all_np};singleton" REQUIRES ${red})
# User ops: non-commutative (rank order) and commutative, all reduction collectives; Op_free.
skiff_coll_test(coll_userop           coll_userop.c          "${all_np}"
  REQUIRES ${red} MPI_Op_create MPI_Op_free MPI_Iallreduce)
# Nonblocking: gates (no early completion), overlap with point-to-point and wildcards, many at once.
skiff_coll_test(coll_nb               coll_nb.c              "${all_np}"
  REQUIRES MPI_Ibarrier MPI_Ibcast MPI_Iallreduce MPI_Ireduce MPI_Bcast MPI_Allreduce)
# The other nonblocking collectives and Alltoallw: every call, every root, IN_PLACE, derived types freed
# while in flight, 14 outstanding on two communicators completed in reverse order and with Waitany.
skiff_coll_test(coll_nb_all           coll_nb_all.c          "1;2;3;4"
  REQUIRES MPI_Iallgather MPI_Ialltoallw MPI_Alltoallw MPI_Igatherv MPI_Iscatterv MPI_Ireduce_scatter MPI_Iexscan)
# Persistent collectives (MPI-4): every *_init started round after round with new data, IN_PLACE,
# a derived type freed after init, Startall on two communicators, Request_free.
skiff_coll_test(coll_persist          coll_persist.c         "1;2;3;4"
  REQUIRES MPI_Allreduce_init MPI_Alltoallw_init MPI_Exscan_init MPI_Start MPI_Startall)
# Derived datatypes in Bcast / Gather / Scatter, user ops on contiguous types (2x2 matmul).
skiff_coll_test(coll_dtype            coll_dtype.c           "${all_np}"
  REQUIRES MPI_Type_vector MPI_Type_contiguous MPI_Type_commit MPI_Type_free MPI_Op_create
           MPI_Bcast MPI_Gather MPI_Scatter MPI_Allreduce MPI_Reduce MPI_Scan)
# Oversubscribed: 8 ranks on 2 cores, 2000 barriers + 2000 8-byte allreduces, well inside 120 s.
skiff_coll_test(coll_smoke            coll_smoke.c           "8"          REQUIRES MPI_Barrier MPI_Allreduce)

# Back-pressure (tiny fast boxes, 4 cells, no single copy) under collective traffic.
skiff_coll_test(coll_nb_tiny          coll_nb.c              "2;5"
  REQUIRES MPI_Ibarrier MPI_Ibcast MPI_Iallreduce MPI_Ireduce ENV ${tiny} SKIFF_SHM_CMA=0 ARGS 1)
skiff_coll_test(coll_alltoall_tiny    coll_alltoall.c        "3;4"
  REQUIRES MPI_Alltoall MPI_Alltoallv ENV ${tiny} SKIFF_SHM_CMA=0)
skiff_coll_test(coll_bcast_nocma      coll_bcast.c           "4"          REQUIRES MPI_Bcast ENV SKIFF_SHM_CMA=0)

# Node-aware (hierarchical) collectives: SKIFF_NODE_SIZE splits the job into pretend nodes, so the
# node-local / leader / node-local paths run on one machine (2 ranks per node, and uneven 3).
skiff_coll_test(coll_barrier_nodes    coll_barrier.c         "5;8"        REQUIRES MPI_Barrier MPI_Allreduce
  ENV SKIFF_NODE_SIZE=2)
skiff_coll_test(coll_bcast_nodes      coll_bcast.c           "5;7"        REQUIRES MPI_Bcast ENV SKIFF_NODE_SIZE=3)
skiff_coll_test(coll_bcast_nodes2     coll_bcast.c           "3;5"        REQUIRES MPI_Bcast ENV SKIFF_NODE_SIZE=2)
skiff_coll_test(coll_reduce_nodes     coll_reduce.c          "4;7"        REQUIRES ${red} ENV SKIFF_NODE_SIZE=2)
skiff_coll_test(coll_userop_nodes     coll_userop.c          "5"          REQUIRES ${red} MPI_Op_create MPI_Op_free
  ENV SKIFF_NODE_SIZE=2)

# The Fortran datatypes from C: sizes as gfortran has them, names, point-to-point, and Allreduce / Reduce
# with every op the standard allows on each (complex SUM/PROD, LOGICAL LAND/LOR/LXOR, MAXLOC on the pairs).
skiff_coll_test(dt_fortran            dt_fortran.c           "1;2;3;4;5;8" REQUIRES MPI_Allreduce MPI_Reduce)
skiff_coll_test(dt_fortran_nodes      dt_fortran.c           "4"          REQUIRES MPI_Allreduce MPI_Reduce
  ENV SKIFF_NODE_SIZE=2)
