/* Single copy for Win_create windows within a node.
 *
 * The origin walks the target datatype's blocks as remote iovecs and moves the data in one system call
 * per IOV_MAX of them; the origin side is the user's buffer when its type is contiguous, else a packed
 * copy. A put is complete at the target when the call returns, which is what makes fence, PSCW and
 * passive target work unchanged: their messages follow the data. */
#include "rma/cma.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "core/datatype.h"
#include "rma/win.h"
#include "util/cma.h"
#include "util/config.h"

#ifndef IOV_MAX
#define IOV_MAX 1024
#endif

int skiff_rma_cma_usable(void)
{
    static int usable = -1;
    if (usable < 0)
        usable = skiff_cfg.shm_cma != 0 && skiff_cma_probe();
    return usable;
}

/* The remote blocks of count elements of t at addr, adjacent ones merged; NULL when out of memory. */
static struct iovec *remote_blocks(uint64_t addr, size_t count, const struct skiff_type *t, size_t *n)
{
    struct iovec *v = malloc(sizeof *v * (count * t->nblocks + 1));
    size_t k = 0;
    for (size_t e = 0; v && e < count; e++)
        for (size_t i = 0; i < t->nblocks; i++) {
            char *p = (char *)(uintptr_t)(addr + (uint64_t)((ptrdiff_t)e * t->extent + t->blocks[i].off));
            if (!t->blocks[i].len)
                continue;
            if (k && (char *)v[k - 1].iov_base + v[k - 1].iov_len == p)
                v[k - 1].iov_len += t->blocks[i].len;
            else
                v[k++] = (struct iovec){p, t->blocks[i].len};
        }
    *n = k;
    return v;
}

/* Moves the bytes at local to or from the n remote blocks, IOV_MAX blocks per call; a partial transfer
 * continues where it stopped. */
static int move(pid_t pid, int write, char *local, struct iovec *r, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t m = n - i < IOV_MAX ? n - i : IOV_MAX, len = 0;
        for (size_t j = 0; j < m; j++)
            len += r[i + j].iov_len;
        struct iovec l = {local, len};
        ssize_t got = write ? process_vm_writev(pid, &l, 1, r + i, (unsigned long)m, 0)
                            : process_vm_readv(pid, &l, 1, r + i, (unsigned long)m, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -errno;
        if (got == 0)
            return -EFAULT;
        local += got;
        for (size_t left = (size_t)got; left;) { /* skip what was moved */
            size_t take = left < r[i].iov_len ? left : r[i].iov_len;
            r[i].iov_base = (char *)r[i].iov_base + take;
            r[i].iov_len -= take;
            left -= take;
            if (!r[i].iov_len)
                i++;
        }
    }
    return 0;
}

int skiff_rma_cma(pid_t pid, uint64_t taddr, const struct skiff_rma_op *op)
{
    const struct skiff_type *ot = op->ot;
    size_t bytes = op->tcount * op->tt->size, n = 0;
    int put = op->kind == SKIFF_RMA_PUT;
    char *tmp = NULL, *local = skiff_type_data(op->oaddr, ot);
    if (!ot->contiguous) {
        if (!(tmp = malloc(bytes ? bytes : 1)))
            return -ENOMEM;
        if (put)
            skiff_type_pack(op->oaddr, op->ocount, ot, tmp);
        local = tmp;
    }
    struct iovec *r = remote_blocks(taddr, op->tcount, op->tt, &n);
    int rc = r ? move(pid, put, local, r, n) : -ENOMEM;
    if (!rc && tmp && !put)
        skiff_type_unpack(tmp, bytes, (void *)(uintptr_t)op->oaddr, op->ocount, ot);
    free(r);
    free(tmp);
    return rc;
}
