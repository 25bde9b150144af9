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


def public_callables():
    """Every function, class and method the package exports, by name."""
    for name in isolo_ai.__all__:
        value = getattr(isolo_ai, name)
        if isinstance(value, type) and issubclass(value, BaseException) or not callable(value):
            continue
        yield name, value
        if isinstance(value, type):
            for attribute in dir(value):
                method = getattr(value, attribute)
                if not attribute.startswith("_") and callable(method):
                    yield f"{name}.{attribute}", method


def test_every_signature_shows_its_real_defaults():
    import inspect

    shown = 0
    for name, value in public_callables():
        try:
            signature = inspect.signature(value)
        except (TypeError, ValueError):
            continue
        for parameter in signature.parameters.values():
            assert parameter.default is not Ellipsis, f"{name}({parameter.name}=...)"
        shown += 1
    assert shown > 30
    assert str(inspect.signature(isolo_ai.solve)).endswith(
        "max_plies=30, time_ms=60000, threads=1, hash_mb=256, nodes=None, exact_length=False, "
        "checkpoints=None, cancel=None)"
    )
    assert str(inspect.signature(isolo_ai.Engine)) == "(spec, seed=0)"


def test_the_version_is_the_packages():
    from importlib.metadata import version

    assert isolo_ai.__version__ == version("isolo-ai")


def test_a_move_is_a_str_or_a_pits_number():
    game = Game(Variant.load("isolo-boys"))
    game.play(7)
    assert game.moves == ["7"]
    with pytest.raises(TypeError, match="^move: expected a move"):
        game.play(7.0)
    with pytest.raises(TypeError, match="'move'"):
        game.play()


def test_a_refused_variant_names_the_argument_on_every_route():
    routes = {
        "variant": [lambda: Game("nope"), lambda: isolo_ai.perft("nope", 1),
                    lambda: isolo_ai.match("ab", "random", 2, variant="nope")],
        "variants": [lambda: isolo_ai.compare("nope", games=2)],
    }
    for argument, calls in routes.items():
        for call in calls:
            with pytest.raises(InputError, match=f"^{argument}: unknown variant 'nope'"):
                call()


def test_a_refused_engine_names_the_argument_that_gave_it():
    routes = {
        "engine_b": lambda: isolo_ai.match("ab:depth=1", "ab:depht=2", 2),
        "engines": lambda: isolo_ai.tournament(["ab:depth=1", "ab:depth=2", "ab:dep=1"], 2),
        "engine": lambda: isolo_ai.compare("igisoro", games=2, engine="ab:depht=2"),
        "spec": lambda: isolo_ai.Engine("ab:depht=2"),
    }
    for argument, call in routes.items():
        with pytest.raises(InputError, match=f"^{argument}: engine 'ab:dep(ht=2|=1)': unknown key"):
            call()


def test_the_adapters_name_a_refused_variant_too():
    pyspiel = pytest.importorskip("pyspiel")
    import isolo_ai.openspiel  # noqa: F401

    with pytest.raises(InputError, match="^rules: unknown variant 'nope'"):
        pyspiel.load_game("isolo", {"rules": "nope"})
    pettingzoo = pytest.importorskip("isolo_ai.pettingzoo")
    with pytest.raises(InputError, match="^variant: unknown variant 'nope'"):
        pettingzoo.env(variant="nope")
