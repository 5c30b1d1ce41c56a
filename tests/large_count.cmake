# The MPI-4 large-count (_c) calls: with small counts against their int forms at several process counts.
skiff_mpi_test(large_count large_count.c "1;2;3;4")
