#!/usr/bin/python3
"""think_bot.py - a bot that thinks for a fixed amount of CPU per decision.

    /usr/bin/python3 think_bot.py MS

Before each answer it burns MS milliseconds of CPU time (time.process_time:
every thread of the process), then plays a random legal action: the fair
clocks' test (test_arena_clocks.sh) runs four of them at once.
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "..", "sdk", "python"))
import arena_bot  # noqa: E402


def main():
    think = float(sys.argv[1]) / 1000.0
    rng = random.Random(int(os.environ.get("ARENA_BOT_SEED", "1")))

    def decide(request):
        until = time.process_time() + think
        x = 0
        while time.process_time() < until:
            x += 1
        return rng.choice(request.actions)

    arena_bot.run(decide, name="think", version="1.0")


if __name__ == "__main__":
    main()
