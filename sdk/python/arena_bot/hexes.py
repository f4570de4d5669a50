"""Hex names and geometry of the War Chest board (sdk/BOARD.md).

Hexes are named like chess squares, "a".."k" then "1".."7"; they map to axial
coordinates (q, r) with file = q + 6, rank = r + 4, so "f4" is (0, 0). A bot
only ever sees names, so every helper here takes and returns names.
"""
from __future__ import annotations

FILES = "abcdefghijk"
# Axial neighbour offsets, as sdk/BOARD.md lists them.
_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

LOCATIONS_2P = ("c6", "d4", "d7", "e2", "e5", "g3", "g6", "h1", "h4", "i2")
LOCATIONS_4P = LOCATIONS_2P + ("a7", "b5", "j3", "k1")


def hex_to_axial(name: str) -> tuple[int, int]:
    """"f4" -> (0, 0). Raises ValueError for a name off the 11x7 grid."""
    if not isinstance(name, str) or len(name) != 2 or name[0] not in FILES \
            or name[1] not in "1234567":
        raise ValueError(f"not a hex name: {name!r}")
    return FILES.index(name[0]) - 5, int(name[1]) - 4


def axial_to_hex(q: int, r: int) -> str:
    """(0, 0) -> "f4". Raises ValueError off the grid."""
    if not (-5 <= q <= 5 and -3 <= r <= 3):
        raise ValueError(f"no hex at ({q}, {r})")
    return f"{FILES[q + 5]}{r + 4}"


def on_board(name: str, players: int = 2) -> bool:
    """Is the hex part of the play area (radius 3, or with the 4-player wings)?"""
    try:
        q, r = hex_to_axial(name)
    except ValueError:
        return False
    s = -q - r
    return abs(q) <= (5 if players == 4 else 3) and abs(r) <= 3 and abs(s) <= 3


def board_hexes(players: int = 2) -> list[str]:
    """Every hex of the play area: 37 with 2 players, 47 with 4."""
    return [f + str(k) for f in FILES for k in range(1, 8) if on_board(f + str(k), players)]


def hex_distance(a: str, b: str) -> int:
    """Steps between two hexes: max(|dq|, |dr|, |ds|)."""
    (q1, r1), (q2, r2) = hex_to_axial(a), hex_to_axial(b)
    dq, dr = q1 - q2, r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


def neighbours(name: str, players: int = 2) -> list[str]:
    """The hexes next to `name` that are on the board, in a fixed order."""
    q, r = hex_to_axial(name)
    out = []
    for dq, dr in _STEPS:
        try:
            n = axial_to_hex(q + dq, r + dr)
        except ValueError:
            continue
        if on_board(n, players):
            out.append(n)
    return out


def in_line(a: str, b: str) -> bool:
    """Do two different hexes lie on one straight line (share a cube coordinate)?"""
    (q1, r1), (q2, r2) = hex_to_axial(a), hex_to_axial(b)
    return (q1, r1) != (q2, r2) and (q1 == q2 or r1 == r2 or q1 + r1 == q2 + r2)
