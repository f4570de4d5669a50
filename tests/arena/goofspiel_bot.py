#!/usr/bin/python3
"""goofspiel_bot.py - a bot of one game: it plays Goofspiel (its lowest card
each round) and, welcomed to any other game, says so and leaves (exit 3),
as a bot written for one game fails in another. Through the Python SDK.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "..", "sdk", "python"))
import arena_bot  # noqa: E402


class GoofspielOnly:
    def on_welcome(self, welcome):
        if welcome.game != "goofspiel":
            print(f"goofspiel_bot: I play goofspiel, not {welcome.game}", file=sys.stderr)
            sys.exit(3)

    def decide(self, request):
        return request.actions[0]


if __name__ == "__main__":
    arena_bot.run(GoofspielOnly(), name="goofspiel-only", version="1")
