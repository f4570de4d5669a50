/*
 * ref_relay.c - the relay's notes to the referee (ref_relay.h), written
 * and read, keys named once.
 */
#include <string.h>
#include "mps.h"
#include "mpw.h"
#include "ref_relay.h"

#define KEY_RTT "rtt_us"
#define KEY_ENDED "ended"
#define KEY_STATUS "status"

void ref_relay_note_write(msgpack_sbuffer *sb, const ref_relay_note *n)
{
    msgpack_packer pk;
    mpw_begin(sb, &pk);
    msgpack_pack_map(&pk, 3);
    mpw_str(&pk, KEY_RTT);
    msgpack_pack_int64(&pk, n->rtt_us);
    mpw_str(&pk, KEY_ENDED);
    msgpack_pack_int(&pk, n->ended);
    mpw_str(&pk, KEY_STATUS);
    msgpack_pack_int64(&pk, n->status);
}

int ref_relay_note_read(const void *data, size_t len, ref_relay_note *n)
{
    msgpack_unpacked u;
    int64_t ended = 0;
    memset(n, 0, sizeof *n);
    if (mps_decode((const char *)data, len, &u) < 0)
        return -1;
    int rc = u.data.type == MSGPACK_OBJECT_MAP &&
                     mps_get_int(&u.data, KEY_RTT, &n->rtt_us) == 0 &&
                     mps_get_int(&u.data, KEY_ENDED, &ended) == 0 &&
                     mps_get_int(&u.data, KEY_STATUS, &n->status) == 0 && ended >= 0 &&
                     ended <= 2 && n->rtt_us >= -1
                 ? 0
                 : -1;
    n->ended = (int)ended;
    msgpack_unpacked_destroy(&u);
    return rc;
}
