#!/usr/bin/env bash
# The strength levels' Elo on one variant, as docs/measurements.md shows it: a ladder
# tournament (`tournament --ladder`) of random (the anchor, at 0), the levels 1 to 7 and
# the top level, each playing the next and the top, GAMES games a pairing. It prints the
# standings (each engine's Elo with its 95% interval), the crosstable and the ladder's
# steps (each engine's score and Elo against the one below).
#
#   scripts/levels.sh VARIANT [GAMES] [TOP]     (GAMES: 1000; TOP: the top level's spec,
#                                               ab:nodes=20000 or mcts:time-ms=100)
#
# ENGINE (ab, the default, or mcts) the searcher of the levels; OPENINGS a suite the
# games start from (colour-reversed pairs; default: the variant's start); CONCURRENCY (default 2)
# games at once; ISOLO_AI the binary (target/release/isolo-ai); further arguments after
# TOP (such as --json) go to the tournament.
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
shift $(($# < 3 ? $# : 3))
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

exec "$binary" tournament --variant "$variant" --ladder --anchor random --games "$games" "${openings[@]}" \
    --concurrency "${CONCURRENCY:-2}" --max-plies 300 "${engines[@]}" "$@"
