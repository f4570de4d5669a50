"""Friendly, decoded forms of the referee's messages (PROTOCOL.md s. 4, 6).
A request's observation and its actions' parts are the game's to decode:
its module, chosen by the welcome's `game` (games/).

Every from_map() is lenient: keys it does not know are ignored, and a value
of the wrong type reads as its default, so a newer referee (or a broken
one) cannot crash a bot here. Only a request without an id or actions is
refused, since nothing could answer it. The untouched map stays in `raw`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .decode import _int, _list, _map, _str
from .games import GameAction, game_module


class ProtocolError(Exception):
    """A message from the referee that cannot be used."""


class InvalidChoice(ValueError):
    """A bot's choice that names none of the request's actions."""


@dataclass(frozen=True)
class TimeControl:
    move_ms: int = 0
    bank_ms: int = 0

    @classmethod
    def from_map(cls, m) -> TimeControl:
        m = _map(m)
        return cls(_int(m, "move_ms", 0), _int(m, "bank_ms", 0))


@dataclass
class Request:
    id: int
    decision: str
    time: TimeControl
    observation: Any          # as the game's module decodes it
    actions: list[GameAction]
    raw: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_map(cls, m: dict, game: str | None = None) -> Request:
        """`game` is the welcome's: its module (games/) decodes the observation
        and the actions; a game without one keeps the plain dict it came as."""
        rid, acts = _int(m, "id"), _list(m.get("actions"))
        if rid is None or not acts:
            raise ProtocolError("a request without an id or without actions")
        module = game_module(game)
        obs = module.observation(m.get("observation"))
        return cls(rid, _str(m, "decision", module.decision(obs)),
                   TimeControl.from_map(m.get("time")), obs,
                   [module.Action.from_map(a, i) for i, a in enumerate(acts)], m)

    def find(self, text: str) -> GameAction | None:
        """The action written `text` (surrounding spaces ignored), or None."""
        text = text.strip()
        return next((a for a in self.actions if a.text == text), None)

    def index_of(self, choice) -> int:
        """The index to send for a choice: an Action, an int index or notation text.
        Raises InvalidChoice when the choice is none of this request's actions."""
        n = len(self.actions)
        if isinstance(choice, GameAction):
            if 0 <= choice.index < n and self.actions[choice.index] == choice:
                return choice.index
            found = self.find(choice.text)    # an equal action built elsewhere
            if found is None:
                raise InvalidChoice(f"action {choice.text!r} is not offered in request {self.id}")
            return found.index
        if isinstance(choice, int) and not isinstance(choice, bool):
            if not 0 <= choice < n:
                raise InvalidChoice(f"index {choice} is out of range: request {self.id} "
                                    f"offers {n} actions (0..{n - 1})")
            return choice
        if isinstance(choice, str):
            found = self.find(choice)
            if found is None:
                raise InvalidChoice(f"{choice!r} is not a legal action now (request {self.id}); "
                                    f"e.g. {self.actions[0].text!r}")
            return found.index
        raise InvalidChoice(f"a choice must be an Action, an int index or notation text, "
                            f"not {type(choice).__name__}")


@dataclass
class Welcome:
    protocol: int
    game: str
    options: str
    seat: int
    seats: int
    team: int
    time: TimeControl
    raw: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_map(cls, m: dict) -> Welcome:
        seat = _int(m, "seat", 0)
        return cls(_int(m, "protocol", 0), _str(m, "game", ""), _str(m, "options", ""), seat,
                   _int(m, "seats", 2), _int(m, "team", seat % 2),
                   TimeControl.from_map(m.get("time")), m)

    def option(self, key: str, default: str | None = None) -> str | None:
        """One rule from `options` ("players=2 setup=dealt ..."), as text."""
        for word in self.options.split():
            k, _, v = word.partition("=")
            if k == key:
                return v
        return default


@dataclass
class Update:
    id: int
    seat: int
    decision: str
    action: GameAction    # as this seat may see it: what the game hides, hidden
    raw: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_map(cls, m: dict, game: str | None = None) -> Update:
        """`game` is the welcome's, as for Request.from_map."""
        return cls(_int(m, "id", -1), _int(m, "seat", -1), _str(m, "decision", ""),
                   game_module(game).Action.from_map(m.get("action")), m)


@dataclass
class Result:
    scores: list[float]
    reason: str
    culprit: int | None
    detail: str
    seat: int | None = None   # mine, when the welcome said it

    @classmethod
    def from_map(cls, m: dict, seat: int | None = None) -> Result:
        scores = [float(s) for s in _list(m.get("scores"))
                  if isinstance(s, (int, float)) and not isinstance(s, bool)]
        return cls(scores, _str(m, "reason", ""), _int(m, "culprit"), _str(m, "detail", ""), seat)

    @property
    def score(self) -> float | None:
        """My score: 1 win, 0.5 draw, 0 loss."""
        if self.seat is None or not 0 <= self.seat < len(self.scores):
            return None
        return self.scores[self.seat]
