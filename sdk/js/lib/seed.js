// seed.js - the seed for a bot's random choices (../../PROTOCOL.md, section 1).
// The referee gives each seat ARENA_BOT_SEED, a function of the match seed and
// the seat, so a bot that draws every random choice from it plays the same
// match again under `arena rerun` or `referee play --seed N`.

export const SEED_MAX = 4294967295;

// ARENA_BOT_SEED as a number; 1 when unset (a bot started by hand). Throws a
// RangeError naming the variable when it is not a whole number from 0 to
// SEED_MAX (signs, spaces, exponents and hex are refused).
export function botSeed() {
  const text = process.env.ARENA_BOT_SEED;
  if (text === undefined) return 1;
  if (!/^[0-9]{1,10}$/.test(text) || Number(text) > SEED_MAX)
    throw new RangeError(
      `ARENA_BOT_SEED must be a whole number from 0 to ${SEED_MAX}, not ${JSON.stringify(text)}`);
  return Number(text);
}
