"""War Chest (PROTOCOL.md s. 5, 6): the observation as an Observation
(../observation.py), an action's parts kind, coin, unit, at, from_, to,
target."""
from __future__ import annotations

from dataclasses import dataclass

from ..decode import _map, _str
from ..observation import Observation
from .base import GameAction


@dataclass(frozen=True)
class Action(GameAction):
    """One action; str() gives its notation. `from_` is the protocol's "from"
    (a Python keyword). `index` is its place in the request, -1 in an update."""
    text: str
    kind: str | None = None
    coin: str | None = None
    unit: str | None = None
    at: str | None = None
    from_: str | None = None
    to: str | None = None
    target: str | None = None
    index: int = -1

    @classmethod
    def from_map(cls, m, index: int = -1) -> Action:
        m = _map(m)
        return cls(_str(m, "text", ""), _str(m, "kind"), _str(m, "coin"), _str(m, "unit"),
                   _str(m, "at"), _str(m, "from"), _str(m, "to"), _str(m, "target"), index)


def observation(m) -> Observation:
    return Observation.from_map(m)


def decision(obs: Observation) -> str:
    return obs.decision
