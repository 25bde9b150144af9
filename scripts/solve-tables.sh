#!/usr/bin/env bash
# Regenerates the "Solved boards" section at the end of docs/RESULTS.md and the
# certificates in docs/proofs/: `isolo-ai solve-table` for every preset, the deep
# readings, igisoro-clockwise and igisoro-retreat, widths 2-8, seeds 1-4. TIME_MS (a
# cell, default 10000) and HASH (MB, default 1024) set the budget; about 26 minutes on
# one core with the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
TIME_MS=${TIME_MS:-10000}
HASH=${HASH:-1024}
cargo build --release --quiet
bin=target/release/isolo-ai
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tables=(
    "--preset isolo-women"
    "--preset isolo-boys"
    "--preset igisoro"
    "--preset isolo-women-capture-ends"
    "--preset isolo-boys-capture-ends"
    "--preset isolo-boys --set capture=both"
    "--preset kubuguza"
    "--preset ikibuguzo"
    "--preset igisoro-clockwise"
    "--preset igisoro-retreat"
)
{
    echo "## Solved boards"
    echo
    echo "The start of each preset, deep reading and Igisoro's clockwise and retreat readings on 2-8 columns, with 1-4 seeds where the"
    echo "preset has 2 (Isolo) or 4 (Igisoro, Kubuguza, Ikibuguzo), solved by \`isolo-ai solve-table\` (alpha-beta,"
    echo "df-pn, then retrograde analysis) within ${TIME_MS} ms and ${HASH} MB a cell. Every"
    echo "certificate (wins, losses and draws) is in \`docs/proofs/\` and checked by \`cargo test\`."
    echo "Cells given more time than this (Igisoro's 3 columns with 3 and with 4 seeds, the"
    echo "preset's count, 4 with 2, 5 with 1; its retreat's 3 columns with 3 seeds: all draws), and certificates too large to commit,"
    echo "are in \`docs/proofs/long/README.md\`."
    echo "Regenerate with \`TIME_MS=${TIME_MS} HASH=${HASH} scripts/solve-tables.sh\`, which runs:"
    echo
    for table in "${tables[@]}"; do
        echo "    isolo-ai solve-table $table --time-ms $TIME_MS --hash $HASH --certificates docs/proofs"
    done
    for table in "${tables[@]}"; do
        echo
        # shellcheck disable=SC2086
        "$bin" solve-table $table --time-ms "$TIME_MS" --hash "$HASH" --certificates "$work/proofs"
    done
} > "$work/section.md"
sed '/^## Solved boards$/,$d' docs/RESULTS.md > "$work/results.md"
cat "$work/section.md" >> "$work/results.md"
mv "$work/results.md" docs/RESULTS.md
mkdir -p docs/proofs
rm -f docs/proofs/*.proof.gz
cp "$work"/proofs/*.proof.gz docs/proofs/
echo "docs/RESULTS.md and docs/proofs/ regenerated"
