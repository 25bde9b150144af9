"""One contract for every front end: each value of tests/contract/refusals.json that
Python can pass is refused with an InputError naming the argument, then the same words
as the command line, UGI and the web API (tests/command_line_and_server/contract.rs)."""

import json
import subprocess
from pathlib import Path

import pytest
from conftest import binary_path

import isolo_ai
from isolo_ai import Game, InputError, Variant

TABLE = Path(__file__).resolve().parents[2] / "tests" / "contract" / "refusals.json"
CASES = [case for case in json.loads(TABLE.read_text())["cases"] if "python" in case]


def call(name, kwargs):
    boys = Variant.load("isolo-boys")
    game = Game(boys)
    game.play(game.legal_moves()[0])
    if name == "perft":
        return isolo_ai.perft(boys, **kwargs)
    if name in ("match", "compare"):
        return getattr(isolo_ai, name)(**kwargs)
    return getattr(isolo_ai, name)(game, **kwargs)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["refusal"])
def test_python_refuses_each_value_in_the_shared_words(case):
    python = case["python"]
    expected = f'{python["name"]}: {case["refusal"]}'
    with pytest.raises(InputError) as refused:
        call(python["call"], python["kwargs"])
    assert str(refused.value) == expected


def test_the_table_reaches_python():
    assert len(CASES) >= 8


OVER = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S"


def test_a_finished_game_is_analysed_as_the_command_line_analyses_it(cli):
    game = Game(Variant.load("isolo-boys"), position=OVER)
    ours = isolo_ai.analyze(game)
    assert ours == cli("analyze", "--variant", "isolo-boys", "--position", OVER)
    assert ours["score"] == {"type": "loss", "plies": 0, "text": "loss in 0"}
    assert ours["end"] == "North wins, no-moves"


@pytest.mark.parametrize("argument, flag, text", [
    ("position", "--position", "1,2,3 S"),
    ("moves", "--moves", "7 99"),
    ("moves", "--moves", "7 8 3"),
])
def test_a_bad_setup_is_refused_as_the_command_line_refuses_it(argument, flag, text):
    done = subprocess.run([binary_path(), "analyze", "--variant", "isolo-boys", flag, text],
                          capture_output=True, text=True)
    assert done.returncode == 2
    problem = done.stderr.strip().removeprefix(f"error: {flag}: ")
    with pytest.raises(InputError) as refused:
        Game(Variant.load("isolo-boys"), **{argument: text})
    assert str(refused.value) == f"{argument}: {problem}"
