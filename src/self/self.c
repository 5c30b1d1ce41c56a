/* A send to oneself is delivered inside the call: the receive side copies the data into a posted
 * receive or parks it as unexpected at once, so the sender's buffer is free when send returns. That is
 * why every self-send can be eager however large (max_eager is unlimited) and there is nothing to
 * progress, wait on, pull or finalize. */
#include "self/self.h"

#include <stdint.h>

static int self_send(int peer, const struct skiff_hdr *h, const void *payload, size_t len)
{
    skiff_core_incoming(peer, h, payload, len);
    return 0;
}

static const struct skiff_transport self_ops = {
    .name = "self",
    .send = self_send,
    .max_eager = SIZE_MAX,
    .max_piece = SIZE_MAX,
};

const struct skiff_transport *skiff_self_init(const unsigned char *uses)
{
    (void)uses;
    return &self_ops;
}
