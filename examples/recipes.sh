#!/usr/bin/env bash
# jq recipes for kow game logs (JSON Lines, one game per line, as `kow simulate` writes).
#
# Usage:
#   examples/recipes.sh FILE            run every recipe on FILE, each under a "## name" heading
#   examples/recipes.sh RECIPE FILE     run one recipe; its output is JSON only
#   examples/recipes.sh --list          list the recipes
#
# Example:
#   kow simulate --seed 1 --games 1000 > games.jsonl
#   examples/recipes.sh games.jsonl
#
# Each recipe is one jq command, written out in examples/README.md with its output; copy it
# and change the file name. Each prints one compact JSON object per line. They use
# `jq -n '[inputs | ...]'`, which keeps only the few values taken from each game rather
# than whole games in memory (as `jq -s` would). They assume finished games: `kow simulate`
# writes nothing else, but a `kow play --log` file may hold a game cut short
# ("abandoned": true); drop those first with: jq -c 'select(.abandoned | not)'.
# Rates are rounded to 3 decimals. Requires jq 1.6 or later.

set -euo pipefail

# Wins by seat: {seat, wins}, one line per seat that won at least once.
wins_by_seat() {
jq -n -c '[inputs | .result.winner] | group_by(.) | map({seat: .[0], wins: length}) | .[]' "$1"
}

# Games that end in a sweep before the 1-card round. The winner always takes every trick of
# the last round played, so a game "ends in a sweep" when that round had more than 1 card.
early_sweeps() {
jq -n -c '[inputs | .rounds[-1].hand_size]
  | {games: length, ended_early: (map(select(. > 1)) | length)}
  | .rate = ((.ended_early / .games * 1000 | round) / 1000)' "$1"
}

# Mean rounds per game.
mean_rounds() {
jq -n -c '[inputs | .result.rounds_played]
  | {games: length, mean_rounds: ((add / length * 1000 | round) / 1000)}' "$1"
}

# Round 1: players who held at least one card of the trump suit, against those who held
# none, and what fraction of each survived round 1 (were not knocked out at its end).
trump_survival() {
jq -n -c '[inputs | .rounds[0] as $r | select($r.trump != null)
   | range($r.hands | length) as $s | select($r.hands[$s] != null)
   | {held_trump: any($r.hands[$s][]; .[1:] == $r.trump),
      survived: (any($r.eliminated[]; . == $s) | not)}]
  | group_by(.held_trump)
  | map({held_trump: .[0].held_trump, players: length,
         survived: (map(select(.survived)) | length)})
  | map(.rate = ((.survived / .players * 1000 | round) / 1000)) | .[]' "$1"
}

# Does a strong round 1 win games? Players grouped by the tricks they took in round 1, and
# the fraction of each group that went on to win the game.
round1_tricks() {
jq -n -c '[inputs | .result.winner as $w | .rounds[0].tricks_won
   | to_entries[] | select(.value != null) | {tricks: .value, won: (.key == $w)}]
  | group_by(.tricks)
  | map({tricks_in_round_1: .[0].tricks, players: length,
         won_game: (map(select(.won)) | length)})
  | map(.rate = ((.won_game / .players * 1000 | round) / 1000)) | .[]' "$1"
}

RECIPES="wins-by-seat early-sweeps mean-rounds trump-survival round1-tricks"

usage() {
    echo "usage: $0 [RECIPE] FILE   (recipes: $RECIPES; --list lists them)" >&2
    exit 2
}

if ! command -v jq >/dev/null 2>&1; then
    echo "$0: jq not found on PATH; install it (https://jqlang.github.io/jq/)" >&2
    exit 1
fi

case $# in
    1) [ "$1" = --list ] && { printf '%s\n' $RECIPES; exit 0; }
       recipes=$RECIPES; file=$1 ;;
    2) recipes=$1; file=$2
       case " $RECIPES " in *" $recipes "*) ;; *) echo "$0: no recipe '$recipes'" >&2; usage ;; esac ;;
    *) usage ;;
esac
if [ ! -f "$file" ] || [ ! -r "$file" ]; then
    echo "$0: cannot read $file" >&2
    exit 1
fi

for recipe in $recipes; do
    [ $# = 1 ] && echo "## $recipe"
    "${recipe//-/_}" "$file"
done
