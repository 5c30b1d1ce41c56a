# MPI_Finalize with sends nobody receives (issue 12): every rank must get out, and the sender must say
# which message was never received. Erroneous programs: Open MPI passes every mode; MPICH hangs in
# "unwaited" and now and then in "unmatched"; both hang in "blocking", which only skiff runs. Each mode on shared memory and on tcp, at 2-4 ranks.
skiff_mpi_program(finalize_pending.c finalize_pending_target)
foreach(mode unmatched withdraw unwaited blocking)
  foreach(np 2 3 4)
    foreach(tr shm tcp)
      set(test finalize_${mode}_${tr}_np${np})
      add_test(NAME ${test}
        COMMAND sh ${SKIFF_TEST_SRC}/expect_clean_exit.sh "never received" ${np}
                ${SKIFF_MPIEXEC} -n ${np} --timeout 60 $<TARGET_FILE:${finalize_pending_target}> ${mode})
      set(_env "")
      if(tr STREQUAL "tcp")
        set(_env SKIFF_TRANSPORTS=tcp)
      endif()
      set_tests_properties(${test} PROPERTIES TIMEOUT 90 PROCESSORS ${np} LABELS "mpi;finalize"
        ENVIRONMENT "${_env}")
    endforeach()
  endforeach()
endforeach()
