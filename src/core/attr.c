#include "core/attr.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/comm.h"
#include "core/error.h"

enum kind { KIND_COMM, KIND_TYPE, KIND_WIN };

/* The callbacks take the object's own handle type, so each kind keeps its own pointers. */
struct keyval {
    enum kind kind;
    union {
        MPI_Comm_copy_attr_function *comm;
        MPI_Type_copy_attr_function *type;
        MPI_Win_copy_attr_function *win; /* kept, never called: windows are not copied */
    } copy;
    union {
        MPI_Comm_delete_attr_function *comm;
        MPI_Type_delete_attr_function *type;
        MPI_Win_delete_attr_function *win;
    } del;
    void *extra;
    int user;  /* the user still holds the keyval */
    int refs;  /* attributes set with it */
};

/* An attribute list and the handle its callbacks are given. */
struct owner {
    enum kind kind;
    struct skiff_attrs *l;
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Win win;
};

static struct {
    struct keyval *v;
    int n;
} keyvals;

static const char *const kind_name[] = {"communicator", "datatype", "window"};
static const char *const kind_maker[] = {"MPI_Comm_create_keyval", "MPI_Type_create_keyval", "MPI_Win_create_keyval"};

static struct keyval *slot(int k)
{
    int i = k - SKIFF_KEYVAL_BASE;
    if (i < 0 || i >= keyvals.n || (!keyvals.v[i].user && !keyvals.v[i].refs))
        return NULL;
    return &keyvals.v[i];
}

static int bad_keyval(int k, enum kind kind)
{
    struct keyval *kv = slot(k);
    if (kv && kv->kind != kind)
        return skiff_err(MPI_ERR_KEYVAL, "keyval %d was made for a %s by %s: it cannot be used on a %s", k,
                         kind_name[kv->kind], kind_maker[kv->kind], kind_name[kind]);
    return skiff_err(MPI_ERR_KEYVAL, "invalid keyval %d (not created by %s, or freed)", k, kind_maker[kind]);
}

/* A live keyval of the kind: the user's (user) or one an attribute still holds. */
static struct keyval *keyval_get(int k, enum kind kind, int user)
{
    struct keyval *kv = slot(k);
    return kv && kv->kind == kind && (kv->user || !user) ? kv : NULL;
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

static int keyval_create(struct keyval kv, int *keyval)
{
    int i = free_slot();
    if (i < 0)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for keyval number %d", keyvals.n + 1);
    kv.user = 1;
    kv.refs = 0;
    keyvals.v[i] = kv;
    *keyval = SKIFF_KEYVAL_BASE + i;
    return MPI_SUCCESS;
}

int skiff_keyval_create(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del, void *extra,
                        int *keyval)
{
    return keyval_create((struct keyval){.kind = KIND_COMM, .copy.comm = copy, .del.comm = del, .extra = extra},
                         keyval);
}

int skiff_type_keyval_create(MPI_Type_copy_attr_function *copy, MPI_Type_delete_attr_function *del, void *extra,
                             int *keyval)
{
    return keyval_create((struct keyval){.kind = KIND_TYPE, .copy.type = copy, .del.type = del, .extra = extra},
                         keyval);
}

static int keyval_free(int k, enum kind kind)
{
    struct keyval *kv = keyval_get(k, kind, 1);
    if (!kv)
        return bad_keyval(k, kind);
    kv->user = 0;
    return MPI_SUCCESS;
}

int skiff_keyval_free(int k)
{
    return keyval_free(k, KIND_COMM);
}

int skiff_type_keyval_free(int k)
{
    return keyval_free(k, KIND_TYPE);
}

/* A callback's own return value becomes an error code of ours that says which callback failed. */
static int callback_failed(const char *what, int k, int rc)
{
    int cls = rc > 0 && rc <= MPI_ERR_LASTCODE ? skiff_err_class(rc) : 0;
    if (cls <= 0 || cls > MPI_ERR_ABI) /* not an error class of ours */
        cls = MPI_ERR_OTHER;
    return skiff_err(cls, "the %s callback of keyval %d returned %d", what, k, rc);
}

static int run_delete(const struct owner *o, const struct skiff_attr *a)
{
    struct keyval *kv = &keyvals.v[a->keyval - SKIFF_KEYVAL_BASE];
    int rc;
    if (kv->kind == KIND_TYPE)
        rc = kv->del.type == MPI_TYPE_NULL_DELETE_FN ? MPI_SUCCESS
                                                     : kv->del.type(o->type, a->keyval, a->value, kv->extra);
    else if (kv->kind == KIND_WIN)
        rc = kv->del.win == MPI_WIN_NULL_DELETE_FN ? MPI_SUCCESS
                                                   : kv->del.win(o->win, a->keyval, a->value, kv->extra);
    else
        rc = kv->del.comm == MPI_COMM_NULL_DELETE_FN ? MPI_SUCCESS
                                                     : kv->del.comm(o->comm, a->keyval, a->value, kv->extra);
    return rc == MPI_SUCCESS ? rc : callback_failed("delete", a->keyval, rc);
}

static struct skiff_attr *find(const struct skiff_attrs *l, int k)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i].keyval == k)
            return &l->v[i];
    return NULL;
}

static int append(struct skiff_attrs *l, int k, void *value)
{
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

/* Removes entry i, keeping the order of the others. After MPI_Finalize the keyvals are gone already. */
static void remove_at(struct skiff_attrs *l, int i)
{
    int k = l->v[i].keyval - SKIFF_KEYVAL_BASE;
    if (k >= 0 && k < keyvals.n)
        keyvals.v[k].refs--;
    for (int j = i + 1; j < l->n; j++)
        l->v[j - 1] = l->v[j];
    l->n--;
}

static int attr_set(const struct owner *o, int k, void *value)
{
    if (!keyval_get(k, o->kind, 1))
        return bad_keyval(k, o->kind);
    struct skiff_attr *a = find(o->l, k);
    if (!a)
        return append(o->l, k, value);
    /* The old value goes through its delete callback before it is replaced. */
    int rc = run_delete(o, a);
    if (rc == MPI_SUCCESS && (a = find(o->l, k))) /* the callback may have changed the list */
        a->value = value;
    return rc;
}

static int attr_get(const struct skiff_attrs *l, enum kind kind, int k, void **value, int *flag)
{
    if (!keyval_get(k, kind, 0))
        return bad_keyval(k, kind);
    const struct skiff_attr *a = find(l, k);
    *flag = a != NULL;
    if (a)
        *value = a->value;
    return MPI_SUCCESS;
}

static int attr_delete(const struct owner *o, int k)
{
    if (!keyval_get(k, o->kind, 0))
        return bad_keyval(k, o->kind);
    struct skiff_attr *a = find(o->l, k);
    if (!a) /* nothing to delete: not an error (MPICH agrees) */
        return MPI_SUCCESS;
    int rc = run_delete(o, a);
    if (rc == MPI_SUCCESS && (a = find(o->l, k))) /* the callback may have changed the list */
        remove_at(o->l, (int)(a - o->l->v));
    return rc;
}

/* The copy callback decides whether the new object gets the attribute, and with what value. */
static int run_copy(const struct owner *from, const struct skiff_attr *a, void **out, int *flag)
{
    struct keyval *kv = &keyvals.v[a->keyval - SKIFF_KEYVAL_BASE];
    int rc;
    *flag = 0;
    if (kv->kind == KIND_TYPE ? kv->copy.type == MPI_TYPE_NULL_COPY_FN : kv->copy.comm == MPI_COMM_NULL_COPY_FN)
        return MPI_SUCCESS;
    if (kv->kind == KIND_TYPE ? kv->copy.type == MPI_TYPE_DUP_FN : kv->copy.comm == MPI_COMM_DUP_FN) {
        *out = a->value;
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (kv->kind == KIND_TYPE)
        rc = kv->copy.type(from->type, a->keyval, kv->extra, a->value, out, flag);
    else
        rc = kv->copy.comm(from->comm, a->keyval, kv->extra, a->value, out, flag);
    return rc == MPI_SUCCESS ? rc : callback_failed("copy", a->keyval, rc);
}

static int copy_all(const struct owner *from, struct skiff_attrs *to)
{
    for (int i = 0; i < from->l->n; i++) {
        void *out = NULL;
        int flag = 0;
        int rc = run_copy(from, &from->l->v[i], &out, &flag);
        if (!rc && flag)
            rc = append(to, from->l->v[i].keyval, out);
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

static int delete_all(const struct owner *o)
{
    while (o->l->n > 0) {
        int rc = run_delete(o, &o->l->v[o->l->n - 1]);
        if (rc)
            return rc;
        remove_at(o->l, o->l->n - 1);
    }
    return MPI_SUCCESS;
}

void skiff_attrs_drop(struct skiff_attrs *l)
{
    while (l->n > 0)
        remove_at(l, l->n - 1);
    free(l->v);
    *l = (struct skiff_attrs){0, 0, NULL};
}

static struct owner of_comm(struct skiff_comm *c)
{
    return (struct owner){KIND_COMM, &c->attrs, c->handle, MPI_DATATYPE_NULL, MPI_WIN_NULL};
}

static struct owner of_type(struct skiff_attrs *l, MPI_Datatype h)
{
    return (struct owner){KIND_TYPE, l, MPI_COMM_NULL, h, MPI_WIN_NULL};
}

int skiff_attr_set(struct skiff_comm *c, int k, void *value)
{
    struct owner o = of_comm(c);
    return attr_set(&o, k, value);
}

int skiff_attr_get(const struct skiff_comm *c, int k, void **value, int *flag)
{
    return attr_get(&c->attrs, KIND_COMM, k, value, flag);
}

int skiff_attr_delete(struct skiff_comm *c, int k)
{
    struct owner o = of_comm(c);
    return attr_delete(&o, k);
}

int skiff_attr_copy_all(struct skiff_comm *from, struct skiff_comm *to)
{
    struct owner o = of_comm(from);
    return copy_all(&o, &to->attrs);
}

int skiff_attr_delete_all(struct skiff_comm *c)
{
    struct owner o = of_comm(c);
    return delete_all(&o);
}

void skiff_attr_drop_all(struct skiff_comm *c)
{
    skiff_attrs_drop(&c->attrs);
}

int skiff_type_attr_set(struct skiff_attrs *l, MPI_Datatype h, int k, void *value)
{
    struct owner o = of_type(l, h);
    return attr_set(&o, k, value);
}

int skiff_type_attr_get(const struct skiff_attrs *l, int k, void **value, int *flag)
{
    return attr_get(l, KIND_TYPE, k, value, flag);
}

int skiff_type_attr_delete(struct skiff_attrs *l, MPI_Datatype h, int k)
{
    struct owner o = of_type(l, h);
    return attr_delete(&o, k);
}

int skiff_type_attr_copy_all(const struct skiff_attrs *from, MPI_Datatype fh, struct skiff_attrs *to)
{
    struct owner o = of_type((struct skiff_attrs *)(uintptr_t)from, fh); /* read only */
    return copy_all(&o, to);
}

int skiff_type_attr_delete_all(struct skiff_attrs *l, MPI_Datatype h)
{
    struct owner o = of_type(l, h);
    return delete_all(&o);
}

int skiff_win_keyval_create(MPI_Win_copy_attr_function *copy, MPI_Win_delete_attr_function *del, void *extra,
                            int *keyval)
{
    return keyval_create((struct keyval){.kind = KIND_WIN, .copy.win = copy, .del.win = del, .extra = extra}, keyval);
}

int skiff_win_keyval_free(int k)
{
    return keyval_free(k, KIND_WIN);
}

static struct owner of_win(struct skiff_attrs *l, MPI_Win h)
{
    return (struct owner){KIND_WIN, l, MPI_COMM_NULL, MPI_DATATYPE_NULL, h};
}

int skiff_win_attr_set(struct skiff_attrs *l, MPI_Win h, int k, void *value)
{
    struct owner o = of_win(l, h);
    return attr_set(&o, k, value);
}

int skiff_win_attr_get(const struct skiff_attrs *l, int k, void **value, int *flag)
{
    return attr_get(l, KIND_WIN, k, value, flag);
}

int skiff_win_attr_delete(struct skiff_attrs *l, MPI_Win h, int k)
{
    struct owner o = of_win(l, h);
    return attr_delete(&o, k);
}

int skiff_win_attr_delete_all(struct skiff_attrs *l, MPI_Win h)
{
    struct owner o = of_win(l, h);
    return delete_all(&o);
}

void skiff_attr_finalize(void)
{
    free(keyvals.v);
    keyvals.v = NULL;
    keyvals.n = 0;
}
