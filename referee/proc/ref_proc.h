/*
 * ref_proc.h - starting, watching and ending bot processes for the referee.
 *
 * A bot is any program, in any language. Its command is split into words
 * and exec'd (ref_cmd.h: the shell runs only commands that need it), in a
 * process group of its own, under resource limits, with stdin from
 * /dev/null and stdout+stderr into one pipe. With a sandbox (ref_sandbox.h)
 * it also runs in a control group of its own (real memory, process count,
 * CPU), as a user of its own, in namespaces of its own, with a clean
 * environment. The referee never blocks on a
 * bot: it puts the two fds of ref_proc_fds() into its poll loop (zmq_poll
 * items) next to the bots' sockets, calls ref_proc_drain() when the output
 * pipe is ready and ref_proc_exited() when the pidfd is. The output goes to
 * a per-bot log file, bounded; the rest is read and counted, so a chatty
 * bot can neither fill the disk nor stall on a full pipe.
 *
 * Ending a bot kills its whole process group (TERM, grace, KILL), then
 * everything left in its control group. A bot
 * that escapes its group (setsid, double fork) is caught because the
 * referee is a child subreaper (ref_proc_init_supervisor): orphans become
 * the referee's children, and ref_proc_reap_orphans() kills and reaps them.
 *
 * Rules for the rest of the referee: do not reap children yourself (no
 * wait(-1) or SIGCHLD handler that waits): a bot's leader stays an
 * unreaped zombie after it exits, until ref_proc_kill, so that its pid,
 * the process group id, cannot be recycled before the group is killed.
 * Call ref_proc_kill (or ref_proc_close) on every bot spawned.
 *
 * Linux only (pidfd, prctl, /proc). One ref_proc is used by one thread at
 * a time; see the PDEATHSIG note at ref_proc_spawn about which thread.
 *
 * Typical use:
 *
 *     ref_proc_init_supervisor();                        once, at start
 *     ref_proc_start(&bot, &spawn, err, sizeof err);     (or ref_proc_spawn)
 *     loop: poll ref_proc_fds(&bot, fds) with the sockets;
 *           out_fd ready  -> ref_proc_drain(&bot);
 *           pidfd ready   -> ref_proc_exited(&bot);
 *           (pidfd == -1 while running: call ref_proc_exited every ~50 ms)
 *     ref_proc_kill(&bot, 500);                          game over or fault
 *     ref_proc_exit_text(bot.status, buf, sizeof buf);   for the report
 *     ref_proc_reap_orphans(200);                        no bot is running
 */
#ifndef REF_PROC_H
#define REF_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "ref_cgroup.h"

typedef struct ref_sandbox ref_sandbox;   /* ref_sandbox.h */

/* Resource limits, set on the child before it execs: in its control
 * group when the sandbox gives it one, otherwise as rlimits (prlimit from
 * the referee). 0 = no limit, for every field. An rlimit above what may be
 * set (the hard limit when unprivileged; fs.nr_open for open files) is
 * lowered to the hard limit: the bot still gets "at most" what was asked.
 * Core dumps are always disabled (RLIMIT_CORE 0): a crashing bot must not
 * litter the disk or stall in a core-dump helper. */
typedef struct ref_limits {
    unsigned cpu_seconds;         /* RLIMIT_CPU, per process: SIGXCPU at
                                     this many CPU seconds, SIGKILL one
                                     second later */
    uint64_t memory_bytes;        /* real memory of all the bot's processes
                                     (memory cgroup); without one, the
                                     address space of each (RLIMIT_AS) */
    unsigned max_processes;       /* processes and threads of the bot (pids
                                     cgroup); without one RLIMIT_NPROC,
                                     which counts every process of the
                                     user, and root ignores */
    unsigned cpu_millis;          /* CPU quota, thousandths of a core (cpu
                                     cgroup); nothing without one */
    unsigned max_open_files;      /* RLIMIT_NOFILE */
    uint64_t log_bytes;           /* bot stdout+stderr kept in its log; the
                                     rest is read and counted in `dropped`.
                                     0 = keep everything */
} ref_limits;

/* The status of a bot whose exit could not be observed (another part of
 * the process reaped it, or it would not die). It is neither an exit nor
 * a signal for the W* macros. */
#define REF_PROC_STATUS_UNKNOWN (-1)

/* The line written once to the log when log_bytes is reached (preceded by
 * a newline when the kept output does not end with one). */
#define REF_PROC_TRUNCATED_LINE "[arena: log truncated]\n"

/* One bot. A zero-initialised ref_proc holds nothing and every function
 * treats it as a no-op, so it is safe to kill/close a bot whose spawn
 * failed or never happened. Read the fields; change them only through the
 * functions. */
typedef struct ref_proc {
    int live;          /* 1 from a successful spawn until kill/close has
                          released the process and every fd */
    pid_t pid;         /* the leader (the bot, or the sandbox's bwrap),
                          also the process group id */
    int pidfd;         /* readable when the leader exits; -1 when the
                          kernel has no pidfd_open (< 5.3) or once the exit
                          has been seen */
    int out_fd;        /* read end of the stdout+stderr pipe (O_NONBLOCK,
                          O_CLOEXEC); -1 after EOF */
    int log_fd;        /* the log file, -1 when none or closed */
    uint64_t log_cap;  /* lim->log_bytes at spawn; 0 = unlimited */
    uint64_t logged;   /* bot bytes written to the log */
    uint64_t dropped;  /* bot bytes read and not written to the log */
    int truncated;     /* the truncation line has been written */
    int log_errno;     /* first error writing the log (ENOSPC...); from then
                          on everything is dropped */
    int exited;        /* the leader's exit has been seen; status is valid */
    int status;        /* wait status (WIFEXITED...), or
                          REF_PROC_STATUS_UNKNOWN */
    int reaped;        /* the leader's zombie has been collected */
    int ends_in_nl;    /* internal: the log's last byte is '\n' or it is
                          empty */
    ref_cg cg;         /* the bot's control group (empty without one) */
    ref_cg_usage last; /* its usage when it was removed (ref_proc_kill) */
    int sandboxed;     /* runs under the sandbox's init (ref_sandbox.h) */
    int shared_uid;    /* the sandbox's uid pool could not serve it: no
                          pool user may read its folder */
    int report_fd;     /* internal: the init's reports, -1 when none */
    int stop_fd;       /* internal: closing it tells the init to stop the
                          bot, -1 when none */
    int uid_lock;      /* internal: holds the bot's uid, -1 when none */
} ref_proc;

/* What to start (ref_proc_start). */
typedef struct ref_spawn {
    const char *cmd;            /* the command (ref_cmd.h) */
    const char *cwd;            /* directory to run in; NULL = the referee's */
    char *const *env;           /* "NAME=VALUE" for the bot, NULL-terminated
                                   (or NULL); replace same-named entries */
    const ref_limits *lim;      /* NULL = no limits and an unbounded log */
    const char *log_path;       /* file receiving the output (created or
                                   truncated, 0600); NULL = drop it all */
    const ref_sandbox *sandbox; /* NULL (or mode none): the referee's own
                                   environment plus env, rlimits only */
    const char *share_dir;      /* sandboxed: a directory for the bot to
                                   reach the referee through (its ipc
                                   socket): given to the bot's user, and
                                   seen inside at REF_SANDBOX_SHARE */
    int share_net;              /* sandboxed: keep the referee's network
                                   (for --transport tcp) */
} ref_spawn;

/* Once per referee, before the first spawn. Makes this process a child
 * subreaper (prctl PR_SET_CHILD_SUBREAPER), so a bot's orphaned
 * descendants, even after setsid or a double fork, become our children
 * and can be killed and reaped; and ignores SIGPIPE, so a bot that closes
 * its socket or pipe cannot kill the referee; and raises its soft limit
 * of open files to the hard one, which bounds what the bots' connections
 * to their endpoints may cost it (docs/SECURITY.md). Returns 0, or -1 with errno
 * when the prctl fails (the referee still works, but escaped bot processes
 * go to init and ref_proc_reap_orphans cannot see them). */
int ref_proc_init_supervisor(void);

/* Starts the bot in its own process group (pgid = pid).
 * In the child: signal dispositions default and none blocked (SIGPIPE
 * too), stdin /dev/null, stdout+stderr the pipe, every other fd closed
 * (close_range), the limits set, no core dumps, and PR_SET_PDEATHSIG
 * SIGKILL so the leader dies if the referee does. Linux sends that signal
 * when the *thread* that spawned exits, so spawn from a thread that
 * outlives its bots (the main one).
 * Returns 0 with *p filled, or -1 with a message in err (may be NULL) and
 * *p empty (live == 0): "cannot open log file X: ...", "cannot change to
 * directory X: No such file or directory", "fork failed: ...",
 * "environment entry \"X\" is not NAME=VALUE", "cannot set the open file
 * limit to N: ...", "cannot run X: No such file or directory", "command
 * not found: X". Blocks until the bot's program has been exec'd (or
 * failed to): a few hundred microseconds, a few milliseconds sandboxed. */
int ref_proc_start(ref_proc *p, const ref_spawn *s, char *err, size_t errsize);

/* ref_proc_start without a sandbox: the referee's environment plus
 * env_extra, the limits as rlimits. */
int ref_proc_spawn(ref_proc *p, const char *cmd, const char *cwd,
                   char *const env_extra[], const ref_limits *lim,
                   const char *log_path, char *err, size_t errsize);

/* CPU time, memory peak and limit hits of the bot's control group so far
 * (all zero without one). */
void ref_proc_usage(const ref_proc *p, ref_cg_usage *u);

/* The fds a poll loop should watch for input: fds[0] = out_fd, fds[1] =
 * pidfd, each -1 when closed. Returns how many are >= 0. When both are -1
 * the bot needs no more watching (but may still be running if pidfd_open
 * is unsupported: see ref_proc_exited). */
int ref_proc_fds(const ref_proc *p, int fds[2]);

/* Reads what the pipe holds now (never blocks), appends it to the log up
 * to log_cap, counts the rest in `dropped`, writes the truncation line the
 * first time a byte is dropped, and closes out_fd at EOF. Reads at most
 * 1 MiB per call so a bot writing flat out cannot starve the loop; the pipe
 * stays readable and the next poll calls again. */
void ref_proc_drain(ref_proc *p);

/* 1 when the leader has exited (status set, pidfd closed), 0 while it runs.
 * Never blocks. Without a pidfd (kernel < 5.3, or under valgrind 3.19,
 * which lacks pidfd_open), poll this every few tens of ms instead. The leader is left a zombie until ref_proc_kill/close, so
 * its pid, which is the process group id, cannot be reused while members
 * of its group may still need killing. */
int ref_proc_exited(ref_proc *p);

/* Ends the bot: SIGTERM (and SIGCONT) to its process group, up to grace_ms
 * for the whole group to exit, SIGKILL to the group, then reaps the group
 * members that were reparented to us and the leader, drains what output is
 * left and closes every fd. If the leader exits within the grace, status
 * is its own exit; otherwise "killed by signal 9". Takes at most grace_ms
 * plus a bounded time (about 2 s) for killed processes to go away, even
 * for one stuck in the kernel (then status is unknown and the zombie is
 * left to ref_proc_reap_orphans). Processes that left the group (setsid)
 * survive: use ref_proc_reap_orphans. If the leader was reaped elsewhere
 * (status unknown), the group is not signalled, as its id may be reused.
 * Idempotent; a no-op on an empty ref_proc. */
void ref_proc_kill(ref_proc *p, int grace_ms);

/* Kills and reaps every remaining child of this process (listed by
 * /proc/self/task/TID/children), such as bot descendants reparented to us: SIGTERM and SIGCONT
 * first with up to grace_ms to exit (0 = straight to SIGKILL), then
 * SIGKILL, repeating until none is left (killing one may orphan more) or
 * about 5 s after the grace. A child that is its own process group leader
 * has its whole group signalled. Zombies are just reaped. Returns how many
 * live processes were signalled. This kills *every* child, running bots
 * included: call it when no bot should be alive (after ref_proc_kill of
 * all of them). */
int ref_proc_reap_orphans(int grace_ms);

/* Describes a wait status: "exited with status 3", "killed by signal 11
 * (SIGSEGV: Segmentation fault)", "exit status unknown". Returns buf. */
const char *ref_proc_exit_text(int status, char *buf, size_t size);

/* Releases everything the ref_proc holds. Meant for after ref_proc_kill;
 * on a bot still running it kills it first (no grace) rather than leak a
 * process. Counters and status stay readable. Idempotent. */
void ref_proc_close(ref_proc *p);

/* SIGKILLs every live bot's process group, leader and all. Async-signal
 * safe: for a referee's SIGTERM/SIGINT handler, so that a referee stopped
 * (or a worker whose arena died) takes its bots with it. */
void ref_proc_kill_all(void);

#endif /* REF_PROC_H */
