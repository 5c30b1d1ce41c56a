/* Info objects: create, set, get, delete, dup, free, and the environment's info (MPI_INFO_ENV,
 * MPI_Info_create_env). The standard lets these run before MPI_Init and after MPI_Finalize (a session's
 * hints are built before anything starts), so none of them requires initialization; their errors go to
 * MPI_COMM_WORLD's handler, which is MPI_ERRORS_ARE_FATAL outside MPI_Init..MPI_Finalize. */
#include <string.h>

#include "core/info.h"
#include "mpi/mpi_impl.h"

/* A key is 1..MPI_MAX_INFO_KEY-1 characters: MPI_Info_get_nthkey's buffer of MPI_MAX_INFO_KEY holds it. */
static int check_key(const char *key)
{
    int rc = skiff_check_ptr(key, "key");
    if (rc)
        return rc;
    size_t n = strnlen(key, MPI_MAX_INFO_KEY);
    if (SKIFF_UNLIKELY(n == 0 || n >= MPI_MAX_INFO_KEY))
        return skiff_err(MPI_ERR_INFO_KEY, "invalid key (%s; keys are 1 to %d characters)",
                         n ? "too long" : "empty", MPI_MAX_INFO_KEY - 1);
    return MPI_SUCCESS;
}

static int check_value(const char *value)
{
    int rc = skiff_check_ptr(value, "value");
    if (rc)
        return rc;
    size_t n = strnlen(value, MPI_MAX_INFO_VAL);
    if (SKIFF_UNLIKELY(n >= MPI_MAX_INFO_VAL))
        return skiff_err(MPI_ERR_INFO_VALUE, "value of key too long (values are at most %d characters)",
                         MPI_MAX_INFO_VAL - 1);
    return MPI_SUCCESS;
}

/* An info the call changes: MPI_INFO_ENV describes how the program was started, which no call changes. */
static int check_mutable(MPI_Info h, struct skiff_info **out)
{
    int rc = skiff_check_info_obj(h, out);
    if (!rc && SKIFF_UNLIKELY(skiff_info_is_env(h)))
        rc = skiff_err(MPI_ERR_INFO, "MPI_INFO_ENV is predefined and cannot be changed or freed");
    return rc;
}

static int new_info(struct skiff_info *in, MPI_Info *out)
{
    if (!in)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for an info object");
    *out = skiff_info_handle(in);
    return MPI_SUCCESS;
}

int PMPI_Info_create(MPI_Info *info)
{
    SKIFF_ENTER(MPI_Info_create);
    int rc = skiff_check_ptr(info, "info");
    if (!rc)
        rc = new_info(skiff_info_new(), info);
    return skiff_fail_world(rc);
}
SKIFF_ALIAS(MPI_Info_create)

int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    SKIFF_ENTER(MPI_Info_create_env);
    int rc = skiff_check_ptr(info, "info");
    if (rc)
        return skiff_fail_world(rc);
    struct skiff_info *in = skiff_info_new();
    /* Before MPI_Init the job's size is not known yet, so maxprocs is left out then. */
    int size = skiff.initialized && !skiff.finalized ? skiff.size : 0;
    if (in && skiff_info_fill_env(in, argc, argv, skiff.thread_level, size)) {
        skiff_info_free(in);
        in = NULL;
    }
    return skiff_fail_world(new_info(in, info));
}
SKIFF_ALIAS(MPI_Info_create_env)

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    struct skiff_info *in = NULL;
    int rc;
    SKIFF_ENTER(MPI_Info_set);
    if ((rc = check_mutable(info, &in)) || (rc = check_key(key)) || (rc = check_value(value)))
        return skiff_fail_world(rc);
    if (skiff_info_set(in, key, value))
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "out of memory setting key \"%s\"", key));
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Info_set)

/* Copies value into buf of len bytes (len >= 1), cut to fit and always terminated. */
static void copy_cut(char *buf, size_t len, const char *value)
{
    size_t n = strlen(value);
    if (n > len - 1)
        n = len - 1;
    memcpy(buf, value, n);
    buf[n] = '\0';
}

/* Deprecated by MPI-4 in favour of MPI_Info_get_string, still called by most codes that read hints. */
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    struct skiff_info *in = NULL;
    int rc;
    SKIFF_ENTER(MPI_Info_get);
    if ((rc = skiff_check_info_obj(info, &in)) || (rc = check_key(key)) || (rc = skiff_check_ptr(flag, "flag")) ||
        (rc = skiff_check_ptr(value, "value")))
        return skiff_fail_world(rc);
    if (SKIFF_UNLIKELY(valuelen < 0))
        return skiff_fail_world(skiff_err(MPI_ERR_ARG, "invalid valuelen %d (must be >= 0)", valuelen));
    const char *v = skiff_info_lookup(in, key);
    *flag = v != NULL;
    /* valuelen counts characters without the terminator: value holds valuelen + 1 bytes. */
    if (v)
        copy_cut(value, (size_t)valuelen + 1, v);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Info_get)

int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    struct skiff_info *in = NULL;
    int rc;
    SKIFF_ENTER(MPI_Info_get_string);
    if ((rc = skiff_check_info_obj(info, &in)) || (rc = check_key(key)) || (rc = skiff_check_ptr(flag, "flag")) ||
        (rc = skiff_check_ptr(buflen, "buflen")))
        return skiff_fail_world(rc);
    if (SKIFF_UNLIKELY(*buflen < 0))
        return skiff_fail_world(skiff_err(MPI_ERR_ARG, "invalid *buflen %d (must be >= 0)", *buflen));
    if ((rc = skiff_check_array(*buflen, value, "value")))
        return skiff_fail_world(rc);
    const char *v = skiff_info_lookup(in, key);
    *flag = v != NULL;
    if (!v)
        return MPI_SUCCESS;
    /* *buflen = 0 asks only for the size: the value with its terminator. */
    if (*buflen > 0)
        copy_cut(value, (size_t)*buflen, v);
    *buflen = (int)strlen(v) + 1;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Info_get_string)

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    struct skiff_info *in = NULL;
    int rc;
    SKIFF_ENTER(MPI_Info_get_valuelen);
    if ((rc = skiff_check_info_obj(info, &in)) || (rc = check_key(key)) ||
        (rc = skiff_check_ptr(valuelen, "valuelen")) || (rc = skiff_check_ptr(flag, "flag")))
        return skiff_fail_world(rc);
    const char *v = skiff_info_lookup(in, key);
    *flag = v != NULL;
    if (v)
        *valuelen = (int)strlen(v);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Info_get_valuelen)

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    struct skiff_info *in = NULL;
    int rc;
    SKIFF_ENTER(MPI_Info_get_nkeys);
    if ((rc = skiff_check_info_obj(info, &in)) || (rc = skiff_check_ptr(nkeys, "nkeys")))
        return skiff_fail_world(rc);
    *nkeys = in->n;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Info_get_nkeys)

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    struct skiff_info *in = NULL;
    int rc;
    SKIFF_ENTER(MPI_Info_get_nthkey);
    if ((rc = skiff_check_info_obj(info, &in)) || (rc = skiff_check_ptr(key, "key")))
        return skiff_fail_world(rc);
    if (SKIFF_UNLIKELY(n < 0 || n >= in->n))
        return skiff_fail_world(skiff_err(MPI_ERR_ARG, "invalid n %d (the info has %d keys)", n, in->n));
    /* Keys are shorter than MPI_MAX_INFO_KEY, the size the caller's buffer must have. */
    strcpy(key, in->e[n].key);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Info_get_nthkey)

int PMPI_Info_delete(MPI_Info info, const char *key)
{
    struct skiff_info *in = NULL;
    int rc;
    SKIFF_ENTER(MPI_Info_delete);
    if ((rc = check_mutable(info, &in)) || (rc = check_key(key)))
        return skiff_fail_world(rc);
    if (skiff_info_remove(in, key))
        return skiff_fail_world(skiff_err(MPI_ERR_INFO_NOKEY, "key \"%s\" is not in the info", key));
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Info_delete)

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    struct skiff_info *in = NULL;
    int rc;
    SKIFF_ENTER(MPI_Info_dup);
    if ((rc = skiff_check_info_obj(info, &in)) || (rc = skiff_check_ptr(newinfo, "newinfo")))
        return skiff_fail_world(rc);
    return skiff_fail_world(new_info(skiff_info_dup(in), newinfo));
}
SKIFF_ALIAS(MPI_Info_dup)

int PMPI_Info_free(MPI_Info *info)
{
    struct skiff_info *in = NULL;
    int rc;
    SKIFF_ENTER(MPI_Info_free);
    if ((rc = skiff_check_ptr(info, "info")) || (rc = check_mutable(*info, &in)))
        return skiff_fail_world(rc);
    skiff_info_free(in);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Info_free)
