/*
 * ref_sandbox_ns.c - the namespace layer: the bubblewrap command line that
 * puts one bot in its own user, pid, network, ipc, uts and mount
 * namespaces, and the probe that checks, once, that it works here.
 *
 * What the bot sees (all read-only but /tmp):
 *   /usr /etc /opt, and /bin /sbin /lib* as on the host (links or binds)
 *   /proc of its own pid namespace, a minimal /dev, /tmp a private tmpfs
 *     (its scratch folder, charged to its memory cgroup, gone with it)
 *   REF_SANDBOX_SHARE  the seat's folder holding the referee's socket
 *   the arena's sdk/ folder, so the sample bots find their libraries
 *   its own program's folder: its working directory when it has one, and
 *     the folder of each file its command names (program, script)
 * A pool uid's bwrap binds these from a stage the referee's child sets up
 * as root (ref_sandbox_stage, ref_sandbox_ns.h): the folders above them
 * may be shut to it.
 */
#define _GNU_SOURCE
#include "ref_sandbox_ns.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "clk.h"

#ifndef REF_SDK_DIR
#define REF_SDK_DIR ""
#endif
#ifndef REF_INIT_PATH
#define REF_INIT_PATH ""
#endif

#define INIT_INSIDE "/run/arena-init"
/* The probe: how long it may take, and what it may use. */
#define PROBE_MS 10000
#define PROBE_MEMORY (256u << 20)
#define PROBE_TASKS 64

static const char *const system_dirs[] = { "/usr", "/etc", "/opt", NULL };
/* What root may read in /etc that a bot running as root (outside its
 * user namespace) must not. */
static const char *const secrets[] = { "/etc/shadow", "/etc/gshadow", "/etc/shadow-",
                                       "/etc/gshadow-", "/etc/sudoers", NULL };
static const char *const secret_dirs[] = { "/etc/ssh", "/etc/ssl/private", "/etc/sudoers.d",
                                           NULL };
static const char *const system_links[] = { "/bin", "/sbin", "/lib", "/lib32", "/lib64",
                                            "/libx32", NULL };

/* ---- a growing argv ----------------------------------------------------- */

int ref_argv_add(ref_argv *a, const char *s)
{
    if (a->failed)
        return -1;
    if (a->n + 2 > a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        char **v = realloc(a->v, cap * sizeof *v);
        if (!v) {
            a->failed = 1;
            return -1;
        }
        a->v = v;
        a->cap = cap;
    }
    char *copy = strdup(s);
    if (!copy) {
        a->failed = 1;
        return -1;
    }
    a->v[a->n++] = copy;
    a->v[a->n] = NULL;
    return 0;
}

void ref_argv_free(ref_argv *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

static void add3(ref_argv *a, const char *x, const char *y, const char *z)
{
    ref_argv_add(a, x);
    if (y)
        ref_argv_add(a, y);
    if (z)
        ref_argv_add(a, z);
}

/* ---- what the bot sees -------------------------------------------------- */

static int under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0 || !strcmp(dir, "/"));
}

static int in_system(const char *path)
{
    for (int i = 0; system_dirs[i]; i++)
        if (under(path, system_dirs[i]))
            return 1;
    for (int i = 0; system_links[i]; i++)
        if (under(path, system_links[i]))
            return 1;
    return 0;
}

/* 1 when others may list dir itself (what a bot bound from a stage needs:
 * the folders above it are bwrap's). */
static int others_can_list(const char *dir)
{
    struct stat st;
    return stat(dir, &st) == 0 && (st.st_mode & S_IROTH) && (st.st_mode & S_IXOTH);
}

/* The first folder on the way to dir (dir included) that others may not
 * pass through, copied to out: 1, or 0 when there is none. */
static int others_stopped_at(const char *dir, char *out, size_t size)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.4000s", dir);
    size_t len = strlen(path);
    for (size_t i = 1; i <= len; i++) {
        if (path[i] != '/' && path[i] != 0)
            continue;
        char keep = path[i];
        path[i] = 0;
        struct stat st;
        if (stat(path, &st) != 0 || !(st.st_mode & S_IXOTH)) {
            snprintf(out, size, "%s", path);
            return 1;
        }
        path[i] = keep;
    }
    return 0;
}

/* 1 when a user of no group of ours may list dir: every folder on the
 * way lets others through, and dir lets them read. */
static int others_can_read(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.4000s", dir);
    for (char *slash = path; slash; slash = strchr(slash + 1, '/')) {
        char keep = slash[1];
        slash[1] = 0;
        struct stat st;
        int ok = stat(path, &st) == 0 && (st.st_mode & S_IXOTH);
        slash[1] = keep;
        if (!ok)
            return 0;
    }
    struct stat st;
    return stat(path, &st) == 0 && (st.st_mode & S_IROTH) && (st.st_mode & S_IXOTH);
}

/* Adds dir to the read-only folders unless it is shown already. */
static void add_folder(char folders[][PATH_MAX], int *n, int cap, const char *dir)
{
    if (!dir[0] || !strcmp(dir, "/") || in_system(dir))
        return;
    for (int i = 0; i < *n; i++)
        if (under(dir, folders[i]))
            return;
    if (*n < cap)
        snprintf(folders[(*n)++], PATH_MAX, "%s", dir);
}

/* Adds the folders a bot's command names: each word that is a path (from
 * base when relative) to an existing file gives its folder (a program, a
 * script, the script a bridge runs), one to a directory itself; both where
 * the word says and where it really is. What they hold is then readable by
 * the bot as far as its uid may read it (docs/SECURITY.md). */
static int command_folders(const char *const *argv, const char *base,
                           char folders[][PATH_MAX], int n, int cap)
{
    for (int i = 0; argv[i]; i++) {
        const char *w = argv[i];
        if (!strchr(w, '/') || strlen(w) >= PATH_MAX - 1)
            continue;
        char path[2 * PATH_MAX], real[PATH_MAX];
        if (w[0] == '/')
            snprintf(path, sizeof path, "%s", w);
        else
            snprintf(path, sizeof path, "%s/%s", base, w);
        struct stat st;
        if (stat(path, &st) != 0 || !realpath(path, real))
            continue;
        if (!S_ISDIR(st.st_mode)) {
            *strrchr(path, '/') = 0;
            *strrchr(real, '/') = 0;
        }
        add_folder(folders, &n, cap, path);
        add_folder(folders, &n, cap, real);
    }
    return n;
}

/* Binds src read-only at dest: from its place on the view's stage when it
 * has one, else by its path. */
static void bind_ro(ref_argv *a, ref_sandbox_view *v, const char *src, int is_dir,
                    const char *dest)
{
    ref_sandbox_stage *st = v->stage;
    if (!st) {
        add3(a, "--ro-bind", src, dest);
        return;
    }
    if (st->n >= REF_SANDBOX_MAX_STAGED) {
        a->failed = 1;
        return;
    }
    int k = st->n++;
    snprintf(st->src[k], sizeof st->src[k], "%s", src);
    char at[sizeof st->at[k]];
    snprintf(at, sizeof at, "%s/%d", st->root, k);
    memcpy(st->at[k], at, sizeof at);
    st->is_dir[k] = is_dir;
    add3(a, "--ro-bind", st->at[k], dest);
}

int ref_sandbox_stage_enter(const ref_sandbox_stage *st, int *which)
{
    *which = -1;
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("arena-stage", st->root, "tmpfs", MS_NOSUID | MS_NODEV,
              "mode=0755,size=64k,nr_inodes=64") != 0)
        return -1;
    for (int i = 0; i < st->n; i++) {
        *which = i;
        int fd = -1;
        if (st->is_dir[i] ? mkdir(st->at[i], 0755) != 0
                          : (fd = open(st->at[i], O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0)
            return -1;
        if (fd >= 0)
            close(fd);
        if (mount(st->src[i], st->at[i], NULL, MS_BIND | MS_REC, NULL) != 0)
            return -1;
    }
    return 0;
}

int ref_sandbox_bwrap_argv(const ref_sandbox *sb, ref_sandbox_view *v, ref_argv *a)
{
    if (v->stage)
        v->stage->n = 0;
    add3(a, sb->bwrap, NULL, NULL);
    add3(a, "--unshare-user", "--unshare-pid", NULL);
    if (!v->share_net)
        add3(a, "--unshare-net", NULL, NULL);
    add3(a, "--unshare-ipc", "--unshare-uts", NULL);
    add3(a, "--unshare-cgroup-try", "--disable-userns", NULL);
    add3(a, "--die-with-parent", "--new-session", "--as-pid-1");
    add3(a, "--hostname", "arena", NULL);
    for (int i = 0; system_dirs[i]; i++)
        add3(a, "--ro-bind-try", system_dirs[i], system_dirs[i]);
    for (int i = 0; system_links[i]; i++) {
        char target[PATH_MAX];
        ssize_t n = readlink(system_links[i], target, sizeof target - 1);
        if (n > 0) {
            target[n] = 0;
            add3(a, "--symlink", target, system_links[i]);
        } else {
            add3(a, "--ro-bind-try", system_links[i], system_links[i]);
        }
    }
    add3(a, "--proc", "/proc", NULL);
    add3(a, "--dev", "/dev", NULL);
    if (v->tmp_bytes) {
        char size[32];
        snprintf(size, sizeof size, "%llu", (unsigned long long)v->tmp_bytes);
        add3(a, "--size", size, NULL);
    }
    add3(a, "--tmpfs", "/tmp", NULL);
    if (v->share_dir)
        bind_ro(a, v, v->share_dir, 1, REF_SANDBOX_SHARE);
    bind_ro(a, v, sb->init, 0, INIT_INSIDE);

    char cwd[PATH_MAX] = "/";
    if (v->cwd)
        snprintf(cwd, sizeof cwd, "%s", v->cwd);
    else if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, "/");
    if (!v->argv) {
        add3(a, "--", INIT_INSIDE, "--probe");
        return a->failed ? -1 : 0;
    }
    /* Without a folder of its own, the bot starts in the referee's
     * directory, so that the command's relative words mean what they say,
     * but sees there only what the command names. */
    static char folders[16][PATH_MAX];
    int nf = 0;
    if (v->cwd)
        add_folder(folders, &nf, 16, cwd);
    add_folder(folders, &nf, 16, sb->sdk);
    nf = command_folders(v->argv, cwd, folders, nf, 16);
    v->unreadable[0] = 0;
    for (int i = 0; i < nf; i++) {
        bind_ro(a, v, folders[i], 1, folders[i]);
        if (!v->unreadable[0] &&
            !(v->stage ? others_can_list(folders[i]) : others_can_read(folders[i])))
            snprintf(v->unreadable, sizeof v->unreadable, "%.250s", folders[i]);
    }
    if (v->as_referee) {
        for (int i = 0; secrets[i]; i++)
            if (access(secrets[i], F_OK) == 0)
                add3(a, "--ro-bind", "/dev/null", secrets[i]);
        for (int i = 0; secret_dirs[i]; i++)
            if (access(secret_dirs[i], F_OK) == 0)
                add3(a, "--tmpfs", secret_dirs[i], NULL);
    }
    add3(a, "--dir", cwd, NULL);
    /* Everything but /tmp read-only, the sandbox's own root included. */
    add3(a, "--remount-ro", "/", NULL);
    add3(a, "--chdir", cwd, NULL);
    char fd1[16], fd2[16];
    snprintf(fd1, sizeof fd1, "%d", REF_SANDBOX_REPORT_FD);
    snprintf(fd2, sizeof fd2, "%d", REF_SANDBOX_STOP_FD);
    add3(a, "--", INIT_INSIDE, fd1);
    add3(a, fd2, "--", NULL);
    for (int i = 0; v->argv[i]; i++)
        ref_argv_add(a, v->argv[i]);
    return a->failed ? -1 : 0;
}

int ref_sandbox_reach(const char *const *argv, const char *cwd, uid_t uid, char *err,
                      size_t size)
{
    static char folders[16][PATH_MAX];
    char here[PATH_MAX] = "/", stop[PATH_MAX];
    if (cwd)
        snprintf(here, sizeof here, "%s", cwd);
    else if (!getcwd(here, sizeof here))
        snprintf(here, sizeof here, "/");
    int nf = 0;
    if (cwd)
        add_folder(folders, &nf, 16, here);
    nf = command_folders(argv, here, folders, nf, 16);
    for (int i = 0; i < nf; i++)
        if (others_stopped_at(folders[i], stop, sizeof stop)) {
            /* The reason and what to do first, the folder once and last: a
             * caller's shorter buffer (a record's detail) cuts the path, never
             * the reason, however long the checkout's path. */
            const char *advice = "put the bot elsewhere, or chmod o+x";
            snprintf(err, size, "no namespaces here, and uid %u cannot reach the bot's files: "
                     "%s %s", (unsigned)uid, advice, stop);
            return -1;
        }
    return 0;
}

/* ---- probe -------------------------------------------------------------- */

static int find_file(char *out, size_t size, const char *const *candidates, int mode)
{
    for (int i = 0; candidates[i]; i++)
        if (candidates[i][0] && access(candidates[i], mode) == 0) {
            snprintf(out, size, "%s", candidates[i]);
            return 0;
        }
    return -1;
}

enum { PROBE_FAILED, PROBE_OK, PROBE_STAGE_FAILED };

/* Runs the init in a sandbox once, as a bot would be: in a control group
 * of its own, so that if we die mid-probe (bwrap's child would then wait
 * for a parent that is gone, for ever) the next referee's sweep kills it.
 * PROBE_OK, PROBE_STAGE_FAILED (no stage could be made here), or
 * PROBE_FAILED with why. */
static int probe_run(ref_sandbox *sb, ref_sandbox_stage *stage, char *why, size_t size)
{
    int outcome = PROBE_FAILED;
    ref_sandbox_view v = { .argv = NULL, .cwd = "/", .stage = stage };
    ref_argv a = { 0 };
    ref_cg cg;
    ref_cg_limits lim = { PROBE_MEMORY, PROBE_TASKS, 0 };
    int err_pipe[2] = { -1, -1 };
    uid_t uid = 0;
    int lock = -1;
    char e2[200] = "";
    pid_t parent = getpid();
    if (ref_cg_create(&cg, &sb->cg, &lim, e2, sizeof e2) < 0 ||
        ref_sandbox_bwrap_argv(sb, &v, &a) < 0 || pipe2(err_pipe, O_CLOEXEC) != 0 ||
        (sb->uid_pool && ref_sandbox_uid_acquire(sb, &uid, &lock, e2, sizeof e2) < 0)) {
        snprintf(why, size, "cannot prepare the bubblewrap probe%s%s", e2[0] ? ": " : "", e2);
        goto out;
    }
    pid_t pid = fork();
    if (pid == 0) {
        /* In its group first: from here on, whenever we die, it dies. */
        if (ref_cg_enter(&cg) != 0)
            _exit(124);
        int which;
        if (stage && ref_sandbox_stage_enter(stage, &which) != 0)
            _exit(123);
        dup2(err_pipe[1], 2);
        int nul = open("/dev/null", O_RDWR);
        dup2(nul, 0);
        dup2(nul, 1);
        if (sb->uid_pool && (setgroups(0, NULL) != 0 || setresgid(uid, uid, uid) != 0 ||
                             setresuid(uid, uid, uid) != 0))
            _exit(125);
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0L, 0L, 0L);
        if (getppid() != parent)
            _exit(127);
        execv(a.v[0], a.v);
        _exit(126);
    }
    close(err_pipe[1]);
    err_pipe[1] = -1;
    char msg[256] = "";
    ssize_t got = 0, n = 1;
    int64_t deadline = clk_mono_ms() + PROBE_MS;
    struct pollfd pf = { err_pipe[0], POLLIN, 0 };
    while (pid > 0 && n > 0 && got < (ssize_t)sizeof msg - 1) {
        int64_t left = deadline - clk_mono_ms();
        int ready = left > 0 ? poll(&pf, 1, (int)left) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            break;
        n = read(err_pipe[0], msg + got, sizeof msg - 1 - (size_t)got);
        got += n > 0 ? n : 0;
    }
    msg[got] = 0;
    msg[strcspn(msg, "\n")] = 0;
    int status = -1;
    if (pid > 0) {
        if (n != 0)             /* no end of output in time: it hangs */
            kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        outcome = PROBE_OK;
    else if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 123)
        outcome = PROBE_STAGE_FAILED;
    else if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 124)
        snprintf(why, size, "cannot move the bubblewrap probe into its control group");
    else
        snprintf(why, size, "bubblewrap cannot make a sandbox here%s%s%s", msg[0] ? ": " : "",
                 msg, n != 0 && pid > 0 ? " (no answer in time)" : "");
out:
    ref_cg_destroy(&cg);     /* and whatever bwrap left in it */
    for (int i = 0; i < 2; i++)
        if (err_pipe[i] >= 0)
            close(err_pipe[i]);
    ref_sandbox_uid_release(&lock);
    ref_argv_free(&a);
    return outcome;
}

void ref_sandbox_probe_ns(ref_sandbox *sb, char *why, size_t size)
{
    static const char *const bwraps[] = { "/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap",
                                          NULL };
    /* Beside the referee first (an installed or copied tree: build/referee/
     * in a checkout, the image's /opt/arena/build/referee/), then this
     * build's own. */
    char sibling[PATH_MAX], sdk_sibling[PATH_MAX];
    cli_sibling("arena-bot-init", sibling, sizeof sibling);
    cli_sibling("../../sdk", sdk_sibling, sizeof sdk_sibling);
    const char *const inits[] = { sibling, REF_INIT_PATH, NULL };
    const char *const sdks[] = { sdk_sibling, REF_SDK_DIR, NULL };
    if (find_file(sb->bwrap, sizeof sb->bwrap, bwraps, X_OK) < 0) {
        snprintf(why, size, "no bubblewrap (install Debian's bubblewrap)");
        return;
    }
    if (find_file(sb->init, sizeof sb->init, inits, X_OK) < 0) {
        snprintf(why, size, "arena-bot-init is missing beside the referee");
        return;
    }
    char real[PATH_MAX];
    if (find_file(sb->sdk, sizeof sb->sdk, sdks, R_OK) == 0 && realpath(sb->sdk, real))
        snprintf(sb->sdk, sizeof sb->sdk, "%s", real);

    /* As root, bind through a stage (a pool uid may not pass the folders
     * above the init, nor above a bot's); where no mount namespace may be
     * made (a container's root without CAP_SYS_ADMIN), by path. */
    ref_sandbox_stage *stage = sb->uid_pool ? calloc(1, sizeof *stage) : NULL;
    int outcome = PROBE_STAGE_FAILED;
    if (stage) {
        snprintf(stage->root, sizeof stage->root, "%s", sb->uid_lock_dir);
        outcome = probe_run(sb, stage, why, size);
        sb->stage_binds = outcome != PROBE_STAGE_FAILED;
        free(stage);
    }
    if (outcome == PROBE_STAGE_FAILED)
        outcome = probe_run(sb, NULL, why, size);
    sb->namespaces = outcome == PROBE_OK;
}
