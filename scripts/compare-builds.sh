#!/usr/bin/env bash
# Compares the speed of the working tree's release build with a build of another commit:
# the base is built once in a worktree of its own (kept in target/compare/COMMIT), then
# each figure is measured with the two binaries in turn, ROUNDS times, pinned to one core
# (`taskset -c 1`, except the threads figure), and the medians and their ratio printed
# as a Markdown table. The machines are noisy: only ratios within one run mean much.
#
#   scripts/compare-builds.sh eab6a31                  # every figure, 5 rounds
#   ROUNDS=7 scripts/compare-builds.sh HEAD~3 perft-women bench
#
# Figures (the commands are printed beside them):
#   perft-women    perft of the women's preset to depth 8, nodes/s
#   perft-igisoro  perft of Igisoro to depth 7, nodes/s
#   playouts       random games of the women's deep reading, games/s
#   bench          the bench positions, nodes/s (and the node signature of each build)
#   search         alpha-beta on the boys' deep reading's start for 5 s, nodes/s
#   smp            bench at 2 threads: time to the same depths over the 1-thread time
#   kernel         compare of 50 games of two variants: share of its time in the kernel
#
# Usage: scripts/compare-builds.sh BASE [FIGURE...]
set -euo pipefail
if [ $# -lt 1 ]; then
    sed -n '2,/^# Usage/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
base=$1
shift
figures=("$@")
if [ ${#figures[@]} -eq 0 ]; then
    figures=(perft-women perft-igisoro playouts bench search smp kernel)
fi
rounds=${ROUNDS:-5}
root=$(git rev-parse --show-toplevel)
commit=$(git -C "$root" rev-parse --short "$base^{commit}")

base_bin="$root/target/compare/$commit/isolo-ai"
if [ ! -x "$base_bin" ]; then
    work=$(mktemp -d)
    git -C "$root" worktree add --quiet --detach "$work" "$commit"
    trap 'git -C "$root" worktree remove --force "$work"' EXIT
    echo "building $commit ..." >&2
    (cd "$work" && cargo build --quiet --release --bin isolo-ai)
    mkdir -p "$(dirname "$base_bin")"
    cp "$work/target/release/isolo-ai" "$base_bin"
fi
echo "building the working tree ..." >&2
(cd "$root" && cargo build --quiet --release --bin isolo-ai)
new_bin="$root/target/release/isolo-ai"

# The command of a figure, and the JSON field (a dotted path) holding its value.
command_of() {
    case $1 in
    perft-women) echo "perft --variant isolo-women --depth 8 --json" ;;
    perft-igisoro) echo "perft --variant igisoro --depth 7 --json" ;;
    playouts) echo "bench --playouts --variant isolo-women-capture-ends --games 20000 --json" ;;
    bench) echo "bench --json" ;;
    search) echo "analyze --variant isolo-boys-capture-ends --time-ms 5000 --threads 1 --json" ;;
    smp) echo "bench --threads 2 --json" ;;
    kernel) echo "compare --variant isolo-boys --variant isolo-boys-capture-ends --games 50 --json" ;;
    *)
        echo "unknown figure '$1'" >&2
        exit 2
        ;;
    esac
}
field_of() {
    case $1 in
    perft-*) echo nps ;;
    playouts) echo variants.0.games_per_s ;;
    bench | search) echo nps ;;
    smp) echo parallel.time_ratio ;;
    esac
}

# One measurement: the figure's value from one run of `binary`.
measure() {
    local binary=$1 figure=$2 args pin=(taskset -c 1)
    args=$(command_of "$figure")
    if [ "$figure" = smp ]; then
        pin=()
    fi
    if [ "$figure" = kernel ]; then
        # GNU time's user and system seconds; the share of the two in the kernel.
        /usr/bin/time -f '%U %S' -o "$tmp/time" "${pin[@]}" "$binary" $args >/dev/null 2>&1
        awk '{ printf "%.4f\n", $2 / ($1 + $2) }' "$tmp/time"
        return
    fi
    # shellcheck disable=SC2086
    "${pin[@]}" "$binary" $args 2>/dev/null | python3 -c '
import json, sys
value = json.load(sys.stdin)
for key in sys.argv[1].split("."):
    value = value[int(key)] if isinstance(value, list) else value[key]
print(value)' "$(field_of "$figure")"
}

# The median of the numbers on standard input: whole above 1000, else 4 digits.
median() {
    sort -g | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        if (m > 1000) printf "%.0f\n", m; else printf "%.4g\n", m
    }'
}

tmp=$(mktemp -d)
echo "| figure | command | $commit | working tree | ratio |"
echo "|---|---|---|---|---|"
for figure in "${figures[@]}"; do
    command_of "$figure" >/dev/null
    : >"$tmp/base"
    : >"$tmp/new"
    for _ in $(seq "$rounds"); do
        measure "$base_bin" "$figure" >>"$tmp/base"
        measure "$new_bin" "$figure" >>"$tmp/new"
    done
    b=$(median <"$tmp/base")
    n=$(median <"$tmp/new")
    ratio=$(awk -v b="$b" -v n="$n" 'BEGIN { printf "%.3f", (b == 0) ? 0 : n / b }')
    echo "| $figure | \`isolo-ai $(command_of "$figure")\` | $b | $n | $ratio |"
done
if printf '%s\n' "${figures[@]}" | grep -qx bench; then
    for binary in "$base_bin" "$new_bin"; do
        printf 'bench signature of %s: %s\n' "$binary" \
            "$("$binary" bench --json 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["nodes"])')"
    done
fi
rm -rf "$tmp"
