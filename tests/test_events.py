"""The vocabulary of a game (:mod:`kow.events`): events, their visitor, actions, enums.

Every kind of event goes to its own :class:`~kow.events.EventVisitor` method; a play's
action is its card and a knock's is :data:`~kow.events.KNOCK`; :func:`~kow.events.clockwise`
lists seats; :class:`~kow.events.Phase` and :class:`~kow.events.Termination` have the
values that the screen, the README's replay example and error messages show.
"""

from __future__ import annotations

from typing import Any, get_args

import pytest
from conftest import apply_all, cards, deal, documented_order, new_state

from kow import events
from kow.engine import IllegalActionError
from kow.events import (
    KNOCK,
    CutCard,
    Deal,
    Event,
    EventVisitor,
    GameEnd,
    Knock,
    Lead,
    Outcome,
    Phase,
    Play,
    RoundEnd,
    Termination,
    TieCut,
    Trick,
    TrickWon,
    TrumpSet,
    TurnedUp,
    Vote,
    WonBy,
    clockwise,
    new_trick_won,
)
from kow.game import bots_rng, play_game
from kow.players import make_bot
from kow.rules import Rules

AH, KH, TWO_C = cards("Ah Kh 2c")

# One event of each kind, in the order a game makes them.
ONE_OF_EACH: list[tuple[str, Any]] = [
    ("on_deal", Deal(1, 1, 0, 1, 26, ((AH,), (KH,)), ())),
    ("on_turned_up", TurnedUp(TWO_C)),
    ("on_tie_cut", TieCut(((CutCard(0, AH), CutCard(1, KH)),))),
    ("on_vote", Vote(2, 3)),
    ("on_trump_set", TrumpSet(0, "turned-up", None)),
    ("on_lead", Lead(1)),
    ("on_play", Play(1, KH)),
    ("on_knock", Knock(0)),
    (
        "on_trick_won",
        TrickWon(
            number=1, leader=1, winner=1, next_leader=None, card=KH, led=2, why=WonBy.ONLY_CARD
        ),
    ),
    ("on_round_end", RoundEnd((0, 1), (0,), (), ())),
    ("on_game_end", GameEnd(Outcome(1, Termination.LAST_STANDING, 1))),
]
METHOD_OF = {type(event): name for name, event in ONE_OF_EACH}


class Recorder(EventVisitor):
    """Record each method called, by name, with the event it was given."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def on_deal(self, event: Deal) -> None:
        self.calls.append(("on_deal", event))

    def on_turned_up(self, event: TurnedUp) -> None:
        self.calls.append(("on_turned_up", event))

    def on_tie_cut(self, event: TieCut) -> None:
        self.calls.append(("on_tie_cut", event))

    def on_vote(self, event: Vote) -> None:
        self.calls.append(("on_vote", event))

    def on_trump_set(self, event: TrumpSet) -> None:
        self.calls.append(("on_trump_set", event))

    def on_lead(self, event: Lead) -> None:
        self.calls.append(("on_lead", event))

    def on_play(self, event: Play) -> None:
        self.calls.append(("on_play", event))

    def on_knock(self, event: Knock) -> None:
        self.calls.append(("on_knock", event))

    def on_trick_won(self, event: TrickWon) -> None:
        self.calls.append(("on_trick_won", event))

    def on_round_end(self, event: RoundEnd) -> None:
        self.calls.append(("on_round_end", event))

    def on_game_end(self, event: GameEnd) -> None:
        self.calls.append(("on_game_end", event))


def test_every_kind_of_event_dispatches_to_its_own_method() -> None:
    recorder = Recorder()
    recorder.visit([event for _, event in ONE_OF_EACH])
    assert recorder.calls == ONE_OF_EACH


def test_one_of_each_covers_every_kind_and_every_method() -> None:
    assert [type(event) for _, event in ONE_OF_EACH] == list(get_args(Event))
    methods = [name for name in vars(EventVisitor) if name.startswith("on_")]
    assert sorted(methods) == sorted(name for name, _ in ONE_OF_EACH)


@pytest.mark.parametrize(("method", "event"), ONE_OF_EACH, ids=[m for m, _ in ONE_OF_EACH])
def test_accept_calls_the_one_method(method: str, event: Any) -> None:
    recorder = Recorder()
    assert event.accept(recorder) is None
    assert recorder.calls == [(method, event)]


def test_the_base_visitor_ignores_every_event() -> None:
    class Plays(EventVisitor):
        def __init__(self) -> None:
            self.cards: list[int] = []

        def on_play(self, event: Play) -> None:
            self.cards.append(event.card)

    visitor = Plays()
    visitor.visit(tuple(event for _, event in ONE_OF_EACH))  # a tuple is walked too
    assert visitor.cards == [KH]
    assert EventVisitor().visit([event for _, event in ONE_OF_EACH]) is None  # type: ignore[func-returns-value]


def test_a_game_walked_by_a_visitor_gives_its_events_in_order() -> None:
    rules = Rules(players=3, dogs_life="once-per-game", eliminated_vote=True, sweep_wins=False)
    found: set[str] = set()
    for seed in range(12):
        rng = bots_rng(seed)
        players = [make_bot("random", f"r{s}", rng) for s in range(3)]
        events = play_game(rules, players, seed).events
        recorder = Recorder()
        recorder.visit(events)
        assert [event for _, event in recorder.calls] == events
        assert all(name == METHOD_OF[type(event)] for name, event in recorder.calls)
        found |= {name for name, _ in recorder.calls}
    assert found >= {"on_deal", "on_turned_up", "on_play", "on_trick_won", "on_game_end"}


# ----------------------------------------------------------------------------- actions


def test_a_plays_action_is_its_card_and_a_knocks_is_knock() -> None:
    assert Play(3, AH).action == AH == 38
    assert Play(0, TWO_C).action == 0
    assert Knock(2).action == KNOCK == 52
    assert KNOCK not in range(52), "no card is a knock"


def test_events_are_small_values() -> None:
    play = Play(seat=1, card=KH)
    assert play == Play(1, KH) and play != Play(2, KH)
    assert (play.seat, play.card) == (1, KH)
    with pytest.raises(AttributeError):
        play.seat = 2  # type: ignore[misc]
    assert hash(Knock(1)) == hash(Knock(1))
    won = TrickWon(2, 0, 1, 1, KH, 2, WonBy.HIGHEST_OF_LED)
    assert won == TrickWon(
        number=2, leader=0, winner=1, next_leader=1, card=KH, led=2, why=WonBy.HIGHEST_OF_LED
    )
    assert won._fields == ("number", "leader", "winner", "next_leader", "card", "led", "why")
    assert Trick._fields == ("number", "leader", "plays", "winner", "card", "led", "why")


def test_the_fast_constructor_of_cut_card_takes_the_documented_order() -> None:
    # A round's tie cut builds each CutCard from a tuple, by position.
    assert events.CutCard._fields == ("seat", "card") == documented_order(events, "new_cut_card")
    built = events.new_cut_card((3, KH))
    assert type(built) is events.CutCard
    assert built == events.CutCard(seat=3, card=KH)
    assert (built.seat, built.card) == (3, KH)


def test_the_fast_constructor_of_trick_won_takes_the_documented_order() -> None:
    # The trick loop builds TrickWon from a tuple, by position: a field added or moved in
    # the class must be moved in new_trick_won's docstring, here, and in the loop.
    fields = ("number", "leader", "winner", "next_leader", "card", "led", "why")
    assert TrickWon._fields == fields == documented_order(events, "new_trick_won")
    values = (2, 0, 1, None, KH, 2, WonBy.HIGHEST_OF_LED)
    built = new_trick_won(values)
    assert type(built) is TrickWon
    assert built == TrickWon(
        number=2, leader=0, winner=1, next_leader=None, card=KH, led=2, why=WonBy.HIGHEST_OF_LED
    )
    assert [getattr(built, f) for f in fields] == list(values)


@pytest.mark.parametrize(
    ("name", "record", "fields", "values"),
    [
        ("new_lead", Lead, ("seat",), (2,)),
        ("new_turned_up", TurnedUp, ("card",), (KH,)),
        ("new_outcome", Outcome, ("winner", "termination", "rounds_played"),
         (1, Termination.SWEEP, 3)),
        ("new_game_end", GameEnd, ("outcome",),
         (Outcome(winner=1, termination=Termination.SWEEP, rounds_played=3),)),
        ("new_tie_cut", TieCut, ("passes",),
         (((CutCard(seat=0, card=KH), CutCard(seat=2, card=KH - 1)),),)),
    ],
)  # fmt: skip
def test_the_fast_constructors_of_the_engine_take_the_documented_order(
    name: str, record: type, fields: tuple[str, ...], values: tuple[object, ...]
) -> None:
    # The engine builds these from a tuple, by position, once a round or a game.
    assert record._fields == fields == documented_order(events, name)  # type: ignore[attr-defined]
    built = getattr(events, name)(values)
    assert type(built) is record
    assert built == record(**dict(zip(fields, values, strict=True)))


# ----------------------------------------------------------------------------- clockwise


@pytest.mark.parametrize(
    ("first", "players", "seats"),
    [
        (0, 4, (0, 1, 2, 3)),
        (2, 4, (2, 3, 0, 1)),
        (3, 4, (3, 0, 1, 2)),
        (1, 2, (1, 0)),
        (6, 7, (6, 0, 1, 2, 3, 4, 5)),
        (4, 5, (4, 0, 1, 2, 3)),
    ],
)
def test_clockwise(first: int, players: int, seats: tuple[int, ...]) -> None:
    assert clockwise(first, players) == seats


def test_clockwise_lists_every_seat_once_from_the_first() -> None:
    for players in range(2, 8):
        for first in range(players):
            seats = clockwise(first, players)
            assert seats[0] == first and sorted(seats) == list(range(players))
            assert all(
                b == (a + 1) % players for a, b in zip(seats, seats[1:] + seats[:1], strict=True)
            )


# ----------------------------------------------------------------------------- enums


def test_phase_values() -> None:
    # State.phase.value is what the README's replay example prints, and what the
    # engine's messages say ("... to vote", "... to trump").
    assert {p.name: p.value for p in Phase} == {
        "VOTE": "vote", "TRUMP": "trump", "PLAY": "play", "OVER": "over",
        "ROUND_OVER": "round-over",
    }  # fmt: skip
    assert Phase("over") is Phase.OVER


def test_termination_values() -> None:
    assert {t.name: t.value for t in Termination} == {
        "LAST_STANDING": "last-standing", "SWEEP": "sweep", "FINAL_TRICK": "final-trick",
    }  # fmt: skip
    assert Termination("final-trick") is Termination.FINAL_TRICK


def test_the_engine_names_the_phase_by_its_value() -> None:
    # Three players, 3 cards, dealer 0: seat 1 takes two tricks, seat 2 one, seat 0 none.
    # In round 2 (dealer 1), seat 1 took the most tricks and must name trump.
    rules = Rules(players=3, start_cards=3)
    decks = [deal(0, ["2c 3c 4c", "Ac Ad 5s", "Kc Kd As"], "2h"), deal(1, [None, "Qs Js", "Qd Jd"])]
    state = apply_all(new_state(rules, 0, decks), "Ac Kc 2c Ad Kd 3c 5s As 4c")
    assert (state.phase, state.phase.value, state.turn) == (Phase.TRUMP, "trump", 1)
    with pytest.raises(IllegalActionError) as err:
        state.apply(7)
    assert str(err.value) == "seat 1 must name a suit (c, d, h, s) to trump, not 7"


def test_an_outcome_names_its_facts() -> None:
    outcome = Outcome(winner=2, termination=Termination.SWEEP, rounds_played=4)
    assert outcome == (2, Termination.SWEEP, 4)
    assert outcome.termination.value == "sweep"
