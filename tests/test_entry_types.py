"""Every public entry point refuses a value of a wrong type in kow's own words (issue 23).

Compiled code (mypyc) checks an annotated argument before the function's body runs: it
refuses a str where an ``int`` is declared with its own ``TypeError`` ("int object
expected; got str"), and takes ``True`` as the int 1. So each entry point checks its
arguments itself, and these tests pin what it raises for each kind of wrong value: the
exception's class and the words naming the value. They run on the pure and the compiled
build alike (CI tests both), and fail if a build changes a message, accepts ``True`` as
a card or a seat, or lets an error out from deep inside.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

try:
    import numpy as np  # the values of the frameworks' arrays, which kow takes as ints
except ImportError as missing:
    pytest.skip(f"{missing.name} is not installed", allow_module_level=True)

from conftest import deal, new_state

from kow.engine import IllegalActionError, State
from kow.engine.view import TrickFacts
from kow.events import Phase, Play
from kow.game import new_game
from kow.rules import Rules, RulesError
from kow.runs.batch import Run
from kow.settings import SettingError

HUGE = 2**70

WRONG: list[Any] = [
    pytest.param("7", id="str"),
    pytest.param(7.0, id="float"),
    pytest.param(None, id="None"),
    pytest.param(True, id="True"),
    pytest.param(False, id="False"),
    pytest.param(np.int64(7), id="numpy-int"),
    pytest.param(np.float64(7.0), id="numpy-float"),
    pytest.param(np.bool_(True), id="numpy-bool"),
    pytest.param([7], id="list"),
    pytest.param(HUGE, id="huge"),
    pytest.param(-1, id="negative"),
]
"""One value of each wrong kind; an entry point that takes one of them leaves it out."""


def wrong(*left_out: str) -> list[Any]:
    """Return :data:`WRONG` without the values whose ids are ``left_out``."""
    return [p for p in WRONG if p.id not in left_out]


def raises(kind: type[BaseException], message: str) -> Any:
    """Return ``pytest.raises`` for ``kind`` with ``message`` in its text (not a regex)."""
    return pytest.raises(kind, match=re.escape(message))


def leading() -> State:
    """Return a 4-player game where seat 0 leads with 2c and 3c: cards 0 and 1 are
    legal, so ``False`` or ``True`` taken as an int would be a card played."""
    hands = ["2c 3c", "4c 5c", "6c 7c", "8c 9c"]
    state = new_state(Rules(players=4, start_cards=2), 3, [deal(3, hands, "Ah")])
    assert (state.phase, state.turn, state.legal_actions()) == (Phase.PLAY, 0, (0, 1))
    return state


def snapshot(state: State) -> tuple[object, ...]:
    """Return what an action refused must leave as it was: turn, hands, trick, events."""
    return state.phase, state.turn, tuple(state.hands), state.trick_played, len(state.events)


def at_phase(rules: Rules, seed: int, phase: Phase) -> State:
    """Return the seeded game of ``rules`` played by first legal actions until ``phase``."""
    state = new_game(rules, seed)
    while state.phase is not phase:
        state.apply(state.legal_actions()[0])
    assert state.allowed == (0, 1, 2, 3)  # True as 1 would be a suit allowed
    return state


# ----------------------------------------------------------------- State: actions


@pytest.mark.parametrize("value", wrong())
def test_apply_check_and_is_legal_refuse_what_is_no_card(value: object) -> None:
    state = leading()
    before = snapshot(state)
    for method in (state.apply, state.check):
        with raises(IllegalActionError, f"seat 0: {value!r} is not a card or a knock") as caught:
            method(value)
        assert (caught.value.seat, caught.value.action) == (0, value)
    assert state.is_legal(value) is False
    assert snapshot(state) == before


@pytest.mark.parametrize(
    ("rules", "seed", "phase"),
    [(Rules(), 1, Phase.TRUMP), (Rules(players=3, start_cards=3, eliminated_vote=True), 0,
                                 Phase.VOTE)],
    ids=["trump", "vote"],
)  # fmt: skip
@pytest.mark.parametrize("value", wrong())
def test_apply_refuses_what_is_no_suit(
    value: object, rules: Rules, seed: int, phase: Phase
) -> None:
    state = at_phase(rules, seed, phase)
    turn, before = state.turn, snapshot(state)
    message = f"seat {turn} must name a suit (c, d, h, s) to {phase.value}, not {value!r}"
    with raises(IllegalActionError, message):
        state.apply(value)
    assert snapshot(state) == before


def test_apply_takes_a_plain_int_and_refuses_a_numpy_one() -> None:
    state = leading()
    with raises(IllegalActionError, "seat 0: np.int64(1) is not a card or a knock"):
        state.apply(np.int64(1))
    assert state.apply(1) == Play(seat=0, card=1) and state.hands[0] == 0b01


# ----------------------------------------------------------------- State: views


@pytest.mark.parametrize("value", [*wrong("None", "numpy-int"), 4, np.int64(4)])
def test_view_refuses_what_is_no_seat(value: object) -> None:
    shown = int(value) if isinstance(value, np.integer) else value
    with raises(RulesError, f"seat must be a seat 0 to 3 with 4 players, not {shown!r}"):
        leading().view(value)


def test_view_takes_a_numpy_seat_as_its_int_and_none_as_the_seat_to_act() -> None:
    state = leading()
    view = state.view(np.int64(2))
    assert type(view.seat) is int and view == state.view(2)
    assert state.view().seat == state.view(None).seat == 0


# ----------------------------------------------------------------- State: play_round


def first_card(facts: TrickFacts) -> int:
    return (facts.legal & -facts.legal).bit_length() - 1


@pytest.mark.parametrize("value", wrong("list"))
def test_play_round_refuses_policies_that_are_not_a_sequence(value: object) -> None:
    state = leading()
    before = snapshot(state)
    with raises(
        TypeError, f"policies must be a sequence of 4 policies, one per seat, not {value!r}"
    ):
        state.play_round(value)  # type: ignore[arg-type]
    with raises(ValueError, "3 policies given for 4 seats"):
        state.play_round([first_card] * 3)
    with raises(TypeError, f"seat 2's policy must be a callable given TrickFacts, not {value!r}"):
        state.play_round([first_card, first_card, value, first_card])  # type: ignore[list-item]
    assert snapshot(state) == before


@pytest.mark.parametrize("value", wrong("None"))
def test_play_round_refuses_a_first_action_that_is_no_card(value: object) -> None:
    state = leading()
    before = snapshot(state)
    with raises(IllegalActionError, f"seat 0: {value!r} is not a card or a knock"):
        state.play_round([first_card] * 4, first=value)
    assert snapshot(state) == before


@pytest.mark.parametrize("value", wrong("True", "False", "numpy-bool"))
def test_play_round_refuses_an_ask_forced_that_is_no_bool(value: object) -> None:
    state = leading()
    before = snapshot(state)
    with raises(SettingError, f"ask_forced must be true or false, not {value!r}"):
        state.play_round([first_card] * 4, ask_forced=value)
    assert snapshot(state) == before
    copy = state.round_copy()
    copy.play_round([first_card] * 4, ask_forced=np.bool_(False))
    assert copy.phase is Phase.ROUND_OVER and copy.hands == [0, 0, 0, 0]


@pytest.mark.parametrize("value", wrong())
def test_play_round_refuses_a_policy_that_returns_no_card(value: object) -> None:
    # The trick loop's own check: a compiled loop must keep the policy's answer untyped.
    state = leading()
    before = snapshot(state)
    with raises(IllegalActionError, f"seat 0: {value!r} is not a card or a knock") as caught:
        state.play_round([lambda facts: value] + [first_card] * 3)  # type: ignore[arg-type]
    assert (caught.value.seat, caught.value.action) == (0, value)
    assert snapshot(state) == before


# ----------------------------------------------------------------- State: copies


@pytest.mark.parametrize("value", wrong("None"))
def test_fork_refuses_a_deck_that_is_no_deck(value: object) -> None:
    with raises(TypeError, f"deck must be a kow.engine.deal.Deck (with cut() and draw(count)), "
                           f"not {value!r}"):  # fmt: skip
        leading().fork(value)  # type: ignore[arg-type]


HANDS_FAULTS = [
    *[pytest.param(v.values[0], ValueError, f"hands must be 4 masks of cards, one per seat, "
                   f"not {v.values[0]!r}", id=v.id) for v in wrong("None", "list")],
    pytest.param([7], ValueError, "1 hands given for 4 seats", id="list"),
]  # fmt: skip


def hand_at_0(value: object) -> tuple[type[Exception], str]:
    """Return what a hand ``value`` for seat 0 (of 2 cards, the rest as dealt) raises."""
    if isinstance(value, np.integer):  # taken as its int: one card is no hand of two
        return ValueError, "seat 0 holds 2 cards, not 3"
    return ValueError, f"seat 0's hand must be a mask of cards (an int 0 to 2^52-1), not {value!r}"


@pytest.mark.parametrize(("value", "kind", "message"), HANDS_FAULTS)
def test_fork_and_from_view_refuse_hands_that_are_not_masks(
    value: object, kind: type[Exception], message: str
) -> None:
    state = leading()
    with raises(kind, message):
        state.fork(hands=value)  # type: ignore[arg-type]
    with raises(kind, message):
        State.from_view(state.view(), value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", wrong())
def test_fork_and_from_view_refuse_a_hand_that_is_no_mask(value: object) -> None:
    state = leading()
    kind, message = hand_at_0(value)
    hands = [value, *state.hands[1:]]
    with raises(kind, message):
        state.fork(hands=hands)  # type: ignore[arg-type]
    with raises(kind, message):
        State.from_view(state.view(), hands)  # type: ignore[arg-type]


def test_fork_and_from_view_take_numpy_masks_as_their_ints() -> None:
    state = leading()
    masks = [np.int64(h) for h in state.hands]
    for other in (state.fork(hands=masks), State.from_view(state.view(), masks)):
        assert other.hands == state.hands and {type(h) for h in other.hands} == {int}


@pytest.mark.parametrize("value", wrong())
def test_from_view_refuses_a_view_that_is_no_view(value: object) -> None:
    state = leading()
    with raises(TypeError, f"view must be a kow.engine.view.View, not {value!r}"):
        State.from_view(value, state.hands)
    as_tuple = tuple(state.view())  # a View's fields, but no View
    with raises(TypeError, f"view must be a kow.engine.view.View, not {as_tuple!r}"):
        State.from_view(as_tuple, state.hands)


# ----------------------------------------------------------------- a new game


@pytest.mark.parametrize("value", wrong())
def test_a_new_state_refuses_rules_an_rng_or_a_deck_of_a_wrong_kind(value: object) -> None:
    with raises(TypeError, f"rules must be a kow.rules.Rules, not {value!r}"):
        State(value, random.Random(1))  # type: ignore[arg-type]
    with raises(TypeError, f"rng must be a random.Random, not {value!r}"):
        State(Rules(), value)  # type: ignore[arg-type]
    if value is not None:
        with raises(TypeError, f"deck must be a kow.engine.deal.Deck (with cut() and "
                               f"draw(count)), not {value!r}"):  # fmt: skip
            State(Rules(), random.Random(1), deck=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [*wrong("None"), 4])
def test_a_new_game_refuses_a_dealer_that_is_no_seat(value: object) -> None:
    shown = int(value) if isinstance(value, np.integer) else value
    message = f"dealer must be a seat 0 to 3 with 4 players, not {shown!r}"
    starts = (lambda: State(Rules(), random.Random(1), value), lambda: new_game(Rules(), 1, value))
    for start in starts:
        if isinstance(value, np.integer) and value < 4:
            assert start().dealer == int(value)  # type: ignore[no-untyped-call]
        else:
            with raises(RulesError, message):
                start()  # type: ignore[no-untyped-call]


@pytest.mark.parametrize("value", wrong("numpy-int"))
def test_new_game_refuses_rules_a_seed_or_a_deck_of_a_wrong_kind(value: object) -> None:
    with raises(TypeError, f"rules must be a kow.rules.Rules, not {value!r}"):
        new_game(value, 1)  # type: ignore[arg-type]
    with raises(SettingError, f"{value!r} is not a seed: allowed 0 to 9007199254740991"):
        new_game(Rules(), value)
    if value is not None:
        with raises(TypeError, "deck must be a kow.engine.deal.Deck"):
            new_game(Rules(), 1, deck=value)  # type: ignore[arg-type]


def test_new_game_takes_a_numpy_seed_as_its_int() -> None:
    assert new_game(Rules(), np.int64(7)).events == new_game(Rules(), 7).events


# ----------------------------------------------------------------- Rules


@pytest.mark.parametrize("value", wrong("numpy-int"))
@pytest.mark.parametrize(
    ("field", "allowed"),
    [("players", "2 to 7"), ("start_cards", "1 to 12 with 4 players")],
)
def test_rules_refuse_a_count_that_is_no_int_in_range(
    field: str, allowed: str, value: object
) -> None:
    with raises(RulesError, f"{field} must be {allowed}") as caught:
        Rules(**{field: value})  # type: ignore[arg-type]
    assert str(caught.value).endswith(f", not {value!r}")


@pytest.mark.parametrize("value", wrong())
@pytest.mark.parametrize(
    ("field", "allowed"),
    [("dogs_life", "one of off, once-per-game, once-per-player"),
     ("trump", "one of winner-chooses, fixed"), ("lead", "one of most-tricks, dealer-left")],
)  # fmt: skip
def test_rules_refuse_a_choice_that_is_none_of_the_choices(
    field: str, allowed: str, value: object
) -> None:
    with raises(RulesError, f"{field} must be {allowed}, not {value!r}"):
        Rules(**{field: value})  # type: ignore[arg-type]


# A numpy bool is refused here (kow.settings.check_bool takes one): left out, not pinned.
@pytest.mark.parametrize("value", wrong("True", "False", "numpy-bool"))
@pytest.mark.parametrize("field", ["final_round_trump", "eliminated_vote", "sweep_wins"])
def test_rules_refuse_a_flag_that_is_no_bool(field: str, value: object) -> None:
    with raises(RulesError, f"{field} must be true or false, not {value!r}"):
        Rules(**{field: value})  # type: ignore[arg-type]


def test_rules_take_numpy_counts_as_their_ints() -> None:
    rules = Rules(players=np.int64(3), start_cards=np.int8(5))
    assert rules == Rules(players=3, start_cards=5) and type(rules.players) is int


# ----------------------------------------------------------------- Run


def run(**settings: object) -> Run:
    given: dict[str, Any] = {"seed": 1, "rules": Rules(), "kinds": ("random",)}
    return Run(**{**given, **settings})


@pytest.mark.parametrize("value", wrong("numpy-int"))
def test_run_refuses_a_seed_rules_or_dealer_of_a_wrong_kind(value: object) -> None:
    with raises(SettingError, f"{value!r} is not a seed: allowed 0 to 9007199254740991"):
        run(seed=value)
    with raises(TypeError, f"rules must be a kow.rules.Rules, not {value!r}"):
        run(rules=value)
    if value is not None:
        with raises(RulesError, f"dealer must be a seat 0 to 3 with 4 players, not {value!r}"):
            run(dealer=value)
    if not isinstance(value, (bool, np.bool_)):
        with raises(SettingError, f"pretty must be true or false, not {value!r}"):
            run(pretty=value)


@pytest.mark.parametrize("value", wrong("list"))
def test_run_refuses_kinds_that_are_not_kinds(value: object) -> None:
    example = (value,) if isinstance(value, str) else ("random",)
    with raises(
        TypeError, f"kinds must be a sequence of bot kinds, e.g. {example!r}, not {value!r}"
    ):
        run(kinds=value)
    with raises(ValueError, f"{value!r} is not a bot kind: choose from random, heuristic, search"):
        run(kinds=[value])


@pytest.mark.parametrize("value", wrong())
def test_run_refuses_bot_options_that_are_not_pairs(value: object) -> None:
    pairs = [] if isinstance(value, str) else [[(value, 3)]]  # a str is a name
    for options in (value, [value], *pairs):
        with raises(TypeError, f"bot_options must be (name, value) pairs, e.g. "
                               f"(('search_iterations', 200),), not {options!r}"):  # fmt: skip
            run(bot_options=options)
    if value is not None and not isinstance(value, np.integer):
        with raises(SettingError, f"{value!r} is not a number of deals: allowed 1 to 100000"):
            run(bot_options=[("search_iterations", value)])


def test_run_takes_numpy_values_and_option_pairs_as_lists() -> None:
    assert run(seed=np.int64(1), dealer=np.int64(2), pretty=np.bool_(False),
               bot_options=[["search_iterations", np.int64(3)]]) == run(
        dealer=2, bot_options=(("search_iterations", 3),)
    )  # fmt: skip


# ----------------------------------------------------------------- the adapters


def action_reason(value: object) -> tuple[str, str]:
    """Return how an adapter shows ``value`` as an action id, and why it is refused, when
    it is not an int id 0..56."""
    if type(value) is int and value in (HUGE, -1):
        return str(value), f"action {value} is not a card (0-51) or a knock (52)"
    return repr(value), f"{value!r} is not an action id"


IDS = wrong("numpy-int")
"""The wrong kinds of action id: a numpy integer is an id (its int)."""


@pytest.mark.parametrize("value", IDS)
def test_pettingzoo_step_refuses_what_is_no_action_id(value: object) -> None:
    pettingzoo = pytest.importorskip("kow.frameworks.pettingzoo")
    table = pettingzoo.raw_env()
    table.reset(seed=1)
    agent, events = table.agent_selection, len(table.game.events)
    shown, reason = action_reason(value)
    with raises(ValueError, f"{agent} cannot take action {shown}: {reason}; legal: "):
        table.step(value)
    assert (table.agent_selection, len(table.game.events)) == (agent, events)
    if value is not None:  # reset() draws a seed
        with raises(SettingError, f"{value!r} is not a seed: allowed 0 to 9007199254740991"):
            table.reset(seed=value)


@pytest.mark.parametrize("value", IDS)
def test_gymnasium_step_ends_the_episode_for_what_is_no_action_id(value: object) -> None:
    gymnasium = pytest.importorskip("kow.frameworks.gymnasium")
    table = gymnasium.KnockOutWhistEnv(seat=0, bots="random")
    table.reset(seed=1)
    events = len(table.game.events)
    _, reward, terminated, truncated, info = table.step(value)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["reason"] == action_reason(value)[1] and info["action"] is value
    assert len(table.game.events) == events
    if value is not None:
        with raises(SettingError, f"{value!r} is not a seed: allowed 0 to 9007199254740991"):
            table.reset(seed=value)


@pytest.mark.parametrize("value", wrong("str", "list"))
def test_gymnasium_refuses_bots_that_are_no_kinds(value: object) -> None:
    gymnasium = pytest.importorskip("kow.frameworks.gymnasium")
    with raises(TypeError, f"bots must be a bot kind or a sequence of kinds, not {value!r}"):
        gymnasium.KnockOutWhistEnv(bots=value)


def test_numpy_ids_are_actions_in_both_gym_adapters() -> None:
    pettingzoo = pytest.importorskip("kow.frameworks.pettingzoo")
    gymnasium = pytest.importorskip("kow.frameworks.gymnasium")
    from kow.frameworks.encoding import legal_action_ids

    table = pettingzoo.raw_env()
    table.reset(seed=1)
    events = len(table.game.events)
    table.step(np.int64(legal_action_ids(table.game)[0]))
    assert len(table.game.events) == events + 1
    solo = gymnasium.KnockOutWhistEnv(seat=0, bots="random")
    solo.reset(seed=1)
    assert solo.step(np.int64(legal_action_ids(solo.game)[0]))[1] == 0.0


def openspiel_decision() -> Any:
    """Return the first decision of an OpenSpiel game of kow (chance outcomes taken first)."""
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("kow.frameworks.openspiel")
    state = pyspiel.load_game("python_knock_out_whist").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_openspiel_apply_action_refuses_ids_in_kow_words_where_kow_decides() -> None:
    state = openspiel_decision()
    engine = state.engine
    history = state.history()
    held = engine.hands[engine.turn]
    not_held = next(c for c in range(52) if not held >> c & 1)
    with raises(IllegalActionError, f"seat {engine.turn} does not hold"):
        state.apply_action(not_held)
    with raises(ValueError, "action 53 is not a card (0-51) or a knock (52)"):
        state.apply_action(53)
    assert state.history() == history and state.engine is engine
    legal = state.legal_actions()[0]
    state.apply_action(np.int64(legal))  # a numpy integer is its int
    assert state.history() == [*history, legal]


@pytest.mark.parametrize("value", wrong("True", "False", "numpy-int", "numpy-bool", "negative"))
def test_openspiel_apply_action_refuses_what_is_no_int(value: object) -> None:
    # OpenSpiel's binding refuses these before kow sees them (and converts bools and numpy
    # integers to ints, -1 to its invalid action); kow's state stays as it was.
    state = openspiel_decision()
    history = state.history()
    with pytest.raises(TypeError):
        state.apply_action(value)
    assert state.history() == history


class _OddDeck:
    """A deck of a user's own (not kow's): cuts and draws what it is given."""

    def __init__(self, cut: object, drawn: object) -> None:
        self._cut, self._drawn = cut, drawn

    def cut(self) -> object:
        return self._cut

    def draw(self, count: int) -> object:
        return self._drawn(count) if callable(self._drawn) else self._drawn


@pytest.mark.parametrize(
    ("cut", "drawn", "message"),
    [
        (0, lambda n: list(range(n)), "the deck's cut() returned 0: a cut lifts 1 to 51 cards"),
        (2**70, lambda n: list(range(n)), "the deck's cut() returned 1180591620717411303424:"),
        ("x", lambda n: list(range(n)), "the deck's cut() returned 'x':"),
        (5.0, lambda n: list(range(n)), "the deck's cut() returned 5.0:"),
        (True, lambda n: list(range(n)), "the deck's cut() returned True:"),
        (5, lambda n: [0] * n, "the deck's draw(13) returned [0, 0, 0"),
        (5, lambda n: list(range(n - 1)), "the deck's draw(13) returned [0, 1, 2"),
        (5, lambda n: ["2c"] * n, "the deck's draw(13) returned ['2c', '2c'"),
        (5, None, "the deck's draw(13) returned None: 13 different cards, each an int 0 to 51"),
        (5, lambda n: [52, *range(n - 1)], "the deck's draw(13) returned [52, 0, 1"),
        (5, lambda n: [True, *range(1, n)], "the deck's draw(13) returned [True, 1, 2"),
    ],
)
def test_a_deck_of_ones_own_is_checked(cut: object, drawn: object, message: str) -> None:
    # 4 players, 3 cards each and the turned-up card: 13 cards drawn for round 1.
    rules = Rules(players=4, start_cards=3)
    with pytest.raises(ValueError) as raised:
        State(rules, random.Random(1), deck=_OddDeck(cut, drawn))  # type: ignore[arg-type]
    assert str(raised.value).startswith(message)


def test_a_deck_of_ones_own_that_is_right_deals_its_cards() -> None:
    deck = _OddDeck(np.int64(7), lambda n: [np.int64(c) for c in range(51, 51 - n, -1)])
    state = State(Rules(players=4, start_cards=3), random.Random(1), 0, deck=deck)  # type: ignore[arg-type]
    dealt = state.events[0]
    assert (dealt.cut_position, type(dealt.cut_position)) == (7, int)  # type: ignore[union-attr]
    assert sorted(c for hand in dealt.hands for c in hand) == list(range(40, 52))  # type: ignore[union-attr]
    assert state.turned_up == 39 and type(state.turned_up) is int
