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
    ActionGame,
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
    "ActionGame",
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


def _action_observation(self: ActionGame, player: str) -> np.ndarray:
    """The state seen by ``player`` (``"S"`` or ``"N"``), a ``float32`` array of
    ``observation_size`` numbers (see ``observation_list``)."""
    return np.asarray(self.observation_list(player), dtype=np.float32)


Game.board = property(_board)  # type: ignore[attr-defined]
Game.observation = _observation  # type: ignore[attr-defined]
ActionGame.observation = _action_observation  # type: ignore[attr-defined]


# Pickling (OpenSpiel copies and serialises states so): a variant by its rules text, a
# game by its start and moves, an action game by its game and the move begun.
def _rebuild_game(variant: Variant, start: str, moves: list, max_plies) -> Game:
    return Game(variant, position=start, moves=" ".join(moves), max_plies=max_plies)


def _rebuild_action_game(game: Game, pending: list) -> ActionGame:
    actions = ActionGame(game)
    for action in pending:
        actions.apply(action)
    return actions


Variant.__reduce__ = lambda self: (Variant.from_toml, (self.to_toml(),))  # type: ignore
Game.__reduce__ = lambda self: (  # type: ignore
    _rebuild_game,
    (self.variant, self.start, self.moves, self.max_plies),
)
ActionGame.__reduce__ = lambda self: (  # type: ignore
    _rebuild_action_game,
    (self.game, self.pending_actions),
)
