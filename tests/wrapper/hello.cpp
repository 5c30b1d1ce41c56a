// hello.cpp: hello.c in C++, for the wrappers' C++ side (tests/wrapper/clang.sh).
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::printf("Hello from rank %d of %d\n", rank, size);
    MPI_Finalize();
    return 0;
}
