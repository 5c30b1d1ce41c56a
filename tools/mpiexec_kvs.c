/* The PMI key-value space: one hash table of copied strings. A job of 4096 ranks puts and gets a few
 * keys each, so lookups must not be linear; entries are never removed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpiexec.h"

/* More keys than any sane job puts: a rank stuck in a loop of puts must not eat all memory. */
#define KVS_MAX_KEYS (1u << 20)

struct kvs_entry {
    char *key, *value;
};

struct kvs {
    struct kvs_entry *slot; /* open addressing, linear probing; cap is a power of two */
    size_t cap, used;
};

static uint64_t hash(const char *s)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static struct kvs_entry *find(const struct kvs *k, const char *key)
{
    size_t i = (size_t)hash(key) & (k->cap - 1);
    while (k->slot[i].key && strcmp(k->slot[i].key, key) != 0)
        i = (i + 1) & (k->cap - 1);
    return &k->slot[i];
}

struct kvs *kvs_new(void)
{
    struct kvs *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->cap = 256;
    k->slot = calloc(k->cap, sizeof *k->slot);
    if (!k->slot) {
        free(k);
        return NULL;
    }
    return k;
}

void kvs_free(struct kvs *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->cap; i++)
        free(k->slot[i].key), free(k->slot[i].value);
    free(k->slot);
    free(k);
}

/* Doubles the table, keeping it at most half full so probes stay short. */
static bool grow(struct kvs *k)
{
    struct kvs old = *k;
    k->cap *= 2;
    k->slot = calloc(k->cap, sizeof *k->slot);
    if (!k->slot) {
        *k = old;
        return false;
    }
    for (size_t i = 0; i < old.cap; i++)
        if (old.slot[i].key)
            *find(k, old.slot[i].key) = old.slot[i];
    free(old.slot);
    return true;
}

int kvs_put(struct kvs *k, const char *key, const char *value)
{
    struct kvs_entry *e = find(k, key);
    if (e->key)
        return strcmp(e->value, value) == 0 ? 0 : 1;
    if (k->used >= KVS_MAX_KEYS || (2 * (k->used + 1) > k->cap && !grow(k)))
        return -1;
    e = find(k, key); /* the table may have moved */
    char *kc = strdup(key), *vc = strdup(value);
    if (!kc || !vc) {
        free(kc), free(vc);
        return -1;
    }
    *e = (struct kvs_entry){ kc, vc };
    k->used++;
    return 0;
}

const char *kvs_get(const struct kvs *k, const char *key)
{
    const struct kvs_entry *e = find(k, key);
    return e->key ? e->value : NULL;
}
