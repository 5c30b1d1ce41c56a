#include "core/objpool.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS_PER_CHUNK 32

/* The free-list link lives in front of the object, so it never overwrites the object's magic. */
struct skiff_objpool_slot {
    struct skiff_objpool_slot *next;
    int live;
    alignas(max_align_t) unsigned char obj[];
};

struct skiff_objpool_chunk {
    struct skiff_objpool_chunk *next;
    alignas(max_align_t) unsigned char slots[];
};

static size_t slot_bytes(const struct skiff_objpool *p)
{
    size_t a = alignof(max_align_t);
    return (sizeof(struct skiff_objpool_slot) + p->size + a - 1) / a * a;
}

static int grow(struct skiff_objpool *p)
{
    size_t sb = slot_bytes(p);
    struct skiff_objpool_chunk *c = calloc(1, sizeof *c + sb * SLOTS_PER_CHUNK);
    if (!c)
        return -1;
    c->next = p->chunks;
    p->chunks = c;
    for (int i = SLOTS_PER_CHUNK - 1; i >= 0; i--) {
        struct skiff_objpool_slot *s = (struct skiff_objpool_slot *)(void *)(c->slots + sb * (size_t)i);
        s->next = p->free;
        p->free = s;
    }
    return 0;
}

void *skiff_objpool_get(struct skiff_objpool *p)
{
    if (!p->free && grow(p) != 0)
        return NULL;
    struct skiff_objpool_slot *s = p->free;
    p->free = s->next;
    s->next = NULL;
    s->live = 1;
    memset(s->obj, 0, p->size);
    return s->obj;
}

void skiff_objpool_put(struct skiff_objpool *p, void *obj)
{
    struct skiff_objpool_slot *s =
        (struct skiff_objpool_slot *)(void *)((unsigned char *)obj - offsetof(struct skiff_objpool_slot, obj));
    memset(obj, 0, p->size);
    s->live = 0;
    s->next = p->free;
    p->free = s;
}

void skiff_objpool_foreach(struct skiff_objpool *p, void (*fn)(void *obj))
{
    size_t sb = slot_bytes(p);
    for (struct skiff_objpool_chunk *c = p->chunks; c; c = c->next)
        for (size_t i = 0; i < SLOTS_PER_CHUNK; i++) {
            struct skiff_objpool_slot *s = (struct skiff_objpool_slot *)(void *)(c->slots + sb * i);
            if (s->live)
                fn(s->obj);
        }
}

void skiff_objpool_destroy(struct skiff_objpool *p)
{
    while (p->chunks) {
        struct skiff_objpool_chunk *c = p->chunks;
        p->chunks = c->next;
        free(c);
    }
    p->free = NULL;
}
