"""The OpenSpiel adapter: OpenSpiel's own checks of every registered game, its bots and
searches playing through it, and its exact search agreeing with `isolo-ai solve`."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

from conftest import need

pyspiel = need("pyspiel")
from open_spiel.python.algorithms import mcts, minimax  # noqa: E402

import isolo_ai  # noqa: E402
from isolo_ai import Game, Variant  # noqa: E402
from isolo_ai import openspiel as adapter  # noqa: E402

SMALL_RULES = """base = "igisoro"
columns = 4
start = "2,2,2,2/0,0,0,0/0,0,0,0/2,2,2,2"
"""


def test_every_preset_and_reading_is_registered():
    registered = set(pyspiel.registered_names())
    assert set(adapter.NAMED_GAMES) | {"isolo"} <= registered
    assert sorted(adapter.NAMED_GAMES.values()) == sorted(isolo_ai.variants())
    for name, variant in adapter.NAMED_GAMES.items():
        game = pyspiel.load_game(name)
        assert game.variant == Variant.load(variant)
        assert game.num_distinct_actions() == 18 and game.num_players() == 2
        assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION


@pytest.mark.parametrize("name", [*adapter.NAMED_GAMES, "isolo(rules=igisoro,max_plies=200)"])
def test_openspiels_checks_pass(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_rules_come_as_a_name_a_path_or_text(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_RULES)
    by_text = pyspiel.load_game("isolo", {"rules": SMALL_RULES})
    by_path = pyspiel.load_game(f"isolo(rules={path})")
    assert by_text.variant.to_toml() == by_path.variant.to_toml().replace('"small"', '"custom"')
    assert by_text.num_distinct_actions() == 10
    assert pyspiel.load_game("isolo").variant == Variant.load("isolo-boys")
    pyspiel.random_sim_test(by_text, num_sims=3, serialize=True, verbose=False)
    with pytest.raises(isolo_ai.InputError):
        pyspiel.load_game("isolo(rules=no-such-variant)")


def test_a_game_string_loads_the_same_game_again():
    position = "0,0,0,0,0,0,0,0/0,0,0,1,0,0,0,0/0,0,2,7,5,6,0,0/4,0,1,1,2,7,0,0 S"
    for game in [
        pyspiel.load_game("isolo_women", {"position": position, "max_plies": 7}),
        pyspiel.load_game("isolo", {"rules": SMALL_RULES}),
    ]:
        again = pyspiel.load_game(str(game))
        assert str(again) == str(game) and again.variant == game.variant
        assert str(again.new_initial_state()) == str(game.new_initial_state())
        assert pickle.loads(pickle.dumps(game)).max_game_length() == game.max_game_length()
    start = pyspiel.load_game("isolo_women", {"position": position}).new_initial_state()
    assert str(start) == position


def test_states_serialise_and_pickle_mid_move():
    game = pyspiel.load_game("igisoro", {"max_plies": 200})
    state = game.new_initial_state()
    rng = random.Random(1)
    checked = 0
    while not state.is_terminal() and checked < 10:
        if state.actions.pending is not None:
            text = pyspiel.serialize_game_and_state(game, state)
            _, restored = pyspiel.deserialize_game_and_state(text)
            for copy in (restored, pickle.loads(pickle.dumps(state)), state.clone()):
                assert str(copy) == str(state) and copy.history() == state.history()
                assert copy.legal_actions() == state.legal_actions()
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 10


@pytest.mark.parametrize("name", ["isolo_women", "igisoro"])
def test_legal_actions_answer_as_openspiels_own_method(name):
    # The state's legal_actions skips pyspiel's C++ method; both must always agree.
    game = pyspiel.load_game(name, {"max_plies": 60})
    own = pyspiel.State.legal_actions
    chooser = random.Random(5)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            for player in (None, 0, 1):
                args = () if player is None else (player,)
                assert state.legal_actions(*args) == own(state, *args)
            if state.is_terminal():
                break
            state.apply_action(chooser.choice(state.legal_actions()))


def test_games_states_and_bots_pickle_and_play_on():
    for game in [pyspiel.load_game("igisoro"), pyspiel.load_game("isolo", {"rules": SMALL_RULES})]:
        again = pickle.loads(pickle.dumps(game))
        assert str(again) == str(game) and again.variant == game.variant
        state = again.new_initial_state()
        state.apply_action(state.legal_actions()[0])
        copy = pickle.loads(pickle.dumps(state))
        assert str(copy) == str(state) and copy.legal_actions() == state.legal_actions()
        assert str(copy.get_game()) == str(game)
        assert str(copy.get_game().new_initial_state()) == str(game.new_initial_state())
    bot = adapter.EngineBot("ab:depth=2", seed=3)
    state = pyspiel.load_game("igisoro").new_initial_state()
    twin = pickle.loads(pickle.dumps(bot))
    assert (twin.engine.spec, twin.engine.seed) == ("ab:depth=2", 3)
    assert twin.step(state) == bot.step(state)
    engine = isolo_ai.Engine("ab:level=3", seed=5)
    again = pickle.loads(pickle.dumps(engine))
    assert repr(again) == repr(engine)
    game = Game(Variant.load("igisoro"))
    assert again.choose(game) == engine.choose(game)


def _one_game(job):
    """A game between two pickled bots on a pickled game, in a worker process."""
    from open_spiel.python.algorithms import evaluate_bots

    game, bots, seed = job
    return evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed))


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_an_evaluation_runs_in_a_multiprocessing_pool(method):
    import multiprocessing

    game = pyspiel.load_game("kubuguza", {"max_plies": 40})
    jobs = [(game, [adapter.EngineBot("ab:depth=1", seed=s), adapter.EngineBot("random", seed=s)], s)
            for s in range(4)]
    with multiprocessing.get_context(method).Pool(2) as pool:
        results = pool.map(_one_game, jobs)
    assert results == [_one_game(job) for job in jobs], "the same games as in this process"
    assert all(sum(r) == 0 for r in results)


def test_an_evaluation_runs_as_ray_tasks():
    # (Ray is not installed by .ci/run: a wheel of hundreds of megabytes; run by hand.)
    ray = pytest.importorskip("ray")
    game = pyspiel.load_game("kubuguza", {"max_plies": 40})
    jobs = [(game, [adapter.EngineBot("ab:depth=1", seed=s), adapter.EngineBot("random", seed=s)], s)
            for s in range(4)]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)

    def one_game(job):
        # (Defined here, Ray's workers take it by value: they cannot import this file.)
        from open_spiel.python.algorithms import evaluate_bots

        game, bots, seed = job
        return evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                           np.random.RandomState(seed))

    try:
        remote = ray.remote(one_game)
        results = ray.get([remote.remote(job) for job in jobs])
    finally:
        ray.shutdown()
    assert results == [_one_game(job) for job in jobs], "the same games as in this process"


def test_the_engine_bot_beats_openspiels_mcts_in_evaluate_bots():
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("isolo_boys", {"max_plies": 200})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    opponent = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20, evaluator=evaluator,
                            random_state=rng, solve=True)
    for seat in (0, 1):
        bots = [opponent, opponent]
        bots[seat] = adapter.EngineBot("ab:depth=4")
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert returns[seat] == 1.0


def test_engine_bots_play_igisoros_choices_one_action_at_a_time():
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("igisoro", {"max_plies": 80})

    def one_game():
        bots = [adapter.EngineBot("ab:level=2", seed=1), adapter.EngineBot("mcts:iters=200")]
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
        return returns

    assert one_game() == one_game()
    assert sum(one_game()) == 0.0
    # OpenSpiel's C++ evaluate_bots drives the Python bot too.
    bots = [adapter.EngineBot("ab:depth=2"), pyspiel.make_uniform_random_bot(1, 5)]
    assert sum(pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)) == 0.0


def at_a_pending_choice():
    """An Igisoro state of random play where a move waits at a take/pass choice."""
    state = pyspiel.load_game("igisoro").new_initial_state()
    chooser = random.Random(2)
    while not state.actions.pending_actions:
        state.apply_action(chooser.choice(state.legal_actions()))
    return state


def test_the_engine_bot_completes_a_move_begun_elsewhere():
    state = at_a_pending_choice()
    bot = adapter.EngineBot("ab:depth=2")
    while state.actions.pending_actions:
        action, policy = bot.step(state), bot.step_with_policy(state)
        assert action in state.legal_actions() and policy == ([(action, 1.0)], action)
        state.apply_action(action)


def test_what_the_game_type_does_not_provide_raises_as_openspiels_games_do():
    game = pyspiel.load_game("igisoro")
    assert not game.get_type().provides_information_state_tensor
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensor"):
        game.new_initial_state().information_state_tensor(0)
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensorShape"):
        game.information_state_tensor_shape()


@pytest.mark.parametrize("module, extra", [("openspiel", "openspiel"), ("pettingzoo", "pettingzoo")])
def test_a_missing_extra_says_which_to_install(module, extra):
    # The adapter's library made unimportable in a fresh interpreter.
    hidden = {"openspiel": "pyspiel", "pettingzoo": "pettingzoo"}[module]
    script = (f"import sys; sys.modules[{hidden!r}] = None\n"
              f"import isolo_ai.{module}")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 1
    assert f'pip install "isolo-ai[{extra}]"' in done.stderr.strip().splitlines()[-1]


def test_returns_observations_and_players():
    game = pyspiel.load_game("isolo_women")
    won = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/3,1,0,0,0,0,0,0 N"
    state = pyspiel.load_game("isolo_women", {"position": won}).new_initial_state()
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    state = game.new_initial_state()
    assert state.current_player() == 0
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1
    assert game.observation_tensor_shape() == [5, 4, 8]
    assert game.observation_tensor_layout() == pyspiel.TensorLayout.CHW
    tensor = np.asarray(state.observation_tensor(1))
    assert np.array_equal(tensor, state.actions.observation_planes("N").reshape(-1))
    for player in ("N", 1, "North", "player_1"):
        planes = state.actions.observation_planes(player)
        assert planes.shape == (5, 4, 8) and planes.dtype == np.float32
        assert np.array_equal(planes.reshape(-1), tensor)
        assert np.array_equal(state.actions.observation(player), state.actions.observation("N"))
    with pytest.raises(isolo_ai.InputError, match="^player: 2 is not 0 or 1"):
        state.actions.observation(2)
    # The flat form, as a game parameter.
    flat = pyspiel.load_game("isolo_women", {"observation": "flat"})
    assert flat.observation_tensor_shape() == [6 * 8 + 3]
    flat_state = flat.new_initial_state()
    flat_state.apply_action(state.history()[0])
    assert np.array_equal(flat_state.observation_tensor(1), flat_state.actions.observation("N"))
    assert state.observation_string(0) == str(state)
    # The state's own observation_tensor (the engine writing in place) is pyspiel's,
    # through the game's observer, number for number, for either player and form.
    for some in (state, flat_state):
        for player in (0, 1):
            ours = some.observation_tensor(player)
            assert ours.dtype == np.float32 and ours.ndim == 1
            assert np.array_equal(ours, pyspiel.State.observation_tensor(some, player))
        assert np.array_equal(some.observation_tensor(), some.observation_tensor(1))
    with pytest.raises(pyspiel.SpielError, match="player 2 observes nothing"):
        state.observation_tensor(2)
    capped = pyspiel.load_game("isolo_women", {"max_plies": 1}).new_initial_state()
    capped.apply_action(capped.legal_actions()[0])
    assert capped.is_terminal() and capped.returns() == [0.0, 0.0]


def board_cell(lane: int, mine: bool, columns: int = 8) -> tuple[int, int]:
    """Where `show` draws a side's pit (0-based) on the board seen from the viewer's side:
    the viewer's pits on the bottom two rows, the opponent's on the top two."""
    if mine:
        return (3, lane) if lane < columns else (2, 2 * columns - 1 - lane)
    return (0, columns - 1 - lane) if lane < columns else (1, lane - columns)


def test_planes_show_the_board_the_pending_lap_and_the_flags():
    state = at_a_pending_choice()
    mover = "SN"[state.current_player()]
    for viewer in "SN":
        planes = np.asarray(state.actions.observation_planes(viewer)).reshape(5, 4, 8)
        flat = np.asarray(state.actions.observation_list(viewer))
        assert np.allclose(planes[0].reshape(-1), flat[:32])  # seeds, as the flat form
        # The pending lap's end: the flat form's pit (0-based), drawn where `show` has it,
        # on the viewer's rows (the bottom two) or the opponent's (the top two).
        ended = flat[35:].tolist().index(1.0)
        assert planes[1].sum() == 1.0
        assert planes[1][board_cell(ended, mine=viewer == mover)] == 1.0
        assert (planes[2] == 1.0).all()  # a choice is pending
        assert (planes[3] == flat[32]).all() and (planes[4] == flat[33]).all()


def test_openspiels_mcts_bot_plays_through_it():
    for name in ["igisoro", "isolo_boys"]:
        game = pyspiel.load_game(name, {"max_plies": 40})
        rng = np.random.RandomState(4)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=30, evaluator=evaluator,
                           random_state=rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:
                action = bot.step(state)
            else:
                action = rng.choice(state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
        assert sum(state.returns()) == 0.0


def end_positions(name: str, seed: int, count: int, before_end: int) -> list[str]:
    """Positions `before_end` plies or so before the end of random games won."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = Game(Variant.load(name), max_plies=2000)
        while game.outcome() is None:
            game.play(rng.choice(game.legal_moves()))
        if game.outcome() == "draw":
            continue
        for _ in range(rng.randint(before_end // 2, before_end)):
            game.undo()
        positions.append(game.position)
    return positions


@pytest.mark.parametrize(
    "name, game_name, plies, count",
    [("isolo-women", "isolo_women", 5, 6), ("igisoro", "igisoro", 3, 4)],
)
def test_openspiels_exact_search_agrees_with_solve(cli, name, game_name, plies, count):
    kinds = set()
    # (A seed whose games give both kinds of result near their end in each variant.)
    for position in end_positions(name, seed=13, count=count, before_end=2 * plies):
        theirs = cli("solve", "--variant", name, "--position", position, "--method", "ab",
                     "--max-plies", str(plies))
        # Drawn at the cap: a side wins only by leaving the other no move within it.
        game = pyspiel.load_game(game_name, {"position": position, "max_plies": plies})
        state = game.new_initial_state()
        value, _ = minimax.alpha_beta_search(game, state=state, maximum_depth=10_000)
        expected = {"win": 1.0, "loss": -1.0}.get(theirs["result"], 0.0)
        assert value == expected, f"{position}: solve says {theirs['result']}"
        if value != 0.0:
            plain, _ = minimax.expectiminimax(state, 10_000, None, state.current_player())
            assert plain == value
        kinds.add(value)
    assert len(kinds) > 1, f"only {kinds}: the positions should show more than one result"


def test_a_bad_parameter_is_an_input_error_as_elsewhere():
    with pytest.raises(isolo_ai.InputError, match="^max_plies: must be"):
        pyspiel.load_game("igisoro", {"max_plies": 0})
    with pytest.raises(isolo_ai.InputError, match="^max_plies: must be"):
        Game(Variant.load("igisoro"), max_plies=0)
