/* Neighbourhood collectives: one round in which every receive from an in-neighbour and every send to an
 * out-neighbour is posted at once. The MPI layer decides which buffer goes to or comes from whom; blocks
 * are matched by posting order (messages between two processes do not overtake each other), so a caller
 * with repeated neighbours orders its transfers to pair up as the standard says. */
#include "coll/neighbor.h"

#include "coll/sched.h"
#include "core/error.h"

void skiff_build_neighbor(struct skiff_sched *s, const struct skiff_nbr_xfer *recvs, int nrecv,
                          const struct skiff_nbr_xfer *sends, int nsend)
{
    /* Receives first: a message from a neighbour that is already running then lands in place. */
    for (int i = 0; i < nrecv; i++)
        if (recvs[i].peer != MPI_PROC_NULL)
            skiff_sched_recv(s, recvs[i].buf, recvs[i].bytes, recvs[i].peer);
    for (int i = 0; i < nsend; i++)
        if (sends[i].peer != MPI_PROC_NULL)
            skiff_sched_send(s, sends[i].buf, sends[i].bytes, sends[i].peer);
    skiff_sched_round(s);
}

int skiff_coll_neighbor(struct skiff_comm *c, const struct skiff_nbr_xfer *recvs, int nrecv,
                        const struct skiff_nbr_xfer *sends, int nsend, struct skiff_request **req,
                        const struct skiff_req_then *then)
{
    if (!req) {
        struct skiff_sched s;
        skiff_sched_init(&s, c);
        skiff_build_neighbor(&s, recvs, nrecv, sends, nsend);
        return skiff_sched_run(&s, NULL);
    }
    struct skiff_sched *s = skiff_sched_new(c);
    if (!s)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a neighbourhood collective");
    skiff_build_neighbor(s, recvs, nrecv, sends, nsend);
    return skiff_sched_run_then(s, req, then);
}
