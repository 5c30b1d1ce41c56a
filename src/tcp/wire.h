/* What the tcp transport puts on the wire.
 *
 * A connection opens with a hello in each direction (the connecting side first). Then frames: a
 * fixed 56-byte head (payload length, a check word, the core's 48-byte message header) and the
 * payload. Nothing read from the wire is trusted: the parser rejects lengths the receiver did not
 * agree to, and the core checks the header against its own requests.
 *
 * Version history:
 *   1  hello {magic, version, rail, rank, nrails, jobid, secret}; frame {plen, check, hdr}; BYE type.
 */
#ifndef SKIFF_TCP_WIRE_H
#define SKIFF_TCP_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "core/proto.h"

#define SKIFF_TCP_VERSION 1
#define SKIFF_TCP_MAGIC "skiffTCP"
#define SKIFF_TCP_CHECK 0x534b4946u /* "SKIF", xor-ed with plen */
#define SKIFF_TCP_BYE 0xff          /* frame type: the sender has finalized; EOF follows */

struct skiff_tcp_hello {
    char magic[8];
    uint16_t version;
    uint16_t rail;
    uint32_t rank;
    uint32_t nrails;
    uint32_t pad;
    uint64_t jobid;
    uint64_t secret;
};
_Static_assert(sizeof(struct skiff_tcp_hello) == 40, "hello is 40 bytes");

struct skiff_tcp_head {
    uint32_t plen;
    uint32_t check;
    struct skiff_hdr h;
};
_Static_assert(sizeof(struct skiff_tcp_head) == 56, "frame head is 56 bytes");

enum skiff_tcp_parse {
    SKIFF_TCP_NEED_MORE = 0, /* not a whole frame yet */
    SKIFF_TCP_FRAME = 1,     /* *head and *payload describe one frame of *used bytes */
    SKIFF_TCP_BAD = -1,      /* the stream is corrupt or hostile: drop the connection */
};

/* Looks at the bytes at buf (have of them) for one frame whose payload may not exceed max_plen.
 * head is copied out (buf need not be aligned); payload points into buf. On SKIFF_TCP_BAD, *why
 * names the problem. */
enum skiff_tcp_parse skiff_tcp_parse(const unsigned char *buf, size_t have, size_t max_plen,
                                     struct skiff_tcp_head *head, const unsigned char **payload, size_t *used,
                                     const char **why);

/* Checks a peer's hello: 0, or -1 with *why set. */
int skiff_tcp_hello_check(const struct skiff_tcp_hello *h, uint64_t jobid, uint64_t secret, int nranks,
                          const char **why);

#endif
