#include <mpi.h>
#include <cstdio>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Status st;
  if (n > 1 && r == 0) { int v = 42; MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); }
  if (n > 1 && r == 1) { int v = 0; MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &st); std::printf("got %d\n", v); }
  MPI_Finalize();
  return 0;
}
