"""The heuristic bot's rules over hand masks (kow.players.policy), for search."""

from __future__ import annotations

import random

import pytest

from kow.cards import BIT, mask_of, parse_card
from kow.engine import KNOCK, OVER, PLAY, TRUMP
from kow.game import bots_rng, new_game
from kow.players import HeuristicBot, make_bot
from kow.players.policy import heuristic_card, heuristic_play, heuristic_trump, lowest, strongest
from kow.rules import Rules

VARIANTS = [
    Rules(),
    Rules(players=3, dogs_life="once-per-player", eliminated_vote=True, start_cards=5),
    Rules(players=5, dogs_life="once-per-game", lead="dealer-left", sweep_wins=False),
    Rules(players=2, final_round_trump=False, start_cards=4),
    Rules(players=7, dogs_life="once-per-player"),
]


def m(text: str) -> int:
    """Return the mask of the cards of ``text``, space-separated."""
    return mask_of(parse_card(t) for t in text.split())


@pytest.mark.parametrize("rules", VARIANTS)
def test_the_policy_decides_as_the_heuristic_bot(rules: Rules) -> None:
    # Every play and trump decision of many games, heuristic and random bots mixed so
    # that odd positions come up too.
    decisions = 0
    for seed in range(40):
        state = new_game(rules, seed)
        kinds = ["heuristic" if (s + seed) % 3 else "random" for s in range(rules.players)]
        bots = [make_bot(k, str(s), bots_rng(seed)) for s, k in enumerate(kinds)]
        judge = HeuristicBot("judge", random.Random(0))
        while state.phase != OVER:
            view = state.view()
            if view.phase == PLAY:
                assert heuristic_play(view) == judge.play(view), view
                decisions += 1
            elif view.phase == TRUMP:
                hand = mask_of(view.hand)
                assert heuristic_trump(hand, view.legal) == judge.choose_trump(view)
            state.apply(bots[state.turn].act(view))
    assert decisions > 400


def test_strength_orders_trumps_first_and_breaks_ties_by_suit() -> None:
    hearts = 2
    assert lowest(m("Kc 2h 5d"), hearts) == parse_card("5d")
    assert lowest(m("5c 5d 5s"), hearts) == parse_card("5c")  # a tie: the lower suit
    assert lowest(m("9h 3h"), hearts) == parse_card("3h")
    assert strongest(m("Ac 2h 5d"), hearts) == parse_card("2h")
    assert strongest(m("Ks Kd 7c"), hearts) == parse_card("Kd")
    assert strongest(m("Ks Kd 7c"), -1) == parse_card("Kd")


def test_needing_a_trick_it_keeps_the_top_trump() -> None:
    # Hearts trump, the Ah in hand and nothing higher unseen: keep it, play the 2c.
    hand = m("Ah 2c 9d")
    unseen = (1 << 52) - 1 & ~hand
    card = heuristic_card(hand, hand, unseen, -1, -1, 2, True, False, 3, False)
    assert card == parse_card("2c")
    # With its trick in, it takes the sure trick at once.
    card = heuristic_card(hand, hand, unseen, -1, -1, 2, True, True, 3, False)
    assert card == parse_card("Ah")
    # Without the top trump and with its trick in, it leads its highest side card.
    hand = m("Qh 2c 9d")
    card = heuristic_card(hand, hand, unseen & ~hand, -1, -1, 2, True, True, 3, False)
    assert card == parse_card("9d")


def test_a_dogs_life_card_knocks_unless_sure() -> None:
    hand = BIT[parse_card("Kc")]
    everything = (1 << 52) - 1 & ~hand
    # The Ac is unseen: the Kc may lose, so knock; last to play over a 5c, play it.
    assert heuristic_card(hand, hand, everything, -1, -1, 2, True, False, 3, True) == KNOCK
    five = parse_card("5c")
    assert (
        heuristic_card(hand, hand, everything, five, 0, 2, False, False, 3, True)
        == hand.bit_length() - 1
    )


def test_trump_is_the_longest_suit_ties_to_higher_ranks() -> None:
    assert heuristic_trump(m("2c 3c 4c Ad Kd"), (0, 1, 2, 3)) == 0
    assert heuristic_trump(m("2c 3c Ad Kd"), (0, 1, 2, 3)) == 1
    assert heuristic_trump(m("2c 3c Ad Kd"), (0, 2)) == 0
