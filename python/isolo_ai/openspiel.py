"""Isolo and Igisoro as OpenSpiel games.

Importing this module registers, as pyspiel Python games:

- ``isolo_women``, ``isolo_boys``, ``igisoro``, ``kubuguza``, ``ikibuguzo``,
  ``isolo_women_capture_ends``, ``isolo_boys_capture_ends``, ``ikibuguzo_opening_1``,
  ``igisoro_retreat``, ``igisoro_clockwise``: the presets and named readings;
- ``isolo``: any rules, given by its ``rules`` parameter (a preset's name, a rules
  file's path, or a rules file's TOML text).

Each takes ``max_plies`` (default 1000): the game is drawn once that many moves are
played, which bounds its length; and ``position`` (default: the variant's start): the
position to start from, in the project's notation, its commas written as dots in a
game string (``isolo_boys(position=2.2.0.2/...)``), which cannot hold commas; and
``observation`` (default ``planes``): the observation tensor, planes of shape
``[5, 4, columns]`` (``ActionGame.observation_planes``) or ``flat``.
A game's parameters are kept in that spelling, and rules text as ``toml:`` and its
base64 (URL alphabet), so that ``str(game)`` always loads the same game again. Player
0 is South, player 1 North; the side to move in the start position acts first.
Returns are +1/-1 for a win and 0 for a draw, at the end.

Actions (``isolo_ai.ActionGame``): ``0 .. pits - 1`` start a move from pit
``action + 1`` of the side to act; ``pits`` takes and ``pits + 1`` passes at an optional
capture (Igisoro), the same player acting again, so a move of many choices is many
small decisions. Only actions that begin or continue a legal move are legal.

>>> import pyspiel, isolo_ai.openspiel
>>> game = pyspiel.load_game("igisoro")
>>> state = game.new_initial_state()
>>> state.apply_action(state.legal_actions()[0])
"""

from __future__ import annotations

import base64
import binascii
import threading
from typing import Any

import numpy as np

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as missing:
    raise ImportError(
        f"isolo_ai.openspiel needs OpenSpiel ({missing}): pip install \"isolo-ai[openspiel]\"",
        name=missing.name,
    ) from missing

from . import ActionGame, Engine, Game, InputError, Observer, Variant

#: Moves after which a game is drawn, unless the game's parameters say otherwise.
DEFAULT_MAX_PLIES = 1000

#: The registered games with a fixed variant: OpenSpiel's name, the project's name.
NAMED_GAMES = {
    "isolo_women": "isolo-women",
    "isolo_boys": "isolo-boys",
    "igisoro": "igisoro",
    "kubuguza": "kubuguza",
    "ikibuguzo": "ikibuguzo",
    "isolo_women_capture_ends": "isolo-women-capture-ends",
    "isolo_boys_capture_ends": "isolo-boys-capture-ends",
    "ikibuguzo_opening_1": "ikibuguzo-opening-1",
    "igisoro_retreat": "igisoro-retreat",
    "igisoro_clockwise": "igisoro-clockwise",
}

#: The game taking any rules, and its default rules.
RULES_GAME = "isolo"
DEFAULT_RULES = "isolo-boys"

_SIDES = ("S", "N")

#: The observation tensor unless the game's parameters say otherwise: ``planes``
#: (``ActionGame.observation_planes``, channel first) or ``flat``.
DEFAULT_OBSERVATION = "planes"

#: The parameters every game takes, with their defaults.
_PARAMETERS = {"max_plies": DEFAULT_MAX_PLIES, "position": "", "observation": DEFAULT_OBSERVATION}


#: How a game string spells a rules text.
_TEXT_PREFIX = "toml:"


def load_variant(rules: str) -> Variant:
    """A variant from a preset's name, a rules file's path, a rules file's text, or
    that text as ``toml:`` and its base64."""
    if rules.startswith(_TEXT_PREFIX):
        encoded = rules[len(_TEXT_PREFIX) :]
        padded = encoded + "=" * (-len(encoded) % 4)
        try:
            text = base64.urlsafe_b64decode(padded).decode()
        except (binascii.Error, UnicodeDecodeError) as error:
            raise InputError(f"rules '{rules[:40]}': not base64 of a text: {error}")
        return Variant.from_toml(text)
    if "\n" in rules or "=" in rules:
        return Variant.from_toml(rules)
    return Variant.load(rules)


def _game_string_form(params: dict) -> dict:
    """`params` spelt so that a game string holds them (no commas, no newlines)."""
    form = dict(params)
    rules = form.get("rules")
    if isinstance(rules, str) and ("\n" in rules or "=" in rules or "," in rules):
        if not rules.startswith(_TEXT_PREFIX):
            encoded = base64.urlsafe_b64encode(rules.encode()).decode().rstrip("=")
            form["rules"] = _TEXT_PREFIX + encoded
    if "position" in form:
        form["position"] = str(form["position"]).replace(",", ".")
    return form


def _game_type(short_name: str, long_name: str, parameters: dict) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class IsoloGame(pyspiel.Game):
    """A four-row mancala game of one variant, in OpenSpiel's terms."""

    def __init__(self, game_type: pyspiel.GameType, variant: Variant, params: dict):
        # (A bad max_plies is refused by Game, in the words every front end uses.)
        max_plies = int(params.get("max_plies", DEFAULT_MAX_PLIES))
        position = str(params.get("position", "")).replace(".", ",") or None
        observation = str(params.get("observation", DEFAULT_OBSERVATION))
        if observation not in ("planes", "flat"):
            raise InputError(f"observation: '{observation}' is not planes or flat")
        self.variant = variant
        self.max_plies = max_plies
        self.observation = observation
        self._start = ActionGame(Game(variant, position=position, max_plies=max_plies))
        info = pyspiel.GameInfo(
            num_distinct_actions=self._start.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_plies * self._start.max_actions_per_move,
        )
        super().__init__(game_type, info, _game_string_form(params))

    def new_initial_state(self) -> "IsoloState":
        """The start of a game."""
        return IsoloState(self, self._start.clone())

    def __reduce__(self):
        # Pickled as its game string: pyspiel's own pickling rebuilds the C++ game
        # without this object's fields.
        return (_load_game, (str(self),))

    def information_state_tensor_shape(self) -> list[int]:
        """Not provided (the game type says so): raises as OpenSpiel's own games do."""
        raise pyspiel.SpielError("InformationStateTensorShape unimplemented.")

    def information_state_tensor_size(self) -> int:
        """Not provided: raises as OpenSpiel's own games do."""
        raise pyspiel.SpielError("InformationStateTensorShape unimplemented.")

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The board observer, or the history for imperfect-recall questions."""
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return BoardObserver(self._start, self.observation == "flat", params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class IsoloState(pyspiel.State):
    """A state: the game so far and the move being made, if one is."""

    def __init__(self, game: IsoloGame, actions: ActionGame):
        super().__init__(game)
        self.actions = actions
        self._planes = game.observation == "planes"

    def current_player(self) -> int:
        """The player to act (0 South, 1 North), or terminal."""
        player = self.actions.player
        return pyspiel.PlayerId.TERMINAL if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        return self.actions.legal_actions()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of `player` (by default the player to act), ascending.

        The same answer as pyspiel's own method, asked of the engine directly: the C++
        method it replaces calls back into Python four times an action.
        """
        if player is None or player == self.actions.player:
            return self.actions.legal_actions()
        return super().legal_actions(player)

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """The observation tensor of `player` (by default the player to act), flat, as
        pyspiel's own method gives it, but as a ``float32`` NumPy array the engine writes
        in place (pyspiel's goes through a Python observer and C++ and builds a list:
        twice the cost of this one, measured in ``python/examples/speed.py``)."""
        if player is None:
            player = self.current_player()
        if player not in (0, 1):
            raise pyspiel.SpielError(f"observation_tensor: player {player} observes nothing")
        return _observer_for(self.actions, self._planes).observe(self.actions, _SIDES[player]).ravel().copy()

    def _apply_action(self, action: int) -> None:
        self.actions.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.actions.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.actions.player is None

    def returns(self) -> list[float]:
        """+1 to the winner and -1 to the loser at the end; 0 otherwise."""
        outcome = self.actions.outcome()
        if outcome in _SIDES:
            winner = _SIDES.index(outcome)
            return [1.0 if p == winner else -1.0 for p in range(2)]
        return [0.0, 0.0]

    def __str__(self) -> str:
        return str(self.actions)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Not provided (the game type says so): raises as OpenSpiel's own games do."""
        raise pyspiel.SpielError("InformationStateTensor unimplemented.")


def _load_game(string: str) -> IsoloGame:
    """The game `string` names (``str(game)``): how a pickled game is rebuilt, in a
    process where importing this module registered the games."""
    return pyspiel.load_game(string)


_OBSERVERS = threading.local()


def _observer_for(actions: ActionGame, planes: bool) -> Observer:
    """This thread's observer of `actions`' shape (its tensor is copied out at once, so
    one per shape serves every state)."""
    shape = actions.planes_shape if planes else (actions.observation_size,)
    cache = _OBSERVERS.__dict__.setdefault("by_shape", {})
    observer = cache.get((shape, planes))
    if observer is None:
        observer = cache[(shape, planes)] = Observer(actions, planes=planes)
    return observer


class BoardObserver:
    """The board as a player sees it, and as text: planes of shape
    ``ActionGame.planes_shape`` (``observation_planes``, channel first), or with
    ``flat`` the vector of ``observation_list``."""

    def __init__(self, start: ActionGame, flat: bool, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        # (The engine writes into the tensor's own memory: `isolo_ai.Observer`.)
        self._observer = Observer(start, planes=not flat)
        self.tensor = self._observer.tensor
        self.dict = {"observation": self.tensor}

    def set_from(self, state: IsoloState, player: int) -> None:
        self._observer.observe(state.actions, _SIDES[player])

    def string_from(self, state: IsoloState, player: int) -> str:
        return str(state)


def _named_game(short_name: str, variant_name: str) -> type:
    game_type = _game_type(
        short_name, f"{variant_name} (isolo-ai)", dict(_PARAMETERS)
    )

    class Named(IsoloGame):
        __doc__ = f"The OpenSpiel game of the variant {variant_name}."

        def __init__(self, params: dict | None = None):
            super().__init__(game_type, Variant.load(variant_name), params or {})

    # A module attribute of its own name, so that pickle finds the class.
    Named.__name__ = Named.__qualname__ = short_name.title().replace("_", "") + "Game"
    globals()[Named.__name__] = Named
    pyspiel.register_game(game_type, Named)
    return Named


_RULES_GAME_TYPE = _game_type(
    RULES_GAME,
    "Isolo or Igisoro under given rules (isolo-ai)",
    {"rules": DEFAULT_RULES, **_PARAMETERS},
)


class RulesGame(IsoloGame):
    """The OpenSpiel game of any rules: ``isolo(rules=...)``."""

    def __init__(self, params: dict | None = None):
        params = params or {}
        try:
            variant = load_variant(str(params.get("rules", DEFAULT_RULES)))
        except InputError as refused:
            raise InputError(f"rules: {refused}") from None
        super().__init__(_RULES_GAME_TYPE, variant, params)


GAMES = {name: _named_game(name, variant) for name, variant in NAMED_GAMES.items()}
pyspiel.register_game(_RULES_GAME_TYPE, RulesGame)
GAMES[RULES_GAME] = RulesGame


class EngineBot(pyspiel.Bot):
    """The engine as an OpenSpiel bot, for ``evaluate_bots`` and games against
    OpenSpiel's own bots (its Python MCTS, ``uniform_random``...).

    ``engine`` is an engine spec as ``isolo-ai match --engine`` takes it: a budget
    (``"ab:depth=6"``, ``"ab:nodes=20000"``, ``"mcts:time-ms=100"``) or a level
    (``"ab:level=3"``), with any of its keys; ``seed`` drives its random choices. It keeps
    its search (``isolo_ai.Engine``) from move to move and forgets it at ``restart_at``.
    The engine chooses whole moves; the bot answers them one action at a time (a pit,
    then each take or pass). Handed a move begun elsewhere that its engine would not have
    begun, it completes it with the first legal action.
    """

    def __init__(self, engine: str = "ab:nodes=20000", seed: int = 0):
        pyspiel.Bot.__init__(self)
        self.engine = Engine(engine, seed=seed)
        self._position: str | None = None
        self._actions: list[int] = []

    def __reduce__(self):
        # Rebuilt from its spec and seed (``Engine`` pickles so), with the move it is
        # making; the search's table starts afresh.
        state = {"_position": self._position, "_actions": self._actions}
        return (EngineBot, (self.engine.spec, self.engine.seed), state)

    def restart_at(self, state: pyspiel.State) -> None:
        """A new game from `state`: the engine forgets the game before."""
        self.engine.new_game()
        self._position, self._actions = None, []

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Another player acted: nothing to do (the bot reads the game at each step)."""

    def provides_policy(self) -> bool:
        return True

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        """The action it plays, as a policy of that one action."""
        action = self.step(state)
        return [(action, 1.0)], action

    def step(self, state: pyspiel.State) -> int:
        """The next action of the engine's move in `state`."""
        actions = state.actions
        taken = actions.pending_actions
        planned = (
            taken
            and self._position == actions.position
            and self._actions[: len(taken)] == taken
        )
        if not planned:
            move = self.engine.choose(actions.game)
            self._position = actions.position
            self._actions = actions.move_to_actions(move)
            if self._actions[: len(taken)] != taken:
                self._position, self._actions = None, []
                return actions.legal_actions()[0]
        return self._actions[len(taken)]
