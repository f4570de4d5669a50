#!/usr/bin/python3
"""random_bot.py - the Python SDK's smallest bot: any legal action, uniformly.

Run by the referee as `/usr/bin/python3 agents/python/random_bot.py`. Its
choices come from arena_bot.bot_seed() (ARENA_BOT_SEED, default 1), so a
match replays exactly.
"""
import os
import random
import sys

# The SDK lives in the repo, not in site-packages: find it from this file.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "..", "sdk", "python"))
import arena_bot  # noqa: E402


def main():
    rng = random.Random(arena_bot.bot_seed())
    arena_bot.run(lambda request: rng.choice(request.actions), name="pyrandom", version="1.0")


if __name__ == "__main__":
    main()
