# MPI_THREAD_MULTIPLE (issue 19): tests/mpi/threads.c, four threads per rank calling MPI at once, one
# mode per test, over shared memory and (the _tcp_ twins) tcp; threads_coll also on pretend one-rank nodes
# (SKIFF_NODE_SIZE=1: node-aware collectives and their lazily made sub-communicators). Every test is
# labelled "threads"; scripts/test.sh runs them (with the unit tests) in the ThreadSanitizer build.
# The program also passes with MPICH 4 and Open MPI 4.1 (both grant MULTIPLE).
foreach(mode pairs comms anysrc mprobe waitany coll inter objects rma tools relay soak order window)
  skiff_mpi_test(threads_${mode} threads.c "2;3" ARGS ${mode} TIMEOUT 90)
  foreach(np 2 3)
    set_property(TEST threads_${mode}_np${np} threads_${mode}_tcp_np${np} APPEND PROPERTY LABELS threads)
  endforeach()
endforeach()
skiff_mpi_test(threads_coll_nodes threads.c "3" ARGS coll ENV SKIFF_NODE_SIZE=1 TIMEOUT 90)
set_property(TEST threads_coll_nodes_np3 threads_coll_nodes_tcp_np3 APPEND PROPERTY LABELS threads)
# The soak under the profiler and the tracer (their files go to the build tree).
skiff_mpi_test(threads_profiled threads.c "2" ARGS soak TIMEOUT 90
  ENV SKIFF_PROFILE=1 SKIFF_PROFILE_FILE=${CMAKE_CURRENT_BINARY_DIR}/threads-profile.txt SKIFF_TRACE=1
      SKIFF_TRACE_FILE=${CMAKE_CURRENT_BINARY_DIR}/threads-trace)
set_property(TEST threads_profiled_np2 threads_profiled_tcp_np2 APPEND PROPERTY LABELS threads)
# Thread-level misuse that costs nothing to see: a required level that is none of the four, provided NULL.
skiff_mpi_fatal_test(init_thread_bad_level init_thread_bad.c "1;2" "required is 4097, which is not a thread level" ARGS level)
skiff_mpi_fatal_test(init_thread_bad_provided init_thread_bad.c "1" "provided is NULL" ARGS provided)
# SKIFF_ASYNC_PROGRESS=1 (issue 19): progress without MPI calls (tests/mpi/async_progress.c: rank 0 blocks
# outside MPI until the others finished an operation that needs its side; fails after 60 s without a
# progress thread), the threaded modes with the thread beside the application's threads, and a few
# point-to-point, collective and one-sided programs with it on. Named threads_ so that the ThreadSanitizer
# build runs them too.
foreach(mode recv send rma)
  skiff_mpi_test(threads_async_${mode} async_progress.c "2" ARGS ${mode}
    ENV SKIFF_ASYNC_PROGRESS=1 SKIFF_SHM_CMA=0 TIMEOUT 90)
endforeach()
foreach(mode ibarrier iallreduce)
  skiff_mpi_test(threads_async_${mode} async_progress.c "3" ARGS ${mode} ENV SKIFF_ASYNC_PROGRESS=1 TIMEOUT 90)
endforeach()
foreach(mode pairs coll rma soak)
  skiff_mpi_test(threads_async_mt_${mode} threads.c "3" ARGS ${mode} ENV SKIFF_ASYNC_PROGRESS=1 TIMEOUT 90)
endforeach()
skiff_mpi_test(threads_async_nb_many nb_many.c "3" ENV SKIFF_ASYNC_PROGRESS=1)
skiff_mpi_test(threads_async_coll_nb coll_nb.c "4" ENV SKIFF_ASYNC_PROGRESS=1)
skiff_mpi_test(threads_async_rma_lock rma_lock.c "3" ENV SKIFF_ASYNC_PROGRESS=1)
foreach(t recv send rma ibarrier iallreduce mt_pairs mt_coll mt_rma mt_soak nb_many coll_nb rma_lock)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(name IN LISTS tests)
    if(name MATCHES "^threads_async_${t}_(tcp_)?np[0-9]+$")
      set_property(TEST ${name} APPEND PROPERTY LABELS threads)
    endif()
  endforeach()
endforeach()
# Not threads_: 30 s under ThreadSanitizer for nothing the others do not cover.
skiff_mpi_test(async_pingpong pingpong.c "2" ENV SKIFF_ASYNC_PROGRESS=1)
# Thread-level misuse (tests/mpi/thread_misuse.c; skiff only: MPICH and Open MPI detect neither): a call
# from a second thread under FUNNELED, overlapping calls under SERIALIZED (threads_, so TSan runs them).
foreach(mode funneled serialized)
  skiff_mpi_test(threads_misuse_${mode} thread_misuse.c "1;2" ARGS ${mode})
  set_property(TEST threads_misuse_${mode}_np1 threads_misuse_${mode}_np2 threads_misuse_${mode}_tcp_np2
    APPEND PROPERTY LABELS threads)
endforeach()
set_tests_properties(threads_misuse_serialized_np1 threads_misuse_serialized_np2 threads_misuse_serialized_tcp_np2
  PROPERTIES PASS_REGULAR_EXPRESSION "MPI_Comm_rank called while another thread was inside MPI, under MPI_THREAD_SERIALIZED")
set_property(TEST threads_misuse_serialized_np1 threads_misuse_serialized_np2 threads_misuse_serialized_tcp_np2
  PROPERTY FAIL_REGULAR_EXPRESSION "FAIL \\[rank" "MPI_Comm_size called while")
skiff_mpi_fatal_test(threads_misuse_fatal thread_misuse.c "1"
  "MPI_Comm_rank on rank 0: called from a thread other than the one that called MPI_Init_thread, under MPI_THREAD_FUNNELED"
  ARGS fatal)
