#!/usr/bin/python3
"""lookahead_bot.py - one-ply lookahead in Python with no game engine: the
idea of the C bots `greedy` and `ismcts` (agents/README.md), on the
observation alone.

For each legal action it imagines the board the action leaves (a marker
placed, a coin deployed or added, a unit moved, an enemy coin struck off)
and scores that board as agents/search/ws_eval.c does: control markers,
units and their first two coins, and how far its units stand from the
locations still to take. The best-scoring action is played; ties go to the
first listed, so the bot is deterministic.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "..", "sdk", "python"))
import arena_bot  # noqa: E402


def after(obs, a):
    """The board after action `a`: my stacks, the markers, enemy stacks."""
    mine = {h: u.coins for h, u in obs.board.items() if obs.side_of(u.seat) == obs.side}
    enemy = {h: u.coins for h, u in obs.board.items() if obs.side_of(u.seat) != obs.side}
    control = dict(obs.control)
    start = a.from_ or a.at
    if a.kind == "control":
        control[a.at] = obs.side
    elif a.kind == "deploy":
        mine[a.to] = 1
    elif a.kind == "bolster":
        mine[a.at] += 1
    elif a.to and start in mine:
        mine[a.to] = mine.pop(start)
    if a.target in enemy:
        enemy[a.target] -= 1
    return mine, control, enemy


def value(obs, a):
    mine, control, enemy = after(obs, a)
    held = sum(1 for s in control.values() if s == obs.side)
    lost = sum(1 for s in control.values() if s not in (None, obs.side))
    return (100 * (held - lost)
            + sum(15 + 6 * min(c, 2) for c in mine.values())
            - sum(15 + 6 * min(c, 2) for c in enemy.values() if c > 0)
            - 4 * sum(obs.nearest_location_to_take(h) for h in mine))


def choose(request):
    return max(request.actions, key=lambda a: value(request.observation, a))


if __name__ == "__main__":
    arena_bot.run(choose, name="lookahead", version="1.0")
