"""A logged game read for the engine (:mod:`kow.log._logged`), and :func:`kow.log.replay_exact`,
which plays each round's cards through the engine's one trick loop with it.

The game is test_replay.py's crafted one: four players, 3 cards, first dealer 0, hearts
turned up. Round 1: seat 2 takes tricks 1 and 3, seat 3 trick 2; seats 0 and 1 are
knocked out. Round 2 (dealer 2): seat 2 chooses hearts. Round 3 (dealer 3): a tie cut,
seat 3 chooses diamonds and wins the only trick with 2d.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from conftest import (
    TIE_CUT_ACTIONS,
    TIE_CUT_DECKS,
    TIE_CUT_RULES,
    TIE_CUT_SCRIPTS,
    apply_all,
    cards,
    new_state,
    play_stacked,
)

from kow.engine import IllegalActionError, State
from kow.events import KNOCK, Phase, Play
from kow.log import LoggedPlayer, build, dumps, replay_exact, replay_game
from kow.log._logged import (
    CARDS,
    LoggedPlays,
    card_of,
    decisions,
    logged_decks,
    logged_rules,
    play_action,
    play_logged,
)
from kow.log._replay import _start
from kow.rules import Rules, RulesError

RULES, DECKS, SCRIPTS, ACTIONS = TIE_CUT_RULES, TIE_CUT_DECKS, TIE_CUT_SCRIPTS, TIE_CUT_ACTIONS


@pytest.fixture(scope="module")
def crafted() -> Any:
    game = play_stacked(RULES, 0, DECKS, SCRIPTS)
    assert game["result"] == {"winner": 3, "rounds_played": 3, "termination": "final-trick"}
    return game


def compact(game: Any) -> str:
    """Return ``game``'s compact text, as the reader keeps it."""
    return json.dumps(game, separators=(",", ":"), ensure_ascii=False)


def changed(game: Any, change: Callable[[Any], object]) -> Any:
    """Return a copy of ``game`` with ``change`` applied to it."""
    game = copy.deepcopy(game)
    change(game)
    return game


def plays_of(game: Any, rnd: int, trick: int) -> list[dict[str, Any]]:
    plays: list[dict[str, Any]] = game["rounds"][rnd - 1]["tricks"][trick - 1]["plays"]
    return plays


def started(game: Any) -> State:
    """Return the state that replays ``game``, dealt from its decks, no action taken."""
    state, _ = _start(game)
    return state


# ----------------------------------------------------------------------------- reading


def test_the_log_is_read_as_written(crafted: Any) -> None:
    first, second, third = crafted["rounds"]
    plays = LoggedPlays(first)
    assert [play_action(play) for play in plays.plays] == cards(
        "3c Ac Qc 7c Kd 3h 8d 5d 4s 9s 4c As"
    )
    assert [play["seat"] for play in plays.plays] == [1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2]
    assert plays.played == 0
    assert decisions(first) == []  # hearts turned up: nobody chose
    assert decisions(second) == [(2, 2)]  # seat 2 chose hearts
    assert decisions(third) == [(1, 3)]  # seat 3 chose diamonds
    assert [play_action(play) for play in LoggedPlays(third).plays] == cards("2d Ac")
    assert play_action({"seat": 0, "knock": True}) == KNOCK
    assert play_action({"seat": 0, "card": "Ah"}) == cards("Ah")[0]
    decks, cuts = logged_decks(crafted)
    assert decks == DECKS
    assert len(cuts) == 3 and all(type(cut) is int for cut in cuts)


def test_a_card_is_read_from_its_names_letters_as_the_table_reads_it() -> None:
    assert [card_of(name) for name in ("2c", "Tc", "Ac", "2d", "Ah", "As")] == [
        0, 8, 12, 13, 38, 51
    ]  # fmt: skip
    letters = [chr(code) for code in range(200)] + ["♥", "é"]
    for first in letters:
        for second in letters:
            for name in (first + second, first, first + second + "h"):
                if name in CARDS:
                    assert card_of(name) == CARDS[name]
                else:
                    with pytest.raises(KeyError) as err:
                        card_of(name)
                    assert err.value.args == (name,)
    for value in (None, 1, True, b"Ah"):
        with pytest.raises(KeyError):
            card_of(value)
    with pytest.raises(TypeError, match="unhashable type: 'list'"):
        card_of(["A", "h"])


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda g: plays_of(g, 1, 1)[0].pop("card"), KeyError),
        (lambda g: plays_of(g, 1, 1)[0].update(card="1c"), KeyError),
        (lambda g: plays_of(g, 1, 1)[0].pop("seat"), KeyError),
        (lambda g: g["rounds"][0]["tricks"][0].update(plays=[["3c"]]), TypeError),
        (lambda g: g["rounds"][0]["tricks"][0].update(plays=3), TypeError),
        (lambda g: g["rounds"][0]["tricks"][0].pop("plays"), KeyError),
    ],
)
def test_plays_that_cannot_be_read_raise_what_python_raises(
    crafted: Any, change: Callable[[Any], object], error: type[Exception]
) -> None:
    game = changed(crafted, change)
    with pytest.raises(error):
        play_logged(started(game), game["rounds"])
    assert replay_exact(game, compact(game)) is None


# ----------------------------------------------------------------------------- playing


def test_play_logged_plays_the_whole_game(crafted: Any) -> None:
    state = started(crafted)
    assert play_logged(state, crafted["rounds"]) is True
    assert state.outcome is not None and state.outcome.winner == 3
    assert state.events == replay_game(crafted).events
    assert replay_exact(crafted, compact(crafted)) is not None


def test_a_play_by_the_wrong_seat_is_refused(crafted: Any) -> None:
    # Trick 2 of round 1: seat 3's 3h said to be seat 1's.
    game = changed(crafted, lambda g: plays_of(g, 1, 2)[1].update(seat=1))
    state = started(game)
    assert play_logged(state, game["rounds"]) is False
    # The engine asked seat 3 for trick 2's second card, and the log named seat 1.
    assert (state.round, state.trick_number, state.turn, len(state.trick)) == (1, 2, 3, 1)
    assert replay_exact(game, compact(game)) is None


def test_plays_in_the_wrong_order_are_refused(crafted: Any) -> None:
    # The same cards and seats, two plays of trick 1 swapped: seat 2 does not act second.
    game = changed(crafted, lambda g: plays_of(g, 1, 1).reverse())
    assert play_logged(started(game), game["rounds"]) is False
    assert replay_exact(game, compact(game)) is None


def test_a_seat_that_is_not_an_int_is_refused(crafted: Any) -> None:
    game = changed(crafted, lambda g: plays_of(g, 1, 1)[1].update(seat=True))  # true is 1 by ==
    assert play_logged(started(game), game["rounds"]) is False
    assert replay_exact(game, compact(game)) is None


def test_a_trump_chosen_by_the_wrong_seat_is_refused(crafted: Any) -> None:
    game = changed(crafted, lambda g: g["rounds"][1].update(trump_chosen_by=3))
    state = started(game)
    assert play_logged(state, game["rounds"]) is False
    assert (state.round, state.phase, state.turn) == (2, Phase.TRUMP, 2)
    assert replay_exact(game, compact(game)) is None


def test_an_illegal_card_is_the_engines_error(crafted: Any) -> None:
    # Seat 0 holds 7c and must follow clubs: 8d is refused by the trick loop.
    game = changed(crafted, lambda g: plays_of(g, 1, 1)[3].update(card="8d"))
    state = started(game)
    with pytest.raises(IllegalActionError, match="seat 0 must follow suit c: it holds 7c, not 8d"):
        play_logged(state, game["rounds"])
    assert (state.trick_number, state.turn, state.trick) == (
        1, 0, tuple(Play(s, c) for s, c in zip((1, 2, 3), cards("3c Ac Qc"), strict=True))
    )  # fmt: skip
    assert replay_exact(game, compact(game)) is None


def test_a_knock_not_allowed_is_the_engines_error(crafted: Any) -> None:
    # No dog's life in these rules: seat 0 may not knock.
    game = changed(crafted, lambda g: plays_of(g, 1, 1).__setitem__(3, {"seat": 0, "knock": True}))
    state = started(game)
    with pytest.raises(IllegalActionError, match="seat 0"):
        play_logged(state, game["rounds"])
    assert (state.trick_number, state.turn, len(state.trick)) == (1, 0, 3)
    assert replay_exact(game, compact(game)) is None


def test_a_log_cut_short_in_its_last_round_is_played_to_its_end(crafted: Any) -> None:
    game = changed(crafted, lambda g: plays_of(g, 3, 1).pop())
    state = started(game)
    assert play_logged(state, game["rounds"]) is True  # where an abandoned game stops
    assert (state.round, state.turn, state.outcome) == (3, 2, None)
    assert state.trick == (Play(3, cards("2d")[0]),)
    assert replay_exact(game, compact(game)) is None  # not abandoned: it ends too soon


def test_a_round_cut_short_before_the_last_is_refused(crafted: Any) -> None:
    game = changed(crafted, lambda g: plays_of(g, 1, 3).pop())
    state = started(game)
    assert play_logged(state, game["rounds"]) is False
    assert (state.round, state.trick_number, state.turn) == (1, 3, 2)
    assert replay_exact(game, compact(game)) is None


def test_plays_after_a_rounds_end_are_refused(crafted: Any) -> None:
    # A fourth card for seat 3 after round 2's last trick: the engine ends the round first.
    game = changed(crafted, lambda g: plays_of(g, 2, 2).append({"seat": 3, "card": "2c"}))
    state = started(game)
    assert play_logged(state, game["rounds"]) is False
    assert (state.round, state.phase) == (3, Phase.TRUMP)
    assert replay_exact(game, compact(game)) is None


def test_an_abandoned_game_replays_to_where_it_stops() -> None:
    # Cut short in round 2: seat 2 chose hearts and led Kh; seat 3 walked out.
    state = new_state(RULES, 0, DECKS)
    apply_all(state, ACTIONS[:14])
    game = json.loads(dumps(build(0, RULES, [LoggedPlayer(f"p{s}", "human") for s in range(4)],
                                  events=state.events, abandoned=True)))  # fmt: skip
    last = replay_exact(game, compact(game))
    assert last is not None
    assert (last.round, last.trick_number, last.turn, last.phase) == (2, 1, 3, Phase.PLAY)
    assert last.trick == (Play(2, cards("Kh")[0]),)
    assert last.outcome is None and last.events == state.events
    not_abandoned: Any = {key: value for key, value in game.items() if key != "abandoned"}
    assert replay_exact(not_abandoned, compact(not_abandoned)) is None


# ----------------------------------------------------------------------------- the rules


def test_the_rules_kept_are_those_of_equal_values_of_the_same_types(crafted: Any) -> None:
    logged = crafted["rules"]
    assert logged_rules(logged) is logged_rules(dict(logged))  # made once
    assert logged_rules(logged) == RULES
    reordered = dict(reversed(logged.items()))
    assert logged_rules(reordered) == RULES and logged_rules(logged) == RULES
    assert logged_rules(list(logged.items())) == RULES  # as dict() reads it
    assert logged_rules({**logged, "players": 3}) == Rules(players=3, start_cards=3)
    with pytest.raises(RulesError, match="final_round_trump must be true or false, not 1"):
        logged_rules({**logged, "final_round_trump": 1})  # equal to true by ==, not the same value
    with pytest.raises(RulesError, match="players must be 2 to 7, not 4.0"):
        logged_rules({**logged, "players": 4.0})
    game = changed(crafted, lambda g: g["rules"].update(final_round_trump=1))
    assert replay_exact(game, compact(game)) is None


def test_a_round_without_plays_before_the_last_is_refused(crafted: Any) -> None:
    # Round 1's plays gone: round 2's decisions are not given to round 1's unfinished play.
    game = changed(crafted, lambda g: g["rounds"][0].update(tricks=[]))
    state = started(game)
    assert play_logged(state, game["rounds"]) is False
    assert (state.round, state.phase, state.trick_number) == (1, Phase.PLAY, 1)
    assert replay_exact(game, compact(game)) is None


def test_threads_get_the_rules_of_their_own_objects(crafted: Any) -> None:
    # The last rules kept are one pair, replaced whole: a thread never gets another
    # object's rules (it could when the pairs and the rules were stored one by one).
    import sys
    import threading

    objects = [dict(crafted["rules"]), {**crafted["rules"], "players": 3}]
    wanted = [logged_rules(dict(o)) for o in objects]  # a copy each: another identity
    wrong: list[Rules] = []

    def use(which: int) -> None:
        for _ in range(20_000):
            got = logged_rules(objects[which])
            if got != wanted[which]:
                wrong.append(got)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=use, args=(i % 2,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert wrong == []
