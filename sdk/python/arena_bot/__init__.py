"""arena_bot - write a War Chest bot for the arena in Python.

    import arena_bot
    arena_bot.run(lambda request: 0, name="first", version="1.0")

run() connects to the referee (ARENA_ENDPOINT, ARENA_TOKEN), and for each
decision calls the bot with a decoded Request; the bot answers with one of
request.actions, its index, or its notation text. See sdk/PROTOCOL.md for
the messages underneath, and agents/python/ for sample bots. bot_seed() is
the seed the referee chose for this seat's random choices.

client.py speaks the protocol and model.py decodes its messages for any
game; games/ holds a module per game that decodes its observation and
actions, chosen by the welcome's game (games/__init__.py, the registry):
War Chest's (games/warchest.py, with observation.py and hexes.py, the
board) and Goofspiel's. Action is War Chest's; every game's action is a
games.GameAction. Needs Debian's python3-zmq and python3-msgpack (run with /usr/bin/python3).
"""
from .client import PROTOCOL, Connection, run
from .hexes import (LOCATIONS_2P, LOCATIONS_4P, axial_to_hex, board_hexes, hex_distance,
                    hex_to_axial, in_line, neighbours, on_board)
from .games.warchest import Action
from .model import InvalidChoice, ProtocolError, Request, Result, TimeControl, Update, Welcome
from .observation import Observation, Pending, Player, Unit
from .seed import SEED_MAX, bot_seed

__all__ = ["run", "Connection", "PROTOCOL", "bot_seed", "SEED_MAX",
           "Action", "Request", "Observation", "Unit", "Player", "Pending", "TimeControl",
           "Welcome", "Update", "Result", "InvalidChoice", "ProtocolError",
           "hex_to_axial", "axial_to_hex", "hex_distance", "neighbours", "on_board",
           "board_hexes", "in_line", "LOCATIONS_2P", "LOCATIONS_4P"]
