"""The rules through Python against the command line: perft, legal moves, games played
move by move, positions, outcomes, and the errors."""

from __future__ import annotations

import copy
import inspect
import random
import time

import numpy as np
import pytest

import isolo_ai
from isolo_ai import Game, IllegalMove, InputError, Variant

PRESETS = ["isolo-women", "isolo-boys", "igisoro"]


def test_variants_are_the_presets_and_readings():
    names = isolo_ai.variants()
    assert names[:3] == PRESETS
    assert "isolo-boys-capture-ends" in names
    for name in names:
        variant = Variant.load(name)
        assert variant.name == name
        assert variant.columns == 8 and variant.pits == 16


def test_names_take_hyphens_or_underscores():
    for name in isolo_ai.variants():
        assert Variant.load(name.replace("-", "_")) == Variant.load(name)
    with pytest.raises(isolo_ai.InputError):
        Variant.load("isolo_girls")


def test_rules_round_trip_through_toml():
    for name in isolo_ai.variants():
        variant = Variant.load(name)
        again = Variant.from_toml(variant.to_toml())
        assert again == variant and hash(again) == hash(variant)
        assert again.rules == variant.rules
    small = Variant.from_toml('base = "isolo-women"\ncolumns = 4\nstart = "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2"\n')
    assert small.columns == 4 and small.name == "custom"
    assert Game(small).board.shape == (4, 4)


def test_how_to_play_tells_every_rule_the_variant_sets():
    retreat = " ".join(Variant.load("igisoro-retreat").how_to_play)
    assert "the opponent answers at once: retreat" in retreat
    assert "front-row end pits" in " ".join(Variant.load("ikibuguzo").how_to_play)
    assert "front-row end pits" not in " ".join(Variant.load("igisoro").how_to_play)


@pytest.mark.parametrize("name", PRESETS)
def test_perft_equals_the_command_line(cli, name):
    variant = Variant.load(name)
    for depth in range(0, 5):
        expected = cli("perft", "--variant", name, "--depth", str(depth))["nodes"]
        assert isolo_ai.perft(variant, depth) == expected


def random_game(variant: Variant, seed: int, plies: int) -> Game:
    chooser = random.Random(seed)
    game = Game(variant)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(chooser.choice(moves))
    return game


@pytest.mark.parametrize("name", PRESETS)
def test_games_end_where_apply_says(cli, name):
    variant = Variant.load(name)
    for seed in range(4):
        game = random_game(variant, seed, 40)
        answer = cli("apply", "--variant", name, "--moves", " ".join(game.moves))
        assert answer["position"] == game.position
        assert answer["to_move"] == game.to_move
        # The moves of the position reached, as `moves` lists them (unless the game's
        # history ended it: a repetition, which a position alone does not show).
        listed = cli("moves", "--variant", name, "--position", game.position)
        if game.outcome() is None:
            assert [m["move"] for m in listed["moves"]] == game.legal_moves(sequences=True)


def test_board_and_observation():
    variant = Variant.load("isolo-women")
    game = Game(variant)
    board = game.board
    assert board.dtype == np.uint8 and board.shape == (4, 8)
    assert board.sum() == sum(int(n) for n in variant.start.split()[0].replace("/", ",").split(","))
    observation = game.observation()
    assert observation.dtype == np.float32 and observation.shape == (4 * 8 + 2,)
    assert abs(float(observation[:32].sum()) - 1.0) < 1e-5
    game.play(game.legal_moves()[0])
    # North to move: its own rows are at the bottom, as South's were.
    flipped = game.observation()[:32].reshape(4, 8)
    assert flipped.sum() == pytest.approx(1.0)


def test_undo_clone_and_copy_are_independent():
    variant = Variant.load("igisoro")
    game = random_game(variant, 7, 10)
    other = game.clone()
    copied = copy.deepcopy(game)
    before = game.position
    game.play(game.legal_moves()[0])
    assert other.position == before and copied.position == before
    assert game.undo() is not None and game.position == before
    while game.undo() is not None:
        pass
    assert game.plies == 0 and game.position == variant.start


def test_the_long_game_rule_counts_plies_without_a_capture():
    lone = "0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0/7,18,0,10,4,1,2,5/2,2,3,0,3,1,4,1 S"
    rules = 'base = "igisoro"\ndead_position = "play-on"\nlong_game_plies = 2\n'
    game = Game(Variant.from_toml(rules), position=lone)
    assert game.plies_without_capture == 0
    assert game.long_game_warning.startswith("2 more moves without a capture")
    game.play(game.legal_moves()[0])
    assert game.plies_without_capture == 1
    game.play(game.legal_moves()[0])
    assert game.outcome() == "draw" and game.end == "long-game"
    assert game.long_game_warning is None


def test_outcome_no_move_and_ply_cap():
    boys = Variant.load("isolo-boys")
    # The boys' game from the seeds' rules ends fast under random play.
    game = random_game(boys, 1, 2000)
    assert game.outcome() in ("S", "N", "draw")
    assert game.legal_moves() == [] or game.outcome() == "draw"
    assert game.end in ("no-moves", "repetition", "long-game", "ply-limit")
    capped = Game(boys, max_plies=3)
    for _ in range(3):
        capped.play(capped.legal_moves()[0])
    assert capped.outcome() == "draw" and capped.end == "ply-limit"
    assert capped.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        capped.play("1")


def test_errors_carry_the_engine_messages():
    with pytest.raises(InputError, match="unknown variant 'nope'"):
        Variant.load("nope")
    with pytest.raises(ValueError):
        Variant.from_toml("columns = 200")
    variant = Variant.load("igisoro")
    with pytest.raises(InputError, match="expected 4 rows"):
        Game(variant, position="1,2,3 S")
    with pytest.raises(InputError, match="move 2 of 2"):
        Game(variant, moves="1 99")
    game = Game(variant)
    with pytest.raises(IllegalMove, match="pit 99"):
        game.play("99")
    assert issubclass(IllegalMove, InputError) and issubclass(InputError, ValueError)
    with pytest.raises(InputError, match="depth"):
        isolo_ai.perft(variant, 1000)


# Positions of vast choice trees met in seeded random games: 20,747,365 take/pass
# sequences (of whose distinct positions the list's bound keeps 440), and 37,148,477
# (more than 200,000 distinct, of which the list's bound keeps 8,022).
VAST = [
    ("igisoro-retreat", "8,1,3,1,1,1,0,2/1,2,1,0,2,0,0,0/1,2,5,3,0,6,0,1/4,1,6,5,2,1,4,0 S"),
    ("igisoro-clockwise", "5,1,1,1,1,1,1,1/0,1,4,1,1,1,1,1/5,0,1,2,4,1,5,1/1,6,3,4,0,2,4,3 S"),
]


@pytest.mark.parametrize("name,position", VAST)
def test_a_vast_position_lists_its_distinct_moves_and_bounds_the_rest(cli, name, position):
    game = Game(Variant.load(name), position=position)
    started = time.monotonic()
    moves = game.legal_moves()
    assert time.monotonic() - started < 5, "answered at once"
    listed = cli("moves", "--variant", name, "--position", position, "--distinct")
    assert moves == [m["move"] for m in listed["moves"]]
    assert game.legal_moves_cut == (not listed["complete"])
    for move in moves[:20]:
        game.clone().play(move)
    with pytest.raises(InputError, match=r"more than 100000 legal moves .*limit=100000"):
        game.legal_moves(sequences=True)
    with pytest.raises(InputError, match="more than 10 legal moves"):
        game.legal_moves(sequences=True, limit=10)
    with pytest.raises(InputError, match="limit: must be"):
        game.legal_moves(sequences=True, limit=-1)
    assert inspect.signature(Game.legal_moves).parameters["limit"].default == 100_000


def test_a_variant_is_named_wherever_one_is_taken():
    assert isolo_ai.perft("isolo-boys", 2) == isolo_ai.perft(Variant.load("isolo-boys"), 2)
    assert Game("igisoro").position == Game(Variant.load("igisoro")).position
    assert Game("isolo_women").variant == Variant.load("isolo-women")
    summary = isolo_ai.playouts("igisoro", 3, max_plies=5)
    assert summary["winners"] == ["draw"] * 3 and summary["unfinished"] == 3
    with pytest.raises(InputError, match="^variant: unknown variant 'nope'"):
        Game("nope")
    with pytest.raises(TypeError, match="expected a Variant"):
        Game(3)
