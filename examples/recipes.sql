-- DuckDB recipes for kow game logs, read straight from the JSON Lines of `kow simulate`
-- with read_ndjson: no export step, the nested rounds, tricks and plays are lists of
-- structs that unnest() opens.
--
-- Each recipe reads 'games.jsonl': copy it and change the file name, or run it on any
-- file with examples/duckdb_recipes.py (which puts the file given in its place):
--   python examples/duckdb_recipes.py games.jsonl            every recipe
--   python examples/duckdb_recipes.py round1-trumps games.jsonl
--
-- Each recipe starts with a "-- name:" line and ends with ";". Rates are rounded to 3
-- decimals. They assume finished games: a `kow play --log` file may hold a game cut short
-- ("abandoned": true, winner null). Needs DuckDB 1.1 or later.

-- name: wins-by-kind
-- Seat-games, wins and win rate by bot kind: every seat of every game counts once.
SELECT p.kind,
       count(*) AS seat_games,
       count(*) FILTER (WHERE p.seat = result.winner) AS wins,
       round(wins / seat_games, 3) AS win_rate
FROM (SELECT unnest(players) AS p, result FROM read_ndjson('games.jsonl'))
GROUP BY p.kind
ORDER BY p.kind;

-- name: round1-trumps
-- Round 1: how many trumps each player was dealt, and the tricks such hands took.
-- unnest() of two lists in one SELECT walks them side by side: hand and tricks by seat.
SELECT len([c FOR c IN hand IF c[2] = r.trump]) AS trumps,
       count(*) AS hands,
       round(avg(tricks), 3) AS mean_tricks
FROM (SELECT r, unnest(r.hands) AS hand, unnest(r.tricks_won) AS tricks
      FROM (SELECT rounds[1] AS r FROM read_ndjson('games.jsonl')))
GROUP BY trumps
ORDER BY trumps;

-- name: winner-place
-- Where in the trick its winner played (1: it led), by the number of plays in the
-- trick, with each place's share of those tricks.
SELECT plays, winner_place, tricks,
       round(tricks / sum(tricks) OVER (PARTITION BY plays), 3) AS share
FROM (SELECT len(t.plays) AS plays,
             list_position([p.seat FOR p IN t.plays], t.winner) AS winner_place,
             count(*) AS tricks
      FROM (SELECT unnest(r.tricks) AS t
            FROM (SELECT unnest(rounds) AS r FROM read_ndjson('games.jsonl')))
      GROUP BY plays, winner_place)
ORDER BY plays, winner_place;
