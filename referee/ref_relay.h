/*
 * ref_relay.h - what the arena's relay (`arena relay`, a remote bot's
 * stand-in at the referee) says to the referee of its seat, besides the
 * bot's own messages it passes on: the link's round trip, measured on the
 * seat's own connection to the participant's machine, and the bot's end
 * there (its process exited while the connection stayed).
 *
 * A note is two frames, REF_RELAY_MARK then a msgpack map. The relay
 * passes each of the bot's messages on as one frame, so no bot can send
 * one; the referee reads notes only on a relay's seat, from its own
 * connection (the one that said the seat's hello).
 */
#ifndef REF_RELAY_H
#define REF_RELAY_H

#include <stddef.h>
#include <stdint.h>
#include <msgpack.h>

#define REF_RELAY_MARK "arena-relay-note"

typedef struct ref_relay_note {
    int64_t rtt_us;             /* the link's round trip, or -1 not said */
    int     ended;              /* 0; 1 the bot exited (status), 2 killed by a signal */
    int64_t status;             /* its exit status or signal */
} ref_relay_note;

/* The note's map into sb (emptied first). */
void ref_relay_note_write(msgpack_sbuffer *sb, const ref_relay_note *n);
/* A note's map: 0, or -1 for anything else. */
int  ref_relay_note_read(const void *data, size_t len, ref_relay_note *n);

#endif
