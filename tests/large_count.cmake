# The MPI-4 large-count (_c) calls: with small counts against their int forms at several process counts.
skiff_mpi_test(large_count large_count.c "1;2;3;4")
# The v and w collectives' _c forms (blocking, nonblocking, persistent, neighbourhood, intercommunicator),
# with displacements beyond INT_MAX, and Type_create_subarray_c/darray_c, against their int forms.
skiff_mpi_test(large_count_v large_count_v.c "1;2;3;4")
# More than 2^31 bytes by Send_c/Recv_c, Bcast_c, Allreduce_c and a derived type larger than INT_MAX, on
# shared memory and tcp. Needs up to 2 x 2.002 GiB per rank (about 8 GiB at np 2); skips itself (passing)
# with less than 9 GiB available. Label "large"; one at a time (RUN_SERIAL): ctest -L large.
# Plain build only: under ASan the two runs took 142 s (84 s + 58 s, one at a time) of a suite that must
# stay under 30 minutes, and the plain build runs the same program with the same checks of the data.
if(NOT SKIFF_SANITIZE AND NOT SKIFF_SANITIZE_THREAD)
  skiff_mpi_test(large_count_big large_count_big.c "2" TIMEOUT 900)
  foreach(t large_count_big_np2 large_count_big_tcp_np2)
    set_property(TEST ${t} APPEND PROPERTY LABELS large)
    set_tests_properties(${t} PROPERTIES RUN_SERIAL TRUE)
  endforeach()
endif()
