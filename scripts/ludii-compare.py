#!/usr/bin/env python3
"""Random games of an outside implementation (the Ludii game system) replayed turn by
turn in isolo-ai, to find where the two read the rules differently.

Ludii stays outside the repository (its licence forbids copying it): give the path of
its headless driver, `ludii.sh`, with `--ludii` or the environment variable `LUDII_SH`.
Its `dump GAME SEED` plays a game of uniformly random laps and prints the board before
each lap (sites 0-31, row by row from South's back row, left to right as South sees
them), the legal laps and the one chosen. A turn is the laps of one player in a row.

For each turn this script checks, with `isolo-ai moves --json` on the same position:

- the pits that begin a turn: Ludii's legal first laps against the pits of our moves;
- the position the turn reaches in Ludii is among the positions our moves reach.

Each turn that differs is printed with its laps; the last line counts turns and
differences. Two games have Ludii's reading of them built in (`--game`):

- `Kubuguza.lud` (the default): three seeds in each inner hole, clockwise holes at the
  inner row's ends and the outer row's second holes, clockwise laps wherever they end
  facing seeds, captures barred on each player's first turn;
- `Ikibuguzo (Opening 1).lud` and `Ikibuguzo (Opening 2).lud`: their main phase (the
  scripted opening turns are skipped; the presets `ikibuguzo-opening-1` and `ikibuguzo`
  start after them), clockwise laps wherever they end facing seeds, and no win by a
  capture.

    LUDII_SH=.../ludii.sh scripts/ludii-compare.py --games 100
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

LUDII_KUBUGUZA = """name = "kubuguza-ludii"
base = "kubuguza"
start = "0,0,0,0,0,0,0,0/3,3,3,3,3,3,3,3/3,3,3,3,3,3,3,3/0,0,0,0,0,0,0,0"
clockwise_from = [2, 7, 9, 16]
clockwise_when = "faces-seeds"
capture_sow_from = "lap-start-pit"
"""

# Ludii's Ikibuguzo: the presets with clockwise laps wherever they end facing seeds and
# without the win by taking both front-row end pits (Ludii ends a game only when a
# player cannot move).
LUDII_IKIBUGUZO = """name = "{base}-ludii"
base = "{base}"
clockwise_when = "faces-seeds"
capture_win = "none"
"""

# Ludii's games this script knows: our rules file of Ludii's reading, whether Ludii bars
# captures on each player's first turn, and the phase compared (None: every turn).
READINGS = {
    "Kubuguza.lud": (LUDII_KUBUGUZA, True, None),
    "Ikibuguzo (Opening 1).lud": (
        LUDII_IKIBUGUZO.format(base="ikibuguzo-opening-1"),
        False,
        "MainPhase",
    ),
    "Ikibuguzo (Opening 2).lud": (LUDII_IKIBUGUZO.format(base="ikibuguzo"), False, "MainPhase"),
}


def pit_of_site(site):
    """(side, pit) of a Ludii site of the 4x8 board: South owns 0-15, North 16-31."""
    if site < 8:
        return "S", site + 1
    if site < 16:
        return "S", 24 - site
    if site < 24:
        return "N", site - 7
    return "N", 32 - site


def rows_of(board):
    """RULES.md 6's rows: North back, North front, South front, South back."""
    row = lambda first: ",".join(str(n) for n in board[first : first + 8])
    return "/".join(row(first) for first in (24, 16, 8, 0))


def turns_of(records):
    """The game's turns: lists of consecutive laps by one mover; and the final record."""
    turns, final = [], records[-1]
    for record in records[:-1]:
        if turns and turns[-1][0]["turn"] == record["turn"]:
            turns[-1].append(record)
        else:
            turns.append([record])
    return turns, final


def lap_direction(before, after, mover):
    """'c' if the lap between two boards went clockwise on the mover's side, else 'a'."""
    lo = 0 if mover == 1 else 16
    lifted = [s for s in range(lo, lo + 16) if after[s] < before[s]]
    if not lifted:
        return "?"
    side, start = pit_of_site(lifted[0])
    sown = [pit_of_site(s)[1] for s in range(lo, lo + 16) if after[s] > before[s]]
    if not sown:
        return "?"
    # The first pit past the lifted one in our numbering's order is sown anticlockwise.
    return "a" if (start % 16) + 1 in sown else "c"


def our_moves(isolo, rules, position):
    out = subprocess.run(
        [isolo, "moves", "--variant", rules, "--position", position, "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)["moves"]


def compare_game(ludii, game, seed, isolo, rules, first_flags, phase, report):
    out = subprocess.run(
        [ludii, "dump", game, str(seed)], capture_output=True, text=True, check=True
    )
    records = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    turns, final = turns_of(records)
    differences = 0
    compared = 0
    for index, turn in enumerate(turns):
        start = turn[0]
        if phase is not None and start["phase"] != phase:
            continue
        compared += 1
        side = "S" if start["mover"] == 1 else "N"
        flags = first_flags(start["turn"])
        position = f"{rows_of(start['board'])} {side}{flags}"
        moves = our_moves(isolo, rules, position)
        reached = {m["position"].split()[0] for m in moves}
        our_pits = {int(m["move"].rstrip("ac")) for m in moves}
        ludii_pits = {pit_of_site(s)[1] for s in start["legal_from"] if s >= 0}
        after = turns[index + 1][0]["board"] if index + 1 < len(turns) else final["board"]
        passed = start["legal_from"] == [-1]
        laps = []
        for k, record in enumerate(turn):
            nxt = turn[k + 1]["board"] if k + 1 < len(turn) else after
            laps.append(
                f"{pit_of_site(record['chosen']['from'])[1]}"
                f"{lap_direction(record['board'], nxt, start['mover'])}"
            )
        problems = []
        if our_pits != ludii_pits:
            problems.append(f"pits: ours {sorted(our_pits)}, Ludii's {sorted(ludii_pits)}")
        if not passed and rows_of(after) not in reached:
            problems.append(f"Ludii's result {rows_of(after)} is not among ours")
        if problems:
            differences += 1
            report(
                f"seed {seed} turn {start['turn']}: {position}; Ludii's laps "
                f"{' '.join(laps)}; " + "; ".join(problems)
            )
    return compared, differences, final.get("winner")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ludii", default=os.environ.get("LUDII_SH"))
    parser.add_argument("--game", default="Kubuguza.lud")
    parser.add_argument("--rules", help="our rules (default: Ludii's reading of --game)")
    parser.add_argument("--isolo", default="target/release/isolo-ai")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not args.ludii:
        sys.exit("ludii-compare: give --ludii PATH or LUDII_SH (the Ludii driver)")
    if args.game not in READINGS:
        sys.exit(f"ludii-compare: --game must be one of {', '.join(READINGS)}")
    reading, barred, phase = READINGS[args.game]
    with tempfile.TemporaryDirectory() as scratch:
        rules = args.rules
        if rules is None:
            rules = os.path.join(scratch, "ludii-reading.toml")
            with open(rules, "w") as file:
                file.write(reading)

        def first_flags(turn):
            # Ludii bars captures while it counts two turns or fewer: each player's first.
            if not barred:
                return ""
            return {1: " SN", 2: " N"}.get(turn, " -")

        total_turns = total_differences = 0
        games_differing = 0
        for seed in range(args.seed, args.seed + args.games):
            turns, differences, winner = compare_game(
                args.ludii, args.game, seed, args.isolo, rules, first_flags, phase, print
            )
            total_turns += turns
            total_differences += differences
            games_differing += differences > 0
        print(
            f"{args.games} games, {total_turns} turns: {total_differences} turns differ, "
            f"in {games_differing} games"
        )


if __name__ == "__main__":
    main()
