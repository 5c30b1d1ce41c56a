/* Which MPI library a program is linked with, for a rank that never joined the job. */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpiexec.h"

/* A rank that exits without ever joining the job is a plain program (hostname), or an MPI program
 * linked with another MPI library that ran as a singleton mpiexec cannot see. The difference is in
 * the program's dynamic dependencies, found the way ld.so finds them (as ldd shows them, without
 * running anything). This runs only when such a rank has exited: starting a job costs nothing. */

#if __SIZEOF_POINTER__ == 8
#define ELF_CLASS ELFCLASS64
#else
#define ELF_CLASS ELFCLASS32
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELF_DATA ELFDATA2LSB
#else
#define ELF_DATA ELFDATA2MSB
#endif

/* skiff's libmpi reads this variable (boot/job_proto.h), so its file holds the name; other MPIs' don't. */
#define SKIFF_LIB_MARK "SKIFF_JOB_FD"
/* Objects looked at, at most: a program's whole dependency tree is rarely a hundred. */
#define MAX_OBJECTS 256

/* A mapped ELF object of our own class and byte order, with its dynamic section located. */
struct elf {
    const unsigned char *p;
    size_t size;
    uint16_t machine;
    size_t dyn_off, ndyn;    /* the dynamic section's entries, in the file */
    size_t str_off, str_len; /* its string table, in the file */
};

static void *map_file(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        *size = (size_t)st.st_size;
        p = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    close(fd);
    return p == MAP_FAILED ? NULL : p;
}

/* The file offset of virtual address v, through the PT_LOAD headers; 0 if none maps it. */
static size_t elf_offset(const struct elf *e, const ElfW(Ehdr) *eh, ElfW(Addr) v)
{
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        ElfW(Phdr) ph;
        memcpy(&ph, e->p + eh->e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_LOAD && v >= ph.p_vaddr && v - ph.p_vaddr < ph.p_filesz)
            return ph.p_offset + (v - ph.p_vaddr);
    }
    return 0;
}

/* Finds the string table that the dynamic section names (DT_STRTAB, DT_STRSZ). */
static void elf_strtab(struct elf *e, const ElfW(Ehdr) *eh)
{
    ElfW(Addr) addr = 0;
    size_t len = 0;
    for (size_t i = 0; i < e->ndyn; i++) {
        ElfW(Dyn) d;
        memcpy(&d, e->p + e->dyn_off + i * sizeof d, sizeof d);
        if (d.d_tag == DT_STRTAB)
            addr = d.d_un.d_ptr;
        else if (d.d_tag == DT_STRSZ)
            len = d.d_un.d_val;
    }
    size_t off = addr ? elf_offset(e, eh, addr) : 0;
    if (off && off < e->size && len <= e->size - off) {
        e->str_off = off;
        e->str_len = len;
    } else {
        e->ndyn = 0; /* names we cannot read: treat as no dependencies */
    }
}

/* Maps path; false unless it is an ELF object of our class and byte order. Every offset is checked
 * against the file: a damaged file gives no dependencies, never a crash. */
static bool elf_open(const char *path, struct elf *e)
{
    *e = (struct elf){ 0 };
    void *p = map_file(path, &e->size);
    if (!p)
        return false;
    e->p = p;
    ElfW(Ehdr) eh;
    if (e->size < sizeof eh)
        goto bad;
    memcpy(&eh, p, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELF_CLASS ||
        eh.e_ident[EI_DATA] != ELF_DATA || eh.e_phentsize != sizeof(ElfW(Phdr)) ||
        eh.e_phoff > e->size || (size_t)eh.e_phnum * sizeof(ElfW(Phdr)) > e->size - eh.e_phoff)
        goto bad;
    e->machine = eh.e_machine;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        ElfW(Phdr) ph;
        memcpy(&ph, e->p + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_DYNAMIC && ph.p_offset <= e->size && ph.p_filesz <= e->size - ph.p_offset) {
            e->dyn_off = ph.p_offset;
            e->ndyn = ph.p_filesz / sizeof(ElfW(Dyn));
        }
    }
    elf_strtab(e, &eh); /* a static program has no dynamic section: no dependencies */
    return true;
bad:
    munmap(p, e->size);
    return false;
}

static void elf_close(struct elf *e)
{
    munmap((void *)e->p, e->size);
}

/* Entry i's string if its tag is tag (DT_NEEDED, DT_RPATH, DT_RUNPATH), else NULL. */
static const char *elf_dyn_string(const struct elf *e, size_t i, ElfW(Sxword) tag)
{
    ElfW(Dyn) d;
    memcpy(&d, e->p + e->dyn_off + i * sizeof d, sizeof d);
    if (d.d_tag != tag || d.d_un.d_val >= e->str_len)
        return NULL;
    const char *s = (const char *)e->p + e->str_off + d.d_un.d_val;
    return memchr(s, '\0', e->str_len - d.d_un.d_val) ? s : NULL;
}

static const char *elf_dyn_first(const struct elf *e, ElfW(Sxword) tag)
{
    const char *s = NULL;
    for (size_t i = 0; i < e->ndyn && !s; i++)
        s = elf_dyn_string(e, i, tag);
    return s;
}

/* Whether path is a shared object the loader could take for a program of this machine. */
static bool lib_usable(const char *path, uint16_t machine)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ElfW(Ehdr) eh;
    bool ok = read(fd, &eh, sizeof eh) == (ssize_t)sizeof eh && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
              eh.e_ident[EI_CLASS] == ELF_CLASS && eh.e_ident[EI_DATA] == ELF_DATA &&
              eh.e_machine == machine;
    close(fd);
    return ok;
}

/* Searches a colon-separated directory list, with $ORIGIN / ${ORIGIN} as the loader expands them. */
static bool search_dirs(const char *list, const char *origin, const char *name, uint16_t machine,
                        char *out, size_t len)
{
    for (const char *p = list; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
        size_t n = strcspn(p, ":");
        const char *rest = p;
        const char *base = "";
        if (!strncmp(p, "$ORIGIN", 7) && (n == 7 || p[7] == '/'))
            base = origin, rest = p + 7, n -= 7;
        else if (!strncmp(p, "${ORIGIN}", 9) && (n == 9 || p[9] == '/'))
            base = origin, rest = p + 9, n -= 9;
        int w = snprintf(out, len, "%s%.*s%s%s", base, (int)n, rest, n || *base ? "/" : "", name);
        if (w > 0 && (size_t)w < len && lib_usable(out, machine))
            return true;
    }
    return false;
}

/* /etc/ld.so.cache in glibc's format since 2.32 (the older one is no longer written): a header, then
 * entries whose key (soname) and value (path) are offsets of strings in the file. */
struct ldcache {
    const unsigned char *p;
    size_t size;
    uint32_t n;
};
#define LDCACHE_MAGIC "glibc-ld.so.cache1.1"
enum { LDCACHE_HEADER = 48, LDCACHE_ENTRY = 24 };

static void ldcache_open(struct ldcache *c)
{
    *c = (struct ldcache){ 0 };
    c->p = map_file("/etc/ld.so.cache", &c->size);
    if (!c->p)
        return;
    if (c->size < LDCACHE_HEADER || memcmp(c->p, LDCACHE_MAGIC, sizeof LDCACHE_MAGIC - 1))
        return; /* another format: the search goes on in the default directories */
    uint32_t n;
    memcpy(&n, c->p + sizeof LDCACHE_MAGIC - 1, sizeof n);
    if ((uint64_t)n * LDCACHE_ENTRY <= c->size - LDCACHE_HEADER)
        c->n = n;
}

static const char *ldcache_string(const struct ldcache *c, uint32_t off)
{
    if (off >= c->size || !memchr(c->p + off, '\0', c->size - off))
        return NULL;
    return (const char *)c->p + off;
}

static bool ldcache_find(const struct ldcache *c, const char *name, uint16_t machine, char *out, size_t len)
{
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t kv[2]; /* after the entry's int32 flags */
        memcpy(kv, c->p + LDCACHE_HEADER + (size_t)i * LDCACHE_ENTRY + 4, sizeof kv);
        const char *key = ldcache_string(c, kv[0]), *value = ldcache_string(c, kv[1]);
        if (key && value && !strcmp(key, name) && strlen(value) < len && lib_usable(value, machine)) {
            strcpy(out, value);
            return true;
        }
    }
    return false;
}

/* The loader's search for a dependency of object from (at from_path): its DT_RPATH unless it has a
 * DT_RUNPATH, LD_LIBRARY_PATH, its DT_RUNPATH, the cache, the default directories. (The loader also
 * tries the program's DT_RPATH for its libraries' dependencies; what no distribution relies on is
 * left out.) */
static bool lib_find(const struct elf *from, const char *from_path, const char *name, const char *ld_path,
                     const struct ldcache *cache, char *out, size_t len)
{
    if (strchr(name, '/'))
        return strlen(name) < len && lib_usable(strcpy(out, name), from->machine);
    char origin[PATH_MAX];
    const char *slash = strrchr(from_path, '/');
    snprintf(origin, sizeof origin, "%.*s", slash ? (int)(slash - from_path) : 1, slash ? from_path : ".");
    const char *runpath = elf_dyn_first(from, DT_RUNPATH);
    const char *rpath = runpath ? NULL : elf_dyn_first(from, DT_RPATH);
    return (rpath && search_dirs(rpath, origin, name, from->machine, out, len)) ||
           (ld_path && *ld_path && search_dirs(ld_path, origin, name, from->machine, out, len)) ||
           (runpath && search_dirs(runpath, origin, name, from->machine, out, len)) ||
           ldcache_find(cache, name, from->machine, out, len) ||
           search_dirs("/lib:/usr/lib:/lib64:/usr/lib64", origin, name, from->machine, out, len);
}

static bool is_skiff_lib(const char *path)
{
    size_t size;
    void *p = map_file(path, &size);
    if (!p)
        return true; /* unreadable: no grounds to accuse it */
    bool found = memmem(p, size, SKIFF_LIB_MARK, sizeof SKIFF_LIB_MARK - 1) != NULL;
    munmap(p, size);
    return found;
}

/* The value of var in the ranks' environment: the last -x VAR=VAL, else mpiexec's own. */
static const char *rank_getenv(const struct job *job, const char *var)
{
    size_t n = strlen(var);
    const char *v = getenv(var);
    for (int i = 0; i < job->opt.nxvars; i++)
        if (!strncmp(job->opt.xvars[i], var, n) && job->opt.xvars[i][n] == '=')
            v = job->opt.xvars[i] + n + 1;
    return v;
}

/* The file execvp runs for the program: its name if it holds a '/', else the first in PATH. */
static bool program_file(const struct job *job, char *out, size_t len)
{
    const char *prog = job->opt.argv[0];
    if (strchr(prog, '/'))
        return snprintf(out, len, "%s", prog) < (int)len;
    const char *path = rank_getenv(job, "PATH");
    for (const char *p = path ? path : "/bin:/usr/bin"; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
        int n = (int)strcspn(p, ":");
        int w = snprintf(out, len, "%.*s%s%s", n, p, n ? "/" : "", prog);
        struct stat st;
        if (w > 0 && (size_t)w < len && stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
            return true;
    }
    return false;
}

static bool is_mpi_name(const char *soname)
{
    return !strncmp(soname, "libmpi", 6); /* libmpi.so.40, libmpich.so.12, libmpi_cxx, libmpifort... */
}

/* Walks the dependency tree breadth-first from the program, each soname once; true with the path of
 * the first MPI library that is not skiff's. An MPI library's own dependencies are not entered. */
static bool find_foreign_mpi(const char *prog, const char *ld_path, char *out, size_t len)
{
    char *queue[MAX_OBJECTS], *seen[MAX_OBJECTS];
    int nq = 0, nseen = 0;
    bool found = false;
    struct ldcache cache;
    ldcache_open(&cache);
    /* The loader takes the program's $ORIGIN from its real path (/proc/self/exe). */
    queue[nq] = realpath(prog, NULL);
    if (!queue[nq])
        queue[nq] = strdup(prog);
    nq++;
    for (int q = 0; q < nq && queue[q] && !found; q++) {
        struct elf e;
        if (!elf_open(queue[q], &e))
            continue;
        for (size_t i = 0; i < e.ndyn && !found; i++) {
            const char *name = elf_dyn_string(&e, i, DT_NEEDED);
            char path[PATH_MAX];
            bool dup = false;
            for (int k = 0; name && k < nseen && !dup; k++)
                dup = !strcmp(seen[k], name);
            if (!name || dup || nseen == MAX_OBJECTS || !(seen[nseen] = strdup(name)))
                continue;
            nseen++;
            if (!lib_find(&e, queue[q], name, ld_path, &cache, path, sizeof path))
                continue;
            if (is_mpi_name(name))
                found = !is_skiff_lib(path) && snprintf(out, len, "%s", path) > 0;
            else if (nq < MAX_OBJECTS)
                queue[nq++] = strdup(path);
        }
        elf_close(&e);
    }
    for (int k = 0; k < nq; k++)
        free(queue[k]);
    for (int k = 0; k < nseen; k++)
        free(seen[k]);
    if (cache.p)
        munmap((void *)cache.p, cache.size);
    return found;
}

const char *program_foreign_mpi(const struct job *job)
{
    /* One program per job, so one answer. */
    static char lib[PATH_MAX];
    static int known; /* 0: not looked yet; 1: none; 2: lib */
    char prog[PATH_MAX];
    if (!known)
        known = program_file(job, prog, sizeof prog) &&
                        find_foreign_mpi(prog, rank_getenv(job, "LD_LIBRARY_PATH"), lib, sizeof lib)
                    ? 2
                    : 1;
    return known == 2 ? lib : NULL;
}
