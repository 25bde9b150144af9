"""The integer-action encoding (`ActionGame`) the adapters share: its moves are the
rules' moves, it copies and pickles, and it refuses what is not legal."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import isolo_ai
from isolo_ai import ActionGame, Game, IllegalMove, InputError, Variant


def complete_moves(actions: ActionGame) -> list[str]:
    """Every move, in notation, made by choosing each legal action in turn."""
    ply = actions.game.plies
    moves = []
    for action in actions.legal_actions():
        child = actions.clone()
        child.apply(action)
        if child.game.plies > ply:
            moves.append(child.game.moves[-1])
        else:
            moves.extend(complete_moves(child))
    return moves


def random_positions(name: str, seed: int, count: int) -> list[Game]:
    """Games of `name` after random moves: `count` of them, a few plies apart."""
    rng = random.Random(seed)
    game = Game(Variant.load(name))
    games = []
    while len(games) < count and game.outcome() is None:
        games.append(game.clone())
        for _ in range(rng.randint(1, 5)):
            moves = game.legal_moves(sequences=True)
            if not moves:
                break
            game.play(rng.choice(moves))
    return games


@pytest.mark.parametrize("name", isolo_ai.variants())
def test_the_actions_make_exactly_the_legal_moves(name):
    for game in random_positions(name, seed=7, count=25):
        assert complete_moves(ActionGame(game)) == game.legal_moves(sequences=True), game.position


def test_a_capture_choice_is_an_action_of_the_same_side():
    variant = Variant.load("igisoro")
    for game in random_positions("igisoro", seed=2, count=40):
        for move in game.legal_moves(sequences=True):
            if "x" not in move and "p" not in move:
                continue
            actions = ActionGame(game)
            side = actions.to_move
            pit, choices = int(move.rstrip("xp")), move[len(move.rstrip("xp")) :]
            actions.apply(pit - 1)
            for made, letter in enumerate(choices):
                assert actions.pending == move[: len(str(pit)) + made]
                assert actions.to_move == side and actions.outcome() is None
                assert actions.string_to_action(letter) in actions.legal_actions()
                actions.apply(actions.string_to_action(letter))
            assert actions.pending is None and actions.game.moves[-1] == move
            return
    pytest.fail(f"no optional capture in {variant.name}'s random positions")


def test_a_laps_direction_is_an_action_of_the_same_side():
    for game in random_positions("kubuguza", seed=3, count=60):
        for move in game.legal_moves(sequences=True):
            if not move.endswith("c"):
                continue
            actions = ActionGame(game)
            assert [actions.action_to_string(a) for a in (16, 17)] == ["a", "c"]
            side = actions.to_move
            made = actions.move_to_actions(move)
            assert made[-1] == actions.string_to_action("c") == 17
            for action in made[:-1]:
                actions.apply(action)
                assert actions.to_move == side and actions.pending is not None
            assert actions.legal_actions() in ([17], [16, 17])
            actions.apply(made[-1])
            assert actions.pending is None and actions.game.moves[-1] == move
            return
    pytest.fail("no clockwise lap in Kubuguza's random positions")


def test_a_pending_direction_is_seen_mid_move_with_every_seed():
    pits = 16
    for game in random_positions("kubuguza", seed=3, count=60):
        for move in game.legal_moves(sequences=True):
            if move.count("a") + move.count("c") < 2:
                continue  # a move that turns at two laps or more
            actions = ActionGame(game)
            side = actions.to_move
            before = game.observation_list()
            seen = []
            pit, *choices = actions.move_to_actions(move)
            actions.apply(pit)
            for action in choices:
                observed = actions.observation_list(side)
                assert sum(observed[: 4 * 8]) == pytest.approx(1.0), "every seed counted"
                marked = [k for k, v in enumerate(observed[-pits:]) if v == 1.0]
                assert len(marked) == 1, observed[-pits:]
                seen.append(observed[: 4 * 8])
                actions.apply(action)
            assert actions.pending is None and actions.game.moves[-1] == move
            # At a later lap's direction the board is the one sown so far.
            assert any(board != before[: 4 * 8] for board in seen[1:]), move
            return
    pytest.fail("no move of Kubuguza's random positions turns at two laps")


IGISORO_CLOCKWISE = """name = "igisoro-clockwise"
base = "igisoro"
clockwise_from = [1, 8, 10, 15]
"""


def test_captures_and_directions_are_both_actions_where_laps_turn_and_captures_are_optional():
    variant = Variant.from_toml(IGISORO_CLOCKWISE)
    rng = random.Random(5)
    game, seen = Game(variant), set()
    for _ in range(40):
        moves = game.legal_moves(sequences=True)
        if not moves or len(moves) > 2000:
            break
        assert complete_moves(ActionGame(game)) == moves, game.position
        seen.update(letter for move in moves for letter in move if letter.isalpha())
        game.play(rng.choice(moves))
    assert {"x", "p", "a", "c"} <= seen, seen


IKIBUGUZO_LEAVING = """name = "ikibuguzo-leaving"
base = "ikibuguzo"
clockwise_leave = "other-pit"
"""


def test_leaving_a_clockwise_capture_is_the_second_choice_action():
    variant = Variant.from_toml(IKIBUGUZO_LEAVING)
    rng = random.Random(6)
    game, left = Game(variant), 0
    for _ in range(60):
        moves = game.legal_moves(sequences=True)
        if not moves:
            break
        assert complete_moves(ActionGame(game)) == moves, game.position
        for move in (m for m in moves if "l" in m):
            left += 1
            actions = ActionGame(game)
            made = actions.move_to_actions(move)
            # The pit's action, then one a letter: up to the leave, 16 sows on (o) and
            # 17 leaves (l).
            letters = move.lstrip("0123456789")
            for action in made[: 1 + letters.index("l")]:
                actions.apply(action)
            assert [actions.action_to_string(a) for a in (16, 17)] == ["o", "l"]
            assert actions.string_to_action("l") == 17 == made[1 + letters.index("l")]
        game.play(rng.choice(moves))
    assert left > 0, "no move left a capture"


def test_a_move_in_notation_is_its_actions():
    for game in random_positions("igisoro", seed=4, count=20):
        for move in game.legal_moves(sequences=True):
            actions = ActionGame(game)
            for action in actions.move_to_actions(move):
                actions.apply(action)
            assert actions.pending is None and actions.game.moves[-1] == move
    actions = ActionGame(Game(Variant.load("igisoro")))
    assert actions.move_to_actions("11xp") == [10, 16, 17]
    with pytest.raises(InputError):
        actions.move_to_actions("99")


def test_actions_are_named_in_the_notation():
    actions = ActionGame(Game(Variant.load("igisoro")))
    assert actions.num_actions == 18
    assert (actions.take_action, actions.pass_action) == (16, 17)
    assert [actions.action_to_string(a) for a in (0, 15, 16, 17)] == ["1", "16", "x", "p"]
    for action in range(18):
        assert actions.string_to_action(actions.action_to_string(action)) == action
    with pytest.raises(InputError, match=r"action: must be 0..=17, found 18"):
        actions.action_to_string(18)
    with pytest.raises(InputError, match="not a pit from 1 to 16"):
        actions.string_to_action("17")
    assert ActionGame(Game(Variant.load("isolo-women"))).max_actions_per_move == 1
    assert actions.max_actions_per_move == 1 + actions.game.variant.rules["max_laps"]


def test_illegal_actions_are_refused_and_change_nothing():
    actions = ActionGame(Game(Variant.load("isolo-boys")))
    before = actions.position
    illegal = [a for a in range(actions.num_actions) if a not in actions.legal_actions()]
    assert actions.take_action in illegal, "no choice is pending"
    for action in illegal:
        with pytest.raises(IllegalMove, match=f"action {action} is not legal"):
            actions.apply(action)
    assert actions.position == before and actions.game.plies == 0


def test_a_finished_game_has_no_actions():
    women = Variant.load("isolo-women")
    lost = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/3,1,0,0,0,0,0,0 N"
    actions = ActionGame(Game(women, position=lost))
    assert actions.outcome() == "S" and actions.legal_actions() == []
    assert actions.player is None
    capped = ActionGame(Game(women, max_plies=1))
    assert capped.player == 0
    capped.apply(capped.legal_actions()[0])
    assert capped.outcome() == "draw" and capped.legal_actions() == []


def test_copies_and_pickles_play_on_apart_mid_move():
    rng = random.Random(5)
    actions = ActionGame(Game(Variant.load("igisoro"), max_plies=300))
    saved = []
    while actions.outcome() is None:
        if actions.pending is not None and len(saved) < 20:
            saved.append((actions.clone(), pickle.loads(pickle.dumps(actions)), str(actions)))
        actions.apply(rng.choice(actions.legal_actions()))
    assert saved, "moves with choices were made"
    for clone, unpickled, text in saved:
        assert str(clone) == str(unpickled) == text
        assert clone.pending_actions == unpickled.pending_actions
        assert clone.legal_actions() == unpickled.legal_actions()
        assert clone.game.moves == unpickled.game.moves


def test_the_observation_is_the_board_from_the_players_side():
    game = Game(Variant.load("igisoro"), moves="3")
    actions = ActionGame(game)
    assert actions.to_move == "N"
    seen = actions.observation("N")
    assert seen.dtype == np.float32 and seen.shape == (actions.observation_size,) == (51,)
    assert np.array_equal(seen[:34], game.observation()), "the mover's view, as Game's"
    assert not np.array_equal(actions.observation("S")[:32], seen[:32])
    assert seen[34] == 0.0 and not seen[35:].any(), "no choice pending"
    with pytest.raises(InputError, match="^player: .E. is not 0 or 1, .S. or .N."):
        actions.observation("E")


def test_the_observation_shows_the_move_being_made():
    for game in random_positions("igisoro", seed=3, count=60):
        actions = ActionGame(game)
        for action in actions.legal_actions():
            child = actions.clone()
            child.apply(action)
            if child.pending is None:
                continue
            seen = child.observation(child.to_move)
            assert seen[34] == 1.0 and seen[35:].sum() == 1.0, "the lap's end is marked"
            assert abs(seen[:32].sum() - 1.0) < 1e-5, "seeds are kept while sowing"
            assert not np.array_equal(seen[:32], actions.observation(child.to_move)[:32])
            return
    pytest.fail("no choice was reached")


def test_an_observer_writes_in_place_what_the_observations_hold():
    for planes in (True, False):
        observer = isolo_ai.Observer(ActionGame(Game("igisoro")), planes=planes)
        tensor = observer.tensor
        for game in random_positions("igisoro", seed=5, count=20):
            actions = ActionGame(game)
            for player in ("S", "N"):
                seen = observer.observe(actions, player)
                assert seen is tensor, "the same array each time"
                wanted = actions.observation_planes(player) if planes else actions.observation(player)
                assert np.array_equal(seen, wanted)
                listed = actions.observation_planes_list(player) if planes else actions.observation_list(player)
                assert np.array_equal(seen.reshape(-1), np.asarray(listed, dtype=np.float32))
    with pytest.raises(isolo_ai.InputError, match="out: 4 bytes, expected"):
        ActionGame(Game("igisoro")).observe_into("S", bytearray(4), True)


IGISORO_RETREAT = """name = "igisoro-retreat"
base = "igisoro"
retreat = "front-to-back"
"""


KUBUGUZA_RETREAT = """name = "kubuguza-retreat"
base = "kubuguza"
capture_choice = "optional"
retreat = "front-to-back"
"""


@pytest.mark.parametrize("rules", [IGISORO_RETREAT, KUBUGUZA_RETREAT])
def test_the_opponent_answers_a_pass_as_an_action_of_its_own(rules):
    variant = Variant.from_toml(rules)
    rng = random.Random(9)
    game, answered = Game(variant), 0
    for _ in range(30):
        moves = game.legal_moves(sequences=True)
        if not moves or len(moves) > 2000:
            break
        assert complete_moves(ActionGame(game)) == moves, game.position
        for move in (m for m in moves if "r" in m):
            actions = ActionGame(game)
            mover = actions.to_move
            pit = move.rstrip("xprsac")
            actions.apply(int(pit) - 1)
            for letter in move[len(pit) :]:
                answering = letter in "rs"
                assert (actions.to_move != mover) == answering, move
                assert actions.player == (0 if actions.to_move == "S" else 1)
                if answering:
                    assert [actions.action_to_string(a) for a in actions.legal_actions()] in (
                        ["r", "s"],
                        ["r"],
                        ["s"],
                    )
                actions.apply(actions.string_to_action(letter))
            assert actions.pending is None and actions.game.moves[-1] == move
            answered += 1
        game.play(rng.choice(moves))
    assert answered > 10, answered


def test_an_engine_completes_a_move_half_made_whichever_side_decides():
    variant = Variant.from_toml(IGISORO_RETREAT)
    engine = isolo_ai.Engine("ab:depth=2", seed=1)
    rng = random.Random(3)
    game, completed = Game(variant), 0
    while completed < 6 and game.plies < 200 and game.legal_moves(sequences=True):
        moves = game.legal_moves(sequences=True)
        for move in (m for m in moves if "r" in m):
            half = move[: move.index("r")]
            for partial in (half, half + "r", half + "s"):
                if partial in moves or not any(m.startswith(partial) for m in moves):
                    continue
                whole = engine.complete(game, partial)
                assert whole.startswith(partial) and len(whole) > len(partial)
                assert whole in moves, (game.position, partial, whole)
                completed += 1
        game.play(rng.choice(moves))
    assert completed >= 6, completed
    with pytest.raises(IllegalMove, match="not a move half made"):
        engine.complete(Game(variant), "1")
    with pytest.raises(InputError, match="partial: "):
        engine.complete(Game(variant), "x7")
