#include "core/handle_table.h"

#include <stdlib.h>

#define SLOT_BITS 22
#define GEN_BITS 8
#define GEN_MASK ((1u << GEN_BITS) - 1)
#define FIRST_CAP 64
_Static_assert(SKIFF_HTAB_MAX_SLOTS == 1u << SLOT_BITS, "a slot number fills SLOT_BITS");
_Static_assert(SKIFF_HTAB_BASE + ((uint64_t)1 << (SLOT_BITS + GEN_BITS)) - 1 <= INT32_MAX,
               "every integer is a positive int");

struct skiff_htab_slot {
    uintptr_t handle; /* 0: free */
    uint32_t gen;
    uint32_t next_free; /* slot + 1 */
};

static int encode(const struct skiff_htab *t, uint32_t s)
{
    return (int)(SKIFF_HTAB_BASE + (t->slots[s].gen << SLOT_BITS | s));
}

/* Handles are addresses (aligned, so low bits are 0) or request ids (index | generation << 32): a
 * multiplicative hash's high bits mix both. */
static uint32_t bucket(const struct skiff_htab *t, uintptr_t h)
{
    return (uint32_t)(((uint64_t)h * 0x9e3779b97f4a7c15ull) >> 32) & (2 * t->cap - 1);
}

/* The index entry holding h, or the empty entry where h would go (the index is never more than half
 * full, so there is one). */
static uint32_t *entry(const struct skiff_htab *t, uintptr_t h)
{
    for (uint32_t i = bucket(t, h);; i = (i + 1) & (2 * t->cap - 1)) {
        uint32_t s = t->index[i];
        if (s == 0 || t->slots[s - 1].handle == h)
            return &t->index[i];
    }
}

static uint32_t count_dead(const struct skiff_htab *t)
{
    uint32_t dead = 0;
    for (uint32_t s = 0; s < t->nslots; s++)
        dead += t->slots[s].handle && !t->live(t->slots[s].handle);
    return dead;
}

/* Frees the slots of handles that died, moving their generation on, and indexes the others. */
static void sweep(struct skiff_htab *t)
{
    for (uint32_t s = 0; s < t->nslots; s++) {
        struct skiff_htab_slot *sl = &t->slots[s];
        if (sl->handle && !t->live(sl->handle)) {
            sl->handle = 0;
            sl->gen = (sl->gen + 1) & GEN_MASK;
            sl->next_free = t->free_head;
            t->free_head = s + 1;
        } else if (sl->handle) {
            *entry(t, sl->handle) = s + 1;
        }
    }
}

/* Room for one more handle when every slot is taken: the slots of dead handles come back, and the table
 * doubles when fewer than half do, so sweeps cost O(1) per conversion and the table stays within twice
 * the handles that live. Nothing changes unless all the memory needed was had. */
static int make_room(struct skiff_htab *t)
{
    uint32_t dead = count_dead(t), cap = t->cap;
    if ((!cap || dead < cap / 2) && (cap ? 2 * cap : FIRST_CAP) <= SKIFF_HTAB_MAX_SLOTS)
        cap = cap ? 2 * cap : FIRST_CAP;
    if (cap == t->cap && !dead)
        return -1;
    if (cap != t->cap) {
        struct skiff_htab_slot *slots = realloc(t->slots, cap * sizeof *slots);
        if (slots)
            t->slots = slots;
        else if (!dead)
            return -1;
        else
            cap = t->cap;
    }
    uint32_t *index = calloc(2 * (size_t)cap, sizeof *index);
    if (!index)
        return -1;
    free(t->index);
    t->index = index;
    t->cap = cap;
    sweep(t);
    return 0;
}

static int take_slot(struct skiff_htab *t, uint32_t *out)
{
    if (!t->free_head && t->nslots == t->cap && make_room(t) != 0)
        return -1;
    if (t->free_head) {
        *out = t->free_head - 1;
        t->free_head = t->slots[*out].next_free;
    } else {
        *out = t->nslots++;
        t->slots[*out] = (struct skiff_htab_slot){0, 0, 0};
    }
    return 0;
}

int skiff_htab_toint(struct skiff_htab *t, uintptr_t h)
{
    if (t->cap) {
        uint32_t s = *entry(t, h);
        if (s)
            return encode(t, s - 1);
    }
    uint32_t s;
    if (take_slot(t, &s) != 0)
        return -1;
    t->slots[s].handle = h;
    *entry(t, h) = s + 1;
    return encode(t, s);
}

uintptr_t skiff_htab_fromint(const struct skiff_htab *t, int v)
{
    if (v < SKIFF_HTAB_BASE)
        return 0;
    uint32_t u = (uint32_t)v - SKIFF_HTAB_BASE, s = u & (SKIFF_HTAB_MAX_SLOTS - 1), gen = u >> SLOT_BITS;
    if (s >= t->nslots || t->slots[s].gen != gen || !t->slots[s].handle)
        return 0;
    return t->live(t->slots[s].handle) ? t->slots[s].handle : 0;
}

uint32_t skiff_htab_used(const struct skiff_htab *t)
{
    uint32_t used = 0;
    for (uint32_t s = 0; s < t->nslots; s++)
        used += t->slots[s].handle != 0;
    return used;
}

void skiff_htab_destroy(struct skiff_htab *t)
{
    free(t->slots);
    free(t->index);
    *t = (struct skiff_htab)SKIFF_HTAB_INIT(t->live);
}
