/* State shared by the files of the tcp transport (not seen outside src/tcp). */
#ifndef SKIFF_TCP_INT_H
#define SKIFF_TCP_INT_H

#include "util/arch.h"

#include <stddef.h>
#include <stdint.h>

#include "tcp/net.h"

/* One connection to a peer. Bytes that the socket did not take wait in out[out_head, out_len). */
struct skiff_rail {
    int fd;
    int peer, index;
    unsigned char *out;
    size_t out_head, out_len, out_cap;
    unsigned char *in;
    size_t in_len, in_cap;
    int polling_out; /* EPOLLOUT is armed */
    int bye;         /* the peer said goodbye: EOF is expected */
    int eof;         /* the peer closed its side */
    int shut;        /* we closed ours (after our goodbye) */
    uint32_t mine, theirs;
    uint64_t sent;   /* bytes handed to this rail (statistics, skiff-info) */
};

struct skiff_tcp_peer {
    int nrails;
    uint16_t port;           /* the peer's listening port */
    struct skiff_rail *rail; /* nrails entries; rail 0 carries everything but striped pieces */
};

struct skiff_tcp {
    int epfd;
    int listen_fd;
    int wake_fd;     /* an eventfd in epfd: another thread of this process ends a sleep here (tcp_wake) */
    uint16_t port;
    struct skiff_net_card card;
    struct skiff_tcp_peer *peer; /* per job rank; nrails 0 for ranks not reached over tcp */
    const unsigned char *uses;   /* per job rank: 1 if this transport reaches it */
    size_t max_plen;
    int open_rails;
    int same_machine; /* ranks of other nodes whose host name is ours */
    unsigned long long recv_bytes; /* read from every rail since init (an MPI_T counter) */
};

extern SKIFF_HIDDEN struct skiff_tcp skiff_tcp_state;

/* Opens the listening socket whose port goes on our card. 0 or -1. */
int skiff_tcp_listen(struct skiff_tcp *t);
/* Connects every rail to every peer that uses tcp (collective over those ranks). 0 or -1. */
int skiff_tcp_connect_all(struct skiff_tcp *t);
/* Applies socket options shared by both ends of a rail. */
void skiff_tcp_tune(int fd);

#endif
