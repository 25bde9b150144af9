"""The first player's advantage under several readings of the rules: the same engine
plays both seats, and the share of games the side moving first wins is shown with its
Wilson 95% interval, as a table and as a matplotlib chart.

    python python/examples/first_player_advantage.py [--games 200] [--engine ab:depth=3]
        [--plot advantage.png] [VARIANT ...]

Each variant is a preset, a named reading or a rules file; the games are those
`isolo-ai compare` plays with the same options (from 2 random plies, seeded).
"""

from __future__ import annotations

import argparse

import isolo_ai

READINGS = ["isolo-women", "isolo-boys", "igisoro", "isolo-women-capture-ends",
            "isolo-boys-capture-ends"]

def advantage(rows: list[dict], variant: str) -> dict:
    """The first player's wins, the draws and the game lengths of one variant's rows."""
    games = [r for r in rows if r["variant"] == variant]
    first_wins = sum(r["result"] == r["first"] for r in games)
    draws = sum(r["result"] == "draw" for r in games)
    share, low, high = isolo_ai.wilson(first_wins, len(games))
    plies = sorted(r["plies"] for r in games)
    return {"variant": variant, "games": len(games), "first_wins": share, "low": low,
            "high": high, "draws": draws / max(1, len(games)),
            "median_plies": plies[len(plies) // 2] if plies else 0}


def plot(results: list[dict], path: str, engine: str) -> None:
    import matplotlib

    matplotlib.use("Agg")  # (a file, no window)
    import matplotlib.pyplot as plt

    names = [r["variant"] for r in results]
    shares = [r["first_wins"] for r in results]
    errors = [[r["first_wins"] - r["low"] for r in results],
              [r["high"] - r["first_wins"] for r in results]]
    figure, axes = plt.subplots(figsize=(8, 4))
    axes.bar(names, shares, yerr=errors, capsize=6, color="#8a5a2b")
    axes.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    axes.set_ylim(0, 1)
    axes.set_ylabel("first player's wins (95% interval)")
    axes.set_title(f"First-player advantage, {engine} against itself")
    axes.tick_params(axis="x", labelrotation=20)
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=READINGS)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--engine", default="ab:depth=3")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--plot", default="first_player_advantage.png")
    args = parser.parse_args()
    rows = isolo_ai.compare(args.variants, games=args.games, engine=args.engine,
                            seed=args.seed, max_plies=args.max_plies,
                            concurrency=args.concurrency, frame=False)
    names = [isolo_ai.Variant.load(v).name for v in args.variants]
    results = [advantage(rows, name) for name in names]
    print(f"{'variant':28} {'games':>5}  first player wins [95%]   draws  median plies")
    for r in results:
        print(f"{r['variant']:28} {r['games']:5}  {r['first_wins']:6.1%} "
              f"[{r['low']:5.1%}, {r['high']:5.1%}]  {r['draws']:6.1%}  {r['median_plies']:5}")
    plot(results, args.plot, args.engine)
    print(f"chart: {args.plot}")


if __name__ == "__main__":
    main()
