/* Error classes and codes the program adds (MPI_Add_error_class/_code/_string and their MPI-4.1
 * Remove_ forms). Their values start above MPI_ERR_LASTCODE, where skiff's own codes end (class |
 * message slot << 7 fills 0..MPI_ERR_LASTCODE), and are never reused after removal, so a stale value
 * is refused rather than taken for a newer code. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

struct entry {
    int cls;   /* the class this value belongs to (itself for a class); 0: removed */
    int codes; /* for a class: its live codes */
    char *str; /* MPI_Add_error_string's text, or NULL */
};

static struct entry *tab;
static int used, cap;

static struct entry *find(int code)
{
    if (code <= MPI_ERR_LASTCODE || code - SKIFF_ERR_USER_BASE >= used)
        return NULL;
    struct entry *e = &tab[code - SKIFF_ERR_USER_BASE];
    return e->cls ? e : NULL;
}

int skiff_err_user_class(int code)
{
    struct entry *e = find(code);
    return e ? e->cls : -1;
}

int skiff_err_user_is_class(int code)
{
    struct entry *e = find(code);
    return e && e->cls == code;
}

const char *skiff_err_user_string(int code)
{
    struct entry *e = find(code);
    return e ? (e->str ? e->str : "") : NULL;
}

int skiff_err_user_has_string(int code)
{
    struct entry *e = find(code);
    return e && e->str;
}

int skiff_err_user_live_codes(int cls)
{
    struct entry *e = find(cls);
    return e ? e->codes : 0;
}

int skiff_err_user_add(int cls, int *out)
{
    if (used == INT_MAX - SKIFF_ERR_USER_BASE)
        return -1;
    if (used == cap) {
        int ncap = cap ? (cap > INT_MAX / 2 ? INT_MAX : cap * 2) : 16;
        struct entry *t = realloc(tab, sizeof *t * (size_t)ncap);
        if (!t)
            return -1;
        tab = t;
        cap = ncap;
    }
    int code = SKIFF_ERR_USER_BASE + used++;
    tab[code - SKIFF_ERR_USER_BASE] = (struct entry){.cls = cls ? cls : code};
    struct entry *owner = cls ? find(cls) : NULL;
    if (owner)
        owner->codes++;
    *out = code;
    return 0;
}

int skiff_err_user_set_string(int code, const char *s)
{
    struct entry *e = find(code);
    char *copy = s ? strdup(s) : NULL;
    if (s && !copy)
        return -1;
    free(e->str);
    e->str = copy;
    return 0;
}

void skiff_err_user_remove(int code)
{
    struct entry *e = find(code);
    struct entry *owner = e->cls != code ? find(e->cls) : NULL;
    if (owner)
        owner->codes--;
    free(e->str);
    *e = (struct entry){0};
}

int skiff_err_lastused(void)
{
    return used ? SKIFF_ERR_USER_BASE + used - 1 : MPI_ERR_LASTCODE;
}
