/*
 * ref_sandbox_ns.h - internal to referee/proc: the bubblewrap command line
 * for one bot (ref_sandbox_ns.c) and the fds the sandbox's init uses.
 */
#ifndef REF_SANDBOX_NS_H
#define REF_SANDBOX_NS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "ref_sandbox.h"

/* In the bwrap process and the init: where the init writes its records
 * (ref_init.h) and where it reads the referee's "stop" (end of file). */
#define REF_SANDBOX_REPORT_FD 5
#define REF_SANDBOX_STOP_FD   6

/* A NULL-terminated argv that owns its strings. */
typedef struct ref_argv {
    char **v;
    size_t n, cap;
    int failed;       /* out of memory: the argv is incomplete */
} ref_argv;

int  ref_argv_add(ref_argv *a, const char *s);
void ref_argv_free(ref_argv *a);

/* The folders (and the init) a bot's bwrap binds, shown first on a stage:
 * bwrap runs as the bot's pool uid, which may not pass through the folders
 * above them (root's 0700 home), so the referee's child, still root, mounts
 * a tmpfs on `root` in a mount namespace of its own and binds each source
 * there (root/N), where the pool uid reaches it; bwrap binds from there.
 * (bwrap 0.8's --ro-bind-fd does not help: it resolves the fd's path.) */
#define REF_SANDBOX_MAX_STAGED 24
typedef struct ref_sandbox_stage {
    char root[128];               /* an existing folder the stage's tmpfs covers */
    int  n;
    int  is_dir[REF_SANDBOX_MAX_STAGED];
    char src[REF_SANDBOX_MAX_STAGED][PATH_MAX];
    char at[REF_SANDBOX_MAX_STAGED][160];
} ref_sandbox_stage;

/* In the child, as root, before it becomes the bot's user: a mount
 * namespace of its own with the stage set. Async-signal-safe. 0, or -1
 * with errno and *which the source that failed (-1: the stage itself). */
int ref_sandbox_stage_enter(const ref_sandbox_stage *st, int *which);

/* One bot's view of the machine. */
typedef struct ref_sandbox_view {
    const char *const *argv;   /* the bot's words (argv[0] as exec'd inside);
                                  NULL: the init's --probe */
    const char *cwd;           /* its folder, or NULL: the referee's directory */
    const char *share_dir;     /* the seat's folder, or NULL */
    uint64_t tmp_bytes;        /* size of its /tmp; 0 = the tmpfs default */
    int share_net;             /* keep the network namespace */
    int as_referee;            /* the bot keeps the referee's uid (no pool
                                  uid can read its folder): hide the
                                  secrets of /etc that the uid may read */
    char unreadable[256];      /* out: a folder of the bot that other users
                                  cannot read, "" when none */
    ref_sandbox_stage *stage;  /* bind through this stage (filled here), or
                                  NULL: bwrap binds each source by its path */
} ref_sandbox_view;

/* Appends the whole bwrap command (bwrap ... -- init ... -- argv) to a.
 * 0, or -1 out of memory. */
int  ref_sandbox_bwrap_argv(const ref_sandbox *sb, ref_sandbox_view *v, ref_argv *a);

/* Without namespaces: 0 when the bot's user (a pool uid) may reach every
 * folder the bot needs (its cwd, the folders its command names), else -1
 * with a one-line err naming the folder that shuts it out and what to do. */
int  ref_sandbox_reach(const char *const *argv, const char *cwd, uid_t uid, char *err,
                       size_t size);

/* Finds bwrap and the init, and runs the init in a sandbox once: sets
 * sb->namespaces, or leaves it 0 with why. Needs sb's uid pool settled. */
void ref_sandbox_probe_ns(ref_sandbox *sb, char *why, size_t size);

#endif /* REF_SANDBOX_NS_H */
