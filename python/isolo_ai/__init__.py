"""isolo_ai: the rules and the engine of Isolo and Igisoro for Python.

The exact rules at native speed (``Variant``, ``Game``, ``perft``, ``playouts``) and the
engine's analysis (``analyze``, ``solve``), the same as the ``isolo-ai`` command line's.
Bad input raises ``InputError`` (a ``ValueError``) with the engine's message; searches
release the GIL and stop on Ctrl-C.

>>> import isolo_ai
>>> game = isolo_ai.Game(isolo_ai.Variant.load("isolo-boys"))
>>> game.play("7")
>>> game.to_move
'N'
"""

from __future__ import annotations

import numpy as np

from ._native import (
    Game,
    IllegalMove,
    InputError,
    Variant,
    analyze,
    perft,
    playouts,
    solve,
    variants,
)

__all__ = [
    "Game",
    "IllegalMove",
    "InputError",
    "Variant",
    "analyze",
    "perft",
    "playouts",
    "solve",
    "variants",
]


def _board(self: Game) -> np.ndarray:
    """The seeds of each pit, a ``uint8`` array of shape ``(4, columns)``: the rows as
    ``isolo-ai show`` draws them (North's back row first, South's back row last)."""
    columns = self.variant.columns
    return np.frombuffer(self.board_bytes(), dtype=np.uint8).reshape(4, columns).copy()


def _observation(self: Game) -> np.ndarray:
    """The position from the mover's side, for learning: a ``float32`` array of
    ``4 * columns + 2`` numbers. First the rows as ``show`` draws them with the side to
    move at the bottom (the board flipped when North moves), each pit's seeds divided
    by all the seeds; then 1.0 or 0.0 for the mover's and the opponent's overture."""
    return np.asarray(self.observation_list(), dtype=np.float32)


Game.board = property(_board)  # type: ignore[attr-defined]
Game.observation = _observation  # type: ignore[attr-defined]
