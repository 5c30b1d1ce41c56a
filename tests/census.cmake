# The census of the MPI C API (issue 15 §8): every function, constant and type the standard names must
# be declared by include/mpi.h and every function exported as MPI_x and PMPI_x by libmpi.so, except
# what tests/census/exclusions.txt lists with the issue that owns it. Its last lines are the counts
# README.md quotes.
add_test(NAME census
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/census/census.sh $<TARGET_FILE:mpi> ${PROJECT_SOURCE_DIR}/include
          ${CMAKE_C_COMPILER})
set_tests_properties(census PROPERTIES LABELS "api" TIMEOUT 120)
