"""Isolo and Igisoro as PettingZoo AEC environments.

``env(variant="isolo-boys", max_plies=1000, position=None, render_mode=None,
observation="planes")`` makes an environment of two agents, ``"player_0"`` (South) and
``"player_1"`` (North), acting in the encoding of ``isolo_ai.ActionGame``: actions
``0 .. pits - 1`` start a move from pit ``action + 1``, ``pits`` takes and ``pits + 1``
passes at an optional capture, the same agent acting again. Each observation is a
dict: ``"observation"``, the board from the agent's side, and ``"action_mask"``, 1 for
each legal action (none for the agent not acting). The board is planes of shape
``(4, columns, 5)``, channels last as PettingZoo's classic boards have them
(``ActionGame.observation_planes``), or with ``observation="flat"`` the vector of
``ActionGame.observation``. Rewards are +1/-1 at a win, 0 at a draw; a game
drawn by reaching ``max_plies`` is truncated, any other end terminates it.

``env`` wraps ``raw_env`` in PettingZoo's usual wrappers: an illegal action ends the
game with reward -1 for the agent that made it.

>>> from isolo_ai.pettingzoo import env
>>> e = env(variant="igisoro")
>>> e.reset(seed=0)
>>> e.agent_selection
'player_0'
"""

from __future__ import annotations

import copy
import sys
import types
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:
    raise ImportError(
        f"isolo_ai.pettingzoo needs PettingZoo ({missing}): pip install \"isolo-ai[pettingzoo]\"",
        name=missing.name,
    ) from missing

from . import ActionGame, Game, InputError, Variant, _variant

#: Moves after which a game is drawn (truncated), unless `env` is told otherwise.
DEFAULT_MAX_PLIES = 1000

AGENTS = ["player_0", "player_1"]
#: The side each agent plays, in the order of `AGENTS`.
SIDES = ["S", "N"]


def env(**kwargs: Any) -> AECEnv:
    """An environment (see the module's help), in PettingZoo's standard wrappers."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):
    """The environment without wrappers: an illegal action raises ``IllegalMove``."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "isolo_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Variant = "isolo-boys",
        max_plies: int = DEFAULT_MAX_PLIES,
        position: str | None = None,
        render_mode: str | None = None,
        observation: str = "planes",
    ):
        EzPickle.__init__(self, variant, max_plies, position, render_mode, observation)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render mode '{render_mode}' is not human or ansi")
        if observation not in ("planes", "flat"):
            raise InputError(f"observation: '{observation}' is not planes or flat")
        self.flat = observation == "flat"
        self.variant = _variant(variant)
        self.render_mode = render_mode
        self._start = ActionGame(Game(self.variant, position=position, max_plies=max_plies))
        self.game = self._start.clone()
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        if self.flat:
            shape: tuple[int, ...] = (self._start.observation_size,)
        else:
            planes, rows, columns = self._start.planes_shape
            shape = (rows, columns, planes)
        actions = self._start.num_actions
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in AGENTS}

    #: What a game in progress holds besides its rules (`reset` sets them).
    _EPISODE = ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations",
                "infos", "agent_selection")

    def __deepcopy__(self, memo: dict) -> "raw_env":
        """The environment as it stands, its game and episode copied (pickling, through
        `EzPickle`, makes it again from its arguments instead)."""
        copied = raw_env(*self._ezpickle_args, **self._ezpickle_kwargs)
        memo[id(self)] = copied
        copied.game = self.game.clone()
        for name in self._EPISODE:
            if hasattr(self, name):
                setattr(copied, name, copy.deepcopy(getattr(self, name), memo))
        return copied

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict:
        """The board from `agent`'s side and its legal actions."""
        mask = np.zeros(self._start.num_actions, dtype=np.int8)
        if agent == self.agent_selection:
            mask[self.game.legal_actions()] = 1
        side = SIDES[AGENTS.index(agent)]
        if self.flat:
            seen = self.game.observation(side)
        else:
            seen = np.moveaxis(self.game.observation_planes(side), 0, -1)
        return {"observation": seen, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game from the start (the game has no chance: `seed` changes nothing)."""
        self.game = self._start.clone()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {agent: {} for agent in AGENTS}
        self.agent_selection = self._agent_to_act()
        self._finish_if_over()

    def step(self, action: int) -> None:
        """Plays `action` for the agent selected."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.game.apply(int(action))
        self.agent_selection = self._agent_to_act()
        self._finish_if_over()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _agent_to_act(self) -> str:
        return AGENTS[SIDES.index(self.game.to_move)]

    def _finish_if_over(self) -> None:
        """Sets the rewards and ends the game for both agents if it is over."""
        outcome = self.game.outcome()
        self.rewards = dict.fromkeys(AGENTS, 0)
        if outcome is None:
            return
        if outcome in SIDES:
            winner = AGENTS[SIDES.index(outcome)]
            self.rewards = {agent: 1 if agent == winner else -1 for agent in AGENTS}
        ended = self.game.game.end
        done = self.truncations if ended == "ply-limit" else self.terminations
        for agent in AGENTS:
            done[agent] = True
            self.infos[agent] = {"end": ended, "outcome": outcome}

    def render(self) -> str | None:
        """The position and any move begun: printed (``human``) or returned (``ansi``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render mode")
            return None
        text = str(self.game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


#: The environment as PettingZoo's classic environments are imported
#: (``from pettingzoo.classic import chess_v6``): ``from isolo_ai.pettingzoo import
#: isolo_v0``, then ``isolo_v0.env(variant="igisoro")``; the name is the metadata's.
isolo_v0 = types.ModuleType(f"{__name__}.isolo_v0", "Isolo and Igisoro, version 0.")
isolo_v0.env = env  # type: ignore[attr-defined]
isolo_v0.raw_env = raw_env  # type: ignore[attr-defined]
sys.modules[isolo_v0.__name__] = isolo_v0
