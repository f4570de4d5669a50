/*
 * fuzz_notation.c - action notation, as bots send it (`text` in an
 * action) and records store it.
 *
 * Oracle, for every game of the registry: text that parses formats to
 * text that parses to the same action, and formats the same again.
 */
#include <string.h>
#include "fuzz.h"
#include "game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[256];
    if (size >= sizeof text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    for (int k = 0; k < game_count(); k++) {
        const game_api *g = game_at(k);
        game_action a, b;
        if (g->parse(text, &a) < 0)
            continue;
        char once[128], twice[128];
        g->format(a, once, sizeof once);
        FUZZ_CHECK(g->parse(once, &b) == 0);
        FUZZ_CHECK(a == b);
        g->format(b, twice, sizeof twice);
        FUZZ_CHECK(strcmp(once, twice) == 0);
    }
    return 0;
}
