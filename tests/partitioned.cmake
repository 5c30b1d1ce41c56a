include_guard(GLOBAL) # once, whatever includes it
# Partitioned point-to-point (issue 13 §1): MPI_Psend_init, MPI_Precv_init, MPI_Pready*, MPI_Parrived. Both
# also pass with MPICH 4.0; Open MPI 4.1 is MPI-3.1 without them (the sources guard on MPI_VERSION >= 4).
skiff_mpi_test(partitioned          partitioned.c          "1;2;3;4")
# Several threads mark partitions, one at a time under a mutex (MPI_THREAD_SERIALIZED).
if(EXISTS ${SKIFF_TEST_SRC}/partitioned_threads.c)
  find_package(Threads REQUIRED)
  skiff_mpi_test(partitioned_threads  partitioned_threads.c  "1;2;4")
  target_link_libraries(mpitest_partitioned_threads PRIVATE Threads::Threads)
endif()
