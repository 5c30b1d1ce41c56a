/* skiff-ucx-probe: what UCX offers between machines, asked of UCT (UCX's transport layer) without
 * opening a UCP worker. Prints the transports on UCX's network devices as "tl/device" joined by commas,
 * each transport once ("tcp/eth0" on a plain Ethernet host, "rc_mlx5/mlx5_0:1,ud_mlx5/mlx5_0:1,..." with
 * InfiniBand), on one line; an empty line if there are none. ucx/load.c's automatic choice runs it in a
 * process of its own, because once loaded UCX cannot be unloaded (it loads its own transport modules
 * for good, and libucm has hooked mmap and brk), and a job that stays on tcp must not carry it. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <uct/api/uct.h>

/* Appends "tl/dev" unless tl is already listed (a transport on several devices is named once). */
static void add(char *out, size_t len, const uct_tl_resource_desc_t *r)
{
    size_t used = strlen(out), n = strlen(r->tl_name);
    for (const char *p = out; (p = strstr(p, r->tl_name)); p += n)
        if ((p == out || p[-1] == ',') && p[n] == '/')
            return;
    if (used + n + strlen(r->dev_name) + 3 <= len)
        snprintf(out + used, len - used, "%s%s/%s", used ? "," : "", r->tl_name, r->dev_name);
}

static void list_md(uct_component_h comp, const char *md_name, char *out, size_t len)
{
    uct_md_config_t *cfg;
    uct_md_h md;
    uct_tl_resource_desc_t *res;
    unsigned n;
    if (uct_md_config_read(comp, NULL, NULL, &cfg) != UCS_OK)
        return;
    ucs_status_t st = uct_md_open(comp, md_name, cfg, &md);
    uct_config_release(cfg);
    if (st != UCS_OK)
        return;
    if (uct_md_query_tl_resources(md, &res, &n) == UCS_OK) {
        for (unsigned i = 0; i < n; i++)
            if (res[i].dev_type == UCT_DEVICE_TYPE_NET)
                add(out, len, &res[i]);
        uct_release_tl_resource_list(res);
    }
    uct_md_close(md);
}

static void net_transports(char *out, size_t len)
{
    uct_component_h *comps;
    unsigned ncomps;
    out[0] = 0;
    if (uct_query_components(&comps, &ncomps) != UCS_OK)
        return;
    for (unsigned c = 0; c < ncomps; c++) {
        uct_component_attr_t a = {.field_mask = UCT_COMPONENT_ATTR_FIELD_MD_RESOURCE_COUNT};
        if (uct_component_query(comps[c], &a) != UCS_OK || a.md_resource_count == 0)
            continue;
        uct_md_resource_desc_t mds[a.md_resource_count];
        a.field_mask = UCT_COMPONENT_ATTR_FIELD_MD_RESOURCES;
        a.md_resources = mds;
        if (uct_component_query(comps[c], &a) != UCS_OK)
            continue;
        for (unsigned m = 0; m < a.md_resource_count; m++)
            list_md(comps[c], mds[m].md_name, out, len);
    }
    uct_release_component_list(comps);
}

int main(void)
{
    char out[1024];
    net_transports(out, sizeof out);
    printf("%s\n", out);
    fflush(stdout);
    _exit(0); /* skips UCX's teardown, and a sanitizer build's leak report about UCX's globals */
}
