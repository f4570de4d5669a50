/*
 * ref_sandbox_probe.c - probing the machine for each isolation layer once
 * per mode and process (control groups, the uid pool, namespaces), and the
 * one message about what is missing (see ref_sandbox_probe.h).
 */
#define _GNU_SOURCE
#include "ref_sandbox_probe.h"
#include "ref_sandbox_ns.h"
#include "txt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The default pool: far above any real user's uid, when the user
 * namespace we run in maps it (a container may map only 65536 ids). */
#define POOL_FIRST 1500000000u
#define POOL_COUNT 4096u

/* ---- uid pool ----------------------------------------------------------- */

/* 1 when [first, first+count) is inside one extent of our uid_map. */
static int mapped(uid_t first, uid_t count)
{
    FILE *f = fopen("/proc/self/uid_map", "re");
    if (!f)
        return 1;   /* no user namespaces: everything is mapped */
    unsigned long inside, outside, len;
    int ok = 0;
    while (!ok && fscanf(f, "%lu %lu %lu", &inside, &outside, &len) == 3)
        ok = first >= inside && (unsigned long)first + count <= inside + len;
    fclose(f);
    return ok;
}

/* The pool from ARENA_SANDBOX_UIDS=FIRST-LAST, or the default; in a user
 * namespace that maps fewer ids, the top of the largest extent, below
 * nobody (65534). 0, or -1 with why. */
static int choose_pool(ref_sandbox *sb, char *why, size_t size)
{
    const char *env = getenv("ARENA_SANDBOX_UIDS");
    unsigned long first = POOL_FIRST, last = POOL_FIRST + POOL_COUNT - 1;
    if (env && (sscanf(env, "%lu-%lu", &first, &last) != 2 || first == 0 || last < first ||
                last >= 0xfffffffeul)) {
        snprintf(why, size, "ARENA_SANDBOX_UIDS must be FIRST-LAST, not '%s'", env);
        return -1;
    }
    if (!env && !mapped((uid_t)first, (uid_t)(last - first + 1))) {
        first = 65534 - 1024;
        last = 65533;
    }
    if (!mapped((uid_t)first, (uid_t)(last - first + 1))) {
        snprintf(why, size, "uids %lu-%lu are not mapped in this user namespace", first, last);
        return -1;
    }
    sb->uid_first = (uid_t)first;
    sb->uid_count = (uid_t)(last - first + 1);
    snprintf(sb->uid_lock_dir, sizeof sb->uid_lock_dir, "/run/arena-sandbox");
    if (mkdir(sb->uid_lock_dir, 0700) != 0 && errno != EEXIST) {
        snprintf(why, size, "cannot make %s: %s", sb->uid_lock_dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- probe -------------------------------------------------------------- */

static void probe(ref_sandbox *sb, ref_sandbox_mode mode)
{
    memset(sb, 0, sizeof *sb);
    sb->mode = mode;
    if (mode == REF_SANDBOX_NONE) {
        snprintf(sb->isolation, sizeof sb->isolation, "none");
        return;
    }
    char why[256] = "";
    sb->clean_env = 1;
    ref_cg_probe(&sb->cg, getenv("ARENA_CGROUP_PARENT"));
    if (sb->cg.missing[0])
        txt_append(sb->missing, sizeof sb->missing, "cgroup: %s", sb->cg.missing);
    if (geteuid() != 0)
        snprintf(why, sizeof why, "not root");
    else if (choose_pool(sb, why, sizeof why) == 0)
        sb->uid_pool = 1;
    if (!sb->uid_pool)
        txt_append(sb->missing, sizeof sb->missing, "%suid pool: %s (bots run as the referee's "
               "user)", sb->missing[0] ? "; " : "", why);
    why[0] = 0;
    ref_sandbox_probe_ns(sb, why, sizeof why);
    if (!sb->namespaces)
        txt_append(sb->missing, sizeof sb->missing, "%snamespaces: %s", sb->missing[0] ? "; " : "",
               why);

    snprintf(sb->isolation, sizeof sb->isolation, "%s env",
             mode == REF_SANDBOX_STRICT ? "strict" : "auto");
    if (sb->cg.features)
        txt_append(sb->isolation, sizeof sb->isolation, " cgroup(%s)", sb->cg.summary);
    if (sb->uid_pool)
        txt_append(sb->isolation, sizeof sb->isolation, " uid");
    if (sb->namespaces)
        txt_append(sb->isolation, sizeof sb->isolation, " ns(user pid net ipc uts mount)");
}

static ref_sandbox cache[3];
static int probed[3];

/* At exit: this referee's own control groups go (its bots are gone). */
static void release_all(void)
{
    for (int i = 0; i < 3; i++)
        if (probed[i])
            ref_cg_release(&cache[i].cg);
}

const ref_sandbox *ref_sandbox_get(ref_sandbox_mode mode, char *err, size_t size)
{
    static int told, registered;
    ref_sandbox *sb = &cache[mode];
    if (!probed[mode]) {
        probe(sb, mode);
        probed[mode] = 1;
        if (!registered++)
            atexit(release_all);
    }
    if (!sb->missing[0])
        return sb;
    if (mode == REF_SANDBOX_STRICT) {
        snprintf(err, size, "--sandbox strict: cannot isolate bots here: %s", sb->missing);
        return NULL;
    }
    if (!told) {
        fprintf(stderr, "referee: sandbox: running with less isolation: %s\n", sb->missing);
        told = 1;
    }
    return sb;
}
