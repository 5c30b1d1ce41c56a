# MPI-5.0's library and wrapper names for the standard ABI (issue 15 §7): libmpi_abi.so and mpicc_abi
# from an installed prefix, with a program built against an independently written copy of the ABI's
# constants (tests/abi/mpi_abi_ref.h). Included by tests/CMakeLists.txt.
add_test(NAME abi_library
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/abi/abi_lib.sh ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/abi
          ${SKIFF_TEST_SRC}/hello.c)
set_tests_properties(abi_library PROPERTIES TIMEOUT 300 PROCESSORS 4 LABELS "mpi;tools"
  PASS_REGULAR_EXPRESSION "OK abi library" FAIL_REGULAR_EXPRESSION "FAIL")
if(SKIFF_SANITIZE)
  set_tests_properties(abi_library PROPERTIES ENVIRONMENT "SKIFF_CC=${CMAKE_C_COMPILER} -fsanitize=address,undefined")
endif()
