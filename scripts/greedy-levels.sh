#!/usr/bin/env bash
# Levels against the capture-greedy player, as docs/measurements.md shows them: on each
# preset and reading, alpha-beta's level 1 and the top against `greedy`, GAMES games
# each (colour-reversed pairs from the variant's opening suite), one line a match.
#
#   scripts/greedy-levels.sh [GAMES] [TOP]     (GAMES: 100; TOP: the top's spec,
#                                               ab:nodes=20000)
#
# VARIANTS the variants (default: every preset and reading); LEVELS the levels (default
# "1 8"; 8 is TOP); CONCURRENCY (default 2) games at once; ISOLO_AI the binary
# (target/release/isolo-ai).
set -euo pipefail

games=${1:-100}
top=${2:-ab:nodes=20000}
binary=${ISOLO_AI:-target/release/isolo-ai}
variants=${VARIANTS:-isolo-women isolo-boys igisoro kubuguza ikibuguzo isolo-women-capture-ends
    isolo-boys-capture-ends ikibuguzo-opening-1 igisoro-retreat igisoro-clockwise}

for variant in $variants; do
    for level in ${LEVELS:-1 8}; do
        spec="ab:level=$level"
        [[ $level == 8 ]] && spec=$top
        result=$("$binary" match --variant "$variant" --engine "L$level=$spec" --engine greedy \
            --games "$games" --openings "openings/$variant.txt" --max-plies 300 \
            --concurrency "${CONCURRENCY:-2}" | grep "^L$level:")
        echo "$variant $result"
    done
done
