"""Speed of the Python package: plies per second of a Python loop over legal_moves() and
play(), of the native playouts(), of the OpenSpiel adapter against OpenSpiel's own C++
Oware and against what a Python game reaches at all (OpenSpiel's own Python games
against their C++ twins; when open_spiel is installed), and what analyze() costs over
the binary's analyze.

    python python/examples/speed.py [path/to/isolo-ai]
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import isolo_ai


def python_loop(variant: isolo_ai.Variant, games: int) -> float:
    """Plies per second of random games played from Python, move by move."""
    chooser = random.Random(0)
    plies = 0
    started = time.perf_counter()
    for _ in range(games):
        game = isolo_ai.Game(variant, max_plies=1000)
        while True:
            moves = game.legal_moves()
            if not moves:
                break
            game.play(chooser.choice(moves))
            plies += 1
    return plies / (time.perf_counter() - started)


def native_playouts(variant: isolo_ai.Variant, games: int) -> float:
    """Plies per second of random games played in native code."""
    started = time.perf_counter()
    summary = isolo_ai.playouts(variant, games, seed=0, max_plies=1000)
    return sum(summary["plies"]) / (time.perf_counter() - started)


def openspiel_actions(name: str, games: int, observe: bool = False) -> tuple[float, float]:
    """Actions and plies per second of random games of the OpenSpiel game `name`, played
    from Python through pyspiel's state (legal_actions, apply_action; with `observe`,
    the observation tensor read every step, as a learning loop reads it)."""
    import pyspiel

    import isolo_ai.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(name)
    chooser = random.Random(0)
    actions = plies = 0
    started = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if observe:
                state.observation_tensor(player)
            state.apply_action(chooser.choice(state.legal_actions()))
            actions += 1
            plies += state.is_terminal() or state.current_player() != player
    elapsed = time.perf_counter() - started
    return actions / elapsed, plies / elapsed


ROUNDS = 5


def adapter_against_oware(name: str, games: int) -> tuple[float, float, float, float]:
    """The adapter's speed over OpenSpiel's C++ oware, each round measuring oware just
    before the game `name` (the machine's speed drifts): the median round's ratio, and
    its actions/s, plies/s and oware's actions/s."""
    rounds = []
    for _ in range(ROUNDS):
        oware, _ = openspiel_actions("oware", 100)
        actions, plies = openspiel_actions(name, games)
        rounds.append((actions / oware, actions, plies, oware))
    return sorted(rounds)[ROUNDS // 2]


def observing_against_oware(name: str, games: int) -> tuple[float, float, float]:
    """A loop that reads the observation tensor every step, over the same loop on
    OpenSpiel's C++ oware (each round measuring oware just before): the median round's
    ratio, its actions/s and oware's."""
    rounds = []
    for _ in range(ROUNDS):
        oware, _ = openspiel_actions("oware", 100, observe=True)
        actions, _ = openspiel_actions(name, games, observe=True)
        rounds.append((actions / oware, actions, oware))
    return sorted(rounds)[ROUNDS // 2]


def observation_costs(name: str, calls: int = 20000) -> tuple[float, float, float]:
    """Microseconds a call: pyspiel's ``observation_tensor()`` on a state ten actions
    in, an ``isolo_ai.Observer`` reused, and ``ActionGame.observation_planes()``."""
    import pyspiel

    import isolo_ai.openspiel  # noqa: F401

    state = pyspiel.load_game(name).new_initial_state()
    chooser = random.Random(1)
    for _ in range(10):
        state.apply_action(chooser.choice(state.legal_actions()))
    player = state.current_player()

    def per_call(call) -> float:
        started = time.perf_counter()
        for _ in range(calls):
            call()
        return (time.perf_counter() - started) / calls * 1e6

    observer = isolo_ai.Observer(state.actions)
    return (per_call(lambda: state.observation_tensor(player)),
            per_call(lambda: observer.observe(state.actions, player)),
            per_call(lambda: state.actions.observation_planes(player)))


#: OpenSpiel's own Python games with a C++ twin, each pair (C++, Python).
TWINS = (
    ("tic_tac_toe", "python_tic_tac_toe"),
    ("kuhn_poker", "python_kuhn_poker"),
)


def python_ceiling(games: int) -> list[tuple[str, float, float]]:
    """What a Python game reaches at all through pyspiel, in the loop above: each of
    OpenSpiel's own Python games over its C++ twin (median of the rounds, the twin
    measured just before), with its actions/s."""
    from open_spiel.python import games as _  # noqa: F401  (registers them)

    table = []
    for cpp, python in TWINS:
        rounds = []
        for _ in range(ROUNDS):
            theirs, _ = openspiel_actions(cpp, games)
            ours, _ = openspiel_actions(python, games)
            rounds.append((ours / theirs, ours))
        ratio, actions = sorted(rounds)[ROUNDS // 2]
        table.append((python, ratio, actions))
    return table


def adapter_against_ceiling(name: str, games: int) -> tuple[float, float]:
    """The adapter's actions/s over OpenSpiel's own Python tic-tac-toe's, the simplest
    Python game there is, each round measuring it just before (median of the rounds)."""
    from open_spiel.python import games as _  # noqa: F401

    rounds = []
    for _ in range(ROUNDS):
        ceiling, _ = openspiel_actions("python_tic_tac_toe", 300)
        actions, _ = openspiel_actions(name, games)
        rounds.append((actions / ceiling, ceiling))
    return sorted(rounds)[ROUNDS // 2]


def analyze_cost(binary: str, runs: int = 5) -> tuple[float, float]:
    """Wall milliseconds of a 20000-node analysis: from Python, and as a process."""
    game = isolo_ai.Game(isolo_ai.Variant.load("igisoro"))
    started = time.perf_counter()
    for _ in range(runs):
        isolo_ai.analyze(game, nodes=20_000)
    ours = (time.perf_counter() - started) / runs * 1000
    started = time.perf_counter()
    for _ in range(runs):
        out = subprocess.run(
            [binary, "analyze", "--variant", "igisoro", "--nodes", "20000", "--json"],
            capture_output=True, check=True, text=True,
        )
        json.loads(out.stdout)
    theirs = (time.perf_counter() - started) / runs * 1000
    return ours, theirs


def main() -> None:
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/isolo-ai"
    for name in ("isolo-women", "igisoro"):
        variant = isolo_ai.Variant.load(name)
        print(f"{name}: Python loop {python_loop(variant, 20):,.0f} plies/s, "
              f"native playouts {native_playouts(variant, 200):,.0f} plies/s")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: no adapter figures")
    else:
        for name, games in (("isolo_women", 100), ("isolo_boys", 100), ("igisoro", 5)):
            ratio, actions, plies, oware = adapter_against_oware(name, games)
            print(f"OpenSpiel adapter {name}: {ratio:.2f} x oware, the median of "
                  f"{ROUNDS} rounds ({actions:,.0f} actions/s = {plies:,.0f} plies/s; "
                  f"oware {oware:,.0f} actions/s)")
        for name, games in (("isolo_boys", 100), ("igisoro", 5)):
            ratio, actions, oware = observing_against_oware(name, games)
            tensor, reused, planes = observation_costs(name)
            print(f"OpenSpiel adapter {name}, the observation read every step: "
                  f"{ratio:.2f} x oware in the same loop ({actions:,.0f} actions/s; oware "
                  f"{oware:,.0f}); observation_tensor() {tensor:.1f} us, a reused "
                  f"Observer {reused:.1f} us, observation_planes() {planes:.1f} us")
        for python, ratio, actions in python_ceiling(300):
            print(f"OpenSpiel's own {python}: {ratio:.2f} x its C++ twin "
                  f"({actions:,.0f} actions/s)")
        for name, games in (("isolo_women", 100), ("isolo_boys", 100), ("igisoro", 5),
                            ("kubuguza", 5)):
            ratio, ceiling = adapter_against_ceiling(name, games)
            print(f"OpenSpiel adapter {name}: {ratio:.2f} x python_tic_tac_toe's "
                  f"actions/s ({ceiling:,.0f})")
    ours, theirs = analyze_cost(binary)
    print(f"analyze 20000 nodes on igisoro: {ours:.1f} ms from Python, "
          f"{theirs:.1f} ms as a process")


if __name__ == "__main__":
    main()
