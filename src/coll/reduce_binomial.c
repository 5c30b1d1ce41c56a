/* Binomial-tree reduction. Operands are always combined as (lower ranks) op (higher ranks), so
 * non-commutative ops get the standard's order; for them the tree is rooted at rank 0 (ranks and
 * tree positions coincide) and the result then travels to the real root. */
#include "coll/algo.h"
#include "core/op.h"

void skiff_reduce_binomial(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count, size_t esize,
                           int root)
{
    int n = s->comm->size, me = s->comm->rank;
    int commute = skiff_op_commutative(s->op);
    int tree_root = commute ? root : 0;
    int rel = (me - tree_root + n) % n;
    size_t bytes = count * esize;
    char *scratch = skiff_sched_scratch(s, 2 * bytes);
    /* The accumulator is recvbuf where we may write it (the tree root), scratch elsewhere. */
    char *acc = me == tree_root && me == root ? recvbuf : scratch, *in = scratch + bytes;
    if (acc != sendbuf)
        skiff_sched_copy_first(s, acc, sendbuf, bytes);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask) {
            skiff_sched_send(s, acc, bytes, (rel - mask + tree_root) % n);
            skiff_sched_round(s);
            break;
        }
        if (rel + mask >= n)
            continue;
        skiff_sched_recv(s, in, bytes, (rel + mask + tree_root) % n);
        if (commute) {
            skiff_sched_reduce(s, in, acc, count); /* acc = in op acc: order does not matter */
        } else {
            skiff_sched_reduce(s, acc, in, count); /* in = acc op in: lower ranks first */
            skiff_sched_copy(s, acc, in, bytes);
        }
        skiff_sched_round(s);
    }
    if (tree_root == root)
        return;
    if (me == tree_root)
        skiff_sched_send(s, acc, bytes, root);
    else if (me == root)
        skiff_sched_recv(s, recvbuf, bytes, tree_root);
    skiff_sched_round(s);
}
