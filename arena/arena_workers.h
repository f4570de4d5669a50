/*
 * arena_workers.h - a running arena and its database's workers (schema
 * 14, `arena worker`): at each beat it rereads the keys admitted, so that a
 * worker added while it runs is let in at its next handshake and a revoked
 * one refused at once, and writes when it last heard each worker and the
 * matches it played.
 */
#ifndef ARENA_WORKERS_H
#define ARENA_WORKERS_H

#include "arena_db.h"
#include "arena_pool.h"

/* Admitted keys into the pool, activity into the database. Failures wait
 * for the next beat (a busy database): 0, or -1. */
int arena_workers_sync(arena_db *db, arena_pool *pool);

#endif
