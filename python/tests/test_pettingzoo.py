"""The PettingZoo adapter: PettingZoo's API test on every variant, rewards, truncation
at the ply cap, and illegal actions."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from conftest import need

need("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import isolo_ai  # noqa: E402
from isolo_ai.pettingzoo import env, raw_env  # noqa: E402


def test_observations_are_planes_channels_last_or_flat():
    planes = raw_env(variant="igisoro")
    planes.reset()
    seen = planes.observe("player_0")["observation"]
    assert seen.shape == (4, 8, 5) == planes.observation_space("player_0")["observation"].shape
    drawn = np.asarray(planes.game.observation_planes("S"), dtype=np.float32).reshape(5, 4, 8)
    assert np.array_equal(seen, np.moveaxis(drawn, 0, -1))
    flat = raw_env(variant="igisoro", observation="flat")
    flat.reset()
    assert flat.observe("player_1")["observation"].shape == (6 * 8 + 3,)
    with pytest.raises(isolo_ai.InputError, match="observation: 'cube' is not planes or flat"):
        raw_env(observation="cube")


def test_the_environment_imports_as_pettingzoos_classic_ones_do():
    from isolo_ai.pettingzoo import isolo_v0

    environment = isolo_v0.env(variant="isolo_women")  # OpenSpiel's spelling too
    environment.reset(seed=1)
    assert environment.metadata["name"] == "isolo_v0"
    assert isolo_v0.raw_env is raw_env


@pytest.mark.parametrize("name", isolo_ai.variants())
def test_pettingzoos_api_test_passes(name):
    api_test(env(variant=name), num_cycles=300, verbose_progress=False)


def play_out(environment, seed: int) -> dict:
    """Plays random legal actions to the end; the rewards summed by agent."""
    rng = np.random.default_rng(seed)
    environment.reset()
    total = dict.fromkeys(environment.possible_agents, 0)
    for agent in environment.agent_iter():
        _, reward, terminated, truncated, _ = environment.last()
        total[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        mask = environment.observe(agent)["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask))))
    return total


def test_a_game_won_rewards_the_winner():
    won = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/3,1,0,0,0,0,0,0 S"
    environment = env(variant="isolo-women", position=won)
    assert play_out(environment, seed=0) == {"player_0": 1, "player_1": -1}
    environment = env(variant="isolo-women")
    for seed in range(5):
        total = play_out(environment, seed)
        assert sorted(total.values()) == [-1, 1], "a random women's game ends in a win"


def test_the_ply_cap_truncates():
    environment = env(variant="igisoro", max_plies=10)
    environment.reset()
    for agent in environment.agent_iter():
        _, reward, terminated, truncated, info = environment.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            assert info == {"end": "ply-limit", "outcome": "draw"}
            environment.step(None)
            continue
        environment.step(int(np.flatnonzero(environment.observe(agent)["action_mask"])[0]))
    assert environment.unwrapped.game.game.plies == 10


def test_an_illegal_action_loses():
    environment = env(variant="isolo-boys")
    environment.reset()
    mask = environment.observe("player_0")["action_mask"]
    assert not environment.observe("player_1")["action_mask"].any(), "North is not to act"
    environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert environment.rewards == {"player_0": -1, "player_1": 0}
    assert all(environment.terminations.values())
    with pytest.raises(isolo_ai.IllegalMove):
        bare = raw_env(variant="isolo-boys")
        bare.reset()
        bare.step(int(np.flatnonzero(bare.observe("player_0")["action_mask"] == 0)[0]))


def test_an_environment_pickles_and_renders():
    environment = raw_env(variant="igisoro", render_mode="ansi")
    environment.reset()
    again = pickle.loads(pickle.dumps(environment))
    again.reset()
    assert again.render() == environment.render() == Variant_start("igisoro")
    with pytest.raises(ValueError, match="render mode"):
        raw_env(render_mode="rgb_array")


@pytest.mark.parametrize("make", [env, raw_env])
def test_a_deep_copy_is_the_game_as_it_stands(make):
    environment = make(variant="igisoro")
    environment.reset(seed=0)
    action = int(np.flatnonzero(environment.observe(environment.agent_selection)["action_mask"])[0])
    environment.step(action)
    copied = copy.deepcopy(environment)
    assert copied.agent_selection == environment.agent_selection
    for agent in ("player_0", "player_1"):
        ours, theirs = environment.observe(agent), copied.observe(agent)
        assert all(np.array_equal(ours[k], theirs[k]) for k in ours)
    # The copy plays on alone.
    mask = copied.observe(copied.agent_selection)["action_mask"]
    copied.step(int(np.flatnonzero(mask)[0]))
    assert environment.observe(environment.agent_selection)["action_mask"].tolist() == mask.tolist()


def Variant_start(name: str) -> str:
    return isolo_ai.Variant.load(name).start
