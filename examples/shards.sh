#!/usr/bin/env bash
# Play one run of `kow simulate` as shards side by side, then join them into the run.
#
# Usage:
#   examples/shards.sh SEED GAMES SHARDS OUTPUT [SIMULATE-OPTIONS...]
#
# Example:
#   examples/shards.sh 1 100000 4 games.jsonl --players 5
#   # the same bytes as: kow simulate --seed 1 --games 100000 --players 5 > games.jsonl
#
# Shard i plays games i*PER .. i*PER+PER-1 of the run (`--first-game`, `--games`), each
# in its own process and file; the files are joined in order. This is the local case of
# a cluster run: give each machine one shard (GNU parallel, a Slurm array job, Ray; see
# the README) and concatenate the files in shard order. KOW names the command to run
# (default: kow; e.g. KOW="python -m kow" in a checkout).

set -euo pipefail

if [ $# -lt 4 ]; then
    sed -n '2,15p' "$0" >&2
    exit 2
fi
seed=$1 games=$2 shards=$3 output=$4
shift 4
for name in games shards; do
    if ! [[ ${!name} =~ ^[1-9][0-9]*$ ]]; then
        echo "shards.sh: ${name^^} must be a whole number from 1, not '${!name}'" >&2
        exit 2
    fi
done
# Before the run, not after it: can OUTPUT be written?
out_dir=$(dirname -- "$output")
if [ -d "$output" ]; then
    echo "shards.sh: OUTPUT '$output' is a folder; give a file path" >&2
    exit 2
elif [ ! -d "$out_dir" ]; then
    echo "shards.sh: cannot write OUTPUT '$output': no folder '$out_dir'" >&2
    exit 2
elif { [ -e "$output" ] && [ ! -w "$output" ]; } || { [ ! -e "$output" ] && [ ! -w "$out_dir" ]; }; then
    echo "shards.sh: cannot write OUTPUT '$output': permission denied" >&2
    exit 2
fi
read -r -a kow <<< "${KOW:-kow}"
per=$(( (games + shards - 1) / shards ))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

pids=()
for (( i = 0; i * per < games; i++ )); do
    first=$(( i * per ))
    count=$(( games - first < per ? games - first : per ))
    "${kow[@]}" simulate --seed "$seed" --first-game "$first" --games "$count" --quiet "$@" \
        -o "$dir/$(printf 'shard-%06d.jsonl' "$i")" &
    pids+=($!)
done
for pid in "${pids[@]}"; do
    wait "$pid"  # stops here (set -e) if a shard failed
done
cat "$dir"/shard-*.jsonl > "$output"
