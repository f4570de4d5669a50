/*
 * ref_proc_internal.h - helpers shared by ref_proc_spawn.c (starting a
 * bot), ref_proc.c (its life and end) and ref_proc_reap.c (finding and
 * killing our descendants). Not part of the API.
 */
#ifndef REF_PROC_INTERNAL_H
#define REF_PROC_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>
#include "clk.h"
#include "ref_proc.h"

/* Closes *fd if open and marks it closed, so a second call is harmless. */
static inline void ref_proc_close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* One line of /proc/[pid]/stat, the fields we need. */
typedef struct ref_proc_entry {
    pid_t pid, ppid, pgrp;
    char state; /* 'Z' for a zombie */
} ref_proc_entry;

/* Lists our descendants with that parent (ppid > 0) and/or in that process
 * group (pgrp > 0): with ppid our own pid, only our children are read.
 * Every process a bot starts is one (its parent's child, or ours as the
 * subreaper), so the cost is per descendant, not per process of the
 * machine. Stores at most cap in out; returns how many matched (possibly
 * more than cap; descendants past the walk's room count as matches), or -1
 * when /proc cannot be read. Processes that vanish meanwhile are skipped. */
int ref_proc_list(pid_t ppid, pid_t pgrp, ref_proc_entry *out, int cap);

/* One pass over the members of process group pgid other than its leader
 * pgid (which must be an unreaped child of ours, so the id cannot have
 * been reused): reaps the members that are our zombies, sends sig (0 =
 * none) to the live ones. Returns how many members are left, zombies
 * included, with the live ones in *live; -1 without /proc. */
int ref_proc_group_pass(pid_t pgid, int sig, int *live);

/* ref_proc.c: the live groups ref_proc_kill_all signals. */
void ref_proc_register_group(pid_t pgid);
void ref_proc_unregister_group(pid_t pgid);

#endif /* REF_PROC_INTERNAL_H */
