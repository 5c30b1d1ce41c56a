/* Large broadcast (van de Geijn): scatter the message in n pieces down a binomial tree, then
 * allgather the pieces around a ring. Each link carries about 2x the message instead of log2(n)x. */
#include "coll/algo.h"

static size_t piece_of(size_t bytes, int n, int i, size_t *off)
{
    size_t chunk = (bytes + (size_t)n - 1) / (size_t)n;
    size_t lo = chunk * (size_t)i;
    *off = lo < bytes ? lo : bytes;
    size_t hi = lo + chunk < bytes ? lo + chunk : bytes;
    return hi > *off ? hi - *off : 0;
}

/* Bytes of pieces [first, first + count) and where they start. */
static size_t span(size_t bytes, int n, int first, int count, size_t *off)
{
    size_t end;
    piece_of(bytes, n, first, off);
    piece_of(bytes, n, first + count, &end);
    if (first + count >= n)
        end = bytes;
    return end > *off ? end - *off : 0;
}

static void scatter_pieces(struct skiff_sched *s, char *buf, size_t bytes, int root)
{
    int n = s->comm->size, me = s->comm->rank, rel = (me - root + n) % n;
    size_t off;
    int mask = 1;
    while (mask < n) {
        if (rel & mask) {
            int cnt = n - rel < mask ? n - rel : mask;
            size_t len = span(bytes, n, rel, cnt, &off);
            skiff_sched_recv(s, buf + off, len, (rel - mask + root) % n);
            skiff_sched_round(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask < n) {
            int cnt = n - (rel + mask) < mask ? n - (rel + mask) : mask;
            size_t len = span(bytes, n, rel + mask, cnt, &off);
            skiff_sched_send(s, buf + off, len, (rel + mask + root) % n);
        }
    }
    skiff_sched_round(s);
}

static void ring_allgather_pieces(struct skiff_sched *s, char *buf, size_t bytes, int root)
{
    int n = s->comm->size, me = s->comm->rank, rel = (me - root + n) % n;
    int left = (me - 1 + n) % n, right = (me + 1) % n;
    for (int k = 0; k < n - 1; k++) {
        int send_piece = (rel - k + n) % n, recv_piece = (rel - k - 1 + n) % n;
        size_t soff, roff;
        size_t slen = piece_of(bytes, n, send_piece, &soff), rlen = piece_of(bytes, n, recv_piece, &roff);
        skiff_sched_send(s, buf + soff, slen, right);
        skiff_sched_recv(s, buf + roff, rlen, left);
        skiff_sched_round(s);
    }
}

void skiff_bcast_scatter_allgather(struct skiff_sched *s, void *buf, size_t bytes, int root)
{
    scatter_pieces(s, buf, bytes, root);
    ring_allgather_pieces(s, buf, bytes, root);
}
