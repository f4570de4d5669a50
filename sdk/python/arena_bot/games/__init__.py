"""Which game module decodes a match's requests and updates: the one the
welcome's `game` names, so the transport (model.py, client.py) names no
game. A module gives its `Action` (a GameAction, `Action.from_map(m,
index)`), `observation(m)` (the request's, decoded) and `decision(obs)`
(the decision of a request that names none). A game without a module here
is still played (any_game.py): its observation is the plain dict sent, and
each action keeps its map in `fields`.
"""
from __future__ import annotations

from types import ModuleType

from . import any_game, goofspiel, warchest
from .base import GameAction

GAMES = {"warchest": warchest, "goofspiel": goofspiel}

# A welcome that names no game (or a message decoded before any welcome):
# protocol 1 began as War Chest's alone.
DEFAULT_GAME = "warchest"

__all__ = ["GAMES", "DEFAULT_GAME", "GameAction", "game_module"]


def game_module(game: str | None) -> ModuleType:
    """The module that decodes `game`'s messages (a welcome's `game`)."""
    if not game:
        return GAMES[DEFAULT_GAME]
    return GAMES.get(game, any_game) if isinstance(game, str) else any_game
