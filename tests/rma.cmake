include_guard(GLOBAL) # once, whatever includes it
# One-sided communication (issue 17): windows, put/get/accumulates, fence and passive target. Every test
# also passes with MPICH 4.0 and Open MPI 4.1.
skiff_mpi_test(rma_fence            rma_fence.c            "1;2;3;4")
skiff_mpi_test(rma_acc              rma_acc.c              "1;2;3;4")
