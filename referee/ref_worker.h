/*
 * ref_worker.h - `referee worker`: plays matches handed out by an arena.
 *
 * The worker connects a DEALER to the arena's ROUTER (ipc:// for the
 * arena's own workers, tcp:// for workers on other machines), says ready,
 * and then plays each job it is sent, answering with the match record.
 * The message shapes are in ARCHITECTURE.md ("The worker link").
 */
#ifndef REF_WORKER_H
#define REF_WORKER_H

#define REF_WORKER_PROTOCOL 1

int ref_worker_main(int argc, char **argv);

#endif
