/*
 * gw_cred.c - a participant's credentials file and the arena's own key
 * pair (gw.h). The file is text, one "field value" a line:
 *
 *   # arena credentials of NAME: keep this file private
 *   name NAME
 *   endpoint tcp://arena.example.org:7788
 *   server-key <the arena's public key, Z85>
 *   secret-key <the participant's secret key, Z85>
 *
 * The participant's public key is derived from the secret; the arena
 * keeps only the public one (users.public_key).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include "gw.h"
#include "txt.h"

int gw_cred_write(const char *path, const gw_cred *c, char *err, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        txt_set(err, size, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(path);
        txt_set(err, size, "cannot write %s", path);
        return -1;
    }
    fprintf(f, "# arena credentials of %s: keep this file private (it holds your secret key)\n"
               "# submit with: arena submit --credentials THIS_FILE --name BOT --version V "
               "--cmd CMD DIR\n"
               "name %s\nendpoint %s\nserver-key %s\nsecret-key %s\n",
            c->name, c->name, c->endpoint, c->server_public, c->secret);
    if (fclose(f) != 0) {
        unlink(path);
        txt_set(err, size, "cannot write %s", path);
        return -1;
    }
    return 0;
}

/* A Z85 key's text: 40 characters that decode. */
static int key_ok(const char *text)
{
    uint8_t raw[32];
    zauth_key k;
    if (strlen(text) != ZAUTH_KEY_LEN)
        return 0;
    memcpy(k, text, sizeof k);
    return zmq_z85_decode(raw, k) != NULL;
}

int gw_cred_read(const char *path, gw_cred *c, char *err, size_t size)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "re");
    if (!f) {
        txt_set(err, size, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        char *value = strchr(line, ' ');
        if (!value) {
            rc = -1;
            break;
        }
        *value++ = 0;
        struct { const char *field; char *dst; size_t cap; } fields[] = {
            { "name", c->name, sizeof c->name },
            { "endpoint", c->endpoint, sizeof c->endpoint },
            { "server-key", c->server_public, sizeof c->server_public },
            { "secret-key", c->secret, sizeof c->secret },
        };
        rc = -1;
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            if (!strcmp(line, fields[i].field) && strlen(value) < fields[i].cap) {
                snprintf(fields[i].dst, fields[i].cap, "%s", value);
                rc = 0;
            }
    }
    fclose(f);
    if (rc < 0) {
        txt_set(err, size, "%s line %d: not a credentials line (name, endpoint, server-key, "
                           "secret-key)", path, lineno);
        return -1;
    }
    if (!c->name[0] || !c->endpoint[0] || !key_ok(c->server_public) || !key_ok(c->secret)) {
        txt_set(err, size, "%s: not a whole credentials file (a name, an endpoint and two "
                           "keys of 40 Z85 characters)", path);
        return -1;
    }
    return 0;
}

int gw_arena_keys(const char *db_path, int create, zauth_key pub, zauth_key secret, char *err,
                  size_t size)
{
    char path[4096], pubpath[4200];
    snprintf(path, sizeof path, "%s.key", db_path);
    snprintf(pubpath, sizeof pubpath, "%s.pub", path);
    if (access(path, F_OK) != 0 && errno == ENOENT) {
        if (!create) {
            txt_set(err, size, "no key pair for the arena at %s (arena user add makes it)",
                    path);
            return -1;
        }
        if (zauth_keygen(path, err, size) < 0)
            return -1;
    }
    if (zauth_load(path, secret, err, size) < 0 || zauth_load(pubpath, pub, err, size) < 0)
        return -1;
    zauth_key derived;
    if (zmq_curve_public(derived, secret) != 0 || strcmp(derived, pub) != 0) {
        txt_set(err, size, "%s and %s are not one key pair", path, pubpath);
        return -1;
    }
    return 0;
}
