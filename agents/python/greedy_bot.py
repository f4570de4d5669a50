#!/usr/bin/python3
"""greedy_bot.py - a one-ply heuristic bot in pure Python, using only the
observation and each action's fields (no game engine).

Each legal action gets a score from the rules of thumb below and the best
one is played; ties go to a seeded coin flip (ARENA_BOT_SEED, default 1),
so a match replays exactly. It is the Python SDK's worked example, and the
bar a Python bot should clear: it beats the random bot by a wide margin.
"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "..", "sdk", "python"))
import arena_bot  # noqa: E402

# Draft order: ranged and strong attackers first, since an attack that
# empties a stack is what this bot is best at using.
DRAFT = ["crossbowman", "archer", "knight", "lancer", "swordsman", "cavalry", "light_cavalry",
         "marshall", "mercenary", "pikeman", "footman", "berserker", "royal_guard", "scout",
         "ensign", "warrior_priest"]


class Greedy:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def decide(self, req):
        obs = req.observation
        best = max(req.actions, key=lambda a: (self.score(obs, req.decision, a), self.rng.random()))
        return best

    def score(self, obs, decision, a):
        side, kind = obs.side, a.kind
        if kind == "control":
            if len(obs.locations_controlled_by(side)) + 1 >= obs.markers:
                return 100000                       # this marker wins the game
            taken_from_enemy = obs.control.get(a.at) not in (None, side)
            return 5000 + (500 if taken_from_enemy else 0)
        if a.target:                                # attacks, and tactics that attack
            victim = obs.unit_at(a.target)
            kills = victim is not None and victim.coins <= 1
            on_location = a.target in obs.control
            return (3000 if kills else 1500) + (300 if on_location else 0)
        if kind == "deploy":
            return 2000 - 50 * obs.nearest_location_to_take(a.to)
        if kind == "bolster":
            unit = obs.unit_at(a.at)
            # A second coin makes a unit survive one attack; more mostly idle.
            return 1200 if unit is not None and unit.coins < 2 else 100
        if a.to and (a.at or a.from_):              # moves, and tactics that move
            start = a.from_ or a.at
            gain = obs.nearest_location_to_take(start) - obs.nearest_location_to_take(a.to)
            value = 800 + 300 * gain - 150 * self.threats(obs, a.to)
            # The Berserker pays each extra maneuver with a coin of its stack.
            return value - 700 if decision == "berserker" else value
        if kind == "recruit":
            return 400 + (50 if a.coin == "royal" else 0)
        if kind == "claim":
            return 450 if obs.side_of(obs.initiative) != side and not obs.initiative_claimed else 10
        if kind == "guard_supply":
            return 60
        if kind == "guard_unit":
            return 50
        if kind == "pick":
            return 100 - DRAFT.index(a.unit) if a.unit in DRAFT else 0
        if kind == "pass":
            return 5 if a.coin == "royal" else 0
        return 1                                    # stop, and anything new

    @staticmethod
    def threats(obs, hex_name):
        """Enemy units next to a hex: a lone coin there is likely lost."""
        return sum(1 for n in arena_bot.neighbours(hex_name, obs.seats)
                   if (u := obs.unit_at(n)) is not None and obs.side_of(u.seat) != obs.side)


def main():
    bot = Greedy(arena_bot.bot_seed())
    arena_bot.run(bot, name="pygreedy", version="1.0")


if __name__ == "__main__":
    main()
