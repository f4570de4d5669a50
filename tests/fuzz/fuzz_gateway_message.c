/*
 * fuzz_gateway_message.c - the gateway reading a participant's or a
 * relay's bytes: a remote bot's message (gw_rmsg_read) and a request
 * (gw_request_read), as gw_server.c tries them in turn.
 *
 * Oracle: a message read writes back and reads again to the same fields
 * (nothing unchecked survives a read); its texts are terminated within
 * their buffers; nothing leaks on any path.
 */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "gw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gw_rmsg m, again;
    char why[256];
    if (gw_rmsg_read(data, size, &m, why, sizeof why) == 0) {
        FUZZ_CHECK(memchr(m.bot, 0, sizeof m.bot) && memchr(m.token, 0, sizeof m.token) &&
                   memchr(m.message, 0, sizeof m.message));
        void *buf;
        size_t len;
        FUZZ_CHECK(gw_rmsg_write(&m, &buf, &len) == 0);
        FUZZ_CHECK(gw_rmsg_read(buf, len, &again, why, sizeof why) == 0);
        FUZZ_CHECK(memcmp(&m, &again, sizeof m) == 0);
        free(buf);
    }
    gw_request r;
    if (gw_request_read(data, size, &r, why, sizeof why) == 0)
        FUZZ_CHECK(memchr(r.name, 0, sizeof r.name) && memchr(r.cmd, 0, sizeof r.cmd) &&
                   r.ngames >= 0 && r.ngames <= GW_MAX_GAMES);
    return 0;
}
