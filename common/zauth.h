/*
 * zauth.h - CURVE keys and their checking for the worker link.
 *
 * Workers on other machines reach the arena over TCP; whoever can do so
 * could take matches and answer them with made-up records. With CURVE
 * (libzmq's elliptic-curve encryption and authentication), the arena holds
 * a secret key, each worker knows the arena's public key and holds a key
 * pair of its own, and the arena admits only the workers whose public keys
 * it lists. Keys are Z85 text files, as `arena keygen PATH` writes them:
 * PATH (the secret key, mode 0600) and PATH.pub (the public key).
 */
#ifndef ZAUTH_H
#define ZAUTH_H

#include <stddef.h>

#define ZAUTH_KEY_LEN 40               /* a Z85 key: 32 bytes as 40 characters */
#define ZAUTH_MAX_KEYS 256

typedef char zauth_key[ZAUTH_KEY_LEN + 1];

/* Writes a new key pair: path (secret, 0600) and path.pub. 0, or -1 with err. */
int zauth_keygen(const char *path, char *err, size_t size);
/* One key's text (40 Z85 characters, surrounding blanks aside) into key:
 * 0, or -1 when it is not one. */
int zauth_key_parse(const char *text, zauth_key key);
/* Reads one key from a file (blank lines and # comments allowed). */
int zauth_load(const char *path, zauth_key key, char *err, size_t size);
/* Reads every key of a file, one a line: the count, or -1 with err. */
int zauth_load_list(const char *path, zauth_key *keys, int max, char *err, size_t size);
/* Makes `sock` a CURVE server with this secret key. 0, or -1 with err. */
int zauth_server(void *sock, const zauth_key secret, char *err, size_t size);
/* Makes `sock` a CURVE client: the server's public key, its own secret. */
int zauth_client(void *sock, const zauth_key server_public, const zauth_key secret,
                 char *err, size_t size);

/* 1 when `key` is one of the n keys. */
int zauth_listed(const zauth_key *keys, int n, const char *key);

/* The ZAP handler: an inproc REP socket. The caller polls it and calls
 * zauth_handle_by when it is readable, with its decision: admit(key, ctx,
 * user_id, size) sees each CURVE client's public key and returns 1 to
 * admit it (user_id, when set, is what the socket's messages then carry as
 * "User-Id", zmq_msg_gets: the pool sets the key itself, so that a key
 * revoked later can be refused at its next message; the gateway its
 * participant), or 0 with why not in user_id. NULL-mechanism peers (the
 * arena's own local workers over ipc) are admitted only when null_ok. */
void *zauth_handler_open(void *ctx, char *err, size_t size);
typedef int zauth_admit_fn(const char *key, void *ctx, char *user_id, size_t size);
void  zauth_handle_by(void *handler, zauth_admit_fn *admit, void *ctx, int null_ok);

#endif
