"""Goofspiel (PROTOCOL.md s. 12): the observation is the plain dict sent
(seat, round, prize, hand, points, history...); an action's `card` is its
bid, None for another seat's hidden one, and `fields` keeps its map as any
game's action does."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..decode import _int, _map, _str
from . import any_game
from .base import GameAction


@dataclass(frozen=True)
class Action(GameAction):
    text: str
    card: int | None = None
    index: int = -1
    fields: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_map(cls, m, index: int = -1) -> Action:
        m = _map(m)
        return cls(_str(m, "text", ""), _int(m, "card"), index, m)


# The observation is the plain dict sent, as any game's.
observation = any_game.observation
decision = any_game.decision
