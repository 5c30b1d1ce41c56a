/* MPI_Alloc_mem: cache-line aligned memory (the shared-memory copies run fastest on it). */
#include <stdlib.h>

#include "mpi/mpi_impl.h"

#define MEM_ALIGN 64

/* Each block starts with a header linking it into the list of live blocks, newest first. MPI_Free_mem
 * looks base up there before touching any memory, so a pointer MPI_Alloc_mem did not hand out (or
 * already took back) is refused instead of corrupting the heap. */
struct mem_head {
    struct mem_head *next, **prev;
    _Alignas(MEM_ALIGN) char data[];
};

static struct mem_head *live;

static int check_alloc(MPI_Aint size, MPI_Info info, const void *baseptr)
{
    if (size < 0)
        return skiff_err(MPI_ERR_ARG, "invalid size %ld (must be >= 0)", (long)size);
    int rc = skiff_check_info(info);
    return rc ? rc : skiff_check_ptr(baseptr, "baseptr");
}

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    SKIFF_ENTER(MPI_Alloc_mem);
    SKIFF_REQUIRE_INIT();
    int rc = check_alloc(size, info, baseptr);
    if (rc)
        return skiff_fail_world(rc);
    void *p = NULL;
    if ((size_t)size > SIZE_MAX - sizeof(struct mem_head) ||
        posix_memalign(&p, MEM_ALIGN, sizeof(struct mem_head) + (size_t)size) != 0)
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "cannot allocate %ld bytes", (long)size));
    struct mem_head *h = p;
    h->next = live;
    h->prev = &live;
    if (live)
        live->prev = &h->next;
    live = h;
    *(void **)baseptr = h->data;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Alloc_mem)

static struct mem_head *find_block(const void *base)
{
    for (struct mem_head *h = live; h; h = h->next)
        if (h->data == base)
            return h;
    return NULL;
}

int PMPI_Free_mem(void *base)
{
    SKIFF_ENTER(MPI_Free_mem);
    if (!base) /* as free(NULL) */
        return MPI_SUCCESS;
    struct mem_head *h = find_block(base);
    if (!h)
        return skiff_fail_world(skiff_err(MPI_ERR_BASE, "base %p was not allocated by MPI_Alloc_mem, or was freed "
                                                        "already", base));
    *h->prev = h->next;
    if (h->next)
        h->next->prev = h->prev;
    free(h);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Free_mem)
