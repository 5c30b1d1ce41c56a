#include "core/info.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/objpool.h"

static struct skiff_objpool pool = SKIFF_OBJPOOL_INIT(struct skiff_info);
/* MPI_Abi_get_info may be called from any thread at any time (MPI-5.0, 21.2): the pool is the one shared
 * thing it touches. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct skiff_info env = {SKIFF_INFO_MAGIC, 0, 0, NULL};

struct skiff_info *skiff_info_get(MPI_Info h)
{
    if (h == MPI_INFO_ENV)
        return &env;
    /* Predefined handles are small integers; anything else is a pointer into our pool. */
    if ((uintptr_t)h < 0x1000 || (uintptr_t)h % sizeof(void *))
        return NULL;
    struct skiff_info *in = (struct skiff_info *)(void *)h;
    return in->magic == SKIFF_INFO_MAGIC ? in : NULL;
}

MPI_Info skiff_info_handle(struct skiff_info *in)
{
    return in == &env ? MPI_INFO_ENV : (MPI_Info)(void *)in;
}

struct skiff_info *skiff_info_new(void)
{
    pthread_mutex_lock(&pool_lock);
    struct skiff_info *in = skiff_objpool_get(&pool);
    pthread_mutex_unlock(&pool_lock);
    if (in)
        in->magic = SKIFF_INFO_MAGIC;
    return in;
}

static void clear(struct skiff_info *in)
{
    for (int i = 0; i < in->n; i++) {
        free(in->e[i].key);
        free(in->e[i].value);
    }
    free(in->e);
    in->e = NULL;
    in->n = in->cap = 0;
}

void skiff_info_free(struct skiff_info *in)
{
    clear(in);
    pthread_mutex_lock(&pool_lock);
    skiff_objpool_put(&pool, in); /* zeroes the magic */
    pthread_mutex_unlock(&pool_lock);
}

struct skiff_info *skiff_info_dup(const struct skiff_info *in)
{
    struct skiff_info *d = skiff_info_new();
    for (int i = 0; d && in && i < in->n; i++)
        if (skiff_info_set(d, in->e[i].key, in->e[i].value)) {
            skiff_info_free(d);
            d = NULL;
        }
    return d;
}

static int find(const struct skiff_info *in, const char *key)
{
    for (int i = 0; i < in->n; i++)
        if (strcmp(in->e[i].key, key) == 0)
            return i;
    return -1;
}

const char *skiff_info_lookup(const struct skiff_info *in, const char *key)
{
    int i = find(in, key);
    return i < 0 ? NULL : in->e[i].value;
}

int skiff_info_set(struct skiff_info *in, const char *key, const char *value)
{
    char *v = strdup(value);
    if (!v)
        return -1;
    int i = find(in, key);
    if (i >= 0) {
        free(in->e[i].value);
        in->e[i].value = v;
        return 0;
    }
    if (in->n == in->cap) {
        int cap = in->cap ? 2 * in->cap : 8;
        struct skiff_info_entry *e = realloc(in->e, sizeof *e * (size_t)cap);
        if (!e) {
            free(v);
            return -1;
        }
        in->e = e;
        in->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return -1;
    }
    in->e[in->n++] = (struct skiff_info_entry){k, v};
    return 0;
}

int skiff_info_remove(struct skiff_info *in, const char *key)
{
    int i = find(in, key);
    if (i < 0)
        return -1;
    free(in->e[i].key);
    free(in->e[i].value);
    /* Later keys move down one place: the order the user set them in is kept. */
    memmove(&in->e[i], &in->e[i + 1], sizeof *in->e * (size_t)(in->n - i - 1));
    in->n--;
    return 0;
}

/* argv[1..] joined by spaces, as the standard's "argv" key has it; NULL when memory is out. */
static char *join_args(int argc, char **argv)
{
    size_t len = 1;
    for (int i = 1; i < argc && argv[i]; i++)
        len += strlen(argv[i]) + 1;
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    *p = '\0';
    for (int i = 1; i < argc && argv[i]; i++)
        p += sprintf(p, "%s%s", i > 1 ? " " : "", argv[i]);
    return s;
}

/* The ABI's levels are not consecutive (0, 1024, 2048, 4096): named one by one. */
static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
        return "MPI_THREAD_MULTIPLE";
    default:
        return "MPI_THREAD_SINGLE";
    }
}

/* The keys every process knows without asking anyone: where it runs and how. */
static int fill_machine(struct skiff_info *in, int thread_level, int maxprocs)
{
    char buf[4096];
    struct utsname u;
    int rc = 0;
    if (gethostname(buf, sizeof buf) == 0) {
        buf[sizeof buf - 1] = '\0';
        rc |= skiff_info_set(in, "host", buf);
    }
    if (uname(&u) == 0)
        rc |= skiff_info_set(in, "arch", u.machine);
    if (getcwd(buf, sizeof buf))
        rc |= skiff_info_set(in, "wdir", buf);
    if (maxprocs > 0) {
        snprintf(buf, sizeof buf, "%d", maxprocs);
        rc |= skiff_info_set(in, "maxprocs", buf);
    }
    rc |= skiff_info_set(in, "thread_level", thread_level_name(thread_level));
    return rc;
}

int skiff_info_fill_env(struct skiff_info *in, int argc, char **argv, int thread_level, int maxprocs)
{
    int rc = 0;
    if (argv && argc > 0 && argv[0]) {
        char *args = join_args(argc, argv);
        rc |= args ? skiff_info_set(in, "command", argv[0]) | skiff_info_set(in, "argv", args) : -1;
        free(args);
    }
    return rc | fill_machine(in, thread_level, maxprocs);
}

/* The program's arguments as main received them: MPI_Init may be given NULL for argc and argv. */
static int read_cmdline(int *argc, char ***argv, char **text)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (!f)
        return -1;
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    size_t got;
    while (s && (got = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        char *t = len + 1 < cap ? s : realloc(s, cap *= 2);
        if (!t)
            free(s);
        s = t;
    }
    fclose(f);
    if (!s)
        return -1;
    s[len] = '\0';
    int n = 0;
    for (size_t i = 0; i < len; i += strlen(s + i) + 1)
        n++;
    char **v = malloc(sizeof *v * (size_t)(n + 1));
    if (!v) {
        free(s);
        return -1;
    }
    n = 0;
    for (size_t i = 0; i < len; i += strlen(s + i) + 1)
        v[n++] = s + i;
    v[n] = NULL;
    *argc = n;
    *argv = v;
    *text = s;
    return 0;
}

void skiff_info_init_env(int thread_level, int maxprocs)
{
    int argc = 0;
    char **argv = NULL, *text = NULL;
    clear(&env);
    if (read_cmdline(&argc, &argv, &text) != 0)
        argv = NULL;
    /* Out of memory here only leaves keys out: MPI_INFO_ENV lists what is known. */
    (void)skiff_info_fill_env(&env, argc, argv, thread_level, maxprocs);
    free(argv);
    free(text);
}

void skiff_info_finalize(void)
{
    clear(&env);
}
