#include "core/type_extra.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "util/refcount.h"

/* Predefined handles are 0x200 + index in datatype.c's table, whose entries keep their handle in basic. */
#define PREDEF_BASE 0x200
#define PREDEF_COUNT 0x100

static struct skiff_type_extra *predefined_extra[PREDEF_COUNT];

MPI_Datatype skiff_type_user_handle(const struct skiff_type *t)
{
    return t->predefined ? t->basic : skiff_type_handle(t);
}

static struct skiff_type_extra **extra_slot(const struct skiff_type *t)
{
    if (t->predefined)
        return &predefined_extra[((uintptr_t)t->basic - PREDEF_BASE) % PREDEF_COUNT];
    return &((struct skiff_type *)(uintptr_t)t)->extra; /* derived objects are the library's own */
}

struct skiff_type_extra *skiff_type_extra(const struct skiff_type *t, int create)
{
    struct skiff_type_extra **p = extra_slot(t);
    if (!*p && create)
        *p = calloc(1, sizeof **p);
    return *p;
}

static void contents_unref(struct skiff_type_contents *c)
{
    if (!c || !skiff_ref_dec(&c->refs))
        return;
    for (int i = 0; i < c->nd; i++)
        if (!skiff_type_fixed(c->types[i].t))
            skiff_type_unref(c->types[i].t);
    free(c->ints);
    free(c->addrs);
    free(c->types);
    free(c->lcounts);
    free(c);
}

static struct skiff_type_contents *contents_new(const struct skiff_type_record *r, int nl)
{
    int ni = 0;
    for (int i = 0; i < 8; i++)
        ni += r->ints[i].n;
    struct skiff_type_contents *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = (struct skiff_type_contents){
        .refs = 1, .combiner = r->combiner, .ni = ni, .na = r->na, .nd = r->nd, .nl = nl};
    c->ints = malloc(sizeof *c->ints * (size_t)(ni ? ni : 1));
    c->addrs = malloc(sizeof *c->addrs * (size_t)(r->na ? r->na : 1));
    c->types = malloc(sizeof *c->types * (size_t)(r->nd ? r->nd : 1));
    c->lcounts = malloc(sizeof *c->lcounts * (size_t)(nl ? nl : 1));
    if (!c->ints || !c->addrs || !c->types || !c->lcounts) {
        c->nd = 0;
        contents_unref(c);
        return NULL;
    }
    return c;
}

static void contents_fill(struct skiff_type_contents *c, const struct skiff_type_record *r)
{
    int at = 0;
    for (int i = 0; i < 8; i++)
        if (r->ints[i].n > 0) {
            memcpy(c->ints + at, r->ints[i].v, sizeof *c->ints * (size_t)r->ints[i].n);
            at += r->ints[i].n;
        }
    if (r->na > 0)
        memcpy(c->addrs, r->addrs, sizeof *c->addrs * (size_t)r->na);

    for (int i = 0; i < r->nd; i++) {
        const struct skiff_type *t = skiff_type_get(r->types[i]);
        c->types[i] = (struct skiff_type_sub){r->types[i], t};
        if (!skiff_type_fixed(t))
            skiff_type_ref(t);
    }
}

static int attach(const struct skiff_type *t, struct skiff_type_contents *c)
{
    struct skiff_type_extra *x = skiff_type_extra(t, 1);
    if (!x) {
        contents_unref(c);
        return skiff_err(MPI_ERR_NO_MEM, "out of memory recording how a datatype was made");
    }
    contents_unref(x->contents);
    x->contents = c;
    return MPI_SUCCESS;
}

int skiff_type_record_large(const struct skiff_type *t, const struct skiff_type_record *r, const MPI_Count *lcounts,
                            int nl)
{
    struct skiff_type_contents *c = contents_new(r, nl);
    if (!c)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory recording how a datatype was made");
    contents_fill(c, r);
    if (nl > 0)
        memcpy(c->lcounts, lcounts, sizeof *c->lcounts * (size_t)nl);
    return attach(t, c);
}

int skiff_type_record(const struct skiff_type *t, const struct skiff_type_record *r)
{
    return skiff_type_record_large(t, r, NULL, 0);
}

int skiff_type_combiner(const struct skiff_type *t)
{
    if (t->predefined)
        return MPI_COMBINER_NAMED;
    const struct skiff_type_extra *x = t->extra;
    return x && x->contents ? x->contents->combiner : 0;
}

int skiff_type_fixed(const struct skiff_type *t)
{
    int c = skiff_type_combiner(t);
    return c == MPI_COMBINER_NAMED || c == MPI_COMBINER_F90_INTEGER || c == MPI_COMBINER_F90_REAL ||
           c == MPI_COMBINER_F90_COMPLEX;
}

int skiff_type_copy_for_user(const struct skiff_type_sub *s, MPI_Datatype *out)
{
    if (skiff_type_fixed(s->t)) {
        *out = s->h;
        return MPI_SUCCESS;
    }
    struct skiff_type *n = NULL;
    int rc = skiff_type_dup(s->t, &n);
    if (rc)
        return rc;
    struct skiff_type_contents *c = s->t->extra ? s->t->extra->contents : NULL;
    if (c) {
        skiff_ref_inc(&c->refs);
        if ((rc = attach(n, c))) {
            skiff_type_free(n);
            return rc;
        }
    }
    *out = skiff_type_handle(n);
    return MPI_SUCCESS;
}

const char *skiff_type_name(const struct skiff_type *t)
{
    const struct skiff_type_extra *x = skiff_type_extra(t, 0);
    return x && x->named ? x->name : t->name;
}

int skiff_type_set_name(const struct skiff_type *t, const char *name)
{
    struct skiff_type_extra *x = skiff_type_extra(t, 1);
    if (!x)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory naming a datatype");
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(x->name, name, n);
    x->name[n] = '\0';
    x->named = 1;
    return MPI_SUCCESS;
}

int skiff_type_delete_attrs(const struct skiff_type *t)
{
    struct skiff_type_extra *x = skiff_type_extra(t, 0);
    return x ? skiff_type_attr_delete_all(&x->attrs, skiff_type_user_handle(t)) : MPI_SUCCESS;
}

int skiff_type_copy_attrs(const struct skiff_type *from, const struct skiff_type *to)
{
    const struct skiff_type_extra *x = skiff_type_extra(from, 0);
    if (!x || x->attrs.n == 0)
        return MPI_SUCCESS;
    struct skiff_type_extra *y = skiff_type_extra(to, 1);
    if (!y)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory copying a datatype's attributes");
    return skiff_type_attr_copy_all(&x->attrs, skiff_type_user_handle(from), &y->attrs);
}

void skiff_type_extra_drop(struct skiff_type *t)
{
    struct skiff_type_extra *x = t->extra;
    if (!x)
        return;
    t->extra = NULL;
    contents_unref(x->contents);
    skiff_attrs_drop(&x->attrs);
    free(x);
}
