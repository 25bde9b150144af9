"""isolo_ai: the rules and the engine of Isolo and Igisoro for Python.

The exact rules at native speed (``Variant``, ``Game``, ``perft``, ``playouts``), the
engine's analysis (``analyze``, ``review``, ``solve``) and research runs (``compare``,
``match``, ``tournament``, ``merge``, ``read_records``, ``tune``), the same as the
``isolo-ai`` command line's; ``Engine``, a player that keeps its search from move to
move; ``ActionGame`` and the adapters ``isolo_ai.openspiel`` (with ``EngineBot``) and
``isolo_ai.pettingzoo`` for learning.
Bad input raises ``InputError`` (a ``ValueError``) with the engine's message; searches
release the GIL and stop on Ctrl-C.

>>> import isolo_ai
>>> game = isolo_ai.Game(isolo_ai.Variant.load("isolo-boys"))
>>> game.play("7")
>>> game.to_move
'N'
"""

from __future__ import annotations

import os

import numpy as np

from ._native import __version__
from ._native import (
    ActionGame,
    Cancel,
    Cancelled,
    Engine,
    Game,
    IllegalMove,
    InputError,
    Records,
    Variant,
    analyze,
    perft,
    playouts,
    read_records,
    review,
    solve,
    variants,
    wilson,
)
from ._native import compare as _compare
from ._native import match as _match
from ._native import merge as _merge
from ._native import tournament as _tournament
from ._native import tune as _tune

__all__ = [
    "__version__",
    "ActionGame",
    "Cancel",
    "Cancelled",
    "Engine",
    "Game",
    "IllegalMove",
    "InputError",
    "Observer",
    "Records",
    "Variant",
    "analyze",
    "compare",
    "match",
    "merge",
    "perft",
    "playouts",
    "read_records",
    "review",
    "solve",
    "tournament",
    "tune",
    "variants",
    "wilson",
]


class ComparedRows(list):
    """``compare``'s rows as a list (``frame=False``), with the comparison's ``summary``
    (what ``compare --json`` prints) and the games ``resumed`` from its records."""

    summary: dict
    resumed: int


def compare(
    variants,
    games: int = 100,
    engine: str = "ab:depth=3",
    seed: int = 0,
    openings: str = "random:2",
    max_plies: int = 1000,
    concurrency: int = 1,
    frame: bool | None = None,
    out: str | os.PathLike | None = None,
    resume: bool = False,
    cancel: Cancel | None = None,
):
    """Games of one engine against itself under each variant, as ``isolo-ai compare``
    plays them: one row per game, with the fields of a ``compare --out`` line
    (``variant`` (its name), ``game``, ``seed``, ``first``, ``result`` (``"S"``, ``"N"``
    or ``"draw"``), ``reason``, ``plies``, ``branching``, ``laps_per_move``,
    ``endless_share``, ``captured_per_move``).

    ``variants``: ``Variant`` objects, or names and rules files' paths. ``openings``:
    ``"start"``, ``"random:K"`` or a suite file's path. Game ``i`` of each variant has
    the seed ``compare --seed`` gives it, so the rows are the command line's games.
    The rows come as a pandas ``DataFrame`` when pandas is installed (``frame=None``),
    or always (``True``), or as a list of dicts (``False``, a ``ComparedRows``).

    The comparison's summary, as ``compare --json`` prints it (each variant's South,
    North, first-player and draw rates as ``{"count", "rate", "ci95"}`` with Wilson 95%
    intervals, game lengths with their interval, endless-move shares, end reasons, and
    the first player's advantage tested between every two variants), comes with the
    rows: ``frame.attrs["summary"]`` (or ``rows.summary``); ``wilson(count, n)`` gives
    the same interval for any share.

    ``out`` records the games as ``compare --out`` does, for ``merge``; with
    ``resume=True`` a file already there is continued: its games are kept and the rest
    played (``attrs["resumed"]`` counts those read back). Ctrl-C, or ``cancel`` (a
    ``Cancel``) from another thread, stops it: ``KeyboardInterrupt`` or ``Cancelled`` is
    raised with the games played attached (``error.rows``, ``error.summary``), and
    recorded in ``out``, which ``resume=True`` continues."""
    loaded = [_variant(v, "variants") for v in _names(variants)]
    path = None if out is None else os.fspath(out)
    result = _compare(loaded, games, engine, seed, openings, max_plies, concurrency,
                      path, resume, cancel)
    table = _compare_rows(result, frame)
    if result["cut"] is not None:
        kind = Cancelled if result["cut"] == "cancelled" else KeyboardInterrupt
        error = kind(result["message"])
        error.rows = table
        error.summary = result["summary"]
        raise error
    return table


def _compare_rows(result: dict, frame: bool | None):
    """The rows of a comparison's ``result`` as ``compare`` hands them out, with its
    summary attached."""
    if frame is not False:
        try:
            import pandas
        except ImportError:
            if frame:
                raise
        else:
            table = pandas.DataFrame(result["rows"])
            table.attrs["summary"] = result["summary"]
            table.attrs["resumed"] = result["resumed"]
            return table
    rows = ComparedRows(result["rows"])
    rows.summary = result["summary"]
    rows.resumed = result["resumed"]
    return rows


def match(
    engine_a: str,
    engine_b: str,
    games: int = 100,
    variant="isolo-boys",
    openings: str | None = None,
    seed: int = 0,
    max_plies: int = 1000,
    concurrency: int = 1,
    sprt: str | None = None,
    out: str | None = None,
    resume: bool = False,
    cancel: Cancel | None = None,
) -> dict:
    """A match of two built-in engines (``"ab:depth=4"``, ``"mcts:iters=2000"``,
    ``"random"``, labelled as ``"fast=ab:depth=4"``), as ``isolo-ai match`` plays it:
    the summary dict ``match --json`` prints (``a_wins``, ``b_wins``, ``draws``,
    ``score``, ``elo`` with ``elo_ci95``, ``los``, ``pentanomial``, ``sprt``...).

    ``games`` are played in colour-reversed pairs from each position of ``openings``
    (a suite file's path; the variant's start when omitted), seeded from ``seed``.
    ``variant``: a ``Variant``, a name or a rules file's path. ``sprt``
    (``"elo0,elo1,alpha,beta"``) stops the match at a verdict; ``out`` writes the
    records file ``match --out`` writes, and ``resume=True`` continues the run it
    holds (checked game by game to be this run's). ``cancel`` (a ``Cancel``) stops it
    from another thread: the report of the games played, ``"interrupted": True``.
    External engines and clocks are the command line's."""
    return _match(engine_a, engine_b, games, _variant(variant), openings, seed, max_plies,
                  concurrency, sprt, out, resume, cancel)


def tournament(
    engines: list[str],
    games: int = 100,
    variant="isolo-boys",
    pairing: str = "round-robin",
    anchor: str | None = None,
    openings: str | None = None,
    seed: int = 0,
    max_plies: int = 1000,
    concurrency: int = 1,
    out: str | None = None,
    resume: bool = False,
    cancel: Cancel | None = None,
) -> dict:
    """A tournament of three or more built-in engines, as ``isolo-ai tournament``
    plays it: the dict ``tournament --json`` prints (``standings`` best rated first,
    each with ``points``, ``games``, ``elo`` and ``elo_ci95``; ``crosstable``;
    ``anchor``; ``caveat``; ``forfeits``; a ladder's ``steps``, each engine against the
    one given before it).

    ``pairing``: ``"round-robin"``, ``"gauntlet"`` (the first engine against each of
    the others) or ``"ladder"`` (engines weakest first, each against the next and the
    last). ``games`` per pairing; ``anchor`` fixes that engine's rating at 0 (else the
    mean is 0); the other arguments as ``match``'s."""
    return _tournament(_names(engines), games, _variant(variant), pairing, anchor, openings,
                       seed, max_plies, concurrency, out, resume, cancel)


def merge(out: str, shards: list[str], sprt: str | None = None,
          anchor: str | None = None) -> dict:
    """Merges the records files of a sharded run (the ``--shard K/N`` runs of one
    match, tournament or comparison, in any order) into the new records file ``out``,
    as ``isolo-ai merge`` does, after checking that they are the shards of one run
    and hold each of its games once. Returns the summary ``merge --json`` prints: the
    match's (``sprt`` evaluated over the merged games in order), the tournament's
    (``anchor``) or the comparison's, with a ``merge`` entry."""
    return _merge(out, [str(s) for s in _names(shards)], sprt, anchor)


def _variant(variant, argument: str = "variant") -> Variant:
    """A ``Variant``, loaded from a name or a rules file's path if need be (a refusal
    names the ``argument``)."""
    if isinstance(variant, Variant):
        return variant
    try:
        return Variant.load(os.fspath(variant))
    except InputError as refused:
        raise InputError(f"{argument}: {refused}") from None


def _names(items) -> list:
    """The items of a list argument; a single name, path or ``Variant`` is a list of one
    (a string is not taken apart letter by letter)."""
    if isinstance(items, (str, os.PathLike, Variant)):
        return [items]
    return list(items)


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


def _action_observation(self: ActionGame, player) -> np.ndarray:
    """The state seen by ``player`` (``0`` or ``1``, ``"S"`` or ``"N"``, or PettingZoo's
    ``"player_0"`` or ``"player_1"``), a ``float32`` array of ``observation_size``
    numbers (see ``observation_list``), written by the engine into the array's own
    memory (``observe_into``)."""
    buffer = bytearray(4 * self.observation_size)
    self.observe_into(player, buffer, False)
    return np.frombuffer(buffer, dtype=np.float32)


def _observation_planes(self: ActionGame, player) -> np.ndarray:
    """The state seen by ``player`` as planes over the board, a ``float32`` array of
    shape ``planes_shape``, ``(5, 4, columns)``, channel first (the planes are told in
    ``observation_planes_list``'s documentation), written as ``observation`` is."""
    shape = self.planes_shape
    buffer = bytearray(4 * shape[0] * shape[1] * shape[2])
    self.observe_into(player, buffer, True)
    return np.frombuffer(buffer, dtype=np.float32).reshape(shape)


class Observer:
    """An observation buffer written in place, for a loop that reads the state every
    step: ``observe(game, player)`` has the engine write ``game``'s state seen by
    ``player`` (an ``ActionGame``) into ``tensor``, a ``float32`` NumPy array it owns
    (``planes``: of shape ``planes_shape``, else the ``observation_size`` numbers), and
    returns it; no Python list and no new array on the way. The array is the same
    object each time: copy it to keep one."""

    def __init__(self, start: ActionGame, planes: bool = True):
        shape = start.planes_shape if planes else (start.observation_size,)
        size = 1
        for n in shape:
            size *= n
        self._buffer = bytearray(4 * size)
        self._planes = planes
        self.tensor = np.frombuffer(self._buffer, dtype=np.float32).reshape(shape)

    def observe(self, game: ActionGame, player) -> np.ndarray:
        game.observe_into(player, self._buffer, self._planes)
        return self.tensor


Game.board = property(_board)  # type: ignore[attr-defined]
Game.observation = _observation  # type: ignore[attr-defined]
ActionGame.observation = _action_observation  # type: ignore[attr-defined]
ActionGame.observation_planes = _observation_planes  # type: ignore[attr-defined]


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


def tune(variant, **settings) -> dict:
    """Tunes the evaluation weights of ``variant`` (a ``Variant``, a name or a rules
    file's path) by self-play, as ``isolo-ai tune`` does (the Texel method). Returns
    the dict ``tune --json`` prints (games, samples, the sigmoid's scale ``k``, the
    errors before and after, ``net``, ``weights``, ``interrupted``) with
    ``weights_file``, the TOML text a weights file holds (written to ``out`` if given).

    Settings, by keyword, with the command line's defaults: ``games`` (2000),
    ``openings`` (a suite file; the start), ``random_plies`` (6), ``nodes`` (1500),
    ``max_plies`` (400), ``quiet_plies`` (2), ``decided_only`` (False), ``epochs``
    (600), ``net`` (0: no net), ``net_epochs`` (20), ``start`` (``"auto"``, ``"hand"``
    or a weights file), ``seed`` (1), ``threads`` (the cores), ``out``."""
    return _tune(_variant(variant), **settings)
