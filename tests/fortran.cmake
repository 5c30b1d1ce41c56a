# Fortran (issue 18): programs in tests/fortran/ built against libmpifort with mpif.h, the mpi module or mpi_f08,
# run like the C tests (np 1-4 on shared memory, 2-4 on tcp), label "fortran"; the bindings' census
# (every bound call exported under its four Fortran names and as pmpi_, nothing else exported); and
# the installed mpifort. Only when the Fortran bindings are built (a Fortran compiler was found).

# Without a Fortran compiler the project still configures, says the Fortran parts are skipped and
# writes no Fortran wrapper (run whether or not this build has Fortran).
add_test(NAME fortran_absent
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fortran/absent.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(fortran_absent PROPERTIES LABELS "fortran;tools" TIMEOUT 300)

if(NOT SKIFF_HAVE_FORTRAN)
  return()
endif()

set(SKIFF_FTEST_SRC ${CMAKE_CURRENT_SOURCE_DIR}/fortran)
# check(ok, what), the one failure report every Fortran test program calls (an external procedure).
add_library(skiff_fcheck STATIC ${SKIFF_FTEST_SRC}/fcheck.f)
target_include_directories(skiff_fcheck PRIVATE ${SKIFF_FORTRAN_INCDIR})
target_compile_options(skiff_fcheck PRIVATE -Wall)
add_dependencies(skiff_fcheck skiff_fortran_headers)
# name|source[|-DSKIFF_USE_MPI]: f08_* use the mpi_f08 module, f_coll the mpi module; f_p2p, f_coll_all,
# f_types_comm and f_rma #include "use_mpi.inc", which gives them the mpi module with -DSKIFF_USE_MPI
# and mpif.h without, so each runs through both. The program is f_<name> (f08_<name> for mpi_f08).
foreach(_t "mpifh_p2p|f_p2p.f" "p2p|f_p2p.f|-DSKIFF_USE_MPI" "coll|f_coll.f90"
           "mpifh_coll_all|f_coll_all.f" "coll_all|f_coll_all.f|-DSKIFF_USE_MPI"
           "types_comm|f_types_comm.f90|-DSKIFF_USE_MPI" "mpifh_types_comm|f_types_comm.f90"
           "rma|f_rma.f90|-DSKIFF_USE_MPI" "mpifh_rma|f_rma.f90" "f08_p2p|f08_p2p.f90"
           "f08_coll|f08_coll.f90" "f08_types_comm|f08_types_comm.f90" "f08_rma|f08_rma.f90")
  string(REPLACE "|" ";" _t "${_t}")
  list(GET _t 0 _name)
  list(GET _t 1 _src)
  set(_macro "")
  list(LENGTH _t _fields)
  if(_fields EQUAL 3)
    list(GET _t 2 _macro)
  endif()
  set(_base f_${_name})
  if(_name MATCHES "^f08_")
    set(_base ${_name})
  endif()
  # The target skiff_mpi_test looks for (mpitest_<base>), built here from Fortran.
  add_executable(mpitest_${_base} ${SKIFF_FTEST_SRC}/${_src})
  target_link_libraries(mpitest_${_base} PRIVATE skiff_fcheck mpifort mpi)
  target_include_directories(mpitest_${_base} PRIVATE ${SKIFF_FORTRAN_INCDIR})
  target_compile_options(mpitest_${_base} PRIVATE -Wall -cpp ${_macro})
  set_target_properties(mpitest_${_base} PROPERTIES
    OUTPUT_NAME ${_base}
    RUNTIME_OUTPUT_DIRECTORY ${SKIFF_TEST_BIN}
    Fortran_MODULE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fortran_mod/${_base})
  add_dependencies(mpitest_${_base} skiff_fortran_headers)
  skiff_mpi_test(fortran_${_name} ${_base}.f "1;2;3;4" TIMEOUT 60)
  foreach(_np 1 2 3 4)
    set_tests_properties(fortran_${_name}_np${_np} PROPERTIES LABELS "mpi;fortran")
    if(NOT _np EQUAL 1)
      set_tests_properties(fortran_${_name}_tcp_np${_np} PROPERTIES LABELS "mpi;tcp;fortran")
    endif()
  endforeach()
endforeach()

# C's MPI_F_STATUS_IGNORE / MPI_F_STATUSES_IGNORE in a program with the Fortran bindings: one rank.
add_executable(mpitest_f_c_status_ignore ${SKIFF_FTEST_SRC}/c_status_ignore.c)
target_link_libraries(mpitest_f_c_status_ignore PRIVATE mpifort mpi)
set_target_properties(mpitest_f_c_status_ignore PROPERTIES
  OUTPUT_NAME f_c_status_ignore RUNTIME_OUTPUT_DIRECTORY ${SKIFF_TEST_BIN})
skiff_mpi_test(fortran_c_status_ignore f_c_status_ignore.c "1" TIMEOUT 60)
set_tests_properties(fortran_c_status_ignore_np1 PROPERTIES LABELS "mpi;fortran")

# The built-in profiler sees Fortran calls under their MPI names (mpif.h, mpi and mpi_f08).
add_test(NAME fortran_profile COMMAND sh ${SKIFF_FTEST_SRC}/profile.sh ${SKIFF_MPIEXEC}
  $<TARGET_FILE:mpitest_f_mpifh_p2p> $<TARGET_FILE:mpitest_f_coll> $<TARGET_FILE:mpitest_f08_coll>)
set_tests_properties(fortran_profile PROPERTIES TIMEOUT 120 PROCESSORS 2 LABELS "fortran;profile"
  PASS_REGULAR_EXPRESSION "OK fortran_profile" FAIL_REGULAR_EXPRESSION "FAIL")

add_test(NAME fortran_census
  COMMAND sh ${SKIFF_FTEST_SRC}/census.sh $<TARGET_FILE:mpifort>
          ${CMAKE_BINARY_DIR}/src/fortran/fortran_bindings.txt)
set_tests_properties(fortran_census PROPERTIES LABELS "fortran;api" TIMEOUT 60)

add_test(NAME fortran_install
  COMMAND sh ${SKIFF_FTEST_SRC}/install.sh ${CMAKE_BINARY_DIR} ${SKIFF_FTEST_SRC})
set_tests_properties(fortran_install PROPERTIES LABELS "fortran;tools" TIMEOUT 300)
if(SKIFF_SANITIZE)
  # The installed libraries are instrumented: programs linked with them must be too.
  set_tests_properties(fortran_install PROPERTIES
    ENVIRONMENT "SKIFF_FC=${CMAKE_Fortran_COMPILER} -fsanitize=address,undefined")
endif()
