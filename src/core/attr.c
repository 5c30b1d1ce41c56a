#include "core/attr.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/comm.h"
#include "core/error.h"

struct keyval {
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
    int user;  /* the user still holds the keyval */
    int refs;  /* attributes set with it */
};

static struct {
    struct keyval *v;
    int n;
} keyvals;

static struct keyval *keyval_get(int k)
{
    int i = k - SKIFF_KEYVAL_BASE;
    if (i < 0 || i >= keyvals.n || (!keyvals.v[i].user && !keyvals.v[i].refs))
        return NULL;
    return &keyvals.v[i];
}

static int bad_keyval(int k)
{
    return skiff_err(MPI_ERR_KEYVAL, "invalid keyval %d (not created by MPI_Comm_create_keyval, or freed)", k);
}

/* A slot nobody uses any more, or a new one. */
static int free_slot(void)
{
    for (int i = 0; i < keyvals.n; i++)
        if (!keyvals.v[i].user && !keyvals.v[i].refs)
            return i;
    struct keyval *v = realloc(keyvals.v, sizeof *v * (size_t)(keyvals.n + 1));
    if (!v)
        return -1;
    keyvals.v = v;
    return keyvals.n++;
}

int skiff_keyval_create(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del, void *extra,
                        int *keyval)
{
    int i = free_slot();
    if (i < 0)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for keyval number %d", keyvals.n + 1);
    keyvals.v[i] = (struct keyval){copy, del, extra, 1, 0};
    *keyval = SKIFF_KEYVAL_BASE + i;
    return MPI_SUCCESS;
}

int skiff_keyval_free(int k)
{
    struct keyval *kv = keyval_get(k);
    if (!kv || !kv->user)
        return bad_keyval(k);
    kv->user = 0;
    return MPI_SUCCESS;
}

/* A callback's own return value becomes an error code of ours that says which callback failed. */
static int callback_failed(const char *what, int k, int rc)
{
    int cls = rc > 0 && rc <= MPI_ERR_LASTCODE ? skiff_err_class(rc) : 0;
    if (cls <= 0 || cls > MPI_ERR_ERRHANDLER) /* not an error class of ours */
        cls = MPI_ERR_OTHER;
    return skiff_err(cls, "the %s callback of keyval %d returned %d", what, k, rc);
}

static int run_delete(struct skiff_comm *c, const struct skiff_attr *a)
{
    struct keyval *kv = &keyvals.v[a->keyval - SKIFF_KEYVAL_BASE];
    if (kv->del == MPI_COMM_NULL_DELETE_FN)
        return MPI_SUCCESS;
    int rc = kv->del(c->handle, a->keyval, a->value, kv->extra);
    return rc == MPI_SUCCESS ? rc : callback_failed("delete", a->keyval, rc);
}

static struct skiff_attr *find(const struct skiff_comm *c, int k)
{
    for (int i = 0; i < c->attrs.n; i++)
        if (c->attrs.v[i].keyval == k)
            return &c->attrs.v[i];
    return NULL;
}

static int append(struct skiff_comm *c, int k, void *value)
{
    struct skiff_attrs *l = &c->attrs;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 4;
        struct skiff_attr *v = realloc(l->v, sizeof *v * (size_t)cap);
        if (!v)
            return skiff_err(MPI_ERR_NO_MEM, "out of memory caching attribute %d", k);
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (struct skiff_attr){k, value};
    keyvals.v[k - SKIFF_KEYVAL_BASE].refs++;
    return MPI_SUCCESS;
}

/* Removes entry i, keeping the order of the others. */
static void remove_at(struct skiff_comm *c, int i)
{
    keyvals.v[c->attrs.v[i].keyval - SKIFF_KEYVAL_BASE].refs--;
    for (int j = i + 1; j < c->attrs.n; j++)
        c->attrs.v[j - 1] = c->attrs.v[j];
    c->attrs.n--;
}

int skiff_attr_set(struct skiff_comm *c, int k, void *value)
{
    struct keyval *kv = keyval_get(k);
    if (!kv || !kv->user)
        return bad_keyval(k);
    struct skiff_attr *a = find(c, k);
    if (!a)
        return append(c, k, value);
    /* The old value goes through its delete callback before it is replaced. */
    int rc = run_delete(c, a);
    if (rc == MPI_SUCCESS && (a = find(c, k))) /* the callback may have changed the list */
        a->value = value;
    return rc;
}

int skiff_attr_get(const struct skiff_comm *c, int k, void **value, int *flag)
{
    if (!keyval_get(k))
        return bad_keyval(k);
    const struct skiff_attr *a = find(c, k);
    *flag = a != NULL;
    if (a)
        *value = a->value;
    return MPI_SUCCESS;
}

int skiff_attr_delete(struct skiff_comm *c, int k)
{
    if (!keyval_get(k))
        return bad_keyval(k);
    struct skiff_attr *a = find(c, k);
    if (!a) /* nothing to delete: not an error (MPICH agrees) */
        return MPI_SUCCESS;
    int rc = run_delete(c, a);
    if (rc == MPI_SUCCESS && (a = find(c, k))) /* the callback may have changed the list */
        remove_at(c, (int)(a - c->attrs.v));
    return rc;
}

static int copy_one(struct skiff_comm *from, struct skiff_comm *to, const struct skiff_attr *a)
{
    struct keyval *kv = &keyvals.v[a->keyval - SKIFF_KEYVAL_BASE];
    if (kv->copy == MPI_COMM_NULL_COPY_FN)
        return MPI_SUCCESS;
    if (kv->copy == MPI_COMM_DUP_FN)
        return append(to, a->keyval, a->value);
    void *out = NULL;
    int flag = 0;
    int rc = kv->copy(from->handle, a->keyval, kv->extra, a->value, &out, &flag);
    if (rc != MPI_SUCCESS)
        return callback_failed("copy", a->keyval, rc);
    return flag ? append(to, a->keyval, out) : MPI_SUCCESS;
}

int skiff_attr_copy_all(struct skiff_comm *from, struct skiff_comm *to)
{
    for (int i = 0; i < from->attrs.n; i++) {
        int rc = copy_one(from, to, &from->attrs.v[i]);
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

int skiff_attr_delete_all(struct skiff_comm *c)
{
    while (c->attrs.n > 0) {
        int rc = run_delete(c, &c->attrs.v[c->attrs.n - 1]);
        if (rc)
            return rc;
        remove_at(c, c->attrs.n - 1);
    }
    return MPI_SUCCESS;
}

void skiff_attr_drop_all(struct skiff_comm *c)
{
    while (c->attrs.n > 0)
        remove_at(c, c->attrs.n - 1);
    free(c->attrs.v);
    c->attrs = (struct skiff_attrs){0, 0, NULL};
}

void skiff_attr_finalize(void)
{
    free(keyvals.v);
    keyvals.v = NULL;
    keyvals.n = 0;
}
