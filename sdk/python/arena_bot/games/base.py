"""What every game's action has, whichever module decoded it: `text`, its
notation (also str(action)), and `index`, its place in the request (-1 in
an update). Each game's Action is a frozen dataclass under GameAction, so
Request.index_of knows an action of any game."""
from __future__ import annotations


class GameAction:
    text: str
    index: int

    def __str__(self) -> str:
        return self.text
