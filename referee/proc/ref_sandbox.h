/*
 * ref_sandbox.h - what isolation this machine gives bots, found once per
 * referee process, and how each bot is put into it.
 *
 * Layers, each used where the machine offers it (docs/SECURITY.md says
 * what each one stops):
 *   env      a clean environment: ARENA_*, what the bot's command names,
 *            and a fixed PATH, HOME and TMPDIR; nothing of the operator's
 *   cgroup   a control group per bot: real memory, process count, CPU
 *            (ref_cgroup.h)
 *   uid      (root only) a user id of its own from a pool, allocated under
 *            a lock so that concurrent referees never share one
 *   ns       bubblewrap: its own user, pid, network, ipc, uts and mount
 *            namespaces; a read-only view of the system and of its own
 *            program's folder, a private /tmp as its one writable scratch
 *            folder, the seat's socket folder; our init as pid 1
 *
 * Modes: auto (the default) uses what there is and says once, on stderr,
 * what is missing; strict refuses to run a bot without every layer; none
 * runs bots as before, in the referee's own environment with rlimits.
 */
#ifndef REF_SANDBOX_H
#define REF_SANDBOX_H

#include <stddef.h>
#include <sys/types.h>
#include "ref_cgroup.h"

typedef enum { REF_SANDBOX_AUTO, REF_SANDBOX_NONE, REF_SANDBOX_STRICT } ref_sandbox_mode;

/* Where a sandboxed bot finds its seat's folder (ARENA_ENDPOINT is in it). */
#define REF_SANDBOX_SHARE "/run/arena"

/* What the machine gives, as ref_sandbox_get (ref_sandbox_probe.h) found it. */
typedef struct ref_sandbox ref_sandbox;

struct ref_sandbox {
    ref_sandbox_mode mode;
    int      clean_env;          /* env layer */
    ref_cg_system cg;            /* cgroup layer (cg.features 0: none) */
    int      uid_pool;           /* uid layer */
    uid_t    uid_first, uid_count;
    char     uid_lock_dir[128];
    int      namespaces;         /* ns layer */
    int      stage_binds;        /* bwrap binds a pool uid's folders from a
                                    stage (ref_sandbox_ns.h): root may make one */
    char     bwrap[4096];        /* path of bwrap */
    char     init[4096];         /* path of the init (arena-bot-init) */
    char     sdk[4096];          /* the arena's sdk/ folder, shown read-only */
    char     isolation[256];     /* for the record: "auto env,cgroup(...),uid,ns" */
    char     missing[1024];      /* what is missing and why; "" when nothing */
};

/* Parses "auto", "none", "strict": 0, or -1. */
int ref_sandbox_mode_parse(const char *text, ref_sandbox_mode *mode);
/* The mode a program runs its bots in: `flag` (a --sandbox value) when
 * given, else $ARENA_SANDBOX when set (an operator's default for every
 * referee of a machine or container), else auto. 0, or -1 with a message
 * naming where the bad value came from. */
int ref_sandbox_mode_choose(const char *flag, ref_sandbox_mode *mode, char *err, size_t size);

/* Says something about the sandbox on stderr, once per process. */
void ref_sandbox_note_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A bot's uid from the pool: a lock on its file held until released.
 * 0 with *uid and *lock_fd, or -1 with a message (pool exhausted). */
int  ref_sandbox_uid_acquire(const ref_sandbox *sb, uid_t *uid, int *lock_fd,
                             char *err, size_t size);
void ref_sandbox_uid_release(int *lock_fd);

#endif /* REF_SANDBOX_H */
