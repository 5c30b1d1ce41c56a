# The compiler wrappers as build tools and users meet them (issue 12): both interrogation dialects,
# SKIFF_CC/SKIFF_CXX driving clang, skiff's libmpi linked whatever the user's line, CMake's FindMPI
# with the README's recipes, and mpirun. The installed copies are checked by install_layout.
#   wrapper_dialects       MPICH's -show/-compile-info/-link-info, Open MPI's --showme[:...], no compiler run
#   wrapper_link_exact     a user -L to the system's libmpi, a bare trailing -I: still skiff's libmpi
#   wrapper_clang          SKIFF_CC=clang, SKIFF_CXX=clang++ (skipped without clang)
#   wrapper_cmake_example  tests/cmake_example against an installed prefix, through its own ctest
#   hello_mpirun           bin/mpirun, the other name of mpiexec
set(_wrap ${CMAKE_CURRENT_SOURCE_DIR}/wrapper)
set(_bin ${CMAKE_BINARY_DIR}/bin)
add_test(NAME wrapper_dialects
  COMMAND sh ${_wrap}/dialects.sh ${_bin}/mpicc ${_bin}/mpicxx ${CMAKE_CURRENT_BINARY_DIR}/wrapper_dialects)
add_test(NAME wrapper_link_exact
  COMMAND sh ${_wrap}/link_exact.sh ${_bin}/mpicc ${SKIFF_MPIEXEC} ${SKIFF_TEST_SRC}/hello.c
          ${CMAKE_CURRENT_BINARY_DIR}/wrapper_link_exact)
add_test(NAME wrapper_clang
  COMMAND sh ${_wrap}/clang.sh ${_bin}/mpicc ${_bin}/mpicxx ${SKIFF_MPIEXEC} ${SKIFF_TEST_SRC}/hello.c
          ${_wrap}/hello.cpp ${CMAKE_CURRENT_BINARY_DIR}/wrapper_clang)
add_test(NAME wrapper_cmake_example
  COMMAND sh ${_wrap}/cmake_example.sh ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/cmake_example)
add_test(NAME hello_mpirun
  COMMAND sh ${SKIFF_TEST_SRC}/hello_wrapper.sh ${SKIFF_MPICC} ${_bin}/mpirun
          ${SKIFF_TEST_SRC}/hello.c ${CMAKE_CURRENT_BINARY_DIR}/hello_mpirun 2)
set_tests_properties(wrapper_dialects PROPERTIES TIMEOUT 60 LABELS tools)
set_tests_properties(wrapper_link_exact wrapper_clang wrapper_cmake_example hello_mpirun PROPERTIES
  TIMEOUT 120 PROCESSORS 2 LABELS "mpi;tools" SKIP_RETURN_CODE 77)
if(SKIFF_SANITIZE)
  # An instrumented libmpi needs an instrumented program (ASan runtime first in the link); the CMake
  # example compiles with the plain compiler and FindMPI's flags, so it takes the flags as CFLAGS.
  set_tests_properties(wrapper_link_exact hello_mpirun PROPERTIES
    ENVIRONMENT "SKIFF_CC=${CMAKE_C_COMPILER} -fsanitize=address,undefined")
  set_tests_properties(wrapper_cmake_example PROPERTIES
    ENVIRONMENT "CFLAGS=-fsanitize=address,undefined")
endif()
