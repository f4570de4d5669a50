/*
 * web_page.h - one stored match as a page of its own (`arena export ID
 * --html FILE`): the replay viewer's page, its scripts and style inlined,
 * with the match's replay data for the full view and each seat's (the
 * same JSON /api/matches/ID?view= sends), so that it is shared as a file
 * and opened without a server or any outside URL.
 */
#ifndef WEB_PAGE_H
#define WEB_PAGE_H

#include <stdint.h>
#include <stdio.h>
#include "arena_db.h"

/* Writes the page of match id on out: 0, or -1 with err. */
int web_match_page(arena_db *db, int64_t id, FILE *out, char *err, size_t size);

#endif
