"""The observation (PROTOCOL.md s. 5), decoded: what a seat may know of
the game, with the helpers a heuristic asks for most.

Decoding is lenient, as in model.py: unknown keys are ignored and values of
the wrong type read as defaults (decode.py's getters).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .decode import _int, _list, _map, _str
from .hexes import hex_distance


def _zone(v) -> dict:
    """{coin: count}, keeping only well-formed positive entries."""
    return {k: n for k, n in _map(v).items()
            if isinstance(k, str) and isinstance(n, int) and not isinstance(n, bool) and n > 0}


@dataclass(frozen=True)
class Unit:
    hex: str
    unit: str
    coins: int
    seat: int


@dataclass
class Player:
    seat: int
    side: int
    units: list[str]
    supply: dict[str, int]
    discard: dict[str, int]
    removed: dict[str, int]
    bag: int
    hand: int
    facedown: int

    @classmethod
    def from_map(cls, m, seat: int) -> Player:
        m = _map(m)
        seat = _int(m, "seat", seat)
        return cls(seat, _int(m, "side", seat % 2),
                   [u for u in _list(m.get("units")) if isinstance(u, str)],
                   _zone(m.get("supply")), _zone(m.get("discard")), _zone(m.get("removed")),
                   _int(m, "bag", 0), _int(m, "hand", 0), _int(m, "facedown", 0))


@dataclass(frozen=True)
class Pending:
    """A follow-up in progress (a Footman's maneuvers, a Berserker's...)."""
    decision: str | None
    seat: int | None
    unit: str | None
    hex: str | None
    other_hex: str | None
    coin: str | None

    @classmethod
    def from_map(cls, m) -> Pending | None:
        if not isinstance(m, dict):
            return None
        return cls(_str(m, "decision"), _int(m, "seat"), _str(m, "unit"), _str(m, "hex"),
                   _str(m, "other_hex"), _str(m, "coin"))


@dataclass
class Observation:
    seat: int
    seats: int
    phase: str
    decision: str
    to_move: int | None
    turn: int
    round: int
    round_limit: int
    initiative: int
    initiative_claimed: bool
    markers: int
    royal_guard: str
    board: dict[str, Unit]            # hex -> the unit there
    control: dict[str, int | None]    # every location -> controlling side, or None
    players: list[Player]
    hand: dict[str, int]              # my own coins, by name
    bag: dict[str, int]
    facedown: dict[str, int]
    draft_pool: list[str]
    pending: Pending | None
    raw: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_map(cls, m) -> Observation:
        m = _map(m)
        board = {}
        for u in _list(m.get("board")):
            u = _map(u)
            h, name = _str(u, "hex"), _str(u, "unit")
            if h and name:
                board[h] = Unit(h, name, _int(u, "coins", 1), _int(u, "seat", -1))
        control = {h: (s if isinstance(s, int) and not isinstance(s, bool) else None)
                   for h, s in _map(m.get("control")).items() if isinstance(h, str)}
        claimed = m.get("initiative_claimed")
        return cls(
            _int(m, "seat", 0), _int(m, "seats", 2), _str(m, "phase", ""),
            _str(m, "decision", ""), _int(m, "to_move"), _int(m, "turn", 0),
            _int(m, "round", 0), _int(m, "round_limit", 0), _int(m, "initiative", 0),
            claimed is True, _int(m, "markers", 6), _str(m, "royal_guard", ""),
            board, control,
            [Player.from_map(p, i) for i, p in enumerate(_list(m.get("players")))],
            _zone(m.get("hand")), _zone(m.get("bag")), _zone(m.get("facedown")),
            [u for u in _list(m.get("draft_pool")) if isinstance(u, str)],
            Pending.from_map(m.get("pending")), m)

    # -- helpers: the questions a heuristic asks most --------------------
    def side_of(self, seat: int) -> int:
        for p in self.players:
            if p.seat == seat:
                return p.side
        return seat % 2   # with 4 seats, seats 0 and 2 are side A

    @property
    def side(self) -> int:
        """My side (team): 0 is A, 1 is B."""
        return self.side_of(self.seat)

    @property
    def me(self) -> Player | None:
        return next((p for p in self.players if p.seat == self.seat), None)

    def units_of(self, seat: int) -> list[Unit]:
        return [u for u in self.board.values() if u.seat == seat]

    def my_units(self) -> list[Unit]:
        return self.units_of(self.seat)

    def enemy_units(self) -> list[Unit]:
        """Units of the other side (teammates' units are not enemies)."""
        return [u for u in self.board.values() if self.side_of(u.seat) != self.side]

    def unit_at(self, hex_name: str) -> Unit | None:
        return self.board.get(hex_name)

    def locations_controlled_by(self, side: int | None) -> list[str]:
        """Locations held by `side`; None gives the uncontrolled ones."""
        return sorted(h for h, s in self.control.items() if s == side)

    def locations_to_take(self, side: int | None = None) -> list[str]:
        """Locations `side` (default mine) does not hold yet."""
        side = self.side if side is None else side
        return sorted(h for h, s in self.control.items() if s != side)

    def nearest_location_to_take(self, hex_name: str, side: int | None = None) -> int:
        """Distance from a hex to the closest location not yet held (99 if none)."""
        return min((hex_distance(hex_name, h) for h in self.locations_to_take(side)), default=99)
