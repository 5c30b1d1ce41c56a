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
  // Fortran interoperability from C++: handle integers, status arrays, the Fortran datatypes.
  MPI_Fint f = MPI_Comm_c2f(MPI_COMM_WORLD), fs[MPI_F_STATUS_SIZE];
  MPI_Comm back = MPI_Comm_f2c(f);
  MPI_Datatype fortran[] = {MPI_INTEGER, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX, MPI_DOUBLE_COMPLEX,
                            MPI_LOGICAL, MPI_CHARACTER, MPI_2DOUBLE_PRECISION, MPI_INTEGER8, MPI_COMPLEX32};
  if (n > 1 && r == 1) { MPI_Status_c2f(&st, fs); std::printf("source %d\n", (int)fs[MPI_F_SOURCE]); }
  std::printf("%d %d %d\n", back == MPI_COMM_WORLD, MPI_Type_toint(fortran[0]), MPI_Request_fromint(0) == MPI_REQUEST_NULL);
  MPI_Finalize();
  return 0;
}
