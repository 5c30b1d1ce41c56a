# Requests that outlive one operation (issue 13): matched probe, persistent point-to-point, the
# nonblocking combined send-receive. Each also builds and passes with MPICH 4.0 and Open MPI 4.1
# (MPI-4 parts are guarded by MPI_VERSION in the sources).
skiff_mpi_test(      mprobe                 mprobe.c               "1;2;3;4")
skiff_mpi_test(      persist                persist.c              "1;2;3;4")
# MPI_Finalize answers the senders of messages MPI_Mprobe matched and nobody received.
skiff_mpi_program(mprobe_finalize.c mprobe_finalize_target)
foreach(np 2 3 4)
  foreach(tr shm tcp)
    set(test mprobe_finalize_${tr}_np${np})
    add_test(NAME ${test}
      COMMAND sh ${SKIFF_TEST_SRC}/expect_clean_exit.sh "without a matching receive" ${np}
              ${SKIFF_MPIEXEC} -n ${np} --timeout 60 $<TARGET_FILE:${mprobe_finalize_target}>)
    set(_env "")
    if(tr STREQUAL "tcp")
      set(_env SKIFF_TRANSPORTS=tcp)
    endif()
    set_tests_properties(${test} PROPERTIES TIMEOUT 90 PROCESSORS ${np} LABELS "mpi;finalize" ENVIRONMENT "${_env}")
  endforeach()
endforeach()
skiff_mpi_test(      isendrecv              isendrecv.c            "1;2;3;4")
# Generalized requests (also completed from a second thread while the main thread waits) and the
# statuses and requests read without completing them (issue 15 §6). MPI-4.1 calls are guarded for
# MPICH 4.0 and Open MPI 4.1.
skiff_mpi_test(      greq                   greq.c                 "1;2;3;4")
skiff_mpi_test(      status_calls           status_calls.c         "1;2;3;4")
# Sends complete when MPI_Isend returns share one request (core/request.h): every completion call takes
# it, many times in one array, and MPI_Request_free, MPI_Cancel and the Fortran handles leave it working.
skiff_mpi_test(      sent_request           sent_request.c         "1;2;3;4")
