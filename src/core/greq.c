#include "core/greq.h"

#include <pthread.h>
#include <stdlib.h>

enum { COMPLETE = 1, FREED = 2 };

struct greq {
    struct greq *next, *prev; /* the registry; changed by the owning thread under the lock */
    uint64_t id;
    pthread_t starter;
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
    unsigned bits; /* COMPLETE | FREED, atomically: the completing thread sets COMPLETE */
    int seen;      /* the owning thread saw COMPLETE (counted out of skiff_greq_waiting) */
    struct skiff_request *r;
};

int skiff_greq_waiting;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct greq *registry;

static void link_in(struct greq *g)
{
    pthread_mutex_lock(&lock);
    g->next = registry;
    if (registry)
        registry->prev = g;
    registry = g;
    pthread_mutex_unlock(&lock);
}

static void unlink_out(struct greq *g)
{
    pthread_mutex_lock(&lock);
    if (g->prev)
        g->prev->next = g->next;
    else
        registry = g->next;
    if (g->next)
        g->next->prev = g->prev;
    pthread_mutex_unlock(&lock);
}

/* Under the lock. */
static struct greq *find(uint64_t id)
{
    struct greq *g = registry;
    while (g && g->id != id)
        g = g->next;
    return g;
}

int skiff_greq_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                     MPI_Grequest_cancel_function *cancel_fn, void *extra_state, struct skiff_request **out)
{
    struct greq *g = calloc(1, sizeof *g);
    struct skiff_request *r = g ? skiff_req_alloc(SKIFF_REQ_GREQ) : NULL;
    if (!r) {
        free(g);
        return MPI_ERR_NO_MEM;
    }
    *g = (struct greq){.id = skiff_req_id(r), .starter = pthread_self(), .query_fn = query_fn, .free_fn = free_fn,
                       .cancel_fn = cancel_fn, .extra_state = extra_state, .r = r};
    r->state = SKIFF_RS_POSTED;
    r->peer = MPI_ANY_SOURCE;
    r->tag = MPI_ANY_TAG;
    r->cookie = g;
    link_in(g);
    skiff_greq_waiting++;
    *out = r;
    return MPI_SUCCESS;
}

/* Whoever sets the second of COMPLETE and FREED runs the free function; the owning thread alone
 * releases the objects. */
int skiff_greq_complete(uint64_t id)
{
    pthread_mutex_lock(&lock);
    struct greq *g = find(id);
    unsigned before = g ? __atomic_fetch_or(&g->bits, COMPLETE, __ATOMIC_ACQ_REL) : 0;
    MPI_Grequest_free_function *free_fn = g ? g->free_fn : NULL;
    void *extra = g ? g->extra_state : NULL;
    pthread_mutex_unlock(&lock);
    if (!g)
        return -1;
    if (before & COMPLETE)
        return -2;
    if ((before & FREED) && free_fn)
        free_fn(extra);
    return 0;
}

int skiff_greq_started_here(uint64_t id)
{
    pthread_mutex_lock(&lock);
    struct greq *g = find(id);
    int here = !g || pthread_equal(g->starter, pthread_self());
    pthread_mutex_unlock(&lock);
    return here;
}

static void destroy(struct greq *g)
{
    unlink_out(g);
    skiff_req_release(g->r);
    free(g);
}

/* The owning thread walks the list without the lock: only it changes the list. */
int skiff_greq_poll(void)
{
    int n = 0;
    for (struct greq *g = registry, *next; g; g = next) {
        next = g->next;
        if (g->seen)
            continue;
        unsigned bits = __atomic_load_n(&g->bits, __ATOMIC_ACQUIRE);
        if (!(bits & COMPLETE))
            continue;
        g->seen = 1;
        skiff_greq_waiting--;
        n++;
        if (bits & FREED)
            destroy(g); /* its free function ran in MPI_Grequest_complete */
        else
            g->r->state = SKIFF_RS_DONE;
    }
    return n;
}

int skiff_greq_status(struct skiff_request *r, MPI_Status *status)
{
    struct greq *g = r->cookie;
    MPI_Status scratch;
    MPI_Status *st = status ? status : &scratch;
    /* What the query function leaves alone reads as an empty status. */
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->MPI_ERROR = MPI_SUCCESS;
    for (size_t i = 0; i < sizeof st->MPI_internal / sizeof st->MPI_internal[0]; i++)
        st->MPI_internal[i] = 0;
    int rc = g->query_fn ? g->query_fn(g->extra_state, st) : MPI_SUCCESS;
    if (rc)
        st->MPI_ERROR = rc;
    return rc;
}

int skiff_greq_retire(struct skiff_request *r, MPI_Status *status)
{
    struct greq *g = r->cookie;
    int rc = skiff_greq_status(r, status);
    int frc = g->free_fn ? g->free_fn(g->extra_state) : MPI_SUCCESS;
    destroy(g);
    return rc ? rc : frc;
}

int skiff_greq_free(struct skiff_request *r)
{
    struct greq *g = r->cookie;
    unsigned before = __atomic_fetch_or(&g->bits, FREED, __ATOMIC_ACQ_REL);
    r->freed = 1;
    if (!(before & COMPLETE))
        return MPI_SUCCESS; /* MPI_Grequest_complete runs the free function, progress releases it */
    if (!g->seen)
        skiff_greq_waiting--;
    int rc = g->free_fn ? g->free_fn(g->extra_state) : MPI_SUCCESS;
    destroy(g);
    return rc;
}

int skiff_greq_cancel(struct skiff_request *r)
{
    struct greq *g = r->cookie;
    int complete = (__atomic_load_n(&g->bits, __ATOMIC_ACQUIRE) & COMPLETE) != 0;
    return g->cancel_fn ? g->cancel_fn(g->extra_state, complete) : MPI_SUCCESS;
}
