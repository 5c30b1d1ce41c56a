#include "ucx/card.h"

#include <stdio.h>
#include <string.h>

#define PREFIX "u1:"

int skiff_ucx_card_encode(uint32_t host, const void *addr, size_t alen, char *out, size_t len)
{
    const unsigned char *a = addr;
    if (alen > SKIFF_UCX_MAX_ADDR || len < sizeof PREFIX + 9 + 2 * alen)
        return -1;
    size_t off = (size_t)snprintf(out, len, PREFIX "%08x:", host);
    for (size_t i = 0; i < alen; i++, off += 2)
        snprintf(out + off, len - off, "%02x", a[i]);
    return 0;
}

static int nibble(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int skiff_ucx_card_decode(const char *text, uint32_t *host, unsigned char *addr, size_t cap, size_t *alen)
{
    unsigned h;
    int used = 0;
    if (strncmp(text, PREFIX, strlen(PREFIX)) != 0 || sscanf(text + strlen(PREFIX), "%8x:%n", &h, &used) != 1 || used != 9)
        return -1;
    const char *hex = text + strlen(PREFIX) + used;
    size_t n = strlen(hex);
    if (n == 0 || n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        addr[i] = (unsigned char)(hi << 4 | lo);
    }
    *host = h;
    *alen = n / 2;
    return 0;
}
