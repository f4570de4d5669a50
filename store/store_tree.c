/*
 * store_tree.c - a bot's files in memory: each entry's name and the
 * limits checked as it is added, the whole tree checked (folders, links),
 * and its content hash (store.h). Pure: no I/O.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "txt.h"

void store_tree_init(store_tree *t, uint64_t max_bytes, int max_files)
{
    memset(t, 0, sizeof *t);
    t->max_bytes = max_bytes ? max_bytes : STORE_MAX_BYTES;
    t->max_files = max_files > 0 ? max_files : STORE_MAX_FILES;
}

void store_tree_free(store_tree *t)
{
    for (int i = 0; i < t->n; i++) {
        free(t->e[i].path);
        free(t->e[i].data);
    }
    free(t->e);
    memset(t, 0, sizeof *t);
}

/* A path as given made canonical into out: "./" prefixes and one trailing
 * '/' dropped; then every component must be a name. 0, 1 the root
 * itself ("." or "./"), or -1 with err. */
static int path_clean(const char *path, char *out, size_t size, char *err, size_t errsize)
{
    size_t n = strlen(path);
    if (n >= size) {
        txt_set(err, errsize, "a path longer than %d bytes", STORE_MAX_PATH - 1);
        return -1;
    }
    if (!txt_utf8_text((const unsigned char *)path, n)) {
        txt_set(err, errsize, "a name that is not valid UTF-8 text (or holds a control "
                              "character)");
        return -1;
    }
    if (path[0] == '/') {
        txt_set(err, errsize, "an absolute path: %s", path);
        return -1;
    }
    while (!strncmp(path, "./", 2))
        path += 2 + strspn(path + 2, "/");
    snprintf(out, size, "%s", path);
    n = strlen(out);
    if (n && out[n - 1] == '/')
        out[--n] = 0;
    if (!n || !strcmp(out, "."))
        return 1;
    for (const char *c = out; *c;) {
        size_t len = strcspn(c, "/");
        if (len == 2 && !strncmp(c, "..", 2)) {
            txt_set(err, errsize, "a path with '..' (it could leave the folder): %s", path);
            return -1;
        }
        if (len == 0 || (len == 1 && *c == '.')) {
            txt_set(err, errsize, "a path with an empty or '.' part: %s", path);
            return -1;
        }
        c += len + (c[len] == '/');
    }
    return 0;
}

int store_tree_add(store_tree *t, const char *path, store_kind kind, int exec,
                   const void *data, size_t size, char *err, size_t errsize)
{
    char clean[STORE_MAX_PATH];
    int root = path_clean(path, clean, sizeof clean, err, errsize);
    if (root < 0)
        return -1;
    if (root && kind == STORE_DIR)
        return 0;                  /* the folder itself */
    if (root) {
        txt_set(err, errsize, "a file or link named as the folder itself: %s", path);
        return -1;
    }
    if (t->n >= t->max_files) {
        txt_set(err, errsize, "too many files: more than %d", t->max_files);
        return -1;
    }
    if (kind == STORE_DIR)
        size = 0;
    if (size > t->max_bytes - t->bytes) {
        txt_set(err, errsize, "too big: more than %llu bytes unpacked (at %s)",
                (unsigned long long)t->max_bytes, clean);
        return -1;
    }
    if (kind == STORE_LINK && (size == 0 || size >= STORE_MAX_PATH ||
                               memchr(data, 0, size) || !txt_utf8_text(data, size))) {
        txt_set(err, errsize, "a link whose target is empty, too long or not text: %s", clean);
        return -1;
    }
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        store_entry *grown = realloc(t->e, (size_t)cap * sizeof *grown);
        if (!grown)
            goto oom;
        t->e = grown;
        t->cap = cap;
    }
    store_entry *e = &t->e[t->n];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->exec = kind == STORE_FILE && exec;
    e->size = size;
    e->path = strdup(clean);
    e->data = malloc(size + 1);
    if (!e->path || !e->data) {
        free(e->path);
        free(e->data);
        goto oom;
    }
    if (size)
        memcpy(e->data, data, size);
    e->data[size] = 0;
    t->n++;
    t->bytes += size;
    return 0;
oom:
    txt_set(err, errsize, "out of memory");
    return -1;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const store_entry *)a)->path, ((const store_entry *)b)->path);
}

static const store_entry *find(const store_tree *t, const char *path)
{
    store_entry key = { .path = (char *)path };
    return bsearch(&key, t->e, (size_t)t->n, sizeof *t->e, by_path);
}

/* Every folder a path goes through, added where missing (an archive need
 * not list them). 0, or -1 with err. */
static int add_parents(store_tree *t, char *err, size_t errsize)
{
    int n = t->n;
    for (int i = 0; i < n; i++) {
        char parent[STORE_MAX_PATH];
        snprintf(parent, sizeof parent, "%s", t->e[i].path);
        for (char *slash = strrchr(parent, '/'); slash; slash = strrchr(parent, '/')) {
            *slash = 0;
            int known = 0;
            for (int k = n; k < t->n && !known; k++)     /* added just now */
                known = !strcmp(t->e[k].path, parent);
            if (known || find(t, parent))
                break;
            if (store_tree_add(t, parent, STORE_DIR, 0, NULL, 0, err, errsize) < 0)
                return -1;
        }
    }
    return 0;
}

/* A link's target followed from the link's folder through the tree: each
 * step a folder of the tree (never a link or the parent of the root), the
 * end an entry of it. 1 inside, 0 not. */
static int link_inside(const store_tree *t, const store_entry *link)
{
    if (link->data[0] == '/')
        return 0;
    char at[2 * STORE_MAX_PATH + 2];
    snprintf(at, sizeof at, "%s", link->path);
    char *slash = strrchr(at, '/');
    if (slash)
        *slash = 0;
    else
        at[0] = 0;
    for (const char *c = link->data; *c;) {
        size_t len = strcspn(c, "/");
        const store_entry *e = at[0] ? find(t, at) : NULL;
        if (at[0] && (!e || e->kind != STORE_DIR))
            return 0;                        /* through a file or a link */
        if (len == 2 && !strncmp(c, "..", 2)) {
            if (!at[0])
                return 0;                    /* above the root */
            slash = strrchr(at, '/');
            if (slash)
                *slash = 0;
            else
                at[0] = 0;
        } else if (len && !(len == 1 && *c == '.')) {
            size_t used = strlen(at);
            if (used + len + 2 > STORE_MAX_PATH)
                return 0;
            snprintf(at + used, sizeof at - used, "%s%.*s", used ? "/" : "", (int)len, c);
        }
        c += len + (c[len] == '/');
    }
    return !at[0] || find(t, at) != NULL;
}

int store_tree_check(store_tree *t, char *err, size_t errsize)
{
    qsort(t->e, (size_t)t->n, sizeof *t->e, by_path);
    for (int i = 1; i < t->n; i++)
        if (!strcmp(t->e[i].path, t->e[i - 1].path)) {
            txt_set(err, errsize, "a path named twice: %s", t->e[i].path);
            return -1;
        }
    for (int i = 0; i < t->n; i++) {         /* no path through a file or link */
        char parent[STORE_MAX_PATH];
        snprintf(parent, sizeof parent, "%s", t->e[i].path);
        for (char *slash = strrchr(parent, '/'); slash; slash = strrchr(parent, '/')) {
            *slash = 0;
            const store_entry *p = find(t, parent);
            if (p && p->kind != STORE_DIR) {
                txt_set(err, errsize, "a path through a %s: %s",
                        p->kind == STORE_LINK ? "link" : "file", t->e[i].path);
                return -1;
            }
        }
    }
    if (add_parents(t, err, errsize) < 0)
        return -1;
    qsort(t->e, (size_t)t->n, sizeof *t->e, by_path);
    for (int i = 0; i < t->n; i++)
        if (t->e[i].kind == STORE_LINK && !link_inside(t, &t->e[i])) {
            txt_set(err, errsize, "a link that points outside the folder (or to nothing in "
                                  "it): %s -> %s", t->e[i].path, t->e[i].data);
            return -1;
        }
    return 0;
}

static void to_hex(const unsigned char *raw, size_t n, char *hex)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        hex[2 * i] = digits[raw[i] >> 4];
        hex[2 * i + 1] = digits[raw[i] & 15];
    }
    hex[2 * n] = 0;
}

void store_tree_hash(const store_tree *t, char hex[STORE_HASH_HEX + 1])
{
    crypto_hash_sha256_state listing;
    crypto_hash_sha256_init(&listing);
    for (int i = 0; i < t->n; i++) {
        const store_entry *e = &t->e[i];
        char head[STORE_MAX_PATH + 128];
        int len;
        if (e->kind == STORE_DIR) {
            len = snprintf(head, sizeof head, "d ");
        } else if (e->kind == STORE_LINK) {
            crypto_hash_sha256_update(&listing, (const unsigned char *)"l ", 2);
            crypto_hash_sha256_update(&listing, (const unsigned char *)e->data, e->size);
            len = snprintf(head, sizeof head, " ");
        } else {
            unsigned char raw[crypto_hash_sha256_BYTES];
            char digest[STORE_HASH_HEX + 1];
            crypto_hash_sha256(raw, (const unsigned char *)e->data, e->size);
            to_hex(raw, sizeof raw, digest);
            len = snprintf(head, sizeof head, "f %s %zu %s ", e->exec ? "755" : "644", e->size,
                           digest);
        }
        crypto_hash_sha256_update(&listing, (const unsigned char *)head, (size_t)len);
        crypto_hash_sha256_update(&listing, (const unsigned char *)e->path, strlen(e->path));
        crypto_hash_sha256_update(&listing, (const unsigned char *)"\n", 1);
    }
    unsigned char raw[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&listing, raw);
    to_hex(raw, sizeof raw, hex);
}
