/* --integrity: every message carries a pattern that depends on its size, its number within the run
 * and its direction, so a message delivered to the wrong receive, a stale buffer, a shifted piece or
 * a write past the end all show up as a mismatch. */
#include "skiff_pipe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { SENTINEL = 0xA5, MAX_NOTES = 10 };

/* splitmix64's finaliser: consecutive inputs give unrelated outputs. */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t seed_of(size_t bytes, long rep, int dir)
{
    return mix((uint64_t)bytes * 1000003u + (uint64_t)rep * 7919u + (uint64_t)dir);
}

/* Byte i of the pattern: one mixed word per 8 bytes keeps filling and checking near memory speed. */
static unsigned char expect(uint64_t seed, size_t i, uint64_t *word, size_t *word_at)
{
    if (*word_at != i / 8) {
        *word_at = i / 8;
        *word = mix(seed + *word_at);
    }
    return (unsigned char)(*word >> (8 * (i % 8)));
}

void pipe_fill(unsigned char *p, size_t bytes, long rep, int dir)
{
    uint64_t seed = seed_of(bytes, rep, dir), word = 0;
    size_t at = SIZE_MAX;
    for (size_t i = 0; i < bytes; i++)
        p[i] = expect(seed, i, &word, &at);
}

void pipe_clear(unsigned char *p, size_t bytes)
{
    memset(p, SENTINEL, bytes + PIPE_GUARD);
}

static void note(const char *who, size_t bytes, long rep, const char *what, size_t at, int got, int want)
{
    static int notes;
    if (notes++ >= MAX_NOTES)
        return;
    fprintf(stderr, "skiff-pipe: integrity: %s, %zu-byte message %ld: %s byte %zu is 0x%02x, expected 0x%02x\n",
            who, bytes, rep, what, at, got, want);
}

int pipe_verify(const unsigned char *p, size_t bytes, long rep, int dir, const char *who)
{
    uint64_t seed = seed_of(bytes, rep, dir), word = 0;
    size_t at = SIZE_MAX;
    for (size_t i = 0; i < bytes; i++) {
        unsigned char want = expect(seed, i, &word, &at);
        if (p[i] != want) {
            note(who, bytes, rep, "payload", i, p[i], want);
            return 1;
        }
    }
    for (size_t i = bytes; i < bytes + PIPE_GUARD; i++) {
        if (p[i] != SENTINEL) {
            note(who, bytes, rep, "guard (written past the end)", i, p[i], SENTINEL);
            return 1;
        }
    }
    return 0;
}

int pipe_corrupt_requested(void)
{
    const char *v = getenv("SKIFF_PIPE_CORRUPT_TEST");
    return v && strcmp(v, "1") == 0;
}

int pipe_check_received(unsigned char *p, size_t bytes, long rep, int dir, const char *who, int corrupt)
{
    if (corrupt && rep == 0 && bytes > 0)
        p[bytes / 2] ^= 0x5A;
    return pipe_verify(p, bytes, rep, dir, who);
}
