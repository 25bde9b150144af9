#!/usr/bin/env bash
# Builds a past engine as the baseline that strength work is measured against: a release
# build of COMMIT (default: the last commit before issue 11's strength work) in a
# worktree of its own, copied to target/baseline/isolo-ai and checked by its bench node
# signature. It speaks UGI, so a match plays it as an external engine:
#
#   scripts/build-baseline.sh
#   isolo-ai match --variant isolo-women-capture-ends \
#       --openings openings/isolo-women-capture-ends.txt --tc 10+0.1 --concurrency 2 \
#       --engine new=ab --engine 'base=cmd:"target/baseline/isolo-ai ugi"' \
#       --games 20000 --sprt 0,10,0.05,0.05 --out sprt.jsonl
#
# Usage: scripts/build-baseline.sh [COMMIT [SIGNATURE]]
set -euo pipefail
commit=${1:-2b5606a}
signature=${2:-699316}
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
git -C "$root" worktree add --quiet --detach "$work" "$commit"
trap 'git -C "$root" worktree remove --force "$work"' EXIT
(cd "$work" && cargo build --quiet --release --bin isolo-ai)
mkdir -p "$root/target/baseline"
cp "$work/target/release/isolo-ai" "$root/target/baseline/isolo-ai"
nodes=$("$root/target/baseline/isolo-ai" bench --json 2>/dev/null |
    sed -n 's/^ *"nodes": \([0-9]*\),*$/\1/p')
if [ "$nodes" != "$signature" ]; then
    echo "baseline $commit: bench signature $nodes, expected $signature" >&2
    exit 1
fi
echo "target/baseline/isolo-ai: commit $commit, bench signature $nodes"
