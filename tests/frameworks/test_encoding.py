"""The framework encoding: action ids, tensors and strings hold what a seat may know."""

from __future__ import annotations

import random

import pytest
from conftest import apply_all, cards, deal, new_state

from kow.cards import parse_card
from kow.engine import State
from kow.events import KNOCK, Phase
from kow.frameworks.encoding import (
    KNOCK_ID,
    NUM_ACTIONS,
    SUIT_IDS,
    action_id,
    action_text,
    engine_action,
    fill_action_mask,
    fill_observation,
    information_state,
    information_state_fields,
    information_state_size,
    information_state_text,
    legal_action_ids,
    observation,
    observation_fields,
    observation_size,
    observation_text,
)
from kow.rules import Rules

RULES = Rules(players=3, start_cards=3)
HANDS = ["Kd Qd 4s", "3c 5h 9h", "Ac Jd 2s"]


def _game(hands: list[str], actions: str = "3c Ac") -> State:
    """Seat 0 deals ``hands`` with 2h turned up (trump h); seat 1 leads; play ``actions``."""
    return apply_all(new_state(RULES, 0, [deal(0, hands, "2h")]), actions)


def _fields(
    tensor: list[float], fields: tuple[tuple[str, int], ...]
) -> dict[str, dict[int, float]]:
    """Return the nonzero entries of each named field, by index within the field."""
    out: dict[str, dict[int, float]] = {}
    at = 0
    for name, size in fields:
        out[name] = {i: v for i, v in enumerate(tensor[at : at + size]) if v}
        at += size
    assert at == len(tensor)
    return out


def test_action_ids_are_cards_knock_and_suits_in_every_phase() -> None:
    assert (NUM_ACTIONS, KNOCK_ID, SUIT_IDS) == (57, 52, (53, 54, 55, 56))
    assert action_id(parse_card("Th"), Phase.PLAY) == parse_card("Th") == 34
    assert action_id(KNOCK, Phase.PLAY) == 52
    assert [action_id(s, Phase.TRUMP) for s in range(4)] == [53, 54, 55, 56]
    assert [engine_action(i, Phase.VOTE) for i in SUIT_IDS] == [0, 1, 2, 3]
    assert engine_action(52, Phase.PLAY) == KNOCK
    assert [action_text(i) for i in (0, 51, 52, 53, 56)] == [
        "2c",
        "As",
        "knock",
        "suit c",
        "suit s",
    ]
    with pytest.raises(ValueError, match="action 53 is not a card"):
        engine_action(53, Phase.PLAY)
    with pytest.raises(ValueError, match="action 12 is not a suit"):
        engine_action(12, Phase.TRUMP)
    with pytest.raises(ValueError, match="the game is over"):
        engine_action(0, Phase.OVER)
    np = pytest.importorskip("numpy")

    assert (
        engine_action(np.int64(55), Phase.VOTE) == 2
        and type(engine_action(np.int8(3), Phase.PLAY)) is int
    )
    for bad in (2.0, True, None, "3"):
        with pytest.raises(TypeError, match=f"{bad!r} is not an action id"):
            engine_action(bad, Phase.PLAY)
    for array in (np.array([3]), np.array(3.0)):  # not one integer: numpy's own words no more
        with pytest.raises(TypeError) as refused:
            engine_action(array, Phase.PLAY)
        assert str(refused.value) == f"{array!r} is not an action id"


def test_legal_action_ids_are_the_engine_s_legal_actions() -> None:
    state = _game(HANDS)
    assert legal_action_ids(state) == cards("Qd Kd 4s")  # seat 0 is void in clubs
    state = _game(HANDS, "")
    assert legal_action_ids(state) == cards("3c 5h 9h")


def test_observation_holds_the_seat_s_view_field_by_field() -> None:
    state = _game(HANDS)
    obs = observation(state.view(0))
    assert len(obs) == observation_size(RULES) == sum(s for _, s in observation_fields(RULES))
    f = _fields(obs, observation_fields(RULES))
    assert f["seat"] == {0: 1.0} and f["phase"] == {2: 1.0} and f["to_act"] == {0: 1.0}
    assert f["hand"] == dict.fromkeys(cards("Kd Qd 4s"), 1.0)
    assert f["seen"] == dict.fromkeys(cards("3c Ac 2h"), 1.0)
    assert f["trick"] == {53 * 1 + parse_card("3c"): 1.0, 53 * 2 + parse_card("Ac"): 1.0}
    assert f["led"] == {0: 1.0} and f["trump"] == {2: 1.0}
    assert f["turned_up"] == {parse_card("2h"): 1.0}
    assert f["winning_seat"] == {2: 1.0} and f["trick_leader"] == {1: 1.0}
    assert f["dealer"] == {0: 1.0} and f["leader"] == {1: 1.0}
    assert f["in_round"] == {0: 1.0, 1: 1.0, 2: 1.0} and f["knocked_out"] == {}
    assert f["hand_counts"] == {0: 3.0, 1: 2.0, 2: 2.0}
    assert f["tricks_won"] == {} and f["previous_tricks_won"] == {}
    assert f["round"] == {0: 1.0} and f["trick_number"] == {0: 1.0} and f["votes"] == {}
    # Seat 1 is not to act and sees its own hand, not seat 0's.
    other = _fields(observation(state.view(1)), observation_fields(RULES))
    assert other["to_act"] == {} and other["hand"] == dict.fromkeys(cards("5h 9h"), 1.0)


def test_information_state_adds_the_deal_and_the_round_s_tricks() -> None:
    state = _game(HANDS, "3c Ac 4s 2s")  # Ac wins trick 1; seat 2 leads 2s to trick 2
    assert state.turn == 0
    tensor = information_state(state, 1)
    assert len(tensor) == information_state_size(RULES)
    f = _fields(tensor, information_state_fields(RULES))
    assert f["dealt"] == dict.fromkeys(cards("3c 5h 9h"), 1.0)
    assert f["tricks"] == {
        53 * 1 + parse_card("3c"): 1.0,  # trick 1, seat 1
        53 * 2 + parse_card("Ac"): 1.0,  # trick 1, seat 2
        53 * 0 + parse_card("4s"): 1.0,  # trick 1, seat 0
        53 * (3 + 2) + parse_card("2s"): 1.0,  # trick 2, seat 2
    }
    assert f["trick_leaders"] == {1: 1.0, 3 + 2: 1.0}  # seat 1, then seat 2
    assert f["dogs_life_used"] == {}


def test_information_state_text_is_the_game_as_the_seat_saw_it() -> None:
    state = _game(HANDS)
    assert information_state_text(state.events, 0) == "\n".join(
        [
            "seat 0",
            "round 1: 3 cards, dealer 0, cards dealt 3 3 3, dog's life none; hand Kd Qd 4s",
            "turned up 2h",
            "trump h (turned-up)",
            "1 leads",
            "1:3c",
            "2:Ac",
        ]
    )
    assert "3c 5h 9h" in information_state_text(state.events, 1)
    assert observation_text(state.view(0)).splitlines() == [
        "seat 0, phase play, to act: Qd Kd 4s",
        "round 1, 3 cards, dealer 0, trump h, turned up 2h",
        "hand: Qd Kd 4s",
        "in round: 0 1 2; dog's life: none; knocked out: none",
        "cards held: 3 2 2; tricks won: 0 0 0",
        "seen: 3c Ac 2h",
        "trick 1: 1:3c 2:Ac",
    ]


def test_nothing_hidden_from_a_seat_reaches_its_encodings() -> None:
    # Seats 1 and 2 swap their unplayed cards: seat 0's strings and tensors do not change,
    # and seat 1's do.
    a = _game(HANDS)
    b = _game(["Kd Qd 4s", "3c Jd 2s", "Ac 5h 9h"])
    assert information_state_text(a.events, 0) == information_state_text(b.events, 0)
    assert information_state(a, 0) == information_state(b, 0)
    assert observation(a.view(0)) == observation(b.view(0))
    assert observation_text(a.view(0)) == observation_text(b.view(0))
    assert information_state_text(a.events, 1) != information_state_text(b.events, 1)
    assert information_state(a, 1) != information_state(b, 1)
    assert observation(a.view(1)) != observation(b.view(1))


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=4),
        Rules(players=3, dogs_life="once-per-player", eliminated_vote=True, start_cards=5),
        Rules(players=2, start_cards=25, final_round_trump=False),
        Rules(players=7, dogs_life="once-per-game", trump="fixed"),
    ],
    ids=range(4),
)
def test_tensors_keep_their_length_and_only_counts_exceed_one(rules: Rules) -> None:
    counts = {"hand_counts", "tricks_won", "previous_tricks_won", "votes"}
    for seed in range(4):
        state = State(rules, random.Random(seed))
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            for seat in range(rules.players):
                for tensor, fields in (
                    (observation(state.view(seat)), observation_fields(rules)),
                    (information_state(state, seat), information_state_fields(rules)),
                ):
                    for name, entries in _fields(tensor, fields).items():
                        top = rules.start_cards if name in counts else 1.0
                        assert all(0 < v <= max(top, rules.players) for v in entries.values())
                        if name not in counts:
                            assert set(entries.values()) <= {1.0}, name
            state.apply(rng.choice(state.legal_actions()))


def test_fill_observation_writes_the_same_numbers_into_an_array() -> None:
    np = pytest.importorskip("numpy")

    state = State(Rules(players=3, eliminated_vote=True), random.Random(5))
    rng = random.Random(5)
    while state.phase is not Phase.OVER:
        for seat in range(3):
            tensor = np.zeros(observation_size(state.rules), dtype=np.float32)
            fill_observation(state.view(seat), tensor)
            assert tensor.tolist() == observation(state.view(seat))
        state.apply(rng.choice(state.legal_actions()))


def test_fill_action_mask_marks_the_ids_of_the_seat_to_act_only() -> None:
    state = State(Rules(players=3, eliminated_vote=True), random.Random(7))
    rng = random.Random(7)
    marked = 0
    while state.phase is not Phase.OVER:
        for seat in range(3):
            mask = [0.0] * NUM_ACTIONS
            fill_action_mask(state.view(seat), mask)
            ids = legal_action_ids(state) if seat == state.turn else []
            assert [i for i, bit in enumerate(mask) if bit] == ids
            assert set(mask) <= {0, 1}
            marked += len(ids)
        state.apply(rng.choice(state.legal_actions()))
    assert marked > 0


def test_observations_under_two_rules_keep_their_own_layouts() -> None:
    # The offsets of the last rules are kept (one slot): rules that alternate must each
    # get their own layout, not the other's.
    three, five = Rules(players=3), Rules(players=5, start_cards=5)
    views = [State(rules, random.Random(1)).view() for rules in (three, five, three, five)]
    for view in views:
        tensor = observation(view)
        assert len(tensor) == observation_size(view.rules)
        fields = dict(observation_fields(view.rules))
        seat_part = tensor[: fields["seat"]]
        assert seat_part == [1.0 if s == view.seat else 0.0 for s in range(view.rules.players)]
