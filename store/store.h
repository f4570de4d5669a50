/*
 * store.h - bots' files by content hash: a folder, or a .tar.gz of one,
 * read into memory and checked whole before anything is written, then
 * stored once per identical content, read-only, beside the database.
 *
 * A participant's files come from outside: an archive may name
 * "../../etc/x" or "/root/.ssh/authorized_keys", hold a link to "/", a
 * device, a fifo, a name that is not UTF-8, a hundred thousand files or
 * gigabytes of zeros in a kilobyte of gzip. Each is refused with its
 * reason while the files are still in memory (the sizes counted as the
 * files would be written out, so a compression bomb is refused at the
 * header that declares it, before its data is inflated), and nothing is
 * ever written outside the store's own folder.
 *
 * The content hash is SHA-256 (libsodium) over a canonical listing: each
 * entry in byte order of its path, one line each: "d PATH", "f MODE SIZE
 * SHA256 PATH" (MODE 644 or 755), "l TARGET PATH". No names, times or
 * owners from the archive count, so the same folder gives the same hash
 * however it was packed.
 */
#ifndef STORE_H
#define STORE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_MAX_BYTES (64ull << 20)  /* default: the files' total size, unpacked */
#define STORE_MAX_FILES 10000          /* default: entries (files, folders, links) */
#define STORE_MAX_PATH 1024            /* a path's bytes */
#define STORE_HASH_HEX 64

typedef enum store_kind { STORE_DIR, STORE_FILE, STORE_LINK } store_kind;

typedef struct store_entry {
    char *path;               /* relative: components joined by '/', no '.', '..' or '' */
    store_kind kind;
    int exec;                 /* a file anyone may run (0755), else 0644 */
    char *data;               /* a file's contents, a link's target (NUL-terminated) */
    size_t size;
} store_entry;

typedef struct store_tree {
    store_entry *e;
    int n, cap;
    uint64_t bytes;           /* files' sizes and links' targets, as written out */
    uint64_t max_bytes;
    int max_files;
} store_tree;

/* An empty tree under these limits (0: the defaults). */
void store_tree_init(store_tree *t, uint64_t max_bytes, int max_files);
void store_tree_free(store_tree *t);

/* Adds one entry (path as given: "./" and a trailing '/' are dropped),
 * refused with its reason: a name not UTF-8 or with control characters,
 * absolute, with '..', too long; over the limits. 0, or -1 with err. */
int store_tree_add(store_tree *t, const char *path, store_kind kind, int exec,
                   const void *data, size_t size, char *err, size_t errsize);
/* The whole tree: sorted; each folder a path goes through listed (added
 * when missing), never a file or link; no path twice; every link's target
 * inside the tree, reached through its folders only. 0, or -1 with err. */
int store_tree_check(store_tree *t, char *err, size_t errsize);
/* The content hash of a checked tree, 64 hex digits. */
void store_tree_hash(const store_tree *t, char hex[STORE_HASH_HEX + 1]);

/* A folder read whole (links kept as links; a device, fifo or socket
 * refused), then checked. 0, or -1 with err. */
int store_read_dir(store_tree *t, const char *dir, char *err, size_t errsize);
/* A tar archive, gzip-compressed or not, from memory (libarchive), then
 * checked. A hard link, device or fifo is refused. 0, or -1 with err. */
int store_read_archive(store_tree *t, const void *buf, size_t len, char *err, size_t errsize);
/* A file's bytes, up to max: *buf malloc'ed. 0, or -1 with err (too big). */
int store_read_file(const char *path, size_t max, void **buf, size_t *len, char *err,
                    size_t errsize);

/* A checked tree as a .tar.gz in memory (*buf malloc'ed): fixed owners,
 * times and modes, so the same tree packs the same bytes. 0, or -1. */
int store_pack(const store_tree *t, void **buf, size_t *len, char *err, size_t errsize);

/* The store's folder for a database file: DB.store, made absolute (a
 * bot's folder is named from anywhere). 0, or -1 (too long). */
int store_root_for(const char *db_path, char *out, size_t size);
/* Writes a checked tree into root/HASH (made read-only: files 0444 or
 * 0555, folders 0555), unless it is there already. hex gets its hash and
 * dir its folder. 1 written, 0 there already, -1 with err (nothing left
 * behind). */
int store_put(const char *root, const store_tree *t, char hex[STORE_HASH_HEX + 1], char *dir,
              size_t dirsize, char *err, size_t errsize);

/* Removes a folder store_put wrote (read-only as it is), links not
 * followed: a half-written one, or a worker's cached copy discarded. */
void store_remove(const char *dir);

#endif
