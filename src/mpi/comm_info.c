/* Info hints on communicators: MPI_Comm_set_info, MPI_Comm_get_info, and the hints a new communicator
 * takes from MPI_Comm_dup_with_info / MPI_Comm_idup_with_info. skiff recognises MPI-4's four assertions and
 * ignores every other key, as the standard allows; MPI_Comm_get_info reports the four with their values
 * in force ("true" or "false"), which is what "the hints in use" means for a library that knows no others.
 * A communicator made by splitting by hardware also reports the level it was made by
 * (mpi_hw_resource_type). The assertions are kept as bits on the communicator; matching does not exploit
 * them yet. */
#include <string.h>

#include "core/info.h"
#include "mpi/comm_make.h"
#include "mpi/mpi_impl.h"

static const struct {
    const char *key;
    unsigned bit;
} assertions[] = {
    {"mpi_assert_no_any_tag", SKIFF_HINT_NO_ANY_TAG},
    {"mpi_assert_no_any_source", SKIFF_HINT_NO_ANY_SOURCE},
    {"mpi_assert_exact_length", SKIFF_HINT_EXACT_LENGTH},
    {"mpi_assert_allow_overtaking", SKIFF_HINT_ALLOW_OVERTAKING},
};

#define NASSERT (sizeof assertions / sizeof assertions[0])

unsigned skiff_comm_hints_apply(unsigned hints, const struct skiff_info *in)
{
    for (size_t i = 0; in && i < NASSERT; i++) {
        const char *v = skiff_info_lookup(in, assertions[i].key);
        /* A value that is neither boolean is not a hint skiff understands: ignored, like unknown keys. */
        if (v && strcmp(v, "true") == 0)
            hints |= assertions[i].bit;
        else if (v && strcmp(v, "false") == 0)
            hints &= ~assertions[i].bit;
    }
    return hints;
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    struct skiff_comm *c = NULL;
    struct skiff_info *in = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_set_info);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_info_obj(info, &in)))
        return skiff_fail(comm, rc);
    c->hints = skiff_comm_hints_apply(c->hints, in);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_set_info)

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_get_info);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_ptr(info_used, "info_used")))
        return skiff_fail(comm, rc);
    struct skiff_info *in = skiff_info_new();
    int fail = !in;
    for (size_t i = 0; !fail && i < NASSERT; i++)
        fail = skiff_info_set(in, assertions[i].key, c->hints & assertions[i].bit ? "true" : "false");
    unsigned level = c->hints >> SKIFF_HINT_HW_SHIFT;
    if (!fail && level)
        fail = skiff_info_set(in, "mpi_hw_resource_type", skiff_split_level_name((int)level - 1));
    if (fail && in) {
        skiff_info_free(in);
        in = NULL;
    }
    if (!in)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of memory for the info of %s", skiff_comm_label(c)));
    *info_used = skiff_info_handle(in);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_get_info)
