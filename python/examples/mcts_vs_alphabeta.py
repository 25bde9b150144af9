"""OpenSpiel's MCTS bot (random rollouts) against the engine's alpha-beta, at a few
budgets each, through the OpenSpiel adapter: each pairing plays colour-reversed pairs
of games, and the MCTS bot's wins, draws and losses are printed.

    python python/examples/mcts_vs_alphabeta.py [--game isolo_boys] [--pairs 2]
        [--simulations 50,200] [--depths 1,3 | --engines ab:nodes=20000] [--max-plies 200]

The engine plays through the shipped `isolo_ai.openspiel.EngineBot`: it chooses whole
moves and answers them one action at a time (a pit, then each take/pass).
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

from isolo_ai.openspiel import EngineBot  # (the import registers the games)


def mcts_bot(game, simulations: int, seed: int):
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                        evaluator=evaluator, random_state=rng, solve=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="isolo_boys")
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--simulations", default="50,200")
    parser.add_argument("--depths", default="1,3")
    parser.add_argument("--engines", help="engine specs (';'-separated) instead of depths")
    parser.add_argument("--max-plies", type=int, default=200)
    args = parser.parse_args()
    game = pyspiel.load_game(args.game, {"max_plies": args.max_plies})
    simulations = [int(s) for s in args.simulations.split(",")]
    if args.engines:
        engines = [(spec, spec) for spec in args.engines.split(";")]
    else:
        engines = [(f"ab:depth={d}", f"alpha-beta depth {d}") for d in args.depths.split(",")]
    print(f"{args.game}, {args.pairs} colour-reversed pairs a pairing, "
          f"drawn at {args.max_plies} plies")
    for sims, (spec, label) in itertools.product(simulations, engines):
        wins = draws = losses = 0
        for pair, mcts_player in itertools.product(range(args.pairs), (0, 1)):
            bots = [None, None]
            bots[mcts_player] = mcts_bot(game, sims, seed=pair)
            bots[1 - mcts_player] = EngineBot(spec)
            returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, None)
            result = returns[mcts_player]
            wins += result > 0
            draws += result == 0
            losses += result < 0
        print(f"MCTS {sims:5} simulations vs {label}: "
              f"MCTS +{wins} ={draws} -{losses}")


if __name__ == "__main__":
    main()
