/* Address cards: how ranks that connect by address (the tcp transport) learn each other's.
 * Under skiff's own single-host mpiexec they sit in the job segment; under a PMI server they are
 * keys of the job's key-value space (PMI-1's, or PMIx's: each rank's own). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "boot/boot.h"
#include "boot/pmi.h"
#include "util/timer.h"
#include "util/log.h"

#define CARD_WAIT_SECONDS 60.0

/* Every rank has the segment mapped; mpiexec kills the job if one dies, so waiting is bounded by
 * that, and by a timeout that names who is missing in case a rank never reaches MPI_Init. */
static int segment_exchange(const char *mine)
{
    struct skiff_job_header *h = skiff_boot.hdr;
    if (!h) {
        skiff_error("no job segment to exchange addresses in");
        return -1;
    }
    snprintf(skiff_job_card(h, (uint32_t)skiff_boot.rank), SKIFF_JOB_CARD, "%s", mine);
    atomic_fetch_add_explicit(&h->cards_ready, 1, memory_order_release);
    double give_up = skiff_now() + CARD_WAIT_SECONDS;
    struct timespec nap = {0, 200000};
    while (atomic_load_explicit(&h->cards_ready, memory_order_acquire) < h->nranks) {
        if (skiff_now() > give_up) {
            skiff_error("only %u of %u ranks published their addresses within %.0f s", atomic_load(&h->cards_ready),
                        h->nranks, CARD_WAIT_SECONDS);
            return -1;
        }
        nanosleep(&nap, NULL);
    }
    return 0;
}

int skiff_boot_cards_exchange(const char *mine)
{
    if (strlen(mine) >= SKIFF_JOB_CARD) {
        skiff_error("address card of %zu bytes is too long", strlen(mine));
        return -1;
    }
    if (skiff_boot.pmi) {
        char key[32];
        snprintf(key, sizeof key, "skiff-card-%d", skiff_boot.rank);
        return skiff_boot_pmi->put(key, mine) || skiff_boot_pmi->fence() ? -1 : 0;
    }
    return segment_exchange(mine);
}

int skiff_boot_card(int rank, char *out, size_t len)
{
    if (skiff_boot.pmi) {
        char key[32];
        snprintf(key, sizeof key, "skiff-card-%d", rank);
        if (skiff_boot_pmi->get(rank, key, out, len) == 0)
            return 0;
        skiff_error("rank %d published no address card", rank);
        return -1;
    }
    snprintf(out, len, "%s", skiff_job_card(skiff_boot.hdr, (uint32_t)rank));
    return 0;
}
