/* What MPI_Finalize does with sends that are still in flight.
 *
 * A peer may still be reading our buffer (rendezvous) or waiting for pieces we push: that is always
 * finished, however long it takes. A send that only waits for its receiver to match it is different:
 * once the receiver finalizes, no receive can ever match it, and the receiver says so (DROP) or is
 * seen to have finalized; the send then ends with a report on stderr. A receiver that is still running
 * may yet match it, so after SKIFF_FINALIZE_TIMEOUT seconds we say what is left and ask the receiver
 * to drop it unless matched (WITHDRAW); its answer, which comes at its next MPI call, lets us return
 * without ever cutting off a transfer in progress. */
#include "core/progress.h"
#include "core/pt2pt.h"
#include "util/config.h"
#include "util/timer.h"

/* How often the wait looks for peers that finalized without answering (their goodbye, their state). */
#define PEER_CHECK_SECONDS 0.01

void skiff_finalize_sends(void)
{
    skiff_pt2pt_finalize_begin();
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    double start = skiff_now(), next_check = start;
    int withdrawn = 0;
    while (skiff_pt2pt_outstanding() || skiff_pt2pt_busy()) {
        skiff_wait_step(&w);
        double now = skiff_now();
        if (now < next_check)
            continue;
        next_check = now + PEER_CHECK_SECONDS;
        skiff_pt2pt_abandon_finished();
        if (!withdrawn && now - start >= skiff_cfg.finalize_timeout) {
            skiff_pt2pt_withdraw_all(now - start);
            withdrawn = 1;
        }
    }
    skiff_pt2pt_closing();
}
