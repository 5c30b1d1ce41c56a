# Derived datatypes (issue 3). Included by tests/CMakeLists.txt; the programs also pass with MPICH.
#                    name                   source                 ranks               options
# Every constructor through point-to-point, typed and contiguous on either side, all send modes.
skiff_mpi_test(      dt_p2p                 dt_p2p.c               "1;2;3;4")
# MPI_Pack/Unpack/Pack_size, MPI_PACKED meeting typed messages.
skiff_mpi_test(      dt_pack                dt_pack.c              "1;2;3")
# Sizes, bounds, extents, Get_elements of partial elements, dup/commit/free and their errors.
skiff_mpi_test(      dt_extent              dt_extent.c            "1;2;singleton")
# The MPI-1 names (MPI_Address, MPI_Type_struct, MPI_Type_extent, ...).
skiff_mpi_test(      dt_mpi1                dt_mpi1.c              "1;2")
# Non-contiguous messages of several MiB over both rendezvous paths, and under back-pressure.
skiff_mpi_test(      dt_large               dt_large.c             "1;2;3")
skiff_mpi_test(      dt_large_nocma         dt_large.c             "2;4"               ENV SKIFF_SHM_CMA=0)
skiff_mpi_test(      dt_large_cma           dt_large.c             "2"                 ENV SKIFF_SHM_CMA=1)
set_tests_properties(dt_large_cma_np2 PROPERTIES SKIP_REGULAR_EXPRESSION "forbids process_vm_readv")
skiff_mpi_test(      dt_large_tiny          dt_large.c             "2"
  ENV SKIFF_SHM_FBOX=4096 SKIFF_SHM_CELLS=4 SKIFF_SHM_CELL=4096 SKIFF_SHM_CMA=0)
# Negative extents and displacements: bounds, pack, p2p (count > 1, partial, rendezvous), collectives.
skiff_mpi_test(      dt_negative            dt_negative.c          "1;2;3")
# MPI_Type_create_subarray and _darray (every distribution, both orders) against layouts computed by the test;
# a darray-distributed array sent part by part and gathered whole.
skiff_mpi_test(      dt_array               dt_array.c             "1;2;3;4")
# MPI_Type_get_envelope/get_contents for every combiner: exact contents, types rebuilt from them (down to the
# named types, after the user freed the parts) pack the same bytes and carry a message the same way.
skiff_mpi_test(      dt_decode              dt_decode.c            "1;2;3;4")
# MPI_Pack_external and friends: the external32 bytes of every predefined type as literals (also checked
# under MPICH and Open MPI), round trips, derived types; the _x queries, MPI_Status_set_elements, MPI_Aint_add.
skiff_mpi_test(      dt_external32          dt_external32.c        "1;2")
skiff_mpi_test(      dt_x                   dt_x.c                 "1;2")
# Reductions on non-contiguous derived types (vector, indexed, struct of one type, vector of MPI_DOUBLE_INT) in
# every form: blocking, nonblocking, persistent, MPI_IN_PLACE, MPI_Reduce_local, on intercommunicators.
skiff_mpi_test(      red_noncontig          red_noncontig.c        "1;2;3;4")
# Datatype names, attributes (copy/delete callbacks through Type_dup, Type_free), Type_match_size and the
# Fortran 90 parameterized types in messages and reductions.
skiff_mpi_test(      dt_attr                dt_attr.c              "1;2;3;4")
