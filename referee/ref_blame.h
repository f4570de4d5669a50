/*
 * ref_blame.h - a local worker's last words: when its referee aborts
 * (libzmq asserts when a bot's flood of connections fills the file table),
 * which seat held the most connections to its seat's socket.
 *
 * The worker arms it once; from a SIGABRT handler that uses only system
 * calls (and fds reserved for it) it finds its match folder among its open
 * files (the folder's held .lock), counts each seat's accepted connections
 * in /proc/net/unix (an accepted socket shows its listener's path), and
 * writes "JOB SEAT CONNECTIONS" to DIR/blame.PID (PID the worker's, which
 * armed it), DIR being the folder of
 * the arena's ipc endpoint. The arena reads it when it reaps the worker
 * (arena_pool.c) and the match's verdict names that seat.
 */
#ifndef REF_BLAME_H
#define REF_BLAME_H

#include <stdint.h>
#include <sys/types.h>

/* A seat blamed holds at least this many connections (a bot has one). */
#define REF_BLAME_MIN_CONNECTIONS 64

/* Arms the handler: last words go to `dir` (NULL or "": disarmed). */
void ref_blame_arm(const char *dir);
/* The job now played (-1: none), named in the last words. */
void ref_blame_job(int64_t id);
/* Reads and removes the last words of worker `pid` in `dir`: 1 with *job,
 * *seat and *connections, 0 when there are none (or they are malformed). */
int  ref_blame_read(const char *dir, pid_t pid, int64_t *job, int *seat, int *connections);

#endif
