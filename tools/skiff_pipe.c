/* skiff-pipe: NetPIPE for today (docs/skiff-pipe.md). The command line is read before anything else,
 * so that the modules that measure no MPI (--memcpy, --tcp, --tcp-server, the overlay) never call
 * MPI_Init: under MPICH or Open MPI a singleton start costs seconds and may need a launcher. */
#include "skiff_pipe.h"

int main(int argc, char **argv)
{
    struct pipe_opts o;
    int rc = pipe_parse(argc, argv, &o);
    if (rc)
        return rc;
    switch (o.module) {
    case PIPE_HELP:
        pipe_usage(stdout);
        return 0;
    case PIPE_OVERLAY:
        return pipe_overlay(&o);
    case PIPE_MEMCPY:
        return pipe_memcpy_main(&o);
    case PIPE_TCP_CLIENT:
        return pipe_tcp_client_main(&o);
    case PIPE_TCP_SERVER:
        return pipe_tcp_server_main(&o);
    case PIPE_MPI:
        break;
    }
    return pipe_mpi_main(argc, argv, &o);
}
