"""The engine through Python: searches and proofs equal to the command line's, random
playouts, the GIL released during a search, and Ctrl-C inside a long call."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import isolo_ai
from isolo_ai import Game, InputError, Variant

from conftest import binary_path

SPEED_FIELDS = ("nps", "time_ms")


def without_speed(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k not in SPEED_FIELDS}


@pytest.mark.parametrize("engine", ["ab", "mcts"])
def test_analyze_with_a_node_limit_is_the_command_line_s(cli, engine):
    moves = "7 13"
    game = Game(Variant.load("isolo-boys"), moves=moves)
    ours = isolo_ai.analyze(game, engine=engine, nodes=3000, multipv=2)
    theirs = cli(
        "analyze", "--variant", "isolo-boys", "--moves", moves,
        "--engine", engine, "--nodes", "3000", "--multipv", "2",
    )
    assert without_speed(ours) == without_speed(theirs)
    assert ours["best_move"] in game.legal_moves()


def test_analyze_gives_win_draw_loss():
    game = Game(Variant.load("isolo-women"))
    ours = isolo_ai.analyze(game, depth=8)
    assert ours["score"]["type"] == "win"
    assert ours["wdl"] == {"win": 1000, "draw": 0, "loss": 0, "text": "W/D/L 100/0/0%"}


def test_review_is_the_command_line_s(cli):
    moves = "1 9 4"
    game = Game(Variant.load("isolo-women"), moves=moves)
    ours = isolo_ai.review(game, depth=8)
    theirs = cli("review", "--variant", "isolo-women", "--moves", moves, "--depth", "8")
    for field in ("moves", "accuracy", "classes", "positions"):
        assert ours[field] == theirs[field], field
    assert [m["class"] for m in ours["moves"]][2] == "blunder"
    assert ours["moves"][2]["turning_point"].startswith("threw away a win in ")


def test_solve_is_the_command_line_s(cli):
    game = Game(Variant.load("isolo-boys"))
    ours = isolo_ai.solve(game, method="ab", max_plies=15, time_ms=0)  # 0: no limit
    theirs = cli("solve", "--variant", "isolo-boys", "--method", "ab", "--max-plies", "15")
    assert ours["result"] == theirs["result"] == "win"
    assert ours["plies"] == theirs["plies"]
    assert ours["pv"] == theirs["pv"]


RETREAT_2_COLUMNS = """
base = "igisoro-retreat"
columns = 2
start = "{k},{k}/0,0/0,0/{k},{k}"
"""


@pytest.mark.parametrize("method", ["ab", "dfpn", "retro", "indexed", "auto"])
def test_every_method_solves_under_the_retreat_as_the_command_line(cli, tmp_path, method):
    # The opponent's answers inside a move are its own decisions for every prover.
    for seeds, result in ((4, "win"), (1, "draw")):
        if method in ("ab", "dfpn") and result == "draw":
            continue  # (they prove wins and losses only)
        rules = RETREAT_2_COLUMNS.format(k=seeds)
        path = tmp_path / f"retreat-{seeds}.toml"
        path.write_text(rules)
        ours = isolo_ai.solve(Game(Variant.from_toml(rules)), method=method)
        theirs = cli("solve", "--variant", str(path), "--method", method)
        assert ours["result"] == theirs["result"] == result, (ours, theirs)


def test_the_distributed_analysis_solves_as_the_command_line(cli, tmp_path):
    rules = 'base = "igisoro"\ncolumns = 3\nstart = "1,1,1/0,0,0/0,0,0/1,1,1"\n'
    path = tmp_path / "igisoro-3x1.toml"
    path.write_text(rules)
    ours = isolo_ai.solve(Game(Variant.from_toml(rules)), method="distributed", threads=2)
    theirs = cli("solve", "--variant", str(path), "--method", "distributed", "--threads", "2")
    assert ours["result"] == theirs["result"] == "draw"
    assert ours["ranks"] == theirs["ranks"] == 2
    assert ours["digest"] == theirs["digest"] and ours["positions"] == theirs["positions"]


def test_the_distributed_analysis_saves_its_labels_and_resumes_from_them(tmp_path):
    rules = 'base = "igisoro"\ncolumns = 3\nstart = "1,1,1/0,0,0/0,0,0/1,1,1"\n'
    game = Game(Variant.from_toml(rules))
    folder = tmp_path / "checkpoints"
    whole = isolo_ai.solve(game, method="distributed")
    # The exact labels are saved once whole: the second run resumes after them.
    first = isolo_ai.solve(game, method="distributed", checkpoints=folder)
    assert folder.is_dir() and first["digest"] == whole["digest"]
    assert first["resumed_at_round"] is None and first["checkpoint_round"] is not None
    again = isolo_ai.solve(game, method="distributed", threads=2, checkpoints=str(folder))
    assert again["resumed_at_round"] == first["checkpoint_round"]
    assert again["digest"] == whole["digest"] and again["result"] == "draw"
    with pytest.raises(InputError, match="checkpoints: method dfpn keeps none"):
        isolo_ai.solve(game, method="dfpn", checkpoints=folder)
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    with pytest.raises(InputError, match="checkpoints: .*a-file is not a folder"):
        isolo_ai.solve(game, method="distributed", checkpoints=a_file)


def test_playouts_tally_their_games():
    variant = Variant.load("igisoro")
    summary = isolo_ai.playouts(variant, 200, seed=3)
    assert summary["games"] == 200 == len(summary["plies"]) == len(summary["winners"])
    assert summary["wins"]["S"] + summary["wins"]["N"] + summary["unfinished"] == 200
    assert isolo_ai.playouts(variant, 200, seed=3) == summary, "a seed replays"
    assert isolo_ai.playouts(variant, 200, seed=4) != summary


def test_bad_limits_are_refused():
    game = Game(Variant.load("igisoro"))
    with pytest.raises(InputError, match="engine"):
        isolo_ai.analyze(game, engine="stockfish")
    with pytest.raises(InputError, match="depth"):
        isolo_ai.analyze(game, depth=0)
    with pytest.raises(InputError, match="multipv"):
        isolo_ai.analyze(game, multipv=0)
    with pytest.raises(InputError, match="max_plies"):
        isolo_ai.solve(game, method="ab", max_plies=100_000)
    with pytest.raises(InputError, match="method"):
        isolo_ai.solve(game, method="magic")
    with pytest.raises(InputError, match=r"time_ms: must be 0..=86400000 ms, found 86400001"):
        isolo_ai.solve(game, method="ab", time_ms=86_400_001)
    with pytest.raises(InputError, match=r"threads: must be 1..=256 threads, found 100000"):
        isolo_ai.solve(game, method="dfpn", threads=100_000)
    with pytest.raises(InputError, match="hash_mb: must be 1..="):
        isolo_ai.solve(game, method="dfpn", hash_mb=10**9)
    # Every method's table is held to the machine's memory, as alpha-beta's is.
    for method in ("dfpn", "ab", "retro"):
        with pytest.raises(InputError, match=r"hash_mb: .*half this machine's memory"):
            isolo_ai.solve(game, method=method, hash_mb=200_000)
    with pytest.raises(InputError, match="method ab takes no nodes"):
        isolo_ai.solve(game, method="ab", nodes=10)
    played = Game(Variant.load("isolo-boys"))
    played.play(played.legal_moves()[0])
    with pytest.raises(InputError, match="method indexed takes no game with moves"):
        isolo_ai.solve(played, method="indexed", hash_mb=64)


HUGE = 2**80


@pytest.mark.parametrize("call, message", [
    (lambda g: isolo_ai.analyze(g, depth=-1), "depth: must be 1..=100 plies, found -1"),
    (lambda g: isolo_ai.analyze(g, nodes=-1), "nodes: must be at least 1, found -1"),
    (lambda g: isolo_ai.analyze(g, nodes=HUGE), f"nodes: must be at least 1 and at most 18446744073709551615, found {HUGE}"),
    (lambda g: isolo_ai.analyze(g, seed=-3), "seed: must be at least 0, found -3"),
    (lambda g: isolo_ai.analyze(g, threads=0), "threads: must be 1..="),
    (lambda g: isolo_ai.review(g, time_ms=-5), "time_ms: must be 1..="),
    (lambda g: isolo_ai.solve(g, max_plies=-1), "max_plies: must be 1..="),
    (lambda g: isolo_ai.solve(g, time_ms=HUGE), "time_ms: must be 0..="),
    (lambda g: isolo_ai.perft(g.variant, -1), "depth: must be 0..=64 plies, found -1"),
    (lambda g: isolo_ai.playouts(g.variant, -10), "games: must be 1..="),
    (lambda g: Game(g.variant, max_plies=-1), "max_plies: must be 1..="),
    (lambda g: isolo_ai.Engine("ab:depth=2", seed=-1), "seed: must be at least 0, found -1"),
    (lambda g: isolo_ai.compare([g.variant], games=-1), "games: must be 1..="),
    (lambda g: isolo_ai.match("ab:depth=1", "random", HUGE), "games: must be 1..="),
    (lambda g: isolo_ai.tune(g.variant, epochs=-1), "epochs: must be 0..="),
    (lambda g: isolo_ai.ActionGame(g).action_to_string(-1), "action: must be 0..=17, found -1"),
])
def test_numbers_out_of_range_raise_value_errors_naming_the_argument(call, message):
    with pytest.raises(ValueError) as refused:
        call(Game(Variant.load("igisoro")))
    assert str(refused.value).startswith(message)


def test_a_refused_number_reads_as_the_command_line_reads_it():
    for argument, flag, value in (("depth", "--depth", "-1"), ("nodes", "--nodes", "0")):
        done = subprocess.run(
            [binary_path(), "analyze", "--variant", "igisoro", flag, value],
            capture_output=True, text=True)
        assert done.returncode == 2
        problem = done.stderr.strip().removeprefix(f"error: {flag}: ")
        with pytest.raises(InputError) as refused:
            isolo_ai.analyze(Game(Variant.load("igisoro")), **{argument: int(value)})
        assert str(refused.value) == f"{argument}: {problem}"


def test_numbers_that_are_not_whole_are_type_errors_naming_the_argument():
    with pytest.raises(TypeError, match="argument 'depth'"):
        isolo_ai.analyze(Game(Variant.load("igisoro")), depth=1.5)


def test_a_game_can_change_while_a_search_of_it_runs():
    game = Game(Variant.load("igisoro"))
    start = game.position
    answers = []
    searching = threading.Thread(
        target=lambda: answers.append(isolo_ai.analyze(game, time_ms=400)))
    searching.start()
    time.sleep(0.1)
    game.play(game.legal_moves()[0])  # not refused: the search has its own copy
    searching.join()
    assert answers[0]["best_move"] in Game(Variant.load("igisoro"), position=start).legal_moves()


def test_a_finished_game_is_not_searched(cli):
    lost = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S"
    answer = isolo_ai.analyze(Game(Variant.load("isolo-women"), position=lost), depth=3)
    assert answer == cli("analyze", "--variant", "isolo-women", "--position", lost)
    game = Game(Variant.load("isolo-boys"))
    while game.legal_moves():
        game.play(game.legal_moves()[0])
    answer = isolo_ai.analyze(game, depth=3)
    if game.outcome() in ("S", "N"):
        assert answer["best_move"] is None and answer["result"] == game.outcome()


def test_an_engine_plays_the_moves_a_match_engine_plays():
    variant = Variant.load("isolo-boys")
    engine = isolo_ai.Engine("ab:depth=3", seed=4)
    assert (engine.spec, engine.seed) == ("ab:depth=3", 4)
    assert repr(engine) == 'Engine("ab:depth=3", seed=4)'
    game = Game(variant, max_plies=40)
    played = []
    while game.legal_moves():
        move = engine.choose(game)
        assert move in game.legal_moves()
        game.play(move)
        played.append(move)
    # A single-threaded engine with a depth limit plays the same game again, after
    # new_game as a new Engine does.
    again = isolo_ai.Engine("ab:depth=3", seed=4)
    replay = Game(variant, max_plies=40)
    for move in played:
        assert again.choose(replay) == move
        replay.play(move)
    engine.new_game()
    assert engine.choose(Game(variant)) == played[0]


def test_an_engine_at_a_level_and_mcts_choose_legal_moves():
    game = Game(Variant.load("igisoro"))
    for spec in ("ab:level=2", "mcts:iters=200", "greedy", "random"):
        assert isolo_ai.Engine(spec, seed=1).choose(game) in game.legal_moves()


def test_an_engine_refuses_what_it_cannot_do():
    with pytest.raises(InputError, match="engine 'ab:depth=x': engine key `depth`"):
        isolo_ai.Engine("ab:depth=x")
    with pytest.raises(InputError, match="external engines play through the command line"):
        isolo_ai.Engine('me=cmd:"isolo-ai ugi"')
    lost = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S"
    over = Game(Variant.load("isolo-women"), position=lost)
    with pytest.raises(isolo_ai.IllegalMove, match="the game is over"):
        isolo_ai.Engine("ab:depth=2").choose(over)


def test_an_engine_in_use_by_another_thread_says_so():
    engine = isolo_ai.Engine("ab:time-ms=600")
    game = Game(Variant.load("igisoro"))
    searching = threading.Thread(target=engine.choose, args=(game,))
    searching.start()
    time.sleep(0.2)
    with pytest.raises(RuntimeError, match="choosing a move in another thread"):
        engine.choose(game)
    searching.join()


def ticks_during(work) -> int:
    """How often another Python thread runs a 1 ms step while `work` runs."""
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    work()
    done.set()
    counter.join()
    return ticks


def test_the_gil_is_released_during_a_search():
    game = Game(Variant.load("igisoro"))
    idle = ticks_during(lambda: time.sleep(0.4))
    searching = ticks_during(lambda: isolo_ai.analyze(game, time_ms=400))
    assert searching > idle / 3, f"{searching} ticks while searching, {idle} idle"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT as Ctrl-C")
def test_ctrl_c_stops_a_long_solve():
    script = textwrap.dedent(
        """
        import signal
        import isolo_ai
        # (A shell that starts jobs in the background hands them SIGINT ignored, and
        # Python then leaves it so: Ctrl-C is what this test is about.)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        game = isolo_ai.Game(isolo_ai.Variant.load("igisoro"))
        print("ready", flush=True)
        try:
            isolo_ai.solve(game, method="dfpn", max_plies=200, time_ms=600000)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    started = time.monotonic()
    os.kill(child.pid, signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    assert "interrupted" in out
    assert time.monotonic() - started < 10


def test_a_cancel_stops_searches_in_other_threads():
    game = Game(Variant.load("igisoro"))
    cancel = isolo_ai.Cancel()
    results = []

    def search(call):
        results.append(call())

    calls = [
        lambda: isolo_ai.match("ab:depth=2", "ab:depth=3", 100000, variant="igisoro",
                               cancel=cancel),
        lambda: isolo_ai.analyze(game, time_ms=60000, cancel=cancel),
        lambda: isolo_ai.review(Game(Variant.load("igisoro"), moves="1 3 7 2"), time_ms=60000, cancel=cancel),
        lambda: isolo_ai.solve(game, method="dfpn", max_plies=200, time_ms=600000, cancel=cancel),
    ]
    threads = [threading.Thread(target=search, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    time.sleep(1.5)  # (a first iteration's best move, even on a loaded machine)
    started = time.monotonic()
    cancel.cancel()
    for thread in threads:
        thread.join(timeout=20)
    assert time.monotonic() - started < 5, "stopped at once"
    assert len(results) == 4
    matched = next(r for r in results if "a_wins" in r)
    assert matched["interrupted"] is True
    analysed = next(r for r in results if "best_move" in r)
    assert analysed["interrupted"] is True and analysed["best_move"] in game.legal_moves()
    assert cancel.cancelled and repr(cancel) == "Cancel(cancelled=True)"
    # Once cancelled, it stays so: a later call returns at once.
    started = time.monotonic()
    assert isolo_ai.analyze(game, time_ms=60000, cancel=cancel)["interrupted"] is True
    assert time.monotonic() - started < 2
    # Another call, not given it, searches on.
    assert "interrupted" not in isolo_ai.analyze(game, nodes=2000)


def test_a_cancel_stops_the_calls_whose_results_cannot_say_so():
    cancel = isolo_ai.Cancel()
    raised = {}

    def run(name, call):
        try:
            call()
        except isolo_ai.Cancelled as stopped:
            raised[name] = str(stopped)

    calls = {
        "compare": lambda: isolo_ai.compare("igisoro", games=100000, engine="ab:depth=2",
                                            cancel=cancel),
        "perft": lambda: isolo_ai.perft("igisoro", 30, cancel=cancel),
        "playouts": lambda: isolo_ai.playouts("igisoro", 10**8, cancel=cancel),
    }
    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    started = time.monotonic()
    cancel.cancel()
    for thread in threads:
        thread.join(timeout=20)
    assert time.monotonic() - started < 5, "stopped at once"
    assert sorted(raised) == ["compare", "perft", "playouts"]
    assert raised["perft"] == "cancelled: perft to depth 30 not finished"
    assert re.fullmatch(r"cancelled: \d+ games played", raised["playouts"])
    assert not issubclass(isolo_ai.Cancelled, (InputError, KeyboardInterrupt))


def test_an_engine_stops_from_another_thread():
    engine = isolo_ai.Engine("ab:time-ms=60000")
    game = Game(Variant.load("kubuguza"))
    chosen = []
    searching = threading.Thread(target=lambda: chosen.append(engine.choose(game)))
    searching.start()
    time.sleep(0.5)
    started = time.monotonic()
    engine.stop()
    searching.join(timeout=20)
    assert time.monotonic() - started < 5
    assert chosen and chosen[0] in game.legal_moves(sequences=True)
    # The next move is searched afresh, not stopped.
    assert isolo_ai.Engine("ab:depth=2").choose(game) in game.legal_moves(sequences=True)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT as Ctrl-C")
def test_ctrl_c_stops_a_search_in_a_worker_thread():
    # The main thread waits in join(); Ctrl-C comes from a timer thread.
    script = textwrap.dedent(
        """
        import os, signal, threading
        import isolo_ai
        game = isolo_ai.Game(isolo_ai.Variant.load("igisoro"))
        results = {}

        def compare():
            try:
                isolo_ai.compare("igisoro", games=100000, engine="ab:depth=2")
            except KeyboardInterrupt as raised:
                results["compare"] = str(raised)

        calls = {
            "analyze": lambda: results.update(analyze=isolo_ai.analyze(game, time_ms=60000)),
            "match": lambda: results.update(match=isolo_ai.match(
                "ab:depth=2", "ab:depth=3", 100000, variant="igisoro")),
            "compare": compare,
        }
        workers = [threading.Thread(target=call) for call in calls.values()]
        for worker in workers:
            worker.start()
        threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        try:
            for worker in workers:
                worker.join()
        except KeyboardInterrupt:
            print("main interrupted", flush=True)
            for worker in workers:
                worker.join()
        print("analyze", results["analyze"].get("interrupted"), flush=True)
        print("match", results["match"].get("interrupted"), flush=True)
        print("compare", results["compare"].startswith("interrupted: "), flush=True)
        """
    )
    started = time.monotonic()
    # (A shell that starts jobs in the background hands them SIGINT ignored.)
    child = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.returncode == 0, child.stderr
    lines = child.stdout.split("\n")[:4]
    assert lines == ["main interrupted", "analyze True", "match True", "compare True"], child.stdout
    assert time.monotonic() - started < 15
