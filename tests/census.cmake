# The census of the MPI C API (issue 15 §8): every function, constant and type the standard names must
# be declared by include/mpi.h and every function exported as MPI_x and PMPI_x by libmpi.so, except
# what tests/census/exclusions.txt lists with the issue that owns it. Its last lines are the counts
# README.md quotes.
# With the Fortran bindings built, it also counts them beside C.
if(SKIFF_HAVE_FORTRAN)
  set(_census_fortran $<TARGET_FILE:mpifort> ${CMAKE_BINARY_DIR}/src/fortran/fortran_bindings.txt)
endif()
add_test(NAME census
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/census/census.sh $<TARGET_FILE:mpi> ${PROJECT_SOURCE_DIR}/include
          ${CMAKE_C_COMPILER} ${_census_fortran})
set_tests_properties(census PROPERTIES LABELS "api" TIMEOUT 120)
