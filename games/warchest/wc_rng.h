/*
 * wc_rng.h - the engine's only source of chance: PCG32 (common/pcg.h)
 * under the engine's names. The generator lives inside wc_state.
 */
#ifndef WC_RNG_H
#define WC_RNG_H

#include "wc.h"

#define wc_rng_next  pcg32_next
#define wc_rng_seed  pcg32_seed
#define wc_rng_below pcg32_below

#endif
