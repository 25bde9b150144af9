"""The examples run (with small budgets) and print what they promise."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPOSITORY, binary_path, need

EXAMPLES = REPOSITORY / "python" / "examples"


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_first_player_advantage_is_tabled_and_drawn(tmp_path):
    need("matplotlib")
    chart = tmp_path / "advantage.png"
    out = run("first_player_advantage.py", "--games", "8", "--plot", str(chart),
              "isolo-women", "igisoro")
    assert "isolo-women" in out and "igisoro" in out and "%" in out
    assert chart.read_bytes()[:4] == b"\x89PNG"


def test_mcts_plays_alpha_beta_through_openspiel():
    need("pyspiel")
    out = run("mcts_vs_alphabeta.py", "--pairs", "1", "--simulations", "20", "--depths", "1",
              "--max-plies", "60")
    assert "MCTS    20 simulations vs alpha-beta depth 1: MCTS +" in out


def test_the_speed_example_measures(cli):
    out = run("speed.py", binary_path())
    assert "native playouts" in out and "ms as a process" in out
