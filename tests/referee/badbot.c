/*
 * badbot.c - a bot that misbehaves on purpose, to test the referee.
 *
 *   badbot MODE [ARG] [--marker=TEXT]
 *
 *   ok            plays random legal actions
 *   crash K       abort() at its K-th decision
 *   hang          never answers
 *   slow MS       sleeps MS milliseconds before each answer
 *   garbage       answers with bytes that are not msgpack
 *   huge          answers with a 100 MB message
 *   illegal       answers index = nactions
 *   badtoken      says hello with a wrong token
 *   exit K        exit(0) at its K-th decision
 *   child         starts `sleep 300` twice (a plain child and a setsid'ed
 *                 one), then plays normally
 *   outofturn     sends an action right after its hello, unasked
 *   identity      answers through a second DEALER socket
 *   disconnect K  closes its socket at its K-th decision, keeps running
 *   flood         writes 50 MB to stdout, then plays normally
 *   version       says hello with protocol 99
 *   text          plays by action text instead of index (legal: plays on)
 *   badtext       answers with a text that is no legal action
 *   shorttext     answers with the first action's text cut before its last
 *                 word: the start of a legal text, not one ("deploy knight")
 *   padtext       answers with the first action's text and a space after it
 *   noindex       answers an action with neither index nor text
 *   floatindex    answers with index 0.0, a float
 *   longtext      answers with a text of 100,000 characters
 *   negindex      answers with index -1
 *   frames        answers in two frames
 *   array         answers with a msgpack array, not a map
 *   wrongid       answers with the request's id + 1
 *   late MS       sleeps MS before its first answer only
 *   spin T:MS     before each answer, T threads spin until the process has
 *                 used MS more milliseconds of CPU (all its threads)
 *   conns P:N     P processes each open N raw unix-socket connections to
 *                 the seat's endpoint (no greeting, nothing sent) and
 *                 hold them; then it says hello and plays
 *   lateconns P:N the same once its first request has come, then plays
 *   ponder        a thread spins for the whole match; answers at once, and
 *                 at the end prints "cpu MS", the CPU the process used
 *   think MS,...  for the tests' log clock (match_run.h): before each
 *                 answer prints "bank B" (the bank the request gave) and
 *                 "clock +MICROS" for MS milliseconds (the list's next
 *                 value; the last one repeats), waits until the referee
 *                 has read that from its output pipe, then answers
 *   hello HOW     says a malformed hello, then plays on if welcomed; HOW is
 *                 one of the names in `hellos` below (a missing, empty,
 *                 wrong-typed or wrong token; a missing or wrong protocol;
 *                 a wrong shape), or "twice" (a good hello, sent twice)
 *
 * --marker is ignored: the tests put it on the command line (and in the
 * environment) to find stray processes. The modes that the C SDK can
 * express use it; the others speak the protocol by hand and print every
 * message type they receive ("recv TYPE [CODE]") for the tests to check.
 * Every badbot dies by itself after a minute, so a referee bug cannot
 * leave it running for long (the tests still see it as a stray).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>
#include "bot.h"
#include "kv.h"
#include "pcg.h"
#include "mps.h"
#include "mpw.h"

static pcg32 rng;

static void sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) < 0)
        ;
}

/* Waits until the reader of stdout, a pipe, has taken all that was
 * written to it (at most 10 s; at once if stdout is no pipe). */
static void wait_output_read(void)
{
    int unread = 0;
    for (int k = 0; k < 10000 && ioctl(1, FIONREAD, &unread) == 0 && unread > 0; k++)
        sleep_ms(1);
}

/* The think time for decision k (1-based) from "150,150,5000". */
static long think_ms(const char *list, long k)
{
    const char *p = list ? list : "0";
    for (long i = 1; i < k && strchr(p, ','); i++)
        p = strchr(p, ',') + 1;
    return strtol(p, NULL, 10);
}

static void sleep_forever(void)
{
    for (;;)
        pause();
}

/* ---- the raw protocol ------------------------------------------------ */

static void *ctx;

static void *raw_socket(void)
{
    int linger = 0;
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    if (zmq_connect(s, getenv("ARENA_ENDPOINT")) < 0) {
        fprintf(stderr, "badbot: cannot connect: %s\n", zmq_strerror(errno));
        exit(3);
    }
    return s;
}

static void raw_send(void *s, const void *data, size_t n)
{
    if (zmq_send(s, data, n, 0) < 0)
        fprintf(stderr, "badbot: send failed: %s\n", zmq_strerror(errno));
}

static void raw_hello(void *s, const char *token, int protocol)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 5);
    mpw_str(&pk, "type");     mpw_str(&pk, "hello");
    mpw_str(&pk, "protocol"); msgpack_pack_int(&pk, protocol);
    mpw_str(&pk, "token");    mpw_str(&pk, token);
    mpw_str(&pk, "name");     mpw_str(&pk, "badbot");
    mpw_str(&pk, "version");  mpw_str(&pk, "0");
    raw_send(s, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

/* ---- malformed hellos --------------------------------------------------- */

/* How a hand-made hello differs from a good one: its token, protocol and
 * type fields (each as a kind of value, or absent), and its framing. */
enum { ABSENT, GOOD, EMPTY, INT, NIL, BIN, SHORT, LONG, UPPER, NUL_INSIDE, STR_ONE, ZERO,
       TWO, FLOAT_ONE, OTHER };
enum { PLAIN, TRAILING_BYTE, TWO_FRAMES, AS_ARRAY, TWICE };

typedef struct hello_form {
    const char *name;
    int token, protocol, type, framing;
} hello_form;

static const hello_form hellos[] = {
    { "notoken", ABSENT, GOOD, GOOD, PLAIN },
    { "emptytoken", EMPTY, GOOD, GOOD, PLAIN },
    { "inttoken", INT, GOOD, GOOD, PLAIN },
    { "niltoken", NIL, GOOD, GOOD, PLAIN },
    { "bintoken", BIN, GOOD, GOOD, PLAIN },              /* the right bytes, as bin */
    { "shorttoken", SHORT, GOOD, GOOD, PLAIN },
    { "longtoken", LONG, GOOD, GOOD, PLAIN },
    { "uppertoken", UPPER, GOOD, GOOD, PLAIN },
    { "nultoken", NUL_INSIDE, GOOD, GOOD, PLAIN },       /* the right token, NUL, more */
    { "noprotocol", GOOD, ABSENT, GOOD, PLAIN },
    { "strprotocol", GOOD, STR_ONE, GOOD, PLAIN },
    { "protocol0", GOOD, ZERO, GOOD, PLAIN },
    { "protocol2", GOOD, TWO, GOOD, PLAIN },
    { "floatprotocol", GOOD, FLOAT_ONE, GOOD, PLAIN },
    { "notype", GOOD, GOOD, ABSENT, PLAIN },
    { "wrongtype", GOOD, GOOD, OTHER, PLAIN },
    { "trailing", GOOD, GOOD, GOOD, TRAILING_BYTE },
    { "twoframes", GOOD, GOOD, GOOD, TWO_FRAMES },
    { "array", GOOD, GOOD, GOOD, AS_ARRAY },
    { "twice", GOOD, GOOD, GOOD, TWICE },
};

static void put_bytes(msgpack_packer *pk, const char *s, size_t n)
{
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

static void put_token(msgpack_packer *pk, int how, const char *token)
{
    char t[80];
    size_t n = strlen(token);
    snprintf(t, sizeof t, "%s", token);
    switch (how) {
    case EMPTY:      mpw_str(pk, ""); break;
    case INT:        msgpack_pack_int(pk, 12345); break;
    case NIL:        msgpack_pack_nil(pk); break;
    case BIN:        msgpack_pack_bin(pk, n); msgpack_pack_bin_body(pk, token, n); break;
    case SHORT:      put_bytes(pk, token, n - 1); break;
    case LONG:       t[n] = '0', t[n + 1] = 0; mpw_str(pk, t); break;
    case UPPER:
        for (size_t i = 0; i < n; i++)
            t[i] = (char)(t[i] >= 'a' && t[i] <= 'z' ? t[i] - 32 : t[i]);
        mpw_str(pk, t);
        break;
    case NUL_INSIDE: memcpy(t + n, "\0x", 3); put_bytes(pk, t, n + 2); break;
    default:         mpw_str(pk, token); break;
    }
}

static void put_protocol(msgpack_packer *pk, int how)
{
    switch (how) {
    case STR_ONE:   mpw_str(pk, "1"); break;
    case ZERO:      msgpack_pack_int(pk, 0); break;
    case TWO:       msgpack_pack_int(pk, 2); break;
    case FLOAT_ONE: msgpack_pack_double(pk, 1.0); break;
    default:        msgpack_pack_int(pk, 1); break;
    }
}

/* Sends the hello `form` describes; -1 if there is no such form. */
static int raw_bad_hello(void *s, const char *name, const char *token)
{
    const hello_form *f = NULL;
    for (size_t k = 0; k < sizeof hellos / sizeof hellos[0]; k++)
        if (!strcmp(hellos[k].name, name))
            f = &hellos[k];
    if (!f || !token)
        return -1;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int fields = 2 + (f->token != ABSENT) + (f->protocol != ABSENT) + (f->type != ABSENT);
    if (f->framing == AS_ARRAY)
        msgpack_pack_array(&pk, (size_t)fields * 2);
    else
        msgpack_pack_map(&pk, (size_t)fields);
    if (f->type != ABSENT) {
        mpw_str(&pk, "type");
        mpw_str(&pk, f->type == OTHER ? "welcome" : "hello");
    }
    if (f->protocol != ABSENT) {
        mpw_str(&pk, "protocol");
        put_protocol(&pk, f->protocol);
    }
    if (f->token != ABSENT) {
        mpw_str(&pk, "token");
        put_token(&pk, f->token, token);
    }
    mpw_str(&pk, "name");     mpw_str(&pk, "badbot");
    mpw_str(&pk, "version");  mpw_str(&pk, name);
    if (f->framing == TRAILING_BYTE)
        msgpack_pack_nil(&pk);
    if (f->framing == TWO_FRAMES)
        zmq_send(s, "", 0, ZMQ_SNDMORE);
    raw_send(s, sb.data, sb.size);
    if (f->framing == TWICE)
        raw_send(s, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
    return 0;
}

/* An action by index (text NULL), by text, or with neither (index < 0). */
static void raw_action_as(void *s, int64_t id, int index, const char *text)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, text || index >= 0 ? 3 : 2);
    mpw_str(&pk, "type");  mpw_str(&pk, "action");
    mpw_str(&pk, "id");    msgpack_pack_int64(&pk, id);
    if (text) {
        mpw_str(&pk, "text"); mpw_str(&pk, text);
    } else if (index >= 0) {
        mpw_str(&pk, "index"); msgpack_pack_int(&pk, index);
    }
    raw_send(s, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

static void raw_action(void *s, int64_t id, int index)
{
    raw_action_as(s, id, index, NULL);
}

static char first_text[128];     /* the last request's first action */

/* Waits for a request: 1 with its id and action count; 0 after "end";
 * -1 when the connection fails. Prints each message type received. */
static int raw_next(void *s, int64_t *id, int *nactions)
{
    for (;;) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, s, 0) < 0) {
            zmq_msg_close(&m);
            return -1;
        }
        msgpack_unpacked u;
        int ok = mps_decode(zmq_msg_data(&m), zmq_msg_size(&m), &u) == 0;
        zmq_msg_close(&m);
        if (!ok)
            return -1;
        char type[32] = "?", code[32] = "";
        mps_get_str(&u.data, "type", type, sizeof type);
        mps_get_str(&u.data, "code", code, sizeof code);
        printf("recv %s%s%s\n", type, *code ? " " : "", code);
        fflush(stdout);
        int rc = 2;
        if (!strcmp(type, "end")) {
            rc = 0;
        } else if (!strcmp(type, "request")) {
            const msgpack_object *acts = mps_get(&u.data, "actions");
            rc = mps_get_int(&u.data, "id", id) == 0 && acts &&
                 acts->type == MSGPACK_OBJECT_ARRAY ? 1 : -1;
            if (rc == 1)
                *nactions = (int)acts->via.array.size;
            if (rc == 1 && (*nactions < 1 || mps_get_str(&acts->via.array.ptr[0], "text",
                                                         first_text, sizeof first_text) < 0))
                rc = -1;
        }
        msgpack_unpacked_destroy(&u);
        if (rc != 2)
            return rc;
    }
}

/* Says hello properly (or as `arg` says for "hello"), then misbehaves at
 * the first request. */
static int raw_mode(const char *mode, const char *arg)
{
    ctx = zmq_ctx_new();
    void *s = raw_socket();
    const char *token = getenv("ARENA_TOKEN");
    int64_t id;
    int n;

    if (!strcmp(mode, "hello")) {
        if (raw_bad_hello(s, arg ? arg : "", token) < 0) {
            fprintf(stderr, "badbot: no hello form '%s'\n", arg ? arg : "");
            return 2;
        }
    } else if (!strcmp(mode, "badtoken")) {
        raw_hello(s, "0123456789abcdef0123456789abcdef", 1);
    } else if (!strcmp(mode, "version")) {
        raw_hello(s, token, 99);
    } else {
        raw_hello(s, token, 1);
        if (!strcmp(mode, "outofturn"))
            raw_action(s, 0, 0);   /* id 0 is never a request's */
    }
    int rc;
    while ((rc = raw_next(s, &id, &n)) == 1) {
        if (!strcmp(mode, "garbage")) {
            unsigned char junk[64];
            junk[0] = 0xc1;        /* "never used" in msgpack: never valid */
            for (size_t k = 1; k < sizeof junk; k++)
                junk[k] = (unsigned char)pcg32_next(&rng);
            raw_send(s, junk, sizeof junk);
        } else if (!strcmp(mode, "huge")) {
            size_t size = (size_t)100 << 20;
            char *big = malloc(size);
            if (!big)
                return 4;
            memset(big, 'x', size);
            raw_send(s, big, size);
            free(big);
        } else if (!strcmp(mode, "text")) {
            raw_action_as(s, id, -1, first_text);
        } else if (!strcmp(mode, "badtext")) {
            raw_action_as(s, id, -1, "deploy nobody z9");
        } else if (!strcmp(mode, "shorttext") || !strcmp(mode, "padtext")) {
            char text[sizeof first_text + 1];
            snprintf(text, sizeof text, "%s%s", first_text, mode[0] == 'p' ? " " : "");
            char *last = strrchr(text, ' ');
            if (mode[0] == 's' && last)
                *last = 0;
            raw_action_as(s, id, -1, text);
        } else if (!strcmp(mode, "noindex")) {
            raw_action_as(s, id, -1, NULL);
        } else if (!strcmp(mode, "floatindex") || !strcmp(mode, "negindex")) {
            msgpack_sbuffer sb;
            msgpack_packer pk;
            msgpack_sbuffer_init(&sb);
            msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
            msgpack_pack_map(&pk, 3);
            mpw_str(&pk, "type");  mpw_str(&pk, "action");
            mpw_str(&pk, "id");    msgpack_pack_int64(&pk, id);
            mpw_str(&pk, "index");
            if (mode[0] == 'f')
                msgpack_pack_double(&pk, 0.0);
            else
                msgpack_pack_int(&pk, -1);
            raw_send(s, sb.data, sb.size);
            msgpack_sbuffer_destroy(&sb);
        } else if (!strcmp(mode, "longtext")) {
            static char text[100001];
            memset(text, 'a', sizeof text - 1);
            raw_action_as(s, id, -1, text);
        } else if (!strcmp(mode, "wrongid")) {
            raw_action(s, id + 1, 0);
        } else if (!strcmp(mode, "frames")) {
            zmq_send(s, "", 0, ZMQ_SNDMORE);
            raw_action(s, id, 0);
        } else if (!strcmp(mode, "array")) {
            static const char arr[] = { (char)0x92, 0x01, 0x02 };   /* [1, 2] */
            raw_send(s, arr, sizeof arr);
        } else if (!strcmp(mode, "identity")) {
            void *other = raw_socket();
            sleep_ms(50);          /* let it connect */
            raw_action(other, id, 0);
        } else {
            raw_action(s, id, (int)pcg32_below(&rng, (uint32_t)n));
        }
    }
    /* Misbehaved or ended: wait to be killed (or exit after "end"). */
    if (rc == 0)
        return 0;
    sleep_forever();
    return 0;
}

/* ---- through the SDK ------------------------------------------------- */

static void spawn_sleep(int new_session)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (new_session) {
            setsid();
            if (fork() > 0)        /* the grandchild is orphaned at once */
                _exit(0);
        }
        execlp("sleep", "sleep", "300", (char *)NULL);
        _exit(127);
    }
}

static void flood(void)
{
    static char buf[1 << 16];
    memset(buf, 'f', sizeof buf);
    buf[sizeof buf - 1] = '\n';
    for (size_t total = 0; total < (size_t)50 << 20; total += sizeof buf) {
        size_t done = 0;
        while (done < sizeof buf) {
            ssize_t w = write(1, buf + done, sizeof buf - done);
            if (w <= 0)
                return;
            done += (size_t)w;
        }
    }
}

static int64_t process_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static volatile int64_t spin_until_ms = -1;   /* -1: spin forever (ponder) */

static void *spinner(void *unused)
{
    (void)unused;
    volatile uint64_t x = 0;
    while (spin_until_ms < 0 || process_cpu_ms() < spin_until_ms)
        x++;
    return NULL;
}

/* `spin T:MS`: T threads until MS more ms of the process's CPU. */
static void spin(const char *arg_text)
{
    int threads = 1;
    long ms = 0;
    if (sscanf(arg_text ? arg_text : "", "%d:%ld", &threads, &ms) != 2 || threads < 1 ||
        threads > 64)
        exit(2);
    spin_until_ms = process_cpu_ms() + ms;
    pthread_t t[64];
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, spinner, NULL);
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
}

/* `conns P:N`: P processes each connect N times to the seat's ipc
 * endpoint and hold the connections until killed; returns once every
 * process has made its connections (or failed). */
static void open_connections(const char *arg_text)
{
    int procs = 0, each = 0;
    const char *ep = getenv("ARENA_ENDPOINT");
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if (sscanf(arg_text ? arg_text : "", "%d:%d", &procs, &each) != 2 || procs < 1 ||
        procs > 64 || each < 1 || !ep || strncmp(ep, "ipc://", 6) ||
        strlen(ep + 6) >= sizeof a.sun_path)
        exit(2);
    memcpy(a.sun_path, ep + 6, strlen(ep + 6));
    int ready[2];
    if (pipe(ready) < 0)
        exit(3);
    for (int p = 0; p < procs; p++) {
        if (fork() != 0)
            continue;
        alarm(60);
        int made = 0;
        for (; made < each; made++) {
            int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0)
                break;
        }
        (void)!write(ready[1], &made, sizeof made);
        sleep_forever();
    }
    long total = 0;
    for (int p = 0, made; p < procs && read(ready[0], &made, sizeof made) == sizeof made; p++)
        total += made;
    printf("conns %ld\n", total);
    fflush(stdout);
}

static int sdk_mode(const char *mode, long arg, const char *arg_text)
{
    pthread_t ponderer;
    if (!strcmp(mode, "ponder"))
        pthread_create(&ponderer, NULL, spinner, NULL);
    if (!strcmp(mode, "child")) {
        spawn_sleep(0);
        spawn_sleep(1);
    } else if (!strcmp(mode, "flood")) {
        flood();
    } else if (!strcmp(mode, "conns")) {
        open_connections(arg_text);
    }
    bot_conn *bot = bot_connect("badbot", mode);
    if (!bot)
        return 1;
    static bot_request req;
    long decision = 0;
    while (bot_next(bot, &req) > 0) {
        decision++;
        if (!strcmp(mode, "crash") && decision == arg)
            abort();
        if (!strcmp(mode, "exit") && decision == arg)
            exit(0);
        if (!strcmp(mode, "disconnect") && decision == arg) {
            bot_close(bot);
            sleep_forever();
        }
        if (!strcmp(mode, "hang"))
            sleep_forever();
        if (!strcmp(mode, "lateconns") && decision == 1)
            open_connections(arg_text);
        if (!strcmp(mode, "slow") || (!strcmp(mode, "late") && decision == 1))
            sleep_ms(arg);
        if (!strcmp(mode, "spin"))
            spin(arg_text);
        if (!strcmp(mode, "think")) {
            printf("bank %lld\nclock +%lld\n", (long long)req.bank_ms,
                   (long long)think_ms(arg_text, decision) * 1000);
            fflush(stdout);
            wait_output_read();
        }
        int index = !strcmp(mode, "illegal") ? req.nactions
                                              : (int)pcg32_below(&rng, (uint32_t)req.nactions);
        bot_answer(bot, &req, index);
    }
    printf("end %s\n", bot_last_result(bot)->reason);
    if (!strcmp(mode, "ponder"))
        printf("cpu %lld\n", (long long)process_cpu_ms());
    return bot_close(bot);
}

int main(int argc, char **argv)
{
    const char *mode = NULL, *arg_text = NULL;
    long arg = 0;
    int nargs = 0;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--marker=", 9))
            continue;
        if (nargs == 0)
            mode = argv[i];
        else if (nargs == 1)
            arg = strtol(arg_text = argv[i], NULL, 10);
        nargs++;
    }
    if (!mode) {
        fprintf(stderr, "usage: badbot MODE [ARG] [--marker=TEXT]\n");
        return 2;
    }
    alarm(60);
    const char *seat = getenv("ARENA_SEAT");
    uint64_t seat_number = 0;
    if (seat && kv_u64(seat, &seat_number) < 0)
        return 2;
    pcg32_seed(&rng, seat ? seat_number + 7 : 7, 5);

    static const char *const raw[] = { "garbage", "huge", "badtoken", "outofturn", "identity",
                                       "version", "text", "badtext", "shorttext", "padtext",
                                       "noindex", "frames",
                                       "floatindex", "longtext", "negindex", "array",
                                       "wrongid", "hello" };
    for (size_t k = 0; k < sizeof raw / sizeof raw[0]; k++)
        if (!strcmp(mode, raw[k]))
            return raw_mode(mode, arg_text);
    static const char *const sdk[] = { "ok", "crash", "hang", "slow", "illegal", "exit",
                                       "child", "disconnect", "flood", "late", "think",
                                       "spin", "ponder", "conns", "lateconns" };
    for (size_t k = 0; k < sizeof sdk / sizeof sdk[0]; k++)
        if (!strcmp(mode, sdk[k]))
            return sdk_mode(mode, arg, arg_text);
    fprintf(stderr, "badbot: unknown mode '%s'\n", mode);
    return 2;
}
