/* p2p.c — runs one round's point-to-point schedule on this rank and checks every message.
 *
 * Order of a round (schedule.c explains why it cannot deadlock):
 *   1. post the early receives (Irecv), innermost envelope first;
 *   2. in "ready" rounds, MPI_Barrier: from now on those receives are provably posted (Rsend);
 *   3. issue the sends in this rank's send order, in their modes;
 *   4. issue the remaining receives in order: Irecv, Recv, Probe or Iprobe then a receive of exactly
 *      the probed size, Irecv then a Test loop;
 *   5. complete everything still pending (with the overlapping nonblocking collectives) by the
 *      round's completion call, checking each receive as it completes;
 *   6. check that every message addressed to this rank arrived exactly once.
 */
#include "soak.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct recv_op {
    const struct sk_msg *want; /* the message the schedule planned this receive for */
    MPI_Comm comm;
    int src, tag;              /* the envelope, possibly wildcards */
    int vec, count;
    MPI_Datatype dt;
    uint8_t *buf;
    size_t ext;                /* buffer bytes before the guard */
    MPI_Request req;
};

struct send_op {
    const struct sk_msg *m;
    int count;
    MPI_Datatype dt;
    uint8_t *buf;
    MPI_Request req;
};

enum { P_RECV, P_SEND, P_COLL };
struct pend {
    int kind;
    void *obj;
};

struct p2p {
    const struct sk_round *r;
    MPI_Comm comm[2];
    MPI_Datatype vec;
    size_t vec_elem, vec_ext; /* bytes of data and of extent per vector element */
    int nrecv, nsend, npend;
    struct recv_op *rv;
    struct send_op *sd;
    MPI_Request *reqs;
    struct pend *pend;
    char *got, *done;
    int bsends;
    struct sk_stats *st;
};

/* ---------------------------------------------------------------- buffered mode */

static uint8_t *bsend_buf;
static int bsend_size;

void sk_bsend_attach(void)
{
    size_t bytes = sk_bsend_limit(sk_opt->max_bytes) + SK_BSEND_MSGS * ((size_t)MPI_BSEND_OVERHEAD + 64);
    bsend_size = (int)bytes;
    bsend_buf = sk_alloc(bytes);
    SK_MPI(MPI_Buffer_attach(bsend_buf, bsend_size));
}

/* Detach waits until every buffered message has left, so the next round starts with it empty. */
void sk_bsend_detach(void)
{
    void *addr = NULL;
    int size = 0;
    sk_where("MPI_Buffer_detach");
    SK_MPI(MPI_Buffer_detach(&addr, &size));
    if (addr != bsend_buf || size != bsend_size)
        sk_fail("MPI_Buffer_detach returned %p, %d bytes; attached %p, %d", addr, size, (void *)bsend_buf,
                bsend_size);
    free(bsend_buf);
    bsend_buf = NULL;
}

/* ---------------------------------------------------------------- vector layout */

/* The vector element is 2 blocks of k bytes with a hole of gap bytes between them. */
static size_t vec_offset(const struct p2p *p, size_t block)
{
    size_t k = (size_t)p->r->vec_k;
    return block / 2 * p->vec_ext + block % 2 * (k + (size_t)p->r->vec_gap);
}

static void vec_scatter(const struct p2p *p, uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t k = (size_t)p->r->vec_k;
    for (size_t b = 0; b < n / k; b++)
        memcpy(dst + vec_offset(p, b), src + b * k, k);
}

static void vec_gather(const struct p2p *p, uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t k = (size_t)p->r->vec_k;
    for (size_t b = 0; b < n / k; b++)
        memcpy(dst + b * k, src + vec_offset(p, b), k);
}

static void make_vector(struct p2p *p)
{
    int k = p->r->vec_k;
    SK_MPI(MPI_Type_vector(2, k, k + p->r->vec_gap, MPI_BYTE, &p->vec));
    SK_MPI(MPI_Type_commit(&p->vec));
    p->vec_elem = 2 * (size_t)k;
    p->vec_ext = 2 * (size_t)k + (size_t)p->r->vec_gap;
}

/* ---------------------------------------------------------------- descriptions for reports */

static const char *comm_name(int comm)
{
    return comm ? "dup" : "world";
}

static void spec_text(char *buf, size_t len, int src, int tag)
{
    char s[16], t[16];
    snprintf(s, sizeof s, "%d", src);
    snprintf(t, sizeof t, "%d", tag);
    snprintf(buf, len, "(%s,%s)", src == MPI_ANY_SOURCE ? "ANY" : s, tag == MPI_ANY_TAG ? "ANY" : t);
}

static void describe_recv(const struct recv_op *o, char *buf, size_t len)
{
    char spec[48];
    const struct sk_msg *w = o->want;
    spec_text(spec, sizeof spec, o->src, o->tag);
    snprintf(buf, len, "recv#%d %s %s on %s cap=%zu%s, planned for msg %d", w->recv_pos, sk_how_name[w->how], spec,
             comm_name(w->comm), w->cap, o->vec ? " as vector" : "", w->seq);
}

static void describe_msg(const struct sk_msg *m, char *buf, size_t len)
{
    snprintf(buf, len, "msg %d (%d->%d %s tag=%d size=%zu, %s%s send#%d, class#%d)", m->seq, m->src, m->dst,
             comm_name(m->comm), m->tag, m->n, sk_mode_name[m->mode], m->send_vec ? " vector" : "", m->send_pos,
             m->class_pos);
}

/* ---------------------------------------------------------------- receives */

static int comm_index(const struct p2p *p, MPI_Comm c)
{
    return c == p->comm[1] && c != p->comm[0];
}

static void recv_setup(struct p2p *p, struct recv_op *o, const struct sk_msg *m)
{
    const struct sk_round *r = p->r;
    o->want = m;
    o->comm = p->comm[m->comm];
    o->src = m->level == LV_ANY || (m->level == LV_PARTIAL && r->wild_src[m->dst]) ? MPI_ANY_SOURCE : m->src;
    o->tag = m->level == LV_ANY || (m->level == LV_PARTIAL && !r->wild_src[m->dst]) ? MPI_ANY_TAG : m->tag;
    o->vec = m->recv_vec;
    o->dt = o->vec ? p->vec : MPI_BYTE;
    o->count = (int)(o->vec ? m->cap / p->vec_elem : m->cap);
    o->ext = o->vec ? (size_t)o->count * p->vec_ext : m->cap;
    o->buf = sk_alloc(o->ext + SK_GUARD);
    memset(o->buf, SK_GUARD_BYTE, o->ext + SK_GUARD);
    o->req = MPI_REQUEST_NULL;
}

/* Everything of the buffer that the message does not cover must still hold the guard byte. */
static void check_untouched(const struct p2p *p, const struct recv_op *o, size_t n)
{
    size_t bad = SIZE_MAX, at;
    if (!o->vec) {
        at = sk_untouched(o->buf + n, o->ext - n + SK_GUARD, SK_GUARD_BYTE);
        if (at < o->ext - n + SK_GUARD)
            bad = n + at;
    } else {
        size_t k = (size_t)p->r->vec_k, gap = (size_t)p->r->vec_gap, elems = n / p->vec_elem;
        for (size_t e = 0; e < (size_t)o->count && bad == SIZE_MAX; e++) {
            size_t off = e < elems ? e * p->vec_ext + k : e * p->vec_ext;
            size_t len = e < elems ? gap : p->vec_ext;
            if ((at = sk_untouched(o->buf + off, len, SK_GUARD_BYTE)) < len)
                bad = off + at;
        }
        if (bad == SIZE_MAX && (at = sk_untouched(o->buf + o->ext, SK_GUARD, SK_GUARD_BYTE)) < SK_GUARD)
            bad = o->ext + at;
    }
    if (bad != SIZE_MAX) {
        char d[256];
        describe_recv(o, d, sizeof d);
        sk_fail("%s: %zu-byte message from %d wrote outside its data at buffer offset %zu (0x%02x, buffer %zu "
                "bytes + %d guard)", d, n, o->want->src, bad, o->buf[bad], o->ext, SK_GUARD);
    }
}

static size_t received_bytes(const struct p2p *p, const struct recv_op *o, const MPI_Status *st)
{
    int count = -1, elems = -1;
    SK_MPI(MPI_Get_count(st, o->dt, &count));
    SK_MPI(MPI_Get_elements(st, o->dt, &elems));
    size_t n = o->vec ? (size_t)count * p->vec_elem : (size_t)count;
    if (count < 0 || (size_t)elems != n || count > o->count) {
        char d[256];
        describe_recv(o, d, sizeof d);
        sk_fail("%s: MPI_Get_count %d (buffer holds %d), MPI_Get_elements %d", d, count, o->count, elems);
    }
    return n;
}

static int envelope_fits(const struct recv_op *o, const struct sk_msg *m)
{
    return (o->src == MPI_ANY_SOURCE || o->src == m->src) && (o->tag == MPI_ANY_TAG || o->tag == m->tag);
}

static int verify_msg(const struct p2p *p, const struct sk_msg *m, const uint8_t *data, size_t n,
                      struct sk_verdict *v)
{
    struct sk_hdr h = {(uint32_t)m->src, (uint32_t)p->r->round, (uint32_t)m->seq, (uint32_t)m->n, (uint32_t)m->tag,
                       0};
    return sk_verify(data, n, sk_msg_key(sk_opt->seed, m->src, p->r->round, m->seq), &h, v);
}

_Noreturn static void corrupt(const struct recv_op *o, const struct sk_msg *m, const struct sk_verdict *v,
                              const char *completion)
{
    char d[256], md[160];
    describe_recv(o, d, sizeof d);
    describe_msg(m, md, sizeof md);
    sk_fail("corrupt payload: %s into %s completed by %s: %zu bytes differ, first bad offset %zu (expected 0x%02x, "
            "got 0x%02x); checksum expected 0x%016llx, actual 0x%016llx",
            md, d, completion, v->bad, v->first, v->want, v->got, (unsigned long long)v->sum_want,
            (unsigned long long)v->sum_got);
}

/* A message without a usable header: the candidates are the unreceived messages with this envelope
 * and size, and the payload tells them apart. Payloads of a few bytes (or none) can coincide; then
 * messages planned for wildcards come first, as exact receives take theirs before any wildcard. */
static const struct sk_msg *identify_by_content(const struct p2p *p, const struct recv_op *o, int src, int tag,
                                                size_t n, const uint8_t *data, const char *completion)
{
    const struct sk_msg *first = NULL;
    struct sk_verdict v, v_first;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < p->r->nmsg; i++) {
            const struct sk_msg *m = &p->r->m[i];
            if (p->got[i] || m->dst != sk_rank || p->comm[m->comm] != o->comm || m->src != src || m->tag != tag ||
                m->n != n || (m->level == LV_EXACT) != pass)
                continue;
            if (verify_msg(p, m, data, n, &v))
                return m;
            if (!first) {
                first = m;
                v_first = v;
            }
        }
    }
    if (first)
        corrupt(o, first, &v_first, completion);
    char d[256];
    describe_recv(o, d, sizeof d);
    sk_fail("%s got a %zu-byte message from %d tag %d that no unreceived message of this round matches "
            "(duplicate or foreign message)", d, n, src, tag);
}

/* Whether the data is, intact, another unreceived message with this envelope and size. */
static int identify_by_content_quiet(const struct p2p *p, const struct recv_op *o, int src, int tag, size_t n,
                                     const uint8_t *data)
{
    struct sk_verdict v;
    for (int i = 0; i < p->r->nmsg; i++) {
        const struct sk_msg *m = &p->r->m[i];
        if (m != o->want && !p->got[i] && m->dst == sk_rank && p->comm[m->comm] == o->comm && m->src == src &&
            m->tag == tag && m->n == n && verify_msg(p, m, data, n, &v))
            return 1;
    }
    return 0;
}

static const struct sk_msg *identify(const struct p2p *p, const struct recv_op *o, int src, int tag, size_t n,
                                     const uint8_t *data, const char *completion)
{
    struct sk_hdr h;
    char d[256], md[160];
    if (!sk_read_hdr(data, n, &h))
        return identify_by_content(p, o, src, tag, n, data, completion);
    describe_recv(o, d, sizeof d);
    if (h.seq >= (uint32_t)p->r->nmsg || h.round != (uint32_t)p->r->round)
        sk_fail("%s got %zu bytes from %d tag %d whose header names round %u msg %u sender %u (this round has %d "
                "messages)", d, n, src, tag, h.round, h.seq, h.sender, p->r->nmsg);
    const struct sk_msg *m = &p->r->m[h.seq];
    if (m->dst != sk_rank || m->src != src || m->tag != tag || m->n != n || p->comm[m->comm] != o->comm ||
        p->got[m->seq]) {
        describe_msg(m, md, sizeof md);
        sk_fail("%s got %zu bytes from %d tag %d on %s; its header names %s%s", d, n, src, tag,
                comm_name(comm_index(p, o->comm)), md, p->got[m->seq] ? ", received before" : "");
    }
    return m;
}

/* An exact receive got something other than its planned message: name what it got, if possible. */
_Noreturn static void wrong_message(const struct p2p *p, const struct recv_op *o, int src, int tag, size_t n,
                                    const uint8_t *data)
{
    char d[256], md[160] = "";
    struct sk_hdr h;
    struct sk_verdict v;
    describe_recv(o, d, sizeof d);
    if (sk_read_hdr(data, n, &h) && h.seq < (uint32_t)p->r->nmsg)
        describe_msg(&p->r->m[h.seq], md, sizeof md);
    for (int i = 0; i < p->r->nmsg && !md[0]; i++) {
        const struct sk_msg *m = &p->r->m[i];
        if (m->dst == sk_rank && m->src == src && m->tag == tag && m->n == n && verify_msg(p, m, data, n, &v))
            describe_msg(m, md, sizeof md);
    }
    if (!md[0])
        snprintf(md, sizeof md, "an unidentified %zu-byte message from %d tag %d", n, src, tag);
    sk_fail("%s (class#%d) got %s instead: matching or non-overtaking order violated", d, o->want->class_pos, md);
}

/* Which message a completed receive got. Exact receives must get exactly their planned message;
 * wildcards any message of their envelope except those planned for exact receives, which were all
 * posted before any wildcard. */
static const struct sk_msg *matched_msg(struct p2p *p, const struct recv_op *o, int src, int tag, size_t n,
                                        const uint8_t *data, const char *completion, struct sk_verdict *v)
{
    const struct sk_msg *m = o->want;
    if (m->level == LV_EXACT) {
        if (src != m->src || tag != m->tag || n != m->n)
            wrong_message(p, o, src, tag, n, data);
        if (!verify_msg(p, m, data, n, v) && identify_by_content_quiet(p, o, src, tag, n, data))
            wrong_message(p, o, src, tag, n, data);
        return m;
    }
    m = identify(p, o, src, tag, n, data, completion);
    if (!envelope_fits(o, m) || m->level == LV_EXACT) {
        char d[256], md[160];
        describe_recv(o, d, sizeof d);
        describe_msg(m, md, sizeof md);
        sk_fail("%s got %s, %s", d, md,
                envelope_fits(o, m) ? "which was planned for an exact receive posted earlier" : "outside its envelope");
    }
    verify_msg(p, m, data, n, v);
    return m;
}

/* Checks a completed receive: status, count, untouched bytes, which message, its payload. */
static void recv_done(struct p2p *p, struct recv_op *o, const MPI_Status *st, const char *completion)
{
    size_t n = received_bytes(p, o, st);
    check_untouched(p, o, n);
    uint8_t *data = o->buf, *tmp = NULL;
    if (o->vec) {
        data = tmp = sk_alloc(n);
        vec_gather(p, tmp, o->buf, n);
    }
    struct sk_verdict v;
    const struct sk_msg *m = matched_msg(p, o, st->MPI_SOURCE, st->MPI_TAG, n, data, completion, &v);
    if (v.bad)
        corrupt(o, m, &v, completion);
    p->got[m->seq] = 1;
    p->st->messages++;
    p->st->bytes += (long long)n;
    free(tmp);
    free(o->buf);
    o->buf = NULL;
}

static void recv_post(struct recv_op *o)
{
    SK_MPI(MPI_Irecv(o->buf, o->count, o->dt, o->src, o->tag, o->comm, &o->req));
}

/* Probe (or poll Iprobe), then receive exactly what the probe announced. */
static void recv_probed(struct p2p *p, struct recv_op *o, int poll)
{
    MPI_Status st, st2;
    int flag = 0, count = -1;
    unsigned long polls = 0;
    if (poll) {
        while (!flag) {
            SK_MPI(MPI_Iprobe(o->src, o->tag, o->comm, &flag, &st));
            sk_relax(&polls);
        }
    } else {
        SK_MPI(MPI_Probe(o->src, o->tag, o->comm, &st));
    }
    SK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
    free(o->buf);
    o->vec = 0;
    o->dt = MPI_BYTE;
    o->count = count;
    o->ext = (size_t)count;
    o->buf = sk_alloc(o->ext + SK_GUARD);
    memset(o->buf, SK_GUARD_BYTE, o->ext + SK_GUARD);
    SK_MPI(MPI_Recv(o->buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, o->comm, &st2));
    int count2 = -1;
    SK_MPI(MPI_Get_count(&st2, MPI_BYTE, &count2));
    if (st2.MPI_SOURCE != st.MPI_SOURCE || st2.MPI_TAG != st.MPI_TAG || count2 != count) {
        char d[256];
        describe_recv(o, d, sizeof d);
        sk_fail("%s: probed (%d,%d) %d bytes, the receive for exactly that got (%d,%d) %d bytes", d, st.MPI_SOURCE,
                st.MPI_TAG, count, st2.MPI_SOURCE, st2.MPI_TAG, count2);
    }
    recv_done(p, o, &st2, poll ? "Iprobe+Recv" : "Probe+Recv");
}

static void recv_test_loop(struct p2p *p, struct recv_op *o)
{
    MPI_Status st;
    int flag = 0;
    unsigned long polls = 0;
    recv_post(o);
    while (!flag) {
        SK_MPI(MPI_Test(&o->req, &flag, &st));
        sk_relax(&polls);
    }
    recv_done(p, o, &st, "Test loop");
}

static void add_pending(struct p2p *p, int kind, void *obj, MPI_Request req)
{
    p->reqs[p->npend] = req;
    p->pend[p->npend++] = (struct pend){kind, obj};
}

static void recv_issue(struct p2p *p, struct recv_op *o)
{
    MPI_Status st;
    char d[256];
    describe_recv(o, d, sizeof d);
    sk_where("round %ld: %s", sk_cur_round, d);
    switch (o->want->how) {
    case RH_EARLY:
    case RH_IRECV:
        recv_post(o);
        add_pending(p, P_RECV, o, o->req);
        break;
    case RH_RECV:
        SK_MPI(MPI_Recv(o->buf, o->count, o->dt, o->src, o->tag, o->comm, &st));
        recv_done(p, o, &st, "Recv");
        break;
    case RH_PROBE:
    case RH_IPROBE:
        recv_probed(p, o, o->want->how == RH_IPROBE);
        break;
    default:
        recv_test_loop(p, o);
        break;
    }
}

/* ---------------------------------------------------------------- sends */

/* --inject: the first non-empty message of the first round is damaged or never sent. */
static int injected(const struct p2p *p, const struct sk_msg *m, int kind)
{
    if (sk_opt->inject != kind || p->r->round != sk_opt->first_round)
        return 0;
    for (int i = 0; i < p->r->nmsg; i++)
        if (p->r->m[i].n > 0)
            return &p->r->m[i] == m;
    return 0;
}

static void send_setup(struct p2p *p, struct send_op *o, const struct sk_msg *m)
{
    struct sk_hdr h = {(uint32_t)m->src, (uint32_t)p->r->round, (uint32_t)m->seq, (uint32_t)m->n, (uint32_t)m->tag,
                       0};
    uint64_t key = sk_msg_key(sk_opt->seed, m->src, p->r->round, m->seq);
    o->m = m;
    o->req = MPI_REQUEST_NULL;
    if (!m->send_vec) {
        o->buf = sk_alloc(m->n);
        sk_fill(o->buf, m->n, key, &h);
        if (injected(p, m, INJECT_CORRUPT))
            o->buf[m->n / 2] ^= 0x10;
        o->dt = MPI_BYTE;
        o->count = (int)m->n;
        return;
    }
    uint8_t *tmp = sk_alloc(m->n);
    sk_fill(tmp, m->n, key, &h);
    if (injected(p, m, INJECT_CORRUPT))
        tmp[m->n / 2] ^= 0x10;
    o->count = (int)(m->n / p->vec_elem);
    size_t ext = (size_t)o->count * p->vec_ext;
    o->buf = sk_alloc(ext);
    memset(o->buf, SK_GAP_BYTE, ext); /* holes: a library that sends them corrupts the message */
    vec_scatter(p, o->buf, tmp, m->n);
    o->dt = p->vec;
    free(tmp);
}

static void send_issue(struct p2p *p, struct send_op *o)
{
    const struct sk_msg *m = o->m;
    MPI_Comm c = p->comm[m->comm];
    char md[160];
    describe_msg(m, md, sizeof md);
    sk_where("round %ld: sending %s", sk_cur_round, md);
    if (injected(p, m, INJECT_DROP))
        return;
    switch (m->mode) {
    case SM_SEND: SK_MPI(MPI_Send(o->buf, o->count, o->dt, m->dst, m->tag, c)); break;
    case SM_SSEND: SK_MPI(MPI_Ssend(o->buf, o->count, o->dt, m->dst, m->tag, c)); break;
    case SM_RSEND: SK_MPI(MPI_Rsend(o->buf, o->count, o->dt, m->dst, m->tag, c)); break;
    case SM_BSEND: SK_MPI(MPI_Bsend(o->buf, o->count, o->dt, m->dst, m->tag, c)); break;
    case SM_ISEND: SK_MPI(MPI_Isend(o->buf, o->count, o->dt, m->dst, m->tag, c, &o->req)); break;
    case SM_ISSEND: SK_MPI(MPI_Issend(o->buf, o->count, o->dt, m->dst, m->tag, c, &o->req)); break;
    case SM_IRSEND: SK_MPI(MPI_Irsend(o->buf, o->count, o->dt, m->dst, m->tag, c, &o->req)); break;
    default: SK_MPI(MPI_Ibsend(o->buf, o->count, o->dt, m->dst, m->tag, c, &o->req)); break;
    }
    p->bsends += m->mode == SM_BSEND || m->mode == SM_IBSEND;
    if (o->req != MPI_REQUEST_NULL)
        add_pending(p, P_SEND, o, o->req);
}

/* ---------------------------------------------------------------- completion */

static void describe_pending(const struct p2p *p, const char *how)
{
    char buf[900];
    size_t len = 0;
    int left = 0, shown = 0;
    for (int i = 0; i < p->npend; i++) {
        if (p->done[i])
            continue;
        left++;
        if (shown >= 6 || len >= sizeof buf - 200)
            continue;
        shown++;
        if (p->pend[i].kind == P_RECV) {
            const struct recv_op *o = p->pend[i].obj;
            char spec[48];
            spec_text(spec, sizeof spec, o->src, o->tag);
            len += (size_t)snprintf(buf + len, sizeof buf - len, "; recv#%d %s for msg %d from %d", o->want->recv_pos,
                                    spec, o->want->seq, o->want->src);
        } else if (p->pend[i].kind == P_SEND) {
            const struct send_op *o = p->pend[i].obj;
            len += (size_t)snprintf(buf + len, sizeof buf - len, "; %s of msg %d to %d", sk_mode_name[o->m->mode],
                                    o->m->seq, o->m->dst);
        } else {
            len += (size_t)snprintf(buf + len, sizeof buf - len, "; a nonblocking collective");
        }
    }
    sk_where("round %ld: completing by %s, %d of %d requests pending%s%s", sk_cur_round, how, left, p->npend, buf,
             left > shown ? "; ..." : "");
}

static void pend_done(struct p2p *p, int i, const MPI_Status *st, const char *how)
{
    if (i < 0 || i >= p->npend || p->done[i])
        sk_fail("%s reported request index %d (%d requests, %s)", how, i, p->npend,
                i >= 0 && i < p->npend ? "completed before" : "out of range");
    if (p->reqs[i] != MPI_REQUEST_NULL)
        sk_fail("%s completed request %d but left its handle active", how, i);
    p->done[i] = 1;
    if (p->pend[i].kind == P_RECV)
        recv_done(p, p->pend[i].obj, st, how);
    else if (p->pend[i].kind == P_COLL)
        sk_coll_finish(p->pend[i].obj);
    describe_pending(p, how);
}

static void complete_all_at_once(struct p2p *p, MPI_Status *sts, int poll)
{
    const char *how = poll ? "Testall" : "Waitall";
    if (poll) {
        int flag = 0;
        unsigned long polls = 0;
        while (!flag) {
            SK_MPI(MPI_Testall(p->npend, p->reqs, &flag, sts));
            sk_relax(&polls);
        }
    } else {
        SK_MPI(MPI_Waitall(p->npend, p->reqs, sts));
    }
    for (int i = 0; i < p->npend; i++)
        pend_done(p, i, &sts[i], how);
}

static void complete_one_by_one(struct p2p *p, int poll)
{
    int left = p->npend;
    unsigned long polls = 0;
    MPI_Status st;
    while (left > 0) {
        for (int i = 0; i < p->npend; i++) {
            if (p->done[i])
                continue;
            int flag = 1;
            if (poll)
                SK_MPI(MPI_Test(&p->reqs[i], &flag, &st));
            else
                SK_MPI(MPI_Wait(&p->reqs[i], &st));
            if (flag) {
                pend_done(p, i, &st, poll ? "Test" : "Wait");
                left--;
            }
        }
        sk_relax(&polls);
    }
}

static void complete_any(struct p2p *p, int poll)
{
    const char *how = poll ? "Testany" : "Waitany";
    unsigned long polls = 0;
    MPI_Status st;
    for (int left = p->npend; left > 0;) {
        int idx = MPI_UNDEFINED, flag = 1;
        if (poll)
            SK_MPI(MPI_Testany(p->npend, p->reqs, &idx, &flag, &st));
        else
            SK_MPI(MPI_Waitany(p->npend, p->reqs, &idx, &st));
        if (flag && idx == MPI_UNDEFINED)
            sk_fail("%s found no active request with %d pending", how, left);
        if (flag) {
            pend_done(p, idx, &st, how);
            left--;
        }
        sk_relax(&polls);
    }
}

static void complete_some(struct p2p *p, MPI_Status *sts, int poll)
{
    const char *how = poll ? "Testsome" : "Waitsome";
    int *idx = sk_alloc(sizeof(int) * (size_t)p->npend);
    unsigned long polls = 0;
    for (int left = p->npend; left > 0;) {
        int out = -1;
        if (poll)
            SK_MPI(MPI_Testsome(p->npend, p->reqs, &out, idx, sts));
        else
            SK_MPI(MPI_Waitsome(p->npend, p->reqs, &out, idx, sts));
        if (out == MPI_UNDEFINED || out < (poll ? 0 : 1) || out > left)
            sk_fail("%s returned outcount %d with %d pending", how, out, left);
        for (int j = 0; j < out; j++)
            pend_done(p, idx[j], &sts[j], how);
        left -= out;
        sk_relax(&polls);
    }
    free(idx);
}

static void complete(struct p2p *p)
{
    int how = p->r->complete;
    MPI_Status *sts = sk_alloc(sizeof(MPI_Status) * (size_t)(p->npend + 1));
    describe_pending(p, sk_complete_name[how]);
    if (p->npend > 0) {
        switch (how) {
        case CM_WAITALL: complete_all_at_once(p, sts, 0); break;
        case CM_TESTALL: complete_all_at_once(p, sts, 1); break;
        case CM_WAIT: complete_one_by_one(p, 0); break;
        case CM_TEST: complete_one_by_one(p, 1); break;
        case CM_WAITANY: complete_any(p, 0); break;
        case CM_TESTANY: complete_any(p, 1); break;
        case CM_WAITSOME: complete_some(p, sts, 0); break;
        default: complete_some(p, sts, 1); break;
        }
    }
    free(sts);
}

/* ---------------------------------------------------------------- the round */

static int cmp_recv(const void *a, const void *b)
{
    return ((const struct recv_op *)a)->want->recv_pos - ((const struct recv_op *)b)->want->recv_pos;
}

static int cmp_send(const void *a, const void *b)
{
    return ((const struct send_op *)a)->m->send_pos - ((const struct send_op *)b)->m->send_pos;
}

static void build_ops(struct p2p *p)
{
    const struct sk_round *r = p->r;
    p->rv = sk_alloc(sizeof *p->rv * (size_t)(r->nmsg + 1));
    p->sd = sk_alloc(sizeof *p->sd * (size_t)(r->nmsg + 1));
    for (int i = 0; i < r->nmsg; i++) {
        if (r->m[i].dst == sk_rank)
            recv_setup(p, &p->rv[p->nrecv++], &r->m[i]);
        if (r->m[i].src == sk_rank)
            send_setup(p, &p->sd[p->nsend++], &r->m[i]);
    }
    qsort(p->rv, (size_t)p->nrecv, sizeof *p->rv, cmp_recv);
    qsort(p->sd, (size_t)p->nsend, sizeof *p->sd, cmp_send);
    size_t most = (size_t)(p->nrecv + p->nsend + SK_MAX_OVER + 1);
    p->reqs = sk_alloc(sizeof *p->reqs * most);
    p->pend = sk_alloc(sizeof *p->pend * most);
    p->done = calloc(most, 1);
    p->got = calloc((size_t)r->nmsg + 1, 1);
}

static void check_all_received(const struct p2p *p)
{
    for (int i = 0; i < p->r->nmsg; i++) {
        if (p->r->m[i].dst == sk_rank && !p->got[i]) {
            char md[160];
            describe_msg(&p->r->m[i], md, sizeof md);
            sk_fail("%s was never received, yet every receive completed", md);
        }
    }
}

static void free_ops(struct p2p *p)
{
    for (int i = 0; i < p->nrecv; i++)
        free(p->rv[i].buf);
    for (int i = 0; i < p->nsend; i++)
        free(p->sd[i].buf);
    free(p->rv);
    free(p->sd);
    free(p->reqs);
    free(p->pend);
    free(p->done);
    free(p->got);
}

void sk_p2p_round(const struct sk_round *r, MPI_Comm dup, struct sk_coll_run **over, struct sk_stats *st)
{
    struct p2p p = {.r = r, .comm = {MPI_COMM_WORLD, dup}, .st = st};
    make_vector(&p);
    build_ops(&p);
    for (int i = 0; i < r->nover; i++)
        if (over[i])
            add_pending(&p, P_COLL, over[i], *sk_coll_request(over[i]));
    int early = r->early[sk_rank];
    for (int i = 0; i < early; i++)
        recv_issue(&p, &p.rv[i]);
    if (r->ready) {
        sk_where("round %ld: MPI_Barrier before ready-mode sends", r->round);
        SK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    for (int i = 0; i < p.nsend; i++)
        send_issue(&p, &p.sd[i]);
    for (int i = early; i < p.nrecv; i++)
        recv_issue(&p, &p.rv[i]);
    complete(&p);
    check_all_received(&p);
    if (p.bsends) {
        sk_bsend_detach();
        sk_bsend_attach();
    }
    free_ops(&p);
    SK_MPI(MPI_Type_free(&p.vec));
}
