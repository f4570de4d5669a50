/*
 * ref_procfs.h - one small file of /proc/PID, read whole: what the reaper
 * (stat), the cgroup sweep (stat: when a referee started) and the CPU
 * meter (schedstat; a thread's state in stat; the names of the referee's
 * own threads in comm) read of a process or thread.
 */
#ifndef REF_PROCFS_H
#define REF_PROCFS_H

#include <stddef.h>
#include <sys/types.h>

/* Reads /proc/PID/FILE (PID a process or thread id) into buf, at most
 * size-1 bytes, NUL-terminated. Returns the length (> 0), or -1 when the
 * process is gone or the file is empty. */
int ref_procfs_read(pid_t pid, const char *file, char *buf, size_t size);

/* The fields of /proc/PID/stat after "pid (comm)", whose comm may hold
 * anything, ')' and blanks included: a pointer into buf (read with
 * ref_procfs_read), at the blank before the state; NULL when malformed. */
char *ref_procfs_stat_fields(char *buf);

#endif /* REF_PROCFS_H */
