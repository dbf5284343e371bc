"""``kow verify --against-seed`` (:mod:`kow.runs.provenance`): is a log the game its seed gives?

Plain ``verify`` passes each edited log below (it is a legal game); the check against the
seed names the first difference. Logs of ``simulate`` and ``play`` pass as written.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import agent_log, random_variants

from kow import __version__
from kow.cli import main
from kow.engine.view import View
from kow.events import Phase
from kow.game import bots_rng, play_game
from kow.players import Player, make_bot
from kow.rules import Rules
from kow.runs.provenance import NO_SEED, Difference, NoSeedError, agents_note, check_against_seed
from kow.verify import verify_game


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def simulate(*args: str) -> list[Any]:
    code, out, err = invoke("simulate", "-q", *args)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def text(*games: Any) -> str:
    return "".join(json.dumps(g) + "\n" for g in games)


def against_seed(*games: Any, args: tuple[str, ...] = ()) -> tuple[int, str, str]:
    return invoke("verify", "--against-seed", *args, "-", input=text(*games))


def checked(games: int) -> str:
    """Return what a successful --against-seed says on stderr (issue 20, kind 10: it said
    nothing, so the seeds' check could not be told from plain verify)."""
    counted = f"{games} game{'s' if games != 1 else ''}"
    return f"checked against their seeds: {counted}, each the game its seed gives\n"


@pytest.fixture(scope="module")
def seed_1() -> Any:
    """Game 0 of seed 1: round 3 has a tie cut of two passes (3s ties 3h, then 9d, Ad)."""
    (game,) = simulate("--seed", "1")
    assert game["rounds"][2]["tie_cut"] == [
        [{"seat": 3, "card": "3s"}, {"seat": 2, "card": "3h"}],
        [{"seat": 3, "card": "9d"}, {"seat": 2, "card": "Ad"}],
    ]
    return game


# -- the three edits of issue 12, and the other facts of chance ---------------------------


def edit_seed(game: Any) -> None:
    game["seed"] = 0  # jq -c '.seed=0'


def edit_tie_cut(game: Any) -> None:
    del game["rounds"][2]["tie_cut"][0]  # the second pass alone still settles the tie


def edit_cut(game: Any) -> None:
    game["rounds"][1]["cut"]["position"] += 1


def edit_turned_up(game: Any) -> None:
    assert game["rounds"][0]["turned_up"] == "9h"
    game["rounds"][0]["turned_up"] = "Th"  # the same suit, and a card nobody was dealt


@pytest.mark.parametrize(
    ("edit", "difference", "line"),
    [
        (
            edit_seed,
            Difference(1, None, None, "cut", "44", "39", "the seed 0"),
            "stdin: game 1 (seed 0): round 1: the cut position is 44 in the log, "
            "the seed 0 gives 39",
        ),
        (
            edit_tie_cut,
            Difference(
                3,
                None,
                3,
                "tie_cut",
                "[seat 3: 9d, seat 2: Ad]",
                "[seat 3: 3s, seat 2: 3h] [seat 3: 9d, seat 2: Ad]",
                "the seed 1",
            ),
            "stdin: game 1 (seed 1): round 3: the tie cut is [seat 3: 9d, seat 2: Ad] in the "
            "log, the seed 1 gives [seat 3: 3s, seat 2: 3h] [seat 3: 9d, seat 2: Ad]",
        ),
        (
            edit_cut,
            Difference(2, None, None, "cut", "13", "12", "the seed 1"),
            "stdin: game 1 (seed 1): round 2: the cut position is 13 in the log, "
            "the seed 1 gives 12",
        ),
        (
            edit_turned_up,
            Difference(1, None, None, "turned_up", "Th", "9h", "the seed 1"),
            "stdin: game 1 (seed 1): round 1: the turned-up card is Th in the log, "
            "the seed 1 gives 9h",
        ),
    ],  # fmt: skip
    ids=["seed", "tie-cut-pass", "cut", "turned-up"],
)
def test_an_edit_that_plain_verify_passes_is_named(
    seed_1: Any, edit: Any, difference: Difference, line: str
) -> None:
    game = copy.deepcopy(seed_1)
    edit(game)
    assert verify_game(game) is None
    assert invoke("verify", "-", input=text(game)) == (
        0, "1 game in 1 file: 1 legal, 0 faulty\n", ""
    )  # fmt: skip
    assert check_against_seed(game) == difference
    unmatched = "(1 of them legal, but not the game of their seed)"
    assert against_seed(game) == (
        1,
        f"{line}\n1 game in 1 file: 0 legal, 1 faulty {unmatched}\n",
        "",
    )


def test_the_unedited_game_matches_its_seed(seed_1: Any) -> None:
    assert check_against_seed(seed_1) is None
    assert against_seed(seed_1) == (0, "1 game in 1 file: 1 legal, 0 faulty\n", checked(1))


def test_a_hand_that_is_not_the_seeds(seed_1: Any) -> None:
    # The seed and round 1's cut changed together: the hands are the first difference.
    game = copy.deepcopy(seed_1)
    game["seed"] = 0
    game["rounds"][0]["cut"]["position"] = 39
    dealer = str(game["rounds"][0]["dealer"])
    (seed_0,) = simulate("--seed", "0", "--dealer", dealer)  # the seed 0's cards, same dealer
    logged, dealt = game["rounds"][0]["hands"][0], seed_0["rounds"][0]["hands"][0]
    assert logged != dealt
    assert check_against_seed(game) == Difference(
        1, None, 0, "hand", f"[{' '.join(logged)}]", f"[{' '.join(dealt)}]", "the seed 0"
    )
    code, out, _ = against_seed(game)
    assert code == 1
    assert out.splitlines()[0] == (
        f"stdin: game 1 (seed 0): round 1: seat 0's hand is [{' '.join(logged)}] in the log, "
        f"the seed 0 gives [{' '.join(dealt)}]"
    )


def test_the_json_verdict_places_the_difference(seed_1: Any) -> None:
    game = copy.deepcopy(seed_1)
    edit_cut(game)
    code, out, _ = invoke("verify", "--against-seed", "--json", "-", input=text(seed_1, game))
    assert code == 1
    message = "the cut position is 13 in the log, the seed 1 gives 12"
    assert json.loads(out) == {
        "games": 2, "legal": 1, "faulty": 1, "unreadable": [],
        "against_seed": {"checked": 2, "matched": 1, "unmatched": 1, "unseeded": 0},
        "faults": [{
            "file": "stdin", "game": 2, "line": 2, "seed": 1, "round": 2, "trick": None,
            "seat": None, "message": message, "text": f"round 2: {message}",
        }],
    }  # fmt: skip


def test_the_json_verdict_says_the_games_were_checked_against_their_seeds(
    seed_1: Any,
) -> None:
    """Issue 22: the text said so on stderr, the JSON did not say that seeds were checked."""
    broken = copy.deepcopy(seed_1)
    trick = broken["rounds"][0]["tricks"][0]
    trick["winner"] = (trick["winner"] + 1) % 4
    code, out, err = against_seed(seed_1, seed_1, args=("--json",))
    assert (code, err) == (0, "stdin: game 2 (line 2) repeats game 1 whole\n" + checked(2))
    verdict = json.loads(out)
    assert verdict["against_seed"] == {"checked": 2, "matched": 2, "unmatched": 0, "unseeded": 0}
    assert (verdict["games"], verdict["legal"], verdict["faults"]) == (2, 2, [])
    # A game the rules refuse is not checked against its seed, and is not counted there.
    code, out, _ = against_seed(seed_1, broken, args=("--json",))
    assert code == 1
    assert json.loads(out)["against_seed"] == {
        "checked": 1, "matched": 1, "unmatched": 0, "unseeded": 0,
    }  # fmt: skip
    # Plain verify checks no seed, and its verdict has no such key.
    code, out, _ = invoke("verify", "--json", "-", input=text(seed_1))
    assert code == 0 and "against_seed" not in json.loads(out)


def test_a_log_that_breaks_the_rules_is_reported_as_plain_verify_reports_it(
    seed_1: Any,
) -> None:
    game = copy.deepcopy(seed_1)
    game["rounds"][0]["tricks"][0]["winner"] = (game["rounds"][0]["tricks"][0]["winner"] + 1) % 4
    plain = invoke("verify", "-", input=text(game))
    assert plain[0] == 1
    assert against_seed(game) == plain


def test_a_log_of_another_version_says_so(seed_1: Any) -> None:
    game = copy.deepcopy(seed_1)
    edit_cut(game)
    game["kow_version"] = "0.0.1"
    difference = check_against_seed(game)
    assert difference is not None
    assert difference.source == f"the seed 1 (kow {__version__}; the log is from kow 0.0.1)"


def test_search_iterations_alone_is_a_usage_error() -> None:
    code, _, err = invoke("verify", "--search-iterations", "3", "-", input="")
    assert code == 2
    assert "'--search-deals': it is used with --against-seed" in err


# -- logs of simulate pass ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "verify_args"),
    [
        ("--bots random --games 40", ""),
        ("--bots heuristic --games 40 --dogs-life once-per-game", ""),
        ("--bots random,heuristic,random --players 3 --eliminated-vote --games 40", ""),
        (
            "--bots random --players 7 --eliminated-vote --dogs-life once-per-player"
            " --fixed-trump --games 20",
            "",
        ),
        ("--bots heuristic --dealer 2 --lead dealer-left --games 20", ""),
        (
            "--bots search,heuristic,random,search --search-iterations 3 --games 3",
            "--search-iterations 3",
        ),
    ],  # fmt: skip
    ids=["random", "heuristic", "vote", "seven", "dealer", "search"],
)
@pytest.mark.parametrize("seed", [2, 77])
def test_logs_of_simulate_match_their_seeds(args: str, verify_args: str, seed: int) -> None:
    games = simulate("--seed", str(seed), *args.split())
    assert against_seed(*games, args=tuple(verify_args.split())) == (
        0, f"{len(games)} games in 1 file: {len(games)} legal, 0 faulty\n", checked(len(games))
    )  # fmt: skip


@pytest.mark.parametrize(("name", "args", "games", "_features"), random_variants(6, 12, "1,4"))
def test_logs_of_random_variants_match_their_seeds(
    name: str, args: list[str], games: int, _features: set[str]
) -> None:
    logs = simulate("--seed", "12", "--games", str(games), *args)
    iterations = args[args.index("--search-iterations") :][:2]
    assert against_seed(*logs, args=tuple(iterations)) == (
        0, f"{games} games in 1 file: {games} legal, 0 faulty\n", checked(games)
    )  # fmt: skip


def test_logs_of_ismcts_bots_match_their_seeds() -> None:
    # The ismcts bot at its default 1,200 iterations, which the random variants leave out.
    logs = simulate("--seed", "5", "--games", "2", "--players", "3", "--start-cards", "3",
                    "--bots", "ismcts,heuristic,ismcts",
                    "--dogs-life", "once-per-game")  # fmt: skip
    assert [p["kind"] for p in logs[0]["players"]] == ["ismcts", "heuristic", "ismcts"]
    assert against_seed(*logs) == (0, "2 games in 1 file: 2 legal, 0 faulty\n", checked(2))


def test_a_log_records_its_bots_settings_and_against_seed_uses_them() -> None:
    # Issue 33, 7: a search bot's log at --search-iterations 20 failed --against-seed
    # until the reader guessed the option; now the log records each bot's settings.
    games = simulate("--seed", "3", "--bots", "search,heuristic,ismcts", "--players", "3",
                     "--start-cards", "2", "--search-iterations", "2")  # fmt: skip
    assert [p.get("settings") for p in games[0]["players"]] == [
        {"iterations": 2}, None, {"iterations": 1200}]  # fmt: skip
    assert against_seed(*games) == (0, "1 game in 1 file: 1 legal, 0 faulty\n", checked(1))
    assert check_against_seed(games[0], search_iterations=50) is None  # the log's hold
    edited = copy.deepcopy(games[0])
    edited["players"][0]["settings"]["iterations"] = 100
    difference = check_against_seed(edited)
    assert difference is not None and (difference.seat, difference.field) == (0, "play")
    assert difference.source == "its search bot (seed 3, 100 deals, as logged)"


def test_a_log_without_settings_needs_the_search_iterations_it_was_played_with() -> None:
    games = simulate("--seed", "3", "--bots", "search,heuristic", "--players", "2",
                     "--search-iterations", "2")  # fmt: skip
    old = copy.deepcopy(games[0])  # as logs were written before they recorded settings
    del old["players"][0]["settings"]
    assert against_seed(old, args=("--search-iterations", "2"))[0] == 0
    difference = check_against_seed(old)  # the default: 100 deals per decision
    assert difference is not None
    assert (difference.seat, difference.field) == (0, "play")
    assert difference.source == (
        "its search bot (seed 3, 100 deals, which this log does not record: give"
        " --search-deals)"
    )
    given = check_against_seed(old, search_iterations=3)  # given, so no hint
    assert given is not None and given.source == "its search bot (seed 3, 3 deals)"


# -- decisions --------------------------------------------------------------------------------


def plays_in_order(game: Any) -> list[tuple[int, int, int, str]]:
    """Return ``(round, trick, seat, card or knock)`` of every play, in order."""
    return [
        (rnd["number"], trick["number"], play["seat"], play.get("card", "knock"))
        for rnd in game["rounds"]
        for trick in rnd["tricks"]
        for play in trick["plays"]
    ]


def swap(game: Any, seat: int) -> tuple[Any, int, int, str, str]:
    """Return ``game`` with two of ``seat``'s cards swapped between two tricks of a round,
    the log still legal (plain verify decides), and where: ``(edited, round, trick, card
    now logged there, card played there)``, the first such swap in the game's order."""
    for rnd in game["rounds"]:
        tricks = rnd["tricks"]
        for t, first in enumerate(tricks):
            for later in tricks[t + 1 :]:
                a: Any = next((p for p in first["plays"] if p["seat"] == seat), {})
                b: Any = next((p for p in later["plays"] if p["seat"] == seat), {})
                if "card" not in a or "card" not in b:
                    continue
                edited = copy.deepcopy(game)
                for trick, card in ((t, b["card"]), (later["number"] - 1, a["card"])):
                    plays = edited["rounds"][rnd["number"] - 1]["tricks"][trick]["plays"]
                    next(p for p in plays if p["seat"] == seat)["card"] = card
                if verify_game(edited) is None:
                    return edited, rnd["number"], t + 1, b["card"], a["card"]
    raise AssertionError(f"no legal swap of seat {seat}'s cards")


@pytest.mark.parametrize("seat", [0, 2])
def test_a_played_card_swapped_for_another_legal_one_is_caught(seat: int) -> None:
    (game,) = simulate("--seed", "4", "--bots", "heuristic")
    edited, round_, trick, logged, played = swap(game, seat)
    expected = Difference(round_, trick, seat, "play", logged, played, "its heuristic bot (seed 4)")
    assert check_against_seed(edited) == expected
    code, out, _ = against_seed(edited)
    assert code == 1
    assert out.splitlines()[0] == f"stdin: game 1 (seed 4): {expected}"


def test_a_bot_relabelled_as_another_kind_is_caught_at_its_first_other_choice() -> None:
    # Seat 0 played as a random bot; the log says heuristic. The game is legal, and
    # everything before seat 0's first choice that the heuristic bot would not make is the
    # same: that choice is the difference.
    (played,) = simulate("--seed", "6", "--bots", "random,heuristic,heuristic,heuristic")
    (heuristic,) = simulate("--seed", "6", "--bots", "heuristic")
    first = next(
        (x, y)
        for x, y in zip(plays_in_order(played), plays_in_order(heuristic), strict=False)
        if x != y
    )
    (round_, trick, seat, card), (_, _, _, bot_card) = first
    relabelled = copy.deepcopy(played)
    relabelled["players"][0]["kind"] = "heuristic"
    assert verify_game(relabelled) is None
    assert check_against_seed(relabelled) == Difference(
        round_, trick, seat, "play", card, bot_card, "its heuristic bot (seed 6)"
    )


def test_a_vote_changed_is_caught() -> None:
    # Heuristic bots vote at random (from the bots' generator). Change one vote to another
    # suit where the log stays legal (the vote's outcome unchanged): it is the difference.
    games = simulate("--seed", "8", "--games", "10", "--players", "6", "--eliminated-vote",
                     "--bots", "heuristic")  # fmt: skip
    edits = (
        (g, r, i, suit)
        for g in games
        for r in g["rounds"]
        for i, vote in enumerate(r["votes"] or ())
        for suit in "cdhs"
        if suit != vote["suit"]
    )
    for game, rnd, i, suit in edits:
        edited = copy.deepcopy(game)
        edited["rounds"][rnd["number"] - 1]["votes"][i]["suit"] = suit
        if verify_game(edited) is None:
            break
    else:
        pytest.fail("no legal change of a vote found")
    vote = rnd["votes"][i]
    assert check_against_seed(edited) == Difference(
        rnd["number"], None, vote["seat"], "vote", suit, vote["suit"],
        f"its heuristic bot (seed {game['seed']})",
    )  # fmt: skip


# -- logs of play -----------------------------------------------------------------------------


class FirstLegal(Player):
    """Stands in for a person typing the first legal action (as in test_play.py)."""

    kind = "human"

    def __init__(self, name: str, entries: list[str]) -> None:
        super().__init__(name)
        self.entries = entries

    def act(self, view: View) -> int:
        action = view.legal[0]
        if view.phase is Phase.PLAY:
            self.entries.append(str(sorted(view.hand).index(action) + 1))
        else:
            self.entries.append("1")
        return action


def play_log(tmp: Path, seed: int, bots: str, stop: int | None = None) -> Any:
    """Play ``kow play --log`` in ``tmp`` with one person, piped; return the saved log.

    With ``stop``, the person types ``quit`` instead of their entry number ``stop`` (from 0).
    """
    rules = Rules()
    entries: list[str] = []
    kinds = bots.split(",") if "," in bots else [bots] * 3
    rng = bots_rng(seed)
    players: list[Player] = [FirstLegal("You", entries)]
    players += [make_bot(kind, f"b{i}", rng) for i, kind in enumerate(kinds)]
    play_game(rules, players, seed)
    if stop is not None:
        entries[stop:] = ["quit"]
    path = tmp / "game.json"
    result = CliRunner().invoke(
        main, ["play", "--seed", str(seed), "--bots", bots, "--log", str(path)],
        input="\n".join(entries) + "\n",
    )  # fmt: skip
    assert result.exit_code == (0 if stop is None else 1), result.stderr
    game: Any = json.loads(path.read_text(encoding="utf-8"))
    return game


@pytest.mark.parametrize("bots", ["heuristic", "random", "random,heuristic,random"])
def test_a_log_of_play_matches_its_seed(bots: str, tmp_path: Path) -> None:
    game = play_log(tmp_path, 11, bots)
    assert game["players"][0]["kind"] == "human" and "abandoned" not in game
    assert check_against_seed(game) is None
    assert against_seed(game) == (0, "1 game in 1 file: 1 legal, 0 faulty\n", checked(1))


def test_a_persons_decisions_are_taken_from_the_log(tmp_path: Path) -> None:
    game = play_log(tmp_path, 11, "heuristic")
    # A card of the person's swapped, still legal: people choose as they like.
    edited, *_ = swap(game, 0)
    assert check_against_seed(edited) is None
    # The person played the first legal card, which a heuristic bot would not always:
    # called a heuristic bot, the seat's first other choice is named.
    relabelled = copy.deepcopy(game)
    relabelled["players"][0]["kind"] = "heuristic"
    difference = check_against_seed(relabelled)
    assert difference is not None and difference.seat == 0
    assert difference.source == "its heuristic bot (seed 11)"


def test_a_bots_decisions_in_a_log_of_play_are_checked(tmp_path: Path) -> None:
    game = play_log(tmp_path, 11, "heuristic")
    edited, round_, trick, logged, played = swap(game, 1)
    assert check_against_seed(edited) == Difference(
        round_, trick, 1, "play", logged, played, "its heuristic bot (seed 11)"
    )


def test_an_abandoned_log_matches_up_to_where_it_stops(tmp_path: Path) -> None:
    game = play_log(tmp_path, 11, "heuristic", 9)  # quit in round 2, trick 3
    assert game["abandoned"] is True
    tricks = game["rounds"][-1]["tricks"]
    assert [(t["number"], len(t["plays"]), t["winner"]) for t in tricks] == [
        (1, 3, 1), (2, 3, 2), (3, 1, None)
    ]  # fmt: skip
    assert check_against_seed(game) is None
    assert against_seed(game) == (0, "1 game in 1 file: 1 legal, 0 faulty\n", checked(1))
    last = len(game["rounds"])
    edited = copy.deepcopy(game)
    edited["rounds"][-1]["cut"]["position"] = edited["rounds"][-1]["cut"]["position"] % 51 + 1
    assert verify_game(edited) is None
    difference = check_against_seed(edited)
    assert difference is not None and (difference.round, difference.field) == (last, "cut")


def test_a_player_of_an_unknown_kind_leaves_every_decision_to_the_log() -> None:
    (played,) = simulate("--seed", "6", "--bots", "random,heuristic,heuristic,heuristic")
    relabelled = copy.deepcopy(played)
    relabelled["players"][0]["kind"] = "heuristic"
    assert check_against_seed(relabelled) is not None
    relabelled["players"][2]["kind"] = "someone-elses-bot"  # the bots' draws are unknown
    assert check_against_seed(relabelled) is None
    relabelled["rounds"][0]["cut"]["position"] = relabelled["rounds"][0]["cut"]["position"] % 51 + 1
    difference = check_against_seed(relabelled)
    assert difference is not None and difference.field == "cut"  # the deals still are


# -- games of the framework adapters: agents, and deals from outside kow ------------------------


def test_a_null_seed_is_legal_and_said_not_checked() -> None:
    game = agent_log(None)
    assert verify_game(game) is None
    with pytest.raises(NoSeedError) as err:
        check_against_seed(game)
    assert str(err.value) == NO_SEED
    assert NO_SEED == (
        "the seed is null (the deals came from outside kow), so there is no seed to check"
        " the game against"
    )
    # Issue 33, 9: a legal game dealt outside kow was faulty (exit 1) under --against-seed.
    assert against_seed(game) == (
        0, "1 game in 1 file: 1 legal, 0 faulty (1 of them with no seed, not checked against"
        " one)\n", "checked against their seeds: 0 games; not checked: 1 game with no seed\n",
    )  # fmt: skip
    code, out, err = against_seed(game, agent_log(5), args=("--json",))  # type: ignore[assignment]
    assert code == 0 and err.endswith(  # type: ignore[attr-defined]
        "checked against their seeds: 1 game, each the game its seed gives; not checked: 1 game"
        " with no seed\n"
    )
    assert json.loads(out)["faults"] == []
    assert json.loads(out)["against_seed"] == {
        "checked": 1, "matched": 1, "unmatched": 0, "unseeded": 1,
    }  # fmt: skip


def test_an_agents_decisions_are_taken_from_the_log_and_its_seat_named() -> None:
    game = agent_log(5)  # an agent at seat 0, heuristic bots at seats 1 and 2, seed 5
    note = "stdin: game 1 (seed 5): seat 0 is an agent: kow can't play it again, so its"
    note += " decisions are unchecked\n"
    assert check_against_seed(game) is None
    assert against_seed(game) == (0, "1 game in 1 file: 1 legal, 0 faulty\n", note + checked(1))
    # A card of the agent's swapped, still legal: kow can't tell what the agent chose.
    edited, *_ = swap(game, 0)
    assert check_against_seed(edited) is None
    # A bot's card swapped is still caught, and the seat named is the agent's.
    edited, round_, trick, logged, played = swap(game, 1)
    expected = Difference(round_, trick, 1, "play", logged, played, "its heuristic bot (seed 5)")
    assert check_against_seed(edited) == expected
    code, out, err = against_seed(edited)
    assert (code, out.splitlines()[0], err) == (1, f"stdin: game 1 (seed 5): {expected}", note)
    # The deals are still the seed's.
    edited = copy.deepcopy(game)
    edited["rounds"][0]["cut"]["position"] = edited["rounds"][0]["cut"]["position"] % 51 + 1
    difference = check_against_seed(edited)
    assert difference is not None and (difference.round, difference.field) == (1, "cut")
    two = copy.deepcopy(game)
    two["players"][2]["kind"] = "agent"
    assert agents_note(two) == (
        "seats 0 and 2 are agents: kow can't play them again, so their decisions are unchecked"
    )
