# The table-driven bad-input test (tests/mpi/bad_input/bad_input.h): every row under
# MPI_ERRORS_RETURN at 1, 2 and 3 ranks, and each table's rows under MPI_ERRORS_ARE_FATAL.
file(GLOB bad_input_sources CONFIGURE_DEPENDS ${SKIFF_TEST_SRC}/bad_input/*.c)
add_executable(mpitest_bad_input ${bad_input_sources})
target_link_libraries(mpitest_bad_input PRIVATE mpi)
set_target_properties(mpitest_bad_input PROPERTIES OUTPUT_NAME bad_input RUNTIME_OUTPUT_DIRECTORY ${SKIFF_TEST_BIN})

foreach(np 1 2 3)
  add_test(NAME bad_input_return_np${np}
    COMMAND ${SKIFF_MPIEXEC} -n ${np} --timeout 60 $<TARGET_FILE:mpitest_bad_input>)
  set_tests_properties(bad_input_return_np${np} PROPERTIES TIMEOUT 90 PROCESSORS ${np} LABELS "mpi;errors"
    PASS_REGULAR_EXPRESSION "OK bad_input" FAIL_REGULAR_EXPRESSION "FAIL \\[rank")
endforeach()
foreach(table p2p coll comm dtype misc topo req large rma)
  add_test(NAME bad_input_fatal_${table}
    COMMAND sh ${SKIFF_TEST_SRC}/bad_input/fatal.sh ${SKIFF_MPIEXEC} $<TARGET_FILE:mpitest_bad_input> ${table})
  set_tests_properties(bad_input_fatal_${table} PROPERTIES TIMEOUT 300 LABELS "mpi;errors;fatal")
endforeach()
