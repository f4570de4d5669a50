"""seed.py - the seed for a bot's random choices (sdk/PROTOCOL.md, section 1).

The referee gives each seat ARENA_BOT_SEED, a function of the match seed and
the seat, so a bot that draws every random choice from it plays the same
match again under `arena rerun` or `referee play --seed N`.
"""
import os

SEED_MAX = 4294967295


def bot_seed():
    """ARENA_BOT_SEED as an int; 1 when unset (a bot started by hand).

    Raises ValueError naming the variable when it is not a whole number from
    0 to SEED_MAX (signs, spaces, and other digits than 0-9 are refused).
    """
    text = os.environ.get("ARENA_BOT_SEED")
    if text is None:
        return 1
    if not (0 < len(text) <= 10 and text.isascii() and text.isdigit()) or int(text) > SEED_MAX:
        raise ValueError(f"ARENA_BOT_SEED must be a whole number from 0 to {SEED_MAX}, "
                         f"not {text!r}")
    return int(text)
