#include "tcp/wire.h"

#include <string.h>

/* Which payload length a frame of this type may carry; the core re-checks the header itself. */
static int plen_fits_type(const struct skiff_tcp_head *f)
{
    switch (f->h.type) {
    case SKIFF_MSG_EAGER:
    case SKIFF_MSG_DATA:
        return f->h.len == f->plen;
    case SKIFF_MSG_RTS:
    case SKIFF_MSG_CTS:
    case SKIFF_MSG_FIN:
    case SKIFF_MSG_ACK:
    case SKIFF_MSG_DROP:
    case SKIFF_MSG_WITHDRAW:
    case SKIFF_TCP_BYE:
        return f->plen == 0;
    default:
        return 0;
    }
}

enum skiff_tcp_parse skiff_tcp_parse(const unsigned char *buf, size_t have, size_t max_plen,
                                     struct skiff_tcp_head *head, const unsigned char **payload, size_t *used,
                                     const char **why)
{
    if (have < sizeof *head)
        return SKIFF_TCP_NEED_MORE;
    memcpy(head, buf, sizeof *head);
    if ((head->check ^ head->plen) != SKIFF_TCP_CHECK) {
        *why = "frame check word is wrong";
        return SKIFF_TCP_BAD;
    }
    if (head->plen > max_plen) {
        *why = "frame longer than any message the receiver accepts";
        return SKIFF_TCP_BAD;
    }
    if (head->h.version != SKIFF_PROTO_VERSION) {
        *why = "message header of another protocol version";
        return SKIFF_TCP_BAD;
    }
    if (!plen_fits_type(head)) {
        *why = "frame length does not fit its message type";
        return SKIFF_TCP_BAD;
    }
    if (have - sizeof *head < head->plen)
        return SKIFF_TCP_NEED_MORE;
    *payload = buf + sizeof *head;
    *used = sizeof *head + head->plen;
    return SKIFF_TCP_FRAME;
}

int skiff_tcp_hello_check(const struct skiff_tcp_hello *h, uint64_t jobid, uint64_t secret, int nranks,
                          const char **why)
{
    if (memcmp(h->magic, SKIFF_TCP_MAGIC, sizeof h->magic) != 0)
        *why = "not a skiff peer";
    else if (h->version != SKIFF_TCP_VERSION)
        *why = "another version of skiff's tcp protocol";
    else if (h->jobid != jobid || h->secret != secret)
        *why = "wrong job or secret";
    else if (h->rank >= (uint32_t)nranks)
        *why = "rank out of range";
    else if (h->nrails == 0 || h->nrails > 64 || h->rail >= h->nrails)
        *why = "impossible rail number";
    else
        return 0;
    return -1;
}
