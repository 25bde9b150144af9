"""OpenSpiel's MCTS bot (random rollouts) against the engine's alpha-beta, at a few
budgets each, through the OpenSpiel adapter: each pairing plays colour-reversed pairs
of games, and the MCTS bot's wins, draws and losses are printed.

    python python/examples/mcts_vs_alphabeta.py [--game isolo_boys] [--pairs 2]
        [--simulations 50,200] [--depths 1,3] [--max-plies 200]

The engine plays whole moves; the adapter's actions (a pit, then each take/pass) are
taken from its move one at a time (`ActionGame.move_to_actions`).
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import isolo_ai
import isolo_ai.openspiel  # noqa: F401  (registers the games)


class EngineBot:
    """The engine's alpha-beta at a fixed depth, acting one adapter action at a time."""

    def __init__(self, depth: int):
        self.depth = depth
        self.plan: list[int] = []

    def step(self, state) -> int:
        if not self.plan:
            game = state.actions.game
            best = isolo_ai.analyze(game, engine="ab", depth=self.depth)["best_move"]
            self.plan = state.actions.move_to_actions(best)
        return self.plan.pop(0)


def mcts_bot(game, simulations: int, seed: int):
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                        evaluator=evaluator, random_state=rng, solve=True)


def play(game, bots) -> list[float]:
    """One game; `bots[p]` acts for player p. The returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="isolo_boys")
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--simulations", default="50,200")
    parser.add_argument("--depths", default="1,3")
    parser.add_argument("--max-plies", type=int, default=200)
    args = parser.parse_args()
    game = pyspiel.load_game(args.game, {"max_plies": args.max_plies})
    simulations = [int(s) for s in args.simulations.split(",")]
    depths = [int(d) for d in args.depths.split(",")]
    print(f"{args.game}, {args.pairs} colour-reversed pairs a pairing, "
          f"drawn at {args.max_plies} plies")
    for sims, depth in itertools.product(simulations, depths):
        wins = draws = losses = 0
        for pair, mcts_player in itertools.product(range(args.pairs), (0, 1)):
            bots = [None, None]
            bots[mcts_player] = mcts_bot(game, sims, seed=pair)
            bots[1 - mcts_player] = EngineBot(depth)
            result = play(game, bots)[mcts_player]
            wins += result > 0
            draws += result == 0
            losses += result < 0
        print(f"MCTS {sims:5} simulations vs alpha-beta depth {depth}: "
              f"MCTS +{wins} ={draws} -{losses}")


if __name__ == "__main__":
    main()
