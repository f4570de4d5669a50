/*
 * arena_cmd_connect.c - remote bots: `arena connect`, what a participant
 * runs at home, and `arena relay`, what the referee runs in a remote
 * seat's place (gateway/gw.h, "remote bots").
 *
 * connect keeps one CURVE connection to the gateway, attached to the
 * participant's bot; for each match the gateway announces it starts the
 * participant's command with the environment a referee gives any bot
 * (ARENA_ENDPOINT a local socket of its own, ARENA_TOKEN, ARENA_SEAT,
 * ARENA_BOT_SEED, ARENA_PROTOCOL) and passes its messages both ways. A
 * refusal ends it; a gateway not heard is reconnected to.
 *
 * relay is the referee's seat: it connects to the referee as a bot does
 * and to the gateway with the arena's own key (beside the database),
 * opens a session to the bot and passes frames both ways. When the bot is
 * absent or its side goes, it exits REF_RELAY_GONE: the referee records
 * the seat's loss as `disconnected`. It measures the link to the bot's
 * machine and tells the referee (ref_relay.h), which allows for it; when
 * the bot's process ends there, its connection still up, the referee is
 * told that too and the seat loses as a local bot that exits does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

#include "arena_cmd.h"
#include "clk.h"
#include "gw.h"
#include "ref_match.h"
#include "mps.h"
#include "ref_relay.h"
#include "txt.h"

#define MAX_PLAYS 16
#define ATTACH_WAIT_MS 10000
#define END_GRACE_MS 3000             /* a bot's time to leave after its match closed */

/* ---- arena connect ------------------------------------------------------- */

typedef struct play {
    uint64_t session;
    pid_t pid;                        /* its process group too */
    void *local;                      /* DEALER bound at ipc://dir/bot */
    char dir[64], label[sizeof ((gw_rmsg *)0)->message];
    int64_t kill_at;                  /* closed: killed at this time if still there */
} play;

typedef struct link_state {
    const gw_cred *cred;
    char *const *cmd;
    void *ctx, *sock, *mon;
    play plays[MAX_PLAYS];
    int nplays;
    int64_t heard_ms, pinged_ms;
    uint64_t attached;            /* the gateway's number for our last attach, 0 before
                                   * it: sent when coming back (gw_remote.c) */
} link_state;

static void end_play(link_state *L, int i)
{
    play *p = &L->plays[i];
    if (p->pid > 0) {
        kill(-p->pid, SIGKILL);
        while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    zmq_close(p->local);
    char path[96];
    snprintf(path, sizeof path, "%s/bot", p->dir);
    unlink(path);
    rmdir(p->dir);
    *p = L->plays[--L->nplays];
}

static void stop_plays(link_state *L)
{
    while (L->nplays)
        end_play(L, L->nplays - 1);
}

static int play_by_session(link_state *L, uint64_t session)
{
    for (int i = 0; i < L->nplays; i++)
        if (L->plays[i].session == session)
            return i;
    return -1;
}

/* The child: its own process group, the referee's variables, exec. */
static void exec_bot(char *const *cmd, const char *endpoint, const gw_rmsg *m)
{
    char seat[32], seed[32];
    snprintf(seat, sizeof seat, "%" PRId64, m->seat);
    snprintf(seed, sizeof seed, "%" PRIu64, m->seed);
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);     /* connect killed: its bots go too */
    if (setenv("ARENA_ENDPOINT", endpoint, 1) || setenv("ARENA_TOKEN", m->token, 1) ||
        setenv("ARENA_SEAT", seat, 1) || setenv("ARENA_BOT_SEED", seed, 1) ||
        setenv("ARENA_PROTOCOL", "1", 1))
        _exit(127);
    execvp(cmd[0], cmd);
    fprintf(stderr, "arena connect: cannot run %s: %s\n", cmd[0], strerror(errno));
    _exit(127);
}

/* start: the bot's own socket and process. */
static void start_play(link_state *L, const gw_rmsg *m)
{
    gw_rmsg no = { .type = "close", .session = m->session };
    if (L->nplays == MAX_PLAYS || play_by_session(L, m->session) >= 0) {
        txt_set(no.message, sizeof no.message, "this side plays %d matches at most", MAX_PLAYS);
        gw_rmsg_send(L->sock, &no, NULL, 0);
        return;
    }
    play *p = &L->plays[L->nplays];
    memset(p, 0, sizeof *p);
    p->session = m->session;
    snprintf(p->label, sizeof p->label, "%s", m->message);
    snprintf(p->dir, sizeof p->dir, "/tmp/arena-connect.XXXXXX");
    char endpoint[128];
    int linger = 0;
    if (!mkdtemp(p->dir)) {
        txt_set(no.message, sizeof no.message, "no room for the bot's socket here");
        gw_rmsg_send(L->sock, &no, NULL, 0);
        return;
    }
    snprintf(endpoint, sizeof endpoint, "ipc://%s/bot", p->dir);
    p->local = zmq_socket(L->ctx, ZMQ_DEALER);
    zmq_setsockopt(p->local, ZMQ_LINGER, &linger, sizeof linger);
    L->nplays++;
    if (zmq_bind(p->local, endpoint) < 0 || (p->pid = fork()) < 0) {
        txt_set(no.message, sizeof no.message, "the bot could not start here");
        gw_rmsg_send(L->sock, &no, NULL, 0);
        p->pid = 0;
        end_play(L, L->nplays - 1);
        return;
    }
    if (p->pid == 0)
        exec_bot(L->cmd, endpoint, m);
    /* The parent sets the child's group too, so the group exists whichever
     * runs first: a match closed at once (a takeover right after a start)
     * kills the group before the child has run, and killing a group not
     * made yet missed the bot, whose waitpid then never returned. */
    (void)setpgid(p->pid, p->pid);
    printf("match started: %s (session %016" PRIx64 ")\n", p->label, p->session);
    fflush(stdout);
}

/* The bot's message to the gateway: its first frame (the referee reads
 * only one-frame messages), any more dropped. */
static void from_bot(link_state *L, int i)
{
    zmq_msg_t f;
    zmq_msg_init(&f);
    if (zmq_msg_recv(&f, L->plays[i].local, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&f);
        return;
    }
    int more = zmq_msg_more(&f);
    gw_rmsg m = { .type = "data", .session = L->plays[i].session };
    gw_rmsg_send(L->sock, &m, zmq_msg_data(&f), zmq_msg_size(&f));
    zmq_msg_close(&f);
    while (more) {
        zmq_msg_init(&f);
        if (zmq_msg_recv(&f, L->plays[i].local, 0) < 0)
            more = 0;
        else
            more = zmq_msg_more(&f);
        zmq_msg_close(&f);
    }
}

/* Bots that exited: their matches ended here, said to the gateway. */
static void reap(link_state *L, int64_t now)
{
    for (int i = L->nplays - 1; i >= 0; i--) {
        play *p = &L->plays[i];
        int st;
        if (p->pid > 0 && waitpid(p->pid, &st, WNOHANG) == p->pid) {
            char how[64];
            if (WIFEXITED(st))
                snprintf(how, sizeof how, "exited with status %d", WEXITSTATUS(st));
            else
                snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(st));
            if (!p->kill_at) {       /* mid-match: the seat is lost by the bot's end */
                gw_rmsg m = { .type = "close", .session = p->session,
                              .ended = WIFEXITED(st) ? 1 : 2,
                              .status = WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st) };
                txt_set(m.message, sizeof m.message, "the bot %s", how);
                gw_rmsg_send(L->sock, &m, NULL, 0);
            }
            printf("match ended: %s (the bot %s)\n", p->label, how);
            fflush(stdout);
            kill(-p->pid, SIGKILL);
            p->pid = 0;
            end_play(L, i);
        } else if (p->kill_at && now >= p->kill_at) {
            printf("match ended: %s (the bot did not leave; killed)\n", p->label);
            fflush(stdout);
            end_play(L, i);
        }
    }
}

/* One message from the gateway: 0 go on, 1 refused (stop), -1 let go by
 * the gateway (attach again). */
static int from_gateway(link_state *L)
{
    gw_rmsg m;
    zmq_msg_t f;
    char why[256];
    int got = gw_rmsg_recv(L->sock, &m, &f, why, sizeof why);
    int rc = 0;
    if (got > 0)
        L->heard_ms = clk_mono_ms();
    int i = got > 0 ? play_by_session(L, m.session) : -1;
    if (got < 0) {
        fprintf(stderr, "arena connect: an unreadable message from the gateway: %s\n", why);
    } else if (got == 0 || !strcmp(m.type, "pong") || !strcmp(m.type, "attached")) {
    } else if (!strcmp(m.type, "refused")) {
        printf("%s\n", m.message);
        rc = 1;
    } else if (!strcmp(m.type, "detached")) {
        fprintf(stderr, "arena connect: the gateway let this connection go; reconnecting\n");
        rc = -1;
    } else if (!strcmp(m.type, "ping") && i >= 0) {     /* the relay's: its link measured */
        gw_rmsg pong = { .type = "pong", .session = m.session, .t = m.t };
        gw_rmsg_send(L->sock, &pong, NULL, 0);
    } else if (!strcmp(m.type, "start")) {
        start_play(L, &m);
    } else if (!strcmp(m.type, "data") && i >= 0) {
        zmq_send(L->plays[i].local, zmq_msg_data(&f), zmq_msg_size(&f), ZMQ_DONTWAIT);
    } else if (!strcmp(m.type, "close") && i >= 0 && !L->plays[i].kill_at) {
        L->plays[i].kill_at = clk_mono_ms() + END_GRACE_MS;
        if (m.message[0])
            printf("match closed: %s (%s)\n", L->plays[i].label, m.message);
    } else if (!strcmp(m.type, "error")) {
        fprintf(stderr, "arena connect: the gateway: %s\n", m.message);
    }
    fflush(stdout);
    zmq_msg_close(&f);
    return rc;
}

/* Connects and attaches: 0 attached, 1 refused (said), -1 not reached. */
static int attach(link_state *L, const char *bot)
{
    char err[512];
    L->sock = gw_link_open(L->ctx, L->cred->endpoint, L->cred->server_public, L->cred->secret,
                           &L->mon, err, sizeof err);
    if (!L->sock) {
        fprintf(stderr, "arena connect: %s\n", err);
        return -1;
    }
    gw_rmsg m = { .type = "attach", .session = L->attached };
    snprintf(m.bot, sizeof m.bot, "%s", bot);
    gw_rmsg_send(L->sock, &m, NULL, 0);
    int64_t deadline = clk_mono_ms() + ATTACH_WAIT_MS;
    int admitted = 0;
    while (clk_mono_ms() < deadline) {
        zmq_pollitem_t items[] = { { .socket = L->sock, .events = ZMQ_POLLIN },
                                   { .socket = L->mon, .events = ZMQ_POLLIN } };
        if (zmq_poll(items, 2, 200) < 0 && errno != EINTR)
            break;
        if (items[1].revents & ZMQ_POLLIN) {
            int ev = gw_monitor_event(L->mon);
            admitted |= ev == 3;
            if (ev == 1) {
                printf("refused: the gateway at %s refused these credentials (not a "
                       "participant's key, or not this arena's)\n", L->cred->endpoint);
                return 1;
            }
        }
        if (!(items[0].revents & ZMQ_POLLIN))
            continue;
        char why[256];
        zmq_msg_t f;
        int got = gw_rmsg_recv(L->sock, &m, &f, why, sizeof why);
        zmq_msg_close(&f);
        if (got > 0 && !strcmp(m.type, "attached")) {
            L->attached = m.session;
            printf("%s\n", m.message);
            fflush(stdout);
            L->heard_ms = L->pinged_ms = clk_mono_ms();
            return 0;
        }
        if (got > 0 && !strcmp(m.type, "refused")) {
            printf("%s\n", m.message);
            return 1;
        }
        if (got < 0) {
            printf("refused: the gateway's answer is unreadable (%s): is it this arena's?\n",
                   why);
            return 1;
        }
    }
    fprintf(stderr, "arena connect: no answer from the gateway at %s%s\n", L->cred->endpoint,
            admitted ? "" : " (not reached)");
    return -1;
}

static void detach(link_state *L)
{
    stop_plays(L);
    gw_link_close(L->sock, L->mon);
    L->sock = L->mon = NULL;
}

/* Attached: until refused (1), the gateway lost (-1) or a stop (0). */
static int serve(link_state *L, const volatile int *stop)
{
    while (!*stop) {
        zmq_pollitem_t items[MAX_PLAYS + 1] = { { .socket = L->sock, .events = ZMQ_POLLIN } };
        for (int i = 0; i < L->nplays; i++)
            items[1 + i] = (zmq_pollitem_t){ .socket = L->plays[i].local, .events = ZMQ_POLLIN };
        int n = L->nplays;
        if (zmq_poll(items, 1 + n, 100) < 0 && errno != EINTR)
            return -1;
        int said = items[0].revents & ZMQ_POLLIN ? from_gateway(L) : 0;
        if (said)
            return said;
        for (int i = n - 1; i >= 0; i--)
            if (i < L->nplays && (items[1 + i].revents & ZMQ_POLLIN))
                from_bot(L, i);
        int64_t now = clk_mono_ms();
        reap(L, now);
        if (now - L->pinged_ms >= GW_PING_MS) {
            gw_rmsg ping = { .type = "ping", .t = now };
            gw_rmsg_send(L->sock, &ping, NULL, 0);
            L->pinged_ms = now;
        }
        if (now - L->heard_ms > GW_SILENT_MS) {
            fprintf(stderr, "arena connect: the gateway is silent; reconnecting\n");
            return -1;
        }
    }
    return 0;
}

static const char connect_head[] =
    "usage: arena connect --credentials FILE --name BOT -- CMD [ARGS...]\n"
    "Plays your remote bot (arena submit --remote) from this machine: keeps a connection to\n"
    "the arena's gateway and, for each match, runs CMD here with the environment the referee\n"
    "gives any bot (ARENA_ENDPOINT, ARENA_TOKEN, ARENA_SEAT, ARENA_BOT_SEED), passing its\n"
    "messages. Prints each match as it starts and ends; reconnects when the network fails.\n"
    "Exit 1 refused (not your bot, not remote, revoked, replaced by a newer connection).\n";

int ac_connect(int argc, char **argv)
{
    const char *cred_path = NULL, *name = NULL;
    int split = 0;
    while (split < argc && strcmp(argv[split], "--"))
        split++;
    const cli_flag flags[] = {
        CLI_ARG("--credentials", CLI_STR, "FILE", "from the organizer (arena user add)",
                &cred_path),
        CLI_ARG("--name", CLI_STR, "BOT", "your remote bot (NAME or NAME@VERSION)", &name),
        CLI_END,
    };
    int parsed = ac_parse("connect", flags, split, argv, NULL, NULL, 0, connect_head, NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!cred_path || !name || split + 1 >= argc)
        return ac_fail("connect needs --credentials FILE --name BOT -- CMD [ARGS...]");
    if (strlen(name) >= sizeof ((gw_rmsg *)0)->bot)
        return ac_fail("connect: --name is too long");
    char err[512];
    gw_cred cred;
    if (gw_cred_read(cred_path, &cred, err, sizeof err) < 0)
        return ac_fail("connect: %s", err);
    link_state L = { .cred = &cred, .cmd = argv + split + 1, .ctx = zmq_ctx_new() };
    const volatile int *stop = ac_catch_stops();
    int rc = 0, wait_s = 1;
    while (!*stop) {
        int got = attach(&L, name);
        if (got == 0) {
            wait_s = 1;
            got = serve(&L, stop);
        }
        detach(&L);
        if (got == 1) {
            rc = 1;
            break;
        }
        for (int i = 0; i < wait_s * 10 && !*stop; i++)
            usleep(100000);
        wait_s = wait_s < 16 ? wait_s * 2 : 30;
    }
    zmq_ctx_term(L.ctx);
    return rc;
}

/* ---- arena relay --------------------------------------------------------- */

static volatile sig_atomic_t relay_stop;

static void on_term(int sig)
{
    (void)sig;
    relay_stop = 1;
}

/* The referee's variables: 0, or -1 (said). */
static int relay_env(gw_rmsg *open, const char **endpoint)
{
    const char *token = getenv("ARENA_TOKEN"), *seat = getenv("ARENA_SEAT"),
               *seed = getenv("ARENA_BOT_SEED");
    *endpoint = getenv("ARENA_ENDPOINT");
    if (!*endpoint || !token || !seat || !seed || strlen(token) >= sizeof open->token) {
        fprintf(stderr, "arena relay: the referee runs it (ARENA_ENDPOINT, ARENA_TOKEN, "
                "ARENA_SEAT, ARENA_BOT_SEED)\n");
        return -1;
    }
    snprintf(open->token, sizeof open->token, "%s", token);
    open->seat = strtoll(seat, NULL, 10);
    open->seed = strtoull(seed, NULL, 10);
    return 0;
}

/* The session opened at the gateway: 0, or -1 (said). */
static int relay_open(void *sock, gw_rmsg *open)
{
    gw_rmsg_send(sock, open, NULL, 0);
    int64_t deadline = clk_mono_ms() + ATTACH_WAIT_MS;
    while (clk_mono_ms() < deadline && !relay_stop) {
        zmq_pollitem_t item = { .socket = sock, .events = ZMQ_POLLIN };
        if (zmq_poll(&item, 1, 200) <= 0)
            continue;
        gw_rmsg m;
        zmq_msg_t f;
        char why[256];
        int got = gw_rmsg_recv(sock, &m, &f, why, sizeof why);
        zmq_msg_close(&f);
        if (got > 0 && !strcmp(m.type, "opened") && m.session == open->session)
            return 0;
        if (got > 0 && !strcmp(m.type, "absent")) {
            fprintf(stderr, "arena relay: %s\n", m.message);
            return -1;
        }
    }
    fprintf(stderr, "arena relay: no answer from the gateway\n");
    return -1;
}

/* The link the seat plays over: the round trip of a ping through the
 * gateway to the participant's connect and back, every LINK_PROBE_MS from
 * the seat's welcome on (not before: connect is starting the bot then, and
 * its answer waits on that), the smallest of the last LINK_SAMPLES (a
 * link's latency, not its bursts of queueing or a busy moment); told to
 * the referee (ref_relay.h), which reads the seat's notes from its welcome
 * on, whenever it changes. */
#define LINK_SAMPLES 8
#define LINK_PROBE_MS 250
#define ENDED_WAIT_MS 10000           /* the referee's time to end a seat whose bot ended */

typedef struct relay_link {
    void *ref;
    uint64_t session;
    int64_t opened_us;
    int64_t rtt_us[LINK_SAMPLES];
    int nrtt, next;
    int64_t told_us;                  /* the round trip last told, -1 none */
    int welcomed;                     /* the referee has sent the seat a frame */
    int ended;                        /* ... and its `end`: the match is over */
    int64_t probed_ms;                /* the last ping through to connect */
    int64_t rtt_max_us, rtt_sum_us, pongs;
} relay_link;

static void relay_note(relay_link *k, const ref_relay_note *n)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    ref_relay_note_write(&sb, n);
    if (zmq_send(k->ref, REF_RELAY_MARK, strlen(REF_RELAY_MARK), ZMQ_SNDMORE | ZMQ_DONTWAIT) >= 0)
        zmq_send(k->ref, sb.data, sb.size, ZMQ_DONTWAIT);
    msgpack_sbuffer_destroy(&sb);
}

static int64_t link_rtt(const relay_link *k)
{
    int64_t least = -1;
    for (int i = 0; i < k->nrtt; i++)
        least = least < 0 || k->rtt_us[i] < least ? k->rtt_us[i] : least;
    return least;
}

/* A session pong: a sample of the link; its echoed time must be one this
 * relay could have sent (a participant's connect can only delay it). */
static void link_pong(relay_link *k, int64_t t, int64_t now)
{
    if (t < k->opened_us || t > now)
        return;
    k->rtt_us[k->next] = now - t;
    k->next = (k->next + 1) % LINK_SAMPLES;
    k->nrtt += k->nrtt < LINK_SAMPLES;
    k->rtt_sum_us += now - t, k->pongs++;
    k->rtt_max_us = now - t > k->rtt_max_us ? now - t : k->rtt_max_us;
}

static void link_tell(relay_link *k)
{
    int64_t rtt = link_rtt(k);
    if (k->welcomed && rtt >= 0 && rtt != k->told_us) {
        relay_note(k, &(ref_relay_note){ .rtt_us = rtt });
        k->told_us = rtt;
    }
}

/* The referee's message is its `end` (ref_msg.c). */
static int is_end(const void *data, size_t len)
{
    msgpack_unpacked u;
    char type[8];
    if (mps_decode((const char *)data, len, &u) < 0)
        return 0;
    int end = u.data.type == MSGPACK_OBJECT_MAP &&
              mps_get_str(&u.data, "type", type, sizeof type) == 0 && !strcmp(type, "end");
    msgpack_unpacked_destroy(&u);
    return end;
}

/* The bot's process ended at the participant's machine, its connection
 * still up: the referee told (once it reads the seat's notes) and left to
 * end the seat (SIGTERM), else REF_RELAY_ENDED after ENDED_WAIT_MS. */
static int relay_ended(relay_link *k, const gw_rmsg *m)
{
    fprintf(stderr, "arena relay: the bot %s %" PRId64 " at the participant's machine\n",
            m->ended == 1 ? "exited with status" : "was killed by signal", m->status);
    if (k->ended)                     /* it left after the match's end, as it should */
        return 0;
    if (!k->welcomed)
        return REF_RELAY_ENDED;       /* before its welcome: the referee reads no note */
    relay_note(k, &(ref_relay_note){ .rtt_us = -1, .ended = (int)m->ended,
                                     .status = m->status });
    for (int64_t until = clk_mono_ms() + ENDED_WAIT_MS; !relay_stop && clk_mono_ms() < until;)
        usleep(20000);
    return REF_RELAY_ENDED;
}

/* One message from the gateway: 0 go on, or the relay's exit status (the
 * bot's side gone, or its bot ended). */
static int relay_from_gateway(void *sock, relay_link *k, int64_t *heard)
{
    gw_rmsg m;
    zmq_msg_t f;
    char why[256];
    int got = gw_rmsg_recv(sock, &m, &f, why, sizeof why), rc = 0;
    if (got > 0)
        *heard = clk_mono_ms();
    if (got > 0 && !strcmp(m.type, "data") && m.session == k->session) {
        zmq_send(k->ref, zmq_msg_data(&f), zmq_msg_size(&f), ZMQ_DONTWAIT);
    } else if (got > 0 && !strcmp(m.type, "pong") && m.session == k->session) {
        link_pong(k, m.t, clk_mono_us());
        link_tell(k);
    } else if (got > 0 && !strcmp(m.type, "close") && m.session == k->session) {
        if (m.ended) {
            rc = relay_ended(k, &m);
        } else {
            fprintf(stderr, "arena relay: %s\n", m.message);
            rc = REF_RELAY_GONE;
        }
    }
    zmq_msg_close(&f);
    return rc;
}

/* Frames both ways until the match ends (0) or the bot's side goes (its
 * exit status). */
static int relay_pass(void *sock, void *ref, uint64_t session)
{
    relay_link k = { .ref = ref, .session = session, .opened_us = clk_mono_us(),
                     .told_us = -1 };
    int64_t heard = clk_mono_ms(), pinged = 0;
    int rc = 0;
    while (!relay_stop && !rc) {
        zmq_pollitem_t items[] = { { .socket = sock, .events = ZMQ_POLLIN },
                                   { .socket = ref, .events = ZMQ_POLLIN } };
        zmq_poll(items, 2, 200);
        int64_t now = clk_mono_ms();
        if (items[1].revents & ZMQ_POLLIN) {
            zmq_msg_t f;
            zmq_msg_init(&f);
            if (zmq_msg_recv(&f, ref, ZMQ_DONTWAIT) >= 0) {
                gw_rmsg m = { .type = "data", .session = session };
                gw_rmsg_send(sock, &m, zmq_msg_data(&f), zmq_msg_size(&f));
                k.welcomed = 1;
                k.ended |= is_end(zmq_msg_data(&f), zmq_msg_size(&f));
                link_tell(&k);
            }
            zmq_msg_close(&f);
        }
        if (items[0].revents & ZMQ_POLLIN)
            rc = relay_from_gateway(sock, &k, &heard);
        if (!rc && now - pinged >= GW_PING_MS) {  /* the gateway's pong: this side alive */
            gw_rmsg ping = { .type = "ping", .t = now };
            gw_rmsg_send(sock, &ping, NULL, 0);
            pinged = now;
        }
        if (!rc && k.welcomed && now - k.probed_ms >= LINK_PROBE_MS) {
            /* The session's ping goes through to the participant: the link. */
            gw_rmsg probe = { .type = "ping", .session = session, .t = clk_mono_us() };
            gw_rmsg_send(sock, &probe, NULL, 0);
            k.probed_ms = now;
        }
        if (!rc && now - heard > GW_SILENT_MS) {
            fprintf(stderr, "arena relay: disconnected: the gateway is silent\n");
            rc = REF_RELAY_GONE;
        }
    }
    if (k.pongs)
        fprintf(stderr, "arena relay: the link to the bot: round trip %.1f ms on average, "
                "%.1f ms at most (%" PRId64 " pings)\n",
                (double)k.rtt_sum_us / (double)k.pongs / 1000.0, k.rtt_max_us / 1000.0, k.pongs);
    return rc;
}

int ac_relay(int argc, char **argv)
{
    int64_t bot_id = 0;
    const cli_flag flags[] = {
        CLI_NUM("--bot", CLI_I64, "ID", "the remote bot's id", &bot_id, 1, 1ll << 53),
        CLI_END,
    };
    int parsed = ac_parse("relay", flags, argc, argv, NULL, NULL, 0,
                          "usage: arena relay --bot ID (run by the referee in a remote bot's "
                          "seat)\n", NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    gw_rmsg open = { .type = "open", .bot_id = bot_id };
    const char *endpoint;
    if (relay_env(&open, &endpoint) < 0)
        return 2;
    arena_remote_bot r;
    zauth_key pub, secret;
    char err[512];
    arena_db *db;
    if (arena_db_open_readonly(&db, ac_db_path, err, sizeof err) < 0)
        return ac_fail("relay: %s", err);
    int got = arena_db_remote_get(db, bot_id, &r);
    arena_db_close(db);
    if (got != 0 || !r.gateway[0] || gw_arena_keys(ac_db_path, 0, pub, secret, err,
                                                   sizeof err) < 0) {
        fprintf(stderr, "arena relay: disconnected: bot %" PRId64 " %s\n", bot_id,
                got ? "is not a remote bot" : r.gateway[0] ? err : "never connected");
        return REF_RELAY_GONE;
    }
    struct sigaction sa = { .sa_handler = on_term };
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    while (!open.session && getrandom(&open.session, sizeof open.session, 0) < 0)
        ;
    void *ctx = zmq_ctx_new(), *mon = NULL, *ref = NULL;
    void *sock = gw_link_open(ctx, r.gateway, pub, secret, &mon, err, sizeof err);
    int rc = REF_RELAY_GONE;
    if (!sock)
        fprintf(stderr, "arena relay: %s\n", err);
    else if (relay_open(sock, &open) == 0) {
        ref = zmq_socket(ctx, ZMQ_DEALER);
        int linger = 0;
        zmq_setsockopt(ref, ZMQ_LINGER, &linger, sizeof linger);
        if (zmq_connect(ref, endpoint) == 0)
            rc = relay_pass(sock, ref, open.session);
    }
    if (sock && rc == 0) {                /* the referee stops it: the match is over */
        gw_rmsg close = { .type = "close", .session = open.session, .message = "match over" };
        gw_rmsg_send(sock, &close, NULL, 0);
    }
    if (ref)
        zmq_close(ref);
    gw_link_close(sock, mon);
    zmq_ctx_term(ctx);
    return rc;
}
