/* Futex doorbells: how a waiting rank sleeps without burning a core another rank needs, and how a
 * sender wakes it. The Dekker pattern (store sleeping / fence / re-check; publish / fence / load
 * sleeping) guarantees a message posted while the receiver goes to sleep is never missed. */
#ifndef SKIFF_SHM_DOORBELL_H
#define SKIFF_SHM_DOORBELL_H

#include <stdatomic.h>
#include <stdint.h>

void skiff_futex_wait(_Atomic uint32_t *word, uint32_t expect, double seconds);
void skiff_futex_wake(_Atomic uint32_t *word);

#endif
