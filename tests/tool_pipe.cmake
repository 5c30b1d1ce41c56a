# Tests of skiff-pipe (output parsed and checked)
# Each runs tests/pipe/pipe_check.py: one small configuration of skiff-pipe, then checks of its data file
# (columns, the NetPIPE size schedule, min <= avg <= max), its summary (latency, peak and N1/2 against the
# data), integrity counts and exit statuses. Exit 77 = skipped (gnuplot or a peer's mpicc missing).
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_FOUND)
  message(STATUS "tests: python3 not found, skiff-pipe tests skipped")
  return()
endif()

set(SKIFF_PIPE_CHECK ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/pipe/pipe_check.py)
set(SKIFF_PIPE_LAUNCH "${SKIFF_MPIEXEC} -n 2 --timeout 120")
set(SKIFF_PIPE_LAUNCH4 "${SKIFF_MPIEXEC} -n 4 --timeout 120")

# skiff_pipe_test(<name> <case> [skiff-pipe args...]): test pipe_<name>.
function(skiff_pipe_test name case)
  add_test(NAME pipe_${name}
    COMMAND ${SKIFF_PIPE_CHECK} ${case} --pipe $<TARGET_FILE:skiff-pipe> --launch ${SKIFF_PIPE_LAUNCH} -- ${ARGN})
  set_tests_properties(pipe_${name} PROPERTIES TIMEOUT 180 PROCESSORS 2 LABELS "tools;pipe" SKIP_RETURN_CODE 77)
endfunction()

# skiff_pipe_test4(<name> <case> <messages per size, 0 = unchecked> [skiff-pipe args...]): 4 ranks
# (oversubscribed on a 2-core machine: only correctness and output are checked, never speed).
function(skiff_pipe_test4 name case messages)
  add_test(NAME pipe_${name}
    COMMAND ${SKIFF_PIPE_CHECK} ${case} --pipe $<TARGET_FILE:skiff-pipe> --launch ${SKIFF_PIPE_LAUNCH4}
            --messages ${messages} -- ${ARGN})
  set_tests_properties(pipe_${name} PROPERTIES TIMEOUT 240 PROCESSORS 2 LABELS "tools;pipe" SKIP_RETURN_CODE 77)
endfunction()

#               name               case       skiff-pipe arguments
# Timing modes over MPI, fixed repeats (and once adaptive) so that each takes well under a second.
skiff_pipe_test(pingpong           timing     -q --end 64k --repeats 50)
skiff_pipe_test(pingpong_adaptive  timing     -q --quick --end 16k)
skiff_pipe_test(stream             timing     -q --stream --end 64k --repeats 50)
skiff_pipe_test(bidir              timing     -q --bidir --end 64k --repeats 50)
skiff_pipe_test(async              timing     -q --async --end 64k --repeats 50)
skiff_pipe_test(stream_async       timing     -q --stream --async --end 64k --repeats 50)
skiff_pipe_test(nocache            timing     -q --nocache --end 256k --repeats 20 --trials 3)
skiff_pipe_test(offsets            timing     -q --soffset 3 --roffset 5 --pert 0 --start 16 --end 128k --repeats 20)
# Every byte checked; the small --window makes the moving buffers wrap around many times.
skiff_pipe_test(integrity          integrity  --end 1m --pert 3)
skiff_pipe_test(integrity_stream   integrity  --stream --async --nocache --window 4m --soffset 1 --roffset 7 --end 512k)
skiff_pipe_test(integrity_bidir    integrity  --bidir --async --end 512k --pert 1)
# The checker must catch a flipped byte and fail the run.
skiff_pipe_test(integrity_corrupt  corrupt    --end 64k)
# Overlap (issue 14 §3): a fixed and a per-size workload between Isend/Irecv and Waitall.
skiff_pipe_test(workload           timing     -q --bidir --workload 3 --end 64k --repeats 20 --trials 2)
skiff_pipe_test(workload_auto      timing     -q --bidir --async --workload auto --end 64k --repeats 20 --trials 2)
skiff_pipe_test(integrity_workload integrity  --bidir --workload 1 --end 256k)
skiff_pipe_test(stream_workload    timing     -q --stream --workload auto --end 64k --repeats 20 --trials 2)
# Many flows at once (issue 14 §2), 4 ranks. Integrity: every byte of every flow checked, and the
# count of checked messages per size is every flow of every repeat (4 repeats).
#                  name                   case       messages  skiff-pipe arguments
skiff_pipe_test4(pairs                    timing     0  -q --pairs --end 64k --repeats 20 --trials 2)
skiff_pipe_test4(pattern_ring             timing     0  -q --pattern ring --end 64k --repeats 20 --trials 2)
skiff_pipe_test4(pattern_workload         timing     0  -q --pattern neighbour2d --workload 2 --end 16k --repeats 10 --trials 2)
skiff_pipe_test4(integrity_pairs          integrity  16 --pairs --end 256k)
skiff_pipe_test4(integrity_pairs_bidir    integrity  16 --pairs --bidir --async --nocache --window 4m --end 256k)
skiff_pipe_test4(integrity_ring           integrity  16 --pattern ring --end 256k)
skiff_pipe_test4(integrity_bisection      integrity  16 --pattern bisection --end 256k)
skiff_pipe_test4(integrity_alltoall       integrity  48 --pattern alltoall --end 256k)
skiff_pipe_test4(integrity_neighbour2d    integrity  64 --pattern neighbour2d --soffset 3 --roffset 5 --end 256k)
skiff_pipe_test4(integrity_corrupt_pattern corrupt   0  --pattern alltoall --end 4k)
# One-sided (issue 17): put and get with fences and with lock_all + flush, the 8-byte atomics and the
# cache-line floor. Shared memory (skiff's direct path into MPI_Win_allocate windows), then the message
# path (SKIFF_NODE_SIZE=1: a pretend node per rank) over shm and over tcp. Integrity checks every byte of
# every transfer (get: the target rewrites its window per transfer, so stale data fails), the atomics'
# returned values and the target's final count; the corrupt cases must fail.
skiff_pipe_test(rma_put            timing     -q --put --end 64k --repeats 10 --trials 2)
skiff_pipe_test(rma_put_nofence    timing     -q --put --nofence --end 64k --pert 1 --repeats 10 --trials 2)
skiff_pipe_test(rma_get            timing     -q --get --end 64k --pert 1 --repeats 10 --trials 2)
skiff_pipe_test(rma_get_nofence    timing     -q --get --nofence --quick --end 16k)
skiff_pipe_test(rma_fop            timing     -q --fop --repeats 200 --trials 2)
skiff_pipe_test(rma_cas            timing     -q --cas --quick)
skiff_pipe_test(rma_cacheline      timing     -q --cacheline --repeats 200 --trials 2)
skiff_pipe_test(integrity_put          integrity  --put --end 1m)
skiff_pipe_test(integrity_put_nofence  integrity  --put --nofence --end 1m)
skiff_pipe_test(integrity_get          integrity  --get --end 1m)
skiff_pipe_test(integrity_get_nofence  integrity  --get --nofence --end 1m)
skiff_pipe_test(integrity_fop          integrity  --fop --repeats 50)
skiff_pipe_test(integrity_cas          integrity  --cas --repeats 50)
skiff_pipe_test(integrity_corrupt_put  corrupt    --put --nofence --end 64k)
skiff_pipe_test(integrity_corrupt_get  corrupt    --get --end 64k)
skiff_pipe_test(integrity_corrupt_cas  corrupt    --cas)
foreach(_t rma_msgpath_put rma_msgpath_get_nofence rma_msgpath_fop rma_tcp_put rma_tcp_get rma_tcp_put_nofence
        rma_tcp_cas integrity_msgpath_put_nofence integrity_msgpath_get integrity_msgpath_cas integrity_tcp_put
        integrity_tcp_put_nofence integrity_tcp_get_nofence integrity_tcp_fop)
  if(_t MATCHES "put_nofence$")
    set(_mode --put --nofence)
  elseif(_t MATCHES "get_nofence$")
    set(_mode --get --nofence)
  else()
    string(REGEX REPLACE ".*_" "--" _mode "${_t}")
  endif()
  if(_t MATCHES "^integrity")
    set(_case integrity)
  else()
    set(_case timing -q --repeats 10 --trials 2)
  endif()
  # Integrity goes past the eager sizes into rendezvous ones; timing runs only need a few sizes (each
  # costs a round of fences over tcp, slow under the sanitizers).
  if(_t MATCHES "^integrity" AND NOT _mode MATCHES "fop|cas")
    list(APPEND _case --end 256k)
  elseif(NOT _mode MATCHES "fop|cas")
    list(APPEND _case --end 64k --pert 0)
  endif()
  skiff_pipe_test(${_t} ${_case} ${_mode})
  if(_t MATCHES "tcp")
    set_property(TEST pipe_${_t} PROPERTY ENVIRONMENT SKIFF_NODE_SIZE=1 SKIFF_TRANSPORTS=tcp)
  else()
    set_property(TEST pipe_${_t} PROPERTY ENVIRONMENT SKIFF_NODE_SIZE=1)
  endif()
endforeach()
skiff_pipe_test(rma_cacheline_msgpath refused --cacheline)
set_property(TEST pipe_rma_cacheline_msgpath PROPERTY ENVIRONMENT SKIFF_NODE_SIZE=1)
# Three ranks: refused, and rank 0's reason must reach the user before the others' exit ends the job.
add_test(NAME pipe_rma_three_ranks
  COMMAND ${SKIFF_MPIEXEC} -n 3 --timeout 60 $<TARGET_FILE:skiff-pipe> --put --quick)
set_tests_properties(pipe_rma_three_ranks PROPERTIES TIMEOUT 90 PROCESSORS 2 LABELS "tools;pipe"
  PASS_REGULAR_EXPRESSION "one-sided modes need exactly 2 ranks \\(mpiexec -n 2\\), not 3")
# Raw floors, without MPI.
skiff_pipe_test(memcpy             memcpy     -q --quick --end 256k)
skiff_pipe_test(tcp                tcp        -q --quick --end 256k)
skiff_pipe_test(tcp_stream         tcp        -q --stream --quick --end 256k)
# Charts and the command line.
skiff_pipe_test(plot               plot       -q --end 16k --repeats 20)
skiff_pipe_test(usage              usage)

# The same sources with the peers' compiler wrappers (-Wall -Wextra -Werror), then a short run each.
foreach(peer mpich openmpi)
  if(peer STREQUAL "mpich")
    set(_launch "env UCX_TLS=self,posix mpiexec.mpich -n 2")
  else()
    set(_launch "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpiexec.openmpi --allow-run-as-root -n 2 --mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none")
  endif()
  add_test(NAME pipe_build_${peer}
    COMMAND ${SKIFF_PIPE_CHECK} peer --cc mpicc.${peer} --src ${PROJECT_SOURCE_DIR}/tools --launch ${_launch})
  set_tests_properties(pipe_build_${peer} PROPERTIES TIMEOUT 300 PROCESSORS 2 LABELS "tools;pipe" SKIP_RETURN_CODE 77)
endforeach()
