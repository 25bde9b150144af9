#!/usr/bin/env bash
# The strength levels' Elo on one variant, as docs/measurements.md shows it: a ladder
# tournament of random (the anchor, at 0), the levels 1 to 7 and the top level,
# each playing the next and the top, GAMES games a pairing; then one markdown row per
# engine: its Elo with the 95% interval, and its score against the next one down.
#
#   scripts/levels.sh VARIANT [GAMES] [TOP]     (GAMES: 1000; TOP: the top level's spec,
#                                               ab:nodes=20000 or mcts:time-ms=100)
#
# ENGINE (ab, the default, or mcts) the searcher of the levels; OPENINGS a suite the
# games start from (colour-reversed pairs; default: the variant's start); CONCURRENCY (default 2)
# games at once; ISOLO_AI the binary (target/release/isolo-ai).
set -euo pipefail

variant=${1:?usage: scripts/levels.sh VARIANT [GAMES] [TOP]}
games=${2:-1000}
engine=${ENGINE:-ab}
if [[ $engine == ab ]]; then
    default_top=ab:nodes=20000
else
    default_top=$engine:time-ms=100
fi
top=${3:-$default_top}
binary=${ISOLO_AI:-target/release/isolo-ai}

engines=(--engine random)
for level in 1 2 3 4 5 6 7; do
    engines+=(--engine "L$level=$engine:level=$level")
done
engines+=(--engine "L8=$top")

openings=()
if [[ -n "${OPENINGS:-}" ]]; then
    openings=(--openings "$OPENINGS")
fi

"$binary" tournament --variant "$variant" --ladder --anchor random --games "$games" "${openings[@]}" \
    --concurrency "${CONCURRENCY:-2}" --max-plies 300 "${engines[@]}" --json |
    python3 -c '
import json, sys
run = json.load(sys.stdin)
labels = run["engines"]
cross = {row["engine"]: row for row in run["crosstable"]}
rated = {s["engine"]: s for s in run["standings"]}
print(f"| engine | Elo | 95% interval | score against the one below |")
print("|---|---|---|---|")
for k in range(len(labels) - 1, -1, -1):
    me = labels[k]
    s = rated[me]
    low, high = s["elo_ci95"] or (None, None)
    interval = f"[{low:+.0f}, {high:+.0f}]" if low is not None else "-"
    below = ""
    if k > 0:
        row = cross[me]
        points, played = row["points"][k - 1], row["games"][k - 1]
        below = f"{points:g}/{played} against {labels[k - 1]}"
    elo = s["elo"]
    print(f"| {me} | {elo:+.0f} | {interval} | {below} |")
caveat, played, rate = run["caveat"], run["games"], run["games_per_minute"]
if caveat:
    print(f"\ncaveat: {caveat}")
print(f"\n{played} games, {rate:.0f} a minute")
'
