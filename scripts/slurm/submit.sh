#!/usr/bin/env bash
# Submits a sharded isolo-ai match or tournament to Slurm: an array job of N shards,
# then a merge job that runs only when every shard succeeded.
#
#   scripts/slurm/submit.sh [--merge-args "ARGS"] N DIR COMMAND ARGS...
#
#   N        shards (array tasks), each one CPU by default
#   DIR      a folder every node can read and write: shard-K.jsonl, slurm-*.log,
#            merged.jsonl and summary.txt go there
#   COMMAND  match or tournament, with its options but no --shard or --out
#   --merge-args  options for merge (e.g. "--sprt 0,10,0.05,0.05" or "--json")
#
# Prints the two job ids ("ARRAY_ID MERGE_ID"). ISOLO_AI names the binary (default:
# isolo-ai on PATH); sbatch options come from the SBATCH_* environment variables
# (SBATCH_PARTITION, SBATCH_TIMELIMIT...).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
merge_args=()
if [ "${1:-}" = --merge-args ]; then
    read -r -a merge_args <<<"${2?--merge-args needs its options}"
    shift 2
fi
shards=${1:?usage: submit.sh [--merge-args ARGS] N DIR COMMAND ARGS...}
dir=${2:?usage: submit.sh [--merge-args ARGS] N DIR COMMAND ARGS...}
shift 2
case ${1:-} in
match | tournament) ;;
*)
    echo "submit.sh: the command must be match or tournament, found '${1:-}'" >&2
    exit 2
    ;;
esac
for arg in "$@"; do
    case $arg in
    --shard | --shard=* | --out | --out=*)
        echo "submit.sh: $arg is set for each shard; leave it out" >&2
        exit 2
        ;;
    esac
done
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
array=$(sbatch --parsable --array="1-$shards" --output="$dir/slurm-shard-%a.log" \
    "$here/shard.sbatch" "$dir" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$dir/slurm-merge.log" "$here/merge.sbatch" "$dir" "$shards" "${merge_args[@]}")
echo "${array} ${merge%%;*}"
