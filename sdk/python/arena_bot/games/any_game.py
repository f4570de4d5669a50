"""Any game without a module of its own: its observation is the plain dict
the referee sent, and each action is its text and index with its map as it
came, in `fields`. A bot that chooses among the actions plays every game."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..decode import _map, _str
from .base import GameAction


@dataclass(frozen=True)
class Action(GameAction):
    text: str
    index: int = -1
    fields: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_map(cls, m, index: int = -1) -> Action:
        m = _map(m)
        return cls(_str(m, "text", ""), index, m)


def observation(m) -> dict:
    return _map(m)


def decision(obs) -> str:
    return ""
