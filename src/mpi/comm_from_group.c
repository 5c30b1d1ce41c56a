/* MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups: communicators made by the processes of
 * a group alone, with no parent communicator (the session model has none).
 *
 * Both agree through the sessions' internal communicator of the whole job (lifecycle.c), on which only
 * these calls send. The intracommunicator is MPI_Comm_create_group's agreement among the group's members
 * (comm_create_group.c) under a 30-bit tag hashed from the string tag and the group's members. The
 * intercommunicator first makes each side's intracommunicator that way, then joins them as
 * MPI_Intercomm_create does (mpi/intercomm_make.c), the two leaders meeting on the internal communicator's
 * point-to-point context under the string tag's hash.
 *
 * The standard asks concurrent calls on overlapping groups to use different string tags; two different
 * tags whose hashes agree (a chance of 2^-30 per pair) would meet each other's messages, and such a pair
 * must not run at the same time. Calls one after another with the same tag are fine: their messages keep
 * their order. */
#include <stdint.h>
#include <string.h>

#include "core/errhandler.h"
#include "mpi/intercomm_make.h"
#include "mpi/comm_make.h"
#include "mpi/mpi_impl.h"
#include "mpi/session.h"

/* FNV-1a: cheap and spreads short, similar strings ("a", "b") over the whole range. */
static uint32_t hash_bytes(uint32_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

static int tag_of(const char *stringtag, const struct skiff_group *g)
{
    uint32_t h = hash_bytes(2166136261u, stringtag, strlen(stringtag));
    if (g)
        h = hash_bytes(h, g->world, sizeof(int) * (size_t)g->size);
    return (int)(h & 0x3fffffffu);
}

/* Errors of these calls go to the handler they were given (no communicator exists yet to hold it), or to
 * MPI_COMM_WORLD's when that handler is itself invalid. */
static int fail_with(MPI_Errhandler eh, int rc)
{
    if (skiff_eh_check(eh, SKIFF_EH_COMM) != MPI_SUCCESS)
        return skiff_fail_world(rc);
    MPI_Comm none = MPI_COMM_NULL;
    return skiff_eh_invoke(eh, SKIFF_EH_COMM, &none, "(being created)", rc);
}

static int check_tag(const char *stringtag)
{
    int rc = skiff_check_ptr(stringtag, "stringtag");
    if (!rc && strnlen(stringtag, MPI_MAX_STRINGTAG_LEN) >= MPI_MAX_STRINGTAG_LEN)
        rc = skiff_err(MPI_ERR_ARG, "stringtag is %zu characters long; MPI_MAX_STRINGTAG_LEN is %d", strlen(stringtag),
                       MPI_MAX_STRINGTAG_LEN);
    return rc;
}

static int check_member(const struct skiff_group *g, const char *which)
{
    if (g->rank != MPI_UNDEFINED)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_GROUP, "this process (job rank %d) is not in %s of %d processes: only its members "
                     "may call", skiff.rank, which, g->size);
}

/* The intracommunicator of g's processes; every member calls it with the same tag. */
static int from_group(struct skiff_group *g, int tag, MPI_Errhandler eh, struct skiff_comm **out)
{
    uint32_t ctx = 0;
    int rc = skiff_comm_group_agree(skiff_session_comm(), g, tag, &ctx);
    if (!rc && !(rc = skiff_comm_make_ctx(ctx, g->world, g->size, eh, out)) && *out)
        (*out)->session = g->session; /* its buffered sends may use the session's buffer */
    return rc;
}

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm *newcomm)
{
    struct skiff_group *g = NULL;
    struct skiff_comm *n = NULL;
    SKIFF_ENTER(MPI_Comm_create_from_group);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_group(group, &g);
    if (!rc && !(rc = check_tag(stringtag)) && !(rc = skiff_check_info(info)) &&
        !(rc = skiff_eh_check(errhandler, SKIFF_EH_COMM)) && !(rc = skiff_check_ptr(newcomm, "newcomm")))
        rc = check_member(g, "the group");
    if (!rc)
        rc = from_group(g, tag_of(stringtag, g), errhandler, &n);
    if (rc)
        return fail_with(errhandler, rc);
    n->hints = skiff_comm_hints_apply(0, info == MPI_INFO_NULL ? NULL : skiff_info_get(info));
    *newcomm = n->handle;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_create_from_group)

static int check_leader(int leader, const struct skiff_group *g, const char *name)
{
    if (leader >= 0 && leader < g->size)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_RANK, "invalid %s %d (its group has %d processes)", name, leader, g->size);
}

static int check_inter_args(struct skiff_group *lg, int local_leader, struct skiff_group *rg, int remote_leader)
{
    int rc = check_member(lg, "local_group");
    if (!rc && rg->rank != MPI_UNDEFINED)
        rc = skiff_err(MPI_ERR_GROUP, "this process (job rank %d) is in both local_group and remote_group, which "
                       "must be disjoint", skiff.rank);
    if (!rc)
        rc = check_leader(local_leader, lg, "local_leader");
    if (!rc)
        rc = check_leader(remote_leader, rg, "remote_leader");
    return rc;
}

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                      int remote_leader, const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    struct skiff_group *lg = NULL, *rg = NULL;
    struct skiff_comm *local = NULL, *n = NULL;
    SKIFF_ENTER(MPI_Intercomm_create_from_groups);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_group(local_group, &lg);
    if (!rc && !(rc = skiff_check_group(remote_group, &rg)) && !(rc = check_tag(stringtag)) &&
        !(rc = skiff_check_info(info)) && !(rc = skiff_eh_check(errhandler, SKIFF_EH_COMM)) &&
        !(rc = skiff_check_ptr(newintercomm, "newintercomm")))
        rc = check_inter_args(lg, local_leader, rg, remote_leader);
    if (!rc)
        rc = from_group(lg, tag_of(stringtag, lg), MPI_ERRORS_RETURN, &local);
    if (!rc)
        rc = skiff_intercomm_create(local, local_leader, skiff_session_comm(), rg->world[remote_leader],
                                    tag_of(stringtag, NULL), &n);
    if (local)
        skiff_comm_free(local);
    if (rc)
        return fail_with(errhandler, rc);
    skiff_eh_attach(&n->errhandler, errhandler);
    n->session = lg->session;
    n->hints = skiff_comm_hints_apply(0, info == MPI_INFO_NULL ? NULL : skiff_info_get(info));
    *newintercomm = n->handle;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Intercomm_create_from_groups)
