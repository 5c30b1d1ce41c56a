/* The header every skiff message carries, whatever transport moves it.
 *
 * Version history:
 *   1  EAGER, RTS, CTS, DATA, FIN, ACK.
 *   2  DROP, WITHDRAW: what a finalizing rank does with messages that wait for an answer.
 *   3  CTS, DATA, FIN, ACK, DROP and WITHDRAW carry the context id of the message they answer, and the
 *      receiver refuses one whose context is not that of the request it names: the communicator an
 *      arrival belongs to (and the lock it will take) is known from its header alone.
 * Transports copy the header verbatim; only the core interprets it. Nothing in it is trusted blindly:
 * the receiver checks lengths against the buffers it owns and request ids against its own table.
 */
#ifndef SKIFF_PROTO_H
#define SKIFF_PROTO_H

#include <stdint.h>

#define SKIFF_PROTO_VERSION 3

enum skiff_msg_type {
    SKIFF_MSG_EAGER = 1, /* payload follows; matched against receives */
    SKIFF_MSG_RTS,       /* ready to send: len bytes at addr in process pid; matched against receives */
    SKIFF_MSG_CTS,       /* clear to send (pipelined copy): sreq may stream DATA to rreq */
    SKIFF_MSG_DATA,      /* a piece of a pipelined message: len bytes at offset aux of rreq */
    SKIFF_MSG_FIN,       /* receiver has pulled everything: sreq is complete */
    SKIFF_MSG_ACK,       /* a synchronous-mode eager message was matched: sreq is complete */
    SKIFF_MSG_DROP,      /* receiver dropped sreq's RTS or synchronous eager unmatched: it finalized, or
                            the sender withdrew it; sreq is complete, the message was never received */
    SKIFF_MSG_WITHDRAW,  /* a finalizing sender gives up on sreq: drop it if still unmatched (answer DROP) */
};

#define SKIFF_MSG_F_SYNC 0x1 /* sender waits for ACK (MPI_Ssend of a small message) */
#define SKIFF_MSG_F_LAST 0x2 /* DATA: the last piece of its message the sender pushes; once the transport has
                                taken it the send completes (read only by the sending transport: ucx holds
                                it until every earlier piece it still reads from the buffer is done) */

struct skiff_hdr {
    uint8_t type;
    uint8_t flags;
    uint16_t version;
    int32_t src;   /* sender's rank in the communicator */
    int32_t tag;
    uint32_t ctx;  /* communicator context id: of the message, or of the one a control message answers */
    uint64_t len;  /* message bytes (EAGER, RTS) or piece bytes (DATA) */
    uint64_t sreq; /* sender's request id (RTS, sync EAGER, CTS, FIN, ACK) */
    uint64_t rreq; /* receiver's request id (CTS, DATA) */
    uint64_t aux;  /* RTS: sender's buffer address; DATA: offset; high 32 bits of RTS: unused */
};

_Static_assert(sizeof(struct skiff_hdr) == 48, "header is 48 bytes so an 8-byte message fills one cache line");

#endif
