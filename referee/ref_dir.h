/*
 * ref_dir.h - a match's folder in $TMPDIR (else /tmp): the seats' sockets,
 * their folders, and the bots' logs unless --log-dir keeps them elsewhere;
 * a worker's job keeps its bots' logs in one too (ref_worker.c).
 *
 * A referee holds a lock on its folder's `.lock` file while it plays, so a
 * folder whose lock anyone can take belongs to a referee that died (kill -9,
 * OOM, a lost node): ref_dir_sweep removes those, and each referee sweeps
 * once when it starts (a worker: before its first job), so they never pile
 * up.
 */
#ifndef REF_DIR_H
#define REF_DIR_H

#include <stddef.h>

typedef struct ref_dir {
    char path[64];
    int  lock_fd;
} ref_dir;

/* Where the folders go: $TMPDIR when it is an absolute path to a folder,
 * at most 40 bytes long (the seats' socket paths must fit), else /tmp. */
const char *ref_dir_parent(void);
/* Makes a fresh folder (mode 0711: bots of their own uid may pass through
 * to their seat's folder, and see nothing else) and locks it. 0, or -1
 * with a message. */
int  ref_dir_make(ref_dir *d, char *err, size_t size);
/* Removes the folder and everything in it; idempotent. */
void ref_dir_remove(ref_dir *d);
/* Removes the folders of referees that are gone. Returns how many. */
int  ref_dir_sweep(void);

#endif /* REF_DIR_H */
