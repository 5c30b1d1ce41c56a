/* C's MPI_F_STATUS_IGNORE and MPI_F_STATUSES_IGNORE in a program that has the Fortran bindings (built
 * with libmpifort): they are global variables that are not null, a Fortran binding called from C
 * recognises them (no status is written there), and MPI_Status_f2c refuses them. One rank, messages to
 * itself on MPI_COMM_SELF. Prints "FAIL [rank 0] ..." on a wrong answer. */
#include <mpi.h>
#include <stdio.h>

/* Fortran bindings, as gfortran calls them. */
void mpi_recv_(void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm,
               MPI_Fint *status, MPI_Fint *ierr);
void mpi_waitall_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierr);

static int fails;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL [rank 0] %s\n", what);
        fails++;
    }
}

/* Nothing was written into the "ignore" objects (a status from these receives has tag 7 or 8; each
 * object holds one status). */
static int untouched(void)
{
    return MPI_F_STATUS_IGNORE[MPI_F_TAG] == 0 && MPI_F_STATUSES_IGNORE[MPI_F_TAG] == 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    check(MPI_F_STATUS_IGNORE && MPI_F_STATUSES_IGNORE, "MPI_F_STATUS(ES)_IGNORE are not null");
    check(MPI_F08_STATUS_IGNORE && MPI_F08_STATUSES_IGNORE, "MPI_F08_STATUS(ES)_IGNORE are not null");
    if (fails) {
        MPI_Finalize();
        return 1;
    }
    int x = 42, y = 0, z = 0;
    MPI_Fint one = 1, two = 2, self = 0, tag = 7, ierr = -1;
    MPI_Fint type = MPI_Type_c2f(MPI_INT), comm = MPI_Comm_c2f(MPI_COMM_SELF);
    MPI_Request r[2];
    MPI_Isend(&x, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &r[0]);
    mpi_recv_(&y, &one, &type, &self, &tag, &comm, MPI_F_STATUS_IGNORE, &ierr);
    check(ierr == MPI_SUCCESS && y == 42, "mpi_recv_ called from C with MPI_F_STATUS_IGNORE");
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);

    MPI_Irecv(&z, 1, MPI_INT, 0, 8, MPI_COMM_SELF, &r[0]);
    MPI_Isend(&x, 1, MPI_INT, 0, 8, MPI_COMM_SELF, &r[1]);
    MPI_Fint fr[2] = {MPI_Request_c2f(r[0]), MPI_Request_c2f(r[1])};
    mpi_waitall_(&two, fr, MPI_F_STATUSES_IGNORE, &ierr);
    check(ierr == MPI_SUCCESS && z == 42, "mpi_waitall_ called from C with MPI_F_STATUSES_IGNORE");
    check(untouched(), "a status was written into MPI_F_STATUS(ES)_IGNORE");

    MPI_Status s;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Status_f2c(MPI_F_STATUS_IGNORE, &s), cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    check(cls == MPI_ERR_ARG, "MPI_Status_f2c(MPI_F_STATUS_IGNORE) is MPI_ERR_ARG");
    MPI_Finalize();
    if (!fails)
        printf("c_status_ignore: ok\n");
    return fails != 0;
}
