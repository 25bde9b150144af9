#!/usr/bin/env bash
# Regenerates the section "The Igisoro family" of docs/RESULTS.md: what each rule of the
# family does to Igisoro, one rule at a time, and the family's presets. Two runs of
# `isolo-ai compare` over the same rules: random players (GAMES games each, default
# 2000) and alpha-beta on both sides (ENGINE_GAMES games each, default 60, NODES nodes a
# move, default 10000). About 30 minutes on two cores with the defaults. CSV_DIR=DIR
# writes the section from DIR's random.csv and engines.csv instead (the runs' --csv).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-2000}
ENGINE_GAMES=${ENGINE_GAMES:-60}
NODES=${NODES:-10000}
cargo build --release --quiet
bin=target/release/isolo-ai
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Each row: its label, then the preset or rules file.
rows=(
    "igisoro (the preset)|igisoro"
    "igisoro, \`min_sow = 2\`: singletons not sown|docs/family/igisoro-min-sow-2.toml"
    "igisoro, \`capture_sow_from = \"lap-start\"\`|docs/family/igisoro-lap-start.toml"
    "igisoro, \`capture_sow_from = \"lap-start-pit\"\`|docs/family/igisoro-lap-start-pit.toml"
    "igisoro, \`capture_choice = \"forced\"\`|docs/family/igisoro-forced.toml"
    "igisoro, \`first_move_captures = \"barred-each\"\`|docs/family/igisoro-barred-each.toml"
    "igisoro, Kubuguza's start (4 seeds a front pit)|docs/family/igisoro-front-start.toml"
    "igisoro, \`capture_win = \"front-ends\"\`|docs/family/igisoro-capture-win.toml"
    "igisoro-clockwise: clockwise from or into Kubuguza's pits for a direct capture|igisoro-clockwise"
    "igisoro-clockwise, \`capture_choice = \"forced\"\`|docs/family/igisoro-forced-clockwise.toml"
    "igisoro, \`retreat = \"front-to-back\"\`: the threatened player may retreat|docs/family/igisoro-retreat.toml"
    "kubuguza (the preset)|kubuguza"
    "ikibuguzo (the preset)|ikibuguzo"
    "ikibuguzo-opening-1|ikibuguzo-opening-1"
    "ikibuguzo, \`clockwise_laps = \"first-sowing\"\`: one clockwise lap unless the first|docs/family/ikibuguzo-first-sowing.toml"
    "ikibuguzo, \`clockwise_leave = \"other-pit\"\`: a clockwise capture may be left|docs/family/ikibuguzo-leave.toml"
)
variants=()
for row in "${rows[@]}"; do
    variants+=(--variant "${row#*|}")
done
random_cmd="compare ${variants[*]} --engine random --games $GAMES --max-plies 1000 --seed 1 --concurrency 2 --csv random.csv"
engine_cmd="compare ${variants[*]} --engine ab:nodes=$NODES --games $ENGINE_GAMES --max-plies 400 --seed 1 --concurrency 2 --csv engines.csv"
if [ -n "${CSV_DIR:-}" ]; then
    cp "$CSV_DIR/random.csv" "$CSV_DIR/engines.csv" "$work/"
else
    # shellcheck disable=SC2086
    "$bin" $random_cmd > /dev/null
    mv random.csv "$work/random.csv"
    # shellcheck disable=SC2086
    "$bin" $engine_cmd > /dev/null
    mv engines.csv "$work/engines.csv"
fi
printf '%s\n' "${rows[@]}" > "$work/rows.txt"
python3 - "$work" "$random_cmd" "$engine_cmd" <<'PYTHON'
import csv
import sys

work, random_cmd, engine_cmd = sys.argv[1:4]
rows = [line.rstrip("\n").split("|") for line in open(f"{work}/rows.txt")]


def by_variant(path):
    return {r["variant"]: r for r in csv.DictReader(open(path))}


random_stats, engine_stats = by_variant(f"{work}/random.csv"), by_variant(f"{work}/engines.csv")


def share(r, key, lo, hi):
    return f"{100 * float(r[key]):.0f}% [{100 * float(r[lo]):.0f}, {100 * float(r[hi]):.0f}]"


def decisive(r):
    return (
        f"{100 * (1 - float(r['draw_rate'])):.0f}% "
        f"[{100 * (1 - float(r['draw_hi'])):.0f}, {100 * (1 - float(r['draw_lo'])):.0f}]"
    )


def length(r):
    return f"{float(r['plies_mean']):.0f}, {float(r['plies_median']):.0f}"


def name_of(spec):
    # compare names a rules file's games by the file's `name`, which is its stem here.
    return spec.rsplit("/", 1)[-1].removesuffix(".toml")


out = [
    "## The Igisoro family",
    "",
    "What each rule of the family does to Igisoro, one rule at a time (the rules files in",
    "`docs/family/`), and the family's presets. *Random*: both players choose uniformly",
    "among the legal moves; *engines*: alpha-beta on both sides, a fixed number of nodes a",
    "move. Each game starts with 2 random plies (drawn from the game's seed), draws are",
    "repetitions, dead positions and the ply cap, and the brackets are 95% Wilson",
    "intervals. The first player is South. Under the retreat each answer inside a move is",
    "asked of the answering side (an engine searches the ends of the move half made; a",
    "random player answers at random), as in every game played. Regenerate with",
    "`scripts/family-table.sh`, which runs:",
    "",
    f"    isolo-ai {random_cmd}",
    f"    isolo-ai {engine_cmd}",
    "",
    "| rules | random: first player wins | random: decisive | random: plies (mean, median) "
    "| engines: first player wins | engines: draws | engines: plies (mean, median) |",
    "|---|---|---|---|---|---|---|",
]
for label, spec in rows:
    r, e = random_stats[name_of(spec)], engine_stats[name_of(spec)]
    cells = [
        label,
        share(r, "first_player_win_rate", "first_lo", "first_hi"),
        decisive(r),
        length(r),
        share(e, "first_player_win_rate", "first_lo", "first_hi"),
        share(e, "draw_rate", "draw_lo", "draw_hi"),
        length(e),
    ]
    out.append("| " + " | ".join(cells) + " |")
open(f"{work}/section.md", "w").write("\n".join(out) + "\n\n")
PYTHON
python3 - "$work/section.md" <<'PYTHON'
import sys

section = open(sys.argv[1]).read()
page = open("docs/RESULTS.md").read()
family, solved = "\n## The Igisoro family\n", "\n## Solved boards\n"
start = page.find(family)
end = page.find(solved)
if end < 0:
    end = len(page)
if start < 0:
    start = end
open("docs/RESULTS.md", "w").write(page[: start + 1] + section + page[end + 1 :])
PYTHON
echo "docs/RESULTS.md: the Igisoro family's section regenerated"
