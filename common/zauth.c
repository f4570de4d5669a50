/*
 * zauth.c - CURVE key files and the ZAP handler (zauth.h).
 *
 * The ZAP protocol (ZeroMQ RFC 27): for every handshake on a socket with a
 * security mechanism, libzmq asks the handler bound at
 * inproc://zeromq.zap.01 in the same context, in frames: version,
 * request id, domain, address, identity, mechanism, then the credentials
 * (for CURVE, the client's 32-byte public key). The answer: version,
 * request id, status code ("200" or "400"), status text, user id,
 * metadata.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>
#include "zauth.h"

static int write_file(const char *path, const char *text, mode_t mode, char *err, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) {
        snprintf(err, size, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    size_t n = strlen(text);
    int ok = write(fd, text, n) == (ssize_t)n;
    ok = close(fd) == 0 && ok;
    if (!ok)
        snprintf(err, size, "cannot write %s", path);
    return ok ? 0 : -1;
}

int zauth_keygen(const char *path, char *err, size_t size)
{
    zauth_key pub, secret;
    if (zmq_curve_keypair(pub, secret) != 0) {
        snprintf(err, size, "this libzmq has no CURVE support");
        return -1;
    }
    char pubpath[4096], text[ZAUTH_KEY_LEN + 64];
    if (snprintf(pubpath, sizeof pubpath, "%s.pub", path) >= (int)sizeof pubpath) {
        snprintf(err, size, "path too long");
        return -1;
    }
    snprintf(text, sizeof text, "# CURVE secret key (arena keygen): keep it private\n%s\n", secret);
    if (write_file(path, text, 0600, err, size) < 0)
        return -1;
    snprintf(text, sizeof text, "%s\n", pub);
    if (write_file(pubpath, text, 0644, err, size) < 0) {
        unlink(path);
        return -1;
    }
    return 0;
}

/* A line that is a key: 40 Z85 characters, surrounding blanks aside. */
int zauth_key_parse(const char *line, zauth_key key)
{
    while (*line == ' ' || *line == '\t')
        line++;
    size_t n = strcspn(line, " \t\r\n");
    const char *rest = line + n + strspn(line + n, " \t\r\n");
    uint8_t raw[32];
    if (n != ZAUTH_KEY_LEN || *rest)
        return -1;
    memcpy(key, line, n);
    key[n] = 0;
    return zmq_z85_decode(raw, key) ? 0 : -1;
}

int zauth_load_list(const char *path, zauth_key *keys, int max, char *err, size_t size)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        snprintf(err, size, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    int n = 0, lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        const char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
            continue;
        if (n == max) {
            snprintf(err, size, "%s: more than %d keys", path, max);
            rc = -1;
        } else if (zauth_key_parse(p, keys[n]) < 0) {
            snprintf(err, size, "%s line %d: not a CURVE key (40 Z85 characters)", path, lineno);
            rc = -1;
        } else {
            n++;
        }
    }
    fclose(f);
    if (rc == 0 && n == 0) {
        snprintf(err, size, "%s holds no key", path);
        rc = -1;
    }
    return rc < 0 ? -1 : n;
}

int zauth_load(const char *path, zauth_key key, char *err, size_t size)
{
    zauth_key keys[2];
    int n = zauth_load_list(path, keys, 2, err, size);
    if (n == 2 || (n < 0 && strstr(err, "more than"))) {
        snprintf(err, size, "%s: expected one key", path);
        return -1;
    }
    if (n < 0)
        return -1;
    memcpy(key, keys[0], sizeof keys[0]);
    return 0;
}

int zauth_server(void *sock, const zauth_key secret, char *err, size_t size)
{
    int on = 1;
    if (zmq_setsockopt(sock, ZMQ_CURVE_SERVER, &on, sizeof on) < 0 ||
        zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, secret, ZAUTH_KEY_LEN) < 0) {
        snprintf(err, size, "cannot use CURVE: %s", zmq_strerror(errno));
        return -1;
    }
    return 0;
}

int zauth_client(void *sock, const zauth_key server_public, const zauth_key secret,
                 char *err, size_t size)
{
    zauth_key pub;
    if (zmq_curve_public(pub, secret) != 0 ||
        zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, server_public, ZAUTH_KEY_LEN) < 0 ||
        zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, pub, ZAUTH_KEY_LEN) < 0 ||
        zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, secret, ZAUTH_KEY_LEN) < 0) {
        snprintf(err, size, "cannot use CURVE: %s", zmq_strerror(errno));
        return -1;
    }
    return 0;
}

void *zauth_handler_open(void *ctx, char *err, size_t size)
{
    void *rep = zmq_socket(ctx, ZMQ_REP);
    int linger = 0;
    zmq_setsockopt(rep, ZMQ_LINGER, &linger, sizeof linger);
    if (zmq_bind(rep, "inproc://zeromq.zap.01") < 0) {
        snprintf(err, size, "cannot start the key check: %s", zmq_strerror(errno));
        zmq_close(rep);
        return NULL;
    }
    return rep;
}

static void send_str(void *sock, const char *s, int more)
{
    zmq_send(sock, s, strlen(s), more ? ZMQ_SNDMORE : 0);
}

int zauth_listed(const zauth_key *keys, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(keys[i], key))
            return 1;
    return 0;
}

void zauth_handle_by(void *handler, zauth_admit_fn *admit, void *ctx, int null_ok)
{
    /* Frames: version, request id, domain, address, identity, mechanism,
     * credentials... Anything malformed is refused. */
    zmq_msg_t f[8];
    int n = 0, more = 1;
    while (more) {
        zmq_msg_t tmp;
        zmq_msg_init(&tmp);
        if (zmq_msg_recv(&tmp, handler, 0) < 0) {
            zmq_msg_close(&tmp);
            break;
        }
        more = zmq_msg_more(&tmp);
        if (n < 8)
            f[n++] = tmp;
        else
            zmq_msg_close(&tmp);
    }
    const char *status = "400", *text = "refused";
    char user[256] = "", why[256];
    if (n >= 6) {
        const char *mech = zmq_msg_data(&f[5]);
        size_t mlen = zmq_msg_size(&f[5]);
        if (mlen == 4 && !memcmp(mech, "NULL", 4) && null_ok) {
            status = "200", text = "OK";
        } else if (mlen == 5 && !memcmp(mech, "CURVE", 5) && n >= 7 && zmq_msg_size(&f[6]) == 32) {
            zauth_key key;
            zmq_z85_encode(key, zmq_msg_data(&f[6]), 32);
            char said[256] = "";
            if (admit(key, ctx, said, sizeof said)) {
                status = "200", text = "OK";
                snprintf(user, sizeof user, "%s", said);
            } else {
                snprintf(why, sizeof why, "%s", said[0] ? said : "unknown key");
                text = why;
            }
        }
    }
    send_str(handler, "1.0", 1);
    if (n >= 2)
        zmq_send(handler, zmq_msg_data(&f[1]), zmq_msg_size(&f[1]), ZMQ_SNDMORE);
    else
        send_str(handler, "", 1);
    send_str(handler, status, 1);
    send_str(handler, text, 1);
    send_str(handler, *status == '2' ? user : "", 1);
    send_str(handler, "", 0);
    for (int i = 0; i < n; i++)
        zmq_msg_close(&f[i]);
}
