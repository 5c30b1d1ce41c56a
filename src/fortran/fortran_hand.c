/* Fortran bindings the generator cannot write from a prototype alone: MPI_Init and MPI_Init_thread (no
 * argc/argv in Fortran), MPI_Pcontrol (variadic in C), MPI_Info_create_env, attributes (Fortran's
 * values are integers, not pointers; predefined attributes are read through C's pointer), and calls that
 * take procedures written in Fortran: attribute copy/delete functions (Comm, Type, Win and the MPI-1
 * Keyval_create), user-defined reduction ops, communicator/window/session error handlers and generalized
 * requests (MPI_Grequest_start's query, free and cancel procedures). Each
 * SKIFF_F_HAND(...) line tells gen_bindings.py to leave that call to this file. */
#include "fortran_f08.h"
#include "fortran_impl.h"

#include <stdint.h>

#define BIND(lower, UPPER, params, args)                                                           \
    SKIFF_F_API void mpi_##lower##_ params { fw_##lower(0, UNPAREN args); }                        \
    SKIFF_F_API void pmpi_##lower##_ params { fw_##lower(1, UNPAREN args); }                       \
    SKIFF_F_ALIAS(mpi_##lower##_, mpi_##lower##__, MPI_##UPPER)                                    \
    SKIFF_F_ALIAS(pmpi_##lower##_, pmpi_##lower##__, PMPI_##UPPER)                                \
    SKIFF_F08_ALIAS(mpi_##lower##_, mpi_##lower##_f08_)                                            \
    SKIFF_F08_ALIAS(pmpi_##lower##_, pmpi_##lower##_f08_)
#define UNPAREN(...) __VA_ARGS__
/* mpi_f08's IERROR is OPTIONAL: gfortran passes a null pointer when it is left out. */
#define OPTIONAL_IERR(ierr)                                                                        \
    MPI_Fint skiff_ierr;                                                                           \
    if (!(ierr))                                                                                   \
        (ierr) = &skiff_ierr;

/* Bound below by macros (gen_bindings.py reads these names). */
SKIFF_F_HAND(Comm_set_attr) SKIFF_F_HAND(Comm_get_attr) SKIFF_F_HAND(Type_set_attr)
SKIFF_F_HAND(Type_get_attr) SKIFF_F_HAND(Win_set_attr) SKIFF_F_HAND(Win_get_attr)
SKIFF_F_HAND(Comm_create_keyval) SKIFF_F_HAND(Type_create_keyval) SKIFF_F_HAND(Win_create_keyval)
SKIFF_F_HAND(Keyval_create) SKIFF_F_HAND(Comm_create_errhandler) SKIFF_F_HAND(Win_create_errhandler)
SKIFF_F_HAND(Session_create_errhandler)

/* ---- start-up ---- */
SKIFF_F_HAND(Init)
static void fw_init(int p, MPI_Fint *ierr)
{
    OPTIONAL_IERR(ierr)
    *ierr = p ? PMPI_Init(NULL, NULL) : MPI_Init(NULL, NULL);
}
BIND(init, INIT, (MPI_Fint *ierr), (ierr))

SKIFF_F_HAND(Init_thread)
static void fw_init_thread(int p, MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    OPTIONAL_IERR(ierr)
    *ierr = p ? PMPI_Init_thread(NULL, NULL, *required, provided)
              : MPI_Init_thread(NULL, NULL, *required, provided);
}
BIND(init_thread, INIT_THREAD, (MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr),
     (required, provided, ierr))

/* MPI_PCONTROL(LEVEL): no IERROR in Fortran. */
SKIFF_F_HAND(Pcontrol)
static void fw_pcontrol(int p, MPI_Fint *level)
{
    if (p)
        PMPI_Pcontrol(*level);
    else
        MPI_Pcontrol(*level);
}
BIND(pcontrol, PCONTROL, (MPI_Fint *level), (level))

SKIFF_F_HAND(Info_create_env)
static void fw_info_create_env(int p, MPI_Fint *info, MPI_Fint *ierr)
{
    OPTIONAL_IERR(ierr)
    MPI_Info c = MPI_INFO_NULL;
    *ierr = p ? PMPI_Info_create_env(0, NULL, &c) : MPI_Info_create_env(0, NULL, &c);
    if (*ierr == MPI_SUCCESS)
        *info = MPI_Info_c2f(c);
}
BIND(info_create_env, INFO_CREATE_ENV, (MPI_Fint *info, MPI_Fint *ierr), (info, ierr))

/* MPI_F_SYNC_REG(BUF) from mpif.h and the mpi module (mpi_f08's is a Fortran subroutine: see
 * gen_bindings.py). Nothing to do: that the compiler must call into the library, which may read and
 * write buf, is what makes it store buf before the call and load it after. No IERROR. */
SKIFF_F_API void mpi_f_sync_reg_(void *buf)
{
    (void)buf;
}
SKIFF_F_API void pmpi_f_sync_reg_(void *buf)
{
    (void)buf;
}
SKIFF_F_ALIAS(mpi_f_sync_reg_, mpi_f_sync_reg__, MPI_F_SYNC_REG)
SKIFF_F_ALIAS(pmpi_f_sync_reg_, pmpi_f_sync_reg__, PMPI_F_SYNC_REG)

/* ---- attributes: the value a Fortran program stores is an integer, kept as the pointer's bits ---- */

/* What a Fortran caller reads: a value stored from Fortran comes back as it was; a predefined
 * attribute is C's pointer to the value (int, or MPI_Aint for MPI_WIN_SIZE; MPI_WIN_BASE is the
 * address itself). */
static MPI_Aint attr_value(int keyval, void *v)
{
    if (keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE)
        return *(int *)v;
    if (keyval == MPI_WIN_SIZE)
        return *(MPI_Aint *)v;
    if (keyval == MPI_WIN_DISP_UNIT || keyval == MPI_WIN_CREATE_FLAVOR || keyval == MPI_WIN_MODEL)
        return *(int *)v;
    return (MPI_Aint)(intptr_t)v;
}

#define ATTRS(lower, UPPER, Kind, CType)                                                            \
    static void fw_##lower##_set_attr(int p, MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *val,       \
                                      MPI_Fint *ierr)                                              \
    {                                                                                              \
        OPTIONAL_IERR(ierr)                                                                        \
        CType c = MPI_##Kind##_f2c(*obj);                                                          \
        void *v = (void *)(intptr_t)*val;                                                          \
        *ierr = p ? PMPI_##Kind##_set_attr(c, *keyval, v) : MPI_##Kind##_set_attr(c, *keyval, v);  \
    }                                                                                              \
    BIND(lower##_set_attr, UPPER##_SET_ATTR,                                                       \
         (MPI_Fint * obj, MPI_Fint * keyval, MPI_Aint * val, MPI_Fint * ierr),                     \
         (obj, keyval, val, ierr))                                                                 \
    static void fw_##lower##_get_attr(int p, MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *val,       \
                                      MPI_Fint *flag, MPI_Fint *ierr)                              \
    {                                                                                              \
        OPTIONAL_IERR(ierr)                                                                        \
        CType c = MPI_##Kind##_f2c(*obj);                                                          \
        void *v = NULL;                                                                            \
        int found = 0;                                                                             \
        *ierr = p ? PMPI_##Kind##_get_attr(c, *keyval, &v, &found)                                 \
                  : MPI_##Kind##_get_attr(c, *keyval, &v, &found);                                 \
        if (*ierr != MPI_SUCCESS)                                                                  \
            return;                                                                                \
        *flag = found != 0;                                                                        \
        if (found)                                                                                 \
            *val = attr_value(*keyval, v);                                                         \
    }                                                                                              \
    BIND(lower##_get_attr, UPPER##_GET_ATTR,                                                       \
         (MPI_Fint * obj, MPI_Fint * keyval, MPI_Aint * val, MPI_Fint * flag, MPI_Fint * ierr),    \
         (obj, keyval, val, flag, ierr))

ATTRS(comm, COMM, Comm, MPI_Comm)
ATTRS(type, TYPE, Type, MPI_Datatype)
ATTRS(win, WIN, Win, MPI_Win)

/* MPI-1's MPI_ATTR_PUT/MPI_ATTR_GET: the value is a default INTEGER. */
SKIFF_F_HAND(Attr_put)
static void fw_attr_put(int p, MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *ierr)
{
    OPTIONAL_IERR(ierr)
    MPI_Comm c = MPI_Comm_f2c(*comm);
    void *v = (void *)(intptr_t)*val;
    *ierr = p ? PMPI_Attr_put(c, *keyval, v) : MPI_Attr_put(c, *keyval, v);
}
BIND(attr_put, ATTR_PUT, (MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *ierr),
     (comm, keyval, val, ierr))

SKIFF_F_HAND(Attr_get)
static void fw_attr_get(int p, MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *flag,
                        MPI_Fint *ierr)
{
    OPTIONAL_IERR(ierr)
    MPI_Comm c = MPI_Comm_f2c(*comm);
    void *v = NULL;
    int found = 0;
    *ierr = p ? PMPI_Attr_get(c, *keyval, &v, &found) : MPI_Attr_get(c, *keyval, &v, &found);
    if (*ierr != MPI_SUCCESS)
        return;
    *flag = found != 0;
    if (found)
        *val = (MPI_Fint)attr_value(*keyval, v);
}
BIND(attr_get, ATTR_GET, (MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *flag, MPI_Fint *ierr),
     (comm, keyval, val, flag, ierr))

/* ---- keyvals with copy and delete procedures written in Fortran ---- */

/* The predefined procedures, callable from Fortran too (a user's copy function may call them). */
#define NULL_AND_DUP(lower, VT)                                                                     \
    SKIFF_F_API void lower##null_copy_fn_(MPI_Fint *o, MPI_Fint *k, VT *x, VT *in, VT *out,         \
                                          MPI_Fint *flag, MPI_Fint *ierr)                          \
    {                                                                                              \
        (void)o, (void)k, (void)x, (void)in, (void)out;                                            \
        *flag = 0;                                                                                 \
        *ierr = MPI_SUCCESS;                                                                       \
    }                                                                                              \
    SKIFF_F_API void lower##dup_fn_(MPI_Fint *o, MPI_Fint *k, VT *x, VT *in, VT *out,               \
                                    MPI_Fint *flag, MPI_Fint *ierr)                                \
    {                                                                                              \
        (void)o, (void)k, (void)x;                                                                 \
        *out = *in;                                                                                \
        *flag = 1;                                                                                 \
        *ierr = MPI_SUCCESS;                                                                       \
    }                                                                                              \
    SKIFF_F_API void lower##null_delete_fn_(MPI_Fint *o, MPI_Fint *k, VT *v, VT *x, MPI_Fint *ierr) \
    {                                                                                              \
        (void)o, (void)k, (void)v, (void)x;                                                        \
        *ierr = MPI_SUCCESS;                                                                       \
    }
NULL_AND_DUP(mpi_comm_, MPI_Aint)
NULL_AND_DUP(mpi_type_, MPI_Aint)
NULL_AND_DUP(mpi_win_, MPI_Aint)
NULL_AND_DUP(mpi_, MPI_Fint)

/* A Fortran keyval's procedures and extra state, passed to C as its extra_state. Never freed (a keyval
 * freed by MPI_*_free_keyval may still have attributes whose delete procedure needs it), but kept on a
 * list, so it stays reachable: a few words per keyval created. */
struct fkeyval {
    void (*copy)(void);
    void (*del)(void);
    MPI_Aint extra;
    struct fkeyval *next;
};
static struct fkeyval *fkeyvals;

#define KEYVAL(lower, UPPER, Kind, CType, cprefix, VT, fnull, fdup, fdel, CNULL, CDUP, CDEL, ctype_copy, \
               ctype_del, createcall, createname)                                                   \
    typedef void (*lower##_fcopy)(MPI_Fint *, MPI_Fint *, VT *, VT *, VT *, MPI_Fint *, MPI_Fint *); \
    typedef void (*lower##_fdel)(MPI_Fint *, MPI_Fint *, VT *, VT *, MPI_Fint *);                   \
    static int lower##_copy_tramp(CType o, int keyval, void *extra, void *in, void *out, int *flag) \
    {                                                                                              \
        struct fkeyval *k = extra;                                                                 \
        MPI_Fint fo = MPI_##Kind##_c2f(o), fk = keyval, fflag = 0, ierr = MPI_SUCCESS;             \
        VT x = (VT)k->extra, vin = (VT)(intptr_t)in, vout = 0;                                     \
        ((lower##_fcopy)k->copy)(&fo, &fk, &x, &vin, &vout, &fflag, &ierr);                        \
        *flag = fflag != 0;                                                                        \
        if (*flag)                                                                                 \
            *(void **)out = (void *)(intptr_t)vout;                                                \
        return ierr;                                                                               \
    }                                                                                              \
    static int lower##_del_tramp(CType o, int keyval, void *val, void *extra)                      \
    {                                                                                              \
        struct fkeyval *k = extra;                                                                 \
        MPI_Fint fo = MPI_##Kind##_c2f(o), fk = keyval, ierr = MPI_SUCCESS;                        \
        VT x = (VT)k->extra, v = (VT)(intptr_t)val;                                                \
        ((lower##_fdel)k->del)(&fo, &fk, &v, &x, &ierr);                                           \
        return ierr;                                                                               \
    }                                                                                              \
    static void fw_##lower(int p, lower##_fcopy copy, lower##_fdel del, MPI_Fint *keyval, VT *extra,\
                           MPI_Fint *ierr)                                                         \
    {                                                                                              \
        OPTIONAL_IERR(ierr)                                                                        \
        struct fkeyval *k = malloc(sizeof *k);                                                     \
        if (!k) {                                                                                  \
            *ierr = MPI_ERR_NO_MEM;                                                                \
            return;                                                                                \
        }                                                                                          \
        k->copy = (void (*)(void))copy;                                                            \
        k->del = (void (*)(void))del;                                                              \
        k->extra = *extra;                                                                         \
        k->next = fkeyvals;                                                                        \
        fkeyvals = k;                                                                              \
        ctype_copy *c_copy = copy == fnull ? CNULL : copy == fdup ? CDUP : lower##_copy_tramp;     \
        ctype_del *c_del = del == fdel ? CDEL : lower##_del_tramp;                                 \
        *ierr = p ? PMPI_##createcall(c_copy, c_del, keyval, k) : MPI_##createcall(c_copy, c_del, keyval, k); \
        if (*ierr != MPI_SUCCESS) {                                                                \
            fkeyvals = k->next;                                                                    \
            free(k);                                                                               \
        }                                                                                          \
    }                                                                                              \
    BIND(lower, UPPER, (lower##_fcopy copy, lower##_fdel del, MPI_Fint *keyval, VT *extra, MPI_Fint *ierr), \
         (copy, del, keyval, extra, ierr))

KEYVAL(comm_create_keyval, COMM_CREATE_KEYVAL, Comm, MPI_Comm, mpi_comm_, MPI_Aint, mpi_comm_null_copy_fn_,
       mpi_comm_dup_fn_, mpi_comm_null_delete_fn_, MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN,
       MPI_COMM_NULL_DELETE_FN, MPI_Comm_copy_attr_function, MPI_Comm_delete_attr_function,
       Comm_create_keyval, Comm_create_keyval)
KEYVAL(type_create_keyval, TYPE_CREATE_KEYVAL, Type, MPI_Datatype, mpi_type_, MPI_Aint,
       mpi_type_null_copy_fn_, mpi_type_dup_fn_, mpi_type_null_delete_fn_, MPI_TYPE_NULL_COPY_FN,
       MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, MPI_Type_copy_attr_function,
       MPI_Type_delete_attr_function, Type_create_keyval, Type_create_keyval)
KEYVAL(win_create_keyval, WIN_CREATE_KEYVAL, Win, MPI_Win, mpi_win_, MPI_Aint, mpi_win_null_copy_fn_,
       mpi_win_dup_fn_, mpi_win_null_delete_fn_, MPI_WIN_NULL_COPY_FN, MPI_WIN_DUP_FN,
       MPI_WIN_NULL_DELETE_FN, MPI_Win_copy_attr_function, MPI_Win_delete_attr_function,
       Win_create_keyval, Win_create_keyval)
KEYVAL(keyval_create, KEYVAL_CREATE, Comm, MPI_Comm, mpi_, MPI_Fint, mpi_null_copy_fn_, mpi_dup_fn_,
       mpi_null_delete_fn_, MPI_NULL_COPY_FN, MPI_DUP_FN, MPI_NULL_DELETE_FN, MPI_Copy_function,
       MPI_Delete_function, Keyval_create, Keyval_create)

/* ---- user-defined ops and error handlers written in Fortran ----
 * C calls them with no room for a closure, so each Fortran procedure gets one of a fixed set of C
 * trampolines (slot i calls the i-th procedure registered; the same procedure reuses its slot). */
#define SLOTS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) \
    X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
#define NSLOTS 32

/* Returns the slot of fn in table (taking a free one), or -1 when all are taken. */
static int slot_of(void (**table)(void), void (*fn)(void))
{
    for (int i = 0; i < NSLOTS; i++)
        if (table[i] == fn)
            return i;
    for (int i = 0; i < NSLOTS; i++)
        if (!table[i]) {
            table[i] = fn;
            return i;
        }
    return -1;
}

typedef void (*f_user_fn)(void *in, void *inout, MPI_Fint *len, MPI_Fint *datatype);
static void (*op_fns[NSLOTS])(void);
#define OP_TRAMP(i)                                                                                 \
    static void op_tramp_##i(void *in, void *inout, int *len, MPI_Datatype *dt)                    \
    {                                                                                              \
        MPI_Fint fdt = MPI_Type_c2f(*dt), flen = *len;                                             \
        ((f_user_fn)op_fns[i])(in, inout, &flen, &fdt);                                            \
    }
SLOTS(OP_TRAMP)
#define OP_ENTRY(i) op_tramp_##i,
static MPI_User_function *const op_tramps[NSLOTS] = {SLOTS(OP_ENTRY)};

/* MPI_Op_create_c (mpi_f08 only, as the generic MPI_Op_create_c: see gen_bindings.py): the Fortran
 * procedure's len is INTEGER(KIND=MPI_COUNT_KIND), C's MPI_Count, so it is passed as it comes. */
typedef void (*f_user_fn_c)(void *in, void *inout, MPI_Count *len, MPI_Fint *datatype);
static void (*op_c_fns[NSLOTS])(void);
#define OP_C_TRAMP(i)                                                                               \
    static void op_c_tramp_##i(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)            \
    {                                                                                              \
        MPI_Fint fdt = MPI_Type_c2f(*dt);                                                          \
        ((f_user_fn_c)op_c_fns[i])(in, inout, len, &fdt);                                          \
    }
SLOTS(OP_C_TRAMP)
#define OP_C_ENTRY(i) op_c_tramp_##i,
static MPI_User_function_c *const op_c_tramps[NSLOTS] = {SLOTS(OP_C_ENTRY)};

/* The op whose trampoline calls the Fortran procedure fn: an MPI_User_function, or with large an
 * MPI_User_function_c (MPI_Op_create_c). */
static void make_op(int p, int large, void (*fn)(void), MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierr)
{
    OPTIONAL_IERR(ierr)
    int s = slot_of(large ? op_c_fns : op_fns, fn);
    if (s < 0) {
        *ierr = MPI_ERR_INTERN; /* more distinct Fortran op procedures than slots */
        return;
    }
    MPI_Op c = MPI_OP_NULL;
    if (large)
        *ierr = p ? PMPI_Op_create_c(op_c_tramps[s], *commute, &c)
                  : MPI_Op_create_c(op_c_tramps[s], *commute, &c);
    else
        *ierr = p ? PMPI_Op_create(op_tramps[s], *commute, &c) : MPI_Op_create(op_tramps[s], *commute, &c);
    if (*ierr == MPI_SUCCESS)
        *op = MPI_Op_c2f(c);
}

SKIFF_F_HAND(Op_create)
static void fw_op_create(int p, f_user_fn fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierr)
{
    make_op(p, 0, (void (*)(void))fn, commute, op, ierr);
}
BIND(op_create, OP_CREATE, (f_user_fn fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierr),
     (fn, commute, op, ierr))

static void fw_op_create_c(int p, f_user_fn_c fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierr)
{
    make_op(p, 1, (void (*)(void))fn, commute, op, ierr);
}
SKIFF_F_API void mpi_op_create_c_f08_(f_user_fn_c fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierr)
{
    fw_op_create_c(0, fn, commute, op, ierr);
}
SKIFF_F_API void pmpi_op_create_c_f08_(f_user_fn_c fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierr)
{
    fw_op_create_c(1, fn, commute, op, ierr);
}

typedef void (*f_handler_fn)(MPI_Fint *obj, MPI_Fint *code);
#define ERRHANDLERS(lower, UPPER, Kind, CType, Fn)                                                  \
    static void (*lower##_fns[NSLOTS])(void);                                                      \
    SLOTS(lower##_TRAMP)                                                                           \
    static Fn *const lower##_tramps[NSLOTS] = {SLOTS(lower##_ENTRY)};                              \
    static void fw_##lower##_create_errhandler(int p, f_handler_fn fn, MPI_Fint *eh, MPI_Fint *ierr) \
    {                                                                                              \
        OPTIONAL_IERR(ierr)                                                                        \
        int s = slot_of(lower##_fns, (void (*)(void))fn);                                          \
        if (s < 0) {                                                                               \
            *ierr = MPI_ERR_INTERN;                                                                \
            return;                                                                                \
        }                                                                                          \
        MPI_Errhandler c = MPI_ERRHANDLER_NULL;                                                    \
        *ierr = p ? PMPI_##Kind##_create_errhandler(lower##_tramps[s], &c)                         \
                  : MPI_##Kind##_create_errhandler(lower##_tramps[s], &c);                         \
        if (*ierr == MPI_SUCCESS)                                                                  \
            *eh = MPI_Errhandler_c2f(c);                                                           \
    }                                                                                              \
    BIND(lower##_create_errhandler, UPPER##_CREATE_ERRHANDLER,                                     \
         (f_handler_fn fn, MPI_Fint *eh, MPI_Fint *ierr), (fn, eh, ierr))

#define TRAMP_BODY(lower, Kind, CType, i)                                                           \
    static void lower##_tramp_##i(CType *o, int *code, ...)                                        \
    {                                                                                              \
        MPI_Fint fo = MPI_##Kind##_c2f(*o), fc = *code;                                            \
        ((f_handler_fn)lower##_fns[i])(&fo, &fc);                                                  \
    }
#define comm_TRAMP(i) TRAMP_BODY(comm, Comm, MPI_Comm, i)
#define comm_ENTRY(i) comm_tramp_##i,
#define win_TRAMP(i) TRAMP_BODY(win, Win, MPI_Win, i)
#define win_ENTRY(i) win_tramp_##i,
#define session_TRAMP(i) TRAMP_BODY(session, Session, MPI_Session, i)
#define session_ENTRY(i) session_tramp_##i,
ERRHANDLERS(comm, COMM, Comm, MPI_Comm, MPI_Comm_errhandler_function)
ERRHANDLERS(win, WIN, Win, MPI_Win, MPI_Win_errhandler_function)
ERRHANDLERS(session, SESSION, Session, MPI_Session, MPI_Session_errhandler_function)

/* MPI-1's MPI_ERRHANDLER_CREATE: MPI_COMM_CREATE_ERRHANDLER under its old name. */
SKIFF_F_HAND(Errhandler_create)
static void fw_errhandler_create(int p, f_handler_fn fn, MPI_Fint *eh, MPI_Fint *ierr)
{
    OPTIONAL_IERR(ierr)
    fw_comm_create_errhandler(p, fn, eh, ierr);
}
BIND(errhandler_create, ERRHANDLER_CREATE, (f_handler_fn fn, MPI_Fint *eh, MPI_Fint *ierr), (fn, eh, ierr))

/* ---- generalized requests: the query, free and cancel procedures written in Fortran ----
 * The C extra_state carries them with the Fortran EXTRA_STATE (an ADDRESS_KIND integer), so any number
 * of requests may be pending; the free procedure's call releases it. */
typedef void (*f_greq_query)(MPI_Aint *extra, MPI_Fint *status, MPI_Fint *ierr);
typedef void (*f_greq_free)(MPI_Aint *extra, MPI_Fint *ierr);
typedef void (*f_greq_cancel)(MPI_Aint *extra, MPI_Fint *complete, MPI_Fint *ierr);
struct fgreq {
    f_greq_query query;
    f_greq_free free;
    f_greq_cancel cancel;
    MPI_Aint extra;
};

static int greq_query(void *extra, MPI_Status *status)
{
    struct fgreq *g = extra;
    MPI_Fint fst[MPI_F_STATUS_SIZE], ierr = MPI_SUCCESS;
    MPI_Status_c2f(status, fst); /* what the procedure leaves alone keeps C's value */
    g->query(&g->extra, fst, &ierr);
    MPI_Status_f2c(fst, status);
    return ierr;
}

static int greq_free(void *extra)
{
    struct fgreq *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(&g->extra, &ierr);
    free(g);
    return ierr;
}

static int greq_cancel(void *extra, int complete)
{
    struct fgreq *g = extra;
    MPI_Fint c = complete != 0, ierr = MPI_SUCCESS;
    g->cancel(&g->extra, &c, &ierr);
    return ierr;
}

SKIFF_F_HAND(Grequest_start)
static void fw_grequest_start(int p, f_greq_query query, f_greq_free fr, f_greq_cancel cancel,
                              MPI_Aint *extra, MPI_Fint *request, MPI_Fint *ierr)
{
    OPTIONAL_IERR(ierr)
    struct fgreq *g = malloc(sizeof *g);
    if (!g) {
        *ierr = MPI_ERR_NO_MEM;
        return;
    }
    *g = (struct fgreq){query, fr, cancel, *extra};
    MPI_Request c = MPI_REQUEST_NULL;
    *ierr = p ? PMPI_Grequest_start(greq_query, greq_free, greq_cancel, g, &c)
              : MPI_Grequest_start(greq_query, greq_free, greq_cancel, g, &c);
    if (*ierr == MPI_SUCCESS)
        *request = MPI_Request_c2f(c);
    else
        free(g);
}
BIND(grequest_start, GREQUEST_START,
     (f_greq_query query, f_greq_free fr, f_greq_cancel cancel, MPI_Aint *extra, MPI_Fint *request,
      MPI_Fint *ierr),
     (query, fr, cancel, extra, request, ierr))
