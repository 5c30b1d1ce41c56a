/* Integers for user handles. MPI-5's X_toint/X_fromint and Fortran's X_c2f/X_f2c need an int for a
 * handle that is a 64-bit address (communicators, groups, datatypes, ops) or request id. Each kind keeps
 * a table of slots: a handle takes a slot on its first conversion and keeps it while it lives, so it
 * converts to the same integer every time. The integer names the slot and the slot's generation: slots
 * of dead handles are taken back (when the table would otherwise grow) with the generation moved on, so
 * an integer kept past its handle finds nothing rather than whatever took the slot next. */
#ifndef SKIFF_HANDLE_TABLE_H
#define SKIFF_HANDLE_TABLE_H

#include <stdint.h>

/* The integers of user handles start here, above the ABI's predefined handles (all below 0x400). */
#define SKIFF_HTAB_BASE 0x10000
/* Live converted handles one kind can have at once. */
#define SKIFF_HTAB_MAX_SLOTS (1u << 22)

struct skiff_htab_slot;

struct skiff_htab {
    int (*live)(uintptr_t handle); /* is this handle still a live object of the table's kind? */
    struct skiff_htab_slot *slots;
    uint32_t nslots, cap;          /* slots handed out at least once; slots allocated */
    uint32_t free_head;            /* a taken-back slot + 1, or 0 */
    uint32_t *index;               /* open addressing, handle -> slot + 1 (0: empty); 2 * cap entries */
};

#define SKIFF_HTAB_INIT(live_fn) {(live_fn), NULL, 0, 0, 0, NULL}

/* The integer for h, a live user handle of the table's kind; -1 when SKIFF_HTAB_MAX_SLOTS handles are
 * live or memory is out. */
int skiff_htab_toint(struct skiff_htab *t, uintptr_t h);
/* The handle v names, if it is still live; else 0. */
uintptr_t skiff_htab_fromint(const struct skiff_htab *t, int v);
/* Slots in use (tests). */
uint32_t skiff_htab_used(const struct skiff_htab *t);
/* Gives the memory back; the table is empty and usable again. */
void skiff_htab_destroy(struct skiff_htab *t);

#endif
