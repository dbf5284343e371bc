"""The ismcts bot and its tree search: legal play, no peeking, sure wins found."""

from __future__ import annotations

import random

import pytest
from conftest import deal
from test_search import VARIANTS, Checked, _two_deals_one_view

from kow.cards import parse_card
from kow.engine import State
from kow.engine.deal import StackedDeck
from kow.engine.view import TrickFacts
from kow.events import KNOCK, Phase
from kow.game import bots_rng, drive, new_game
from kow.players import IsmctsBot, make_bot
from kow.players.ismcts import random_policy, tree_search
from kow.rules import Rules


@pytest.mark.parametrize("rules", VARIANTS)
def test_ismcts_bot_only_plays_legal_actions(rules: Rules) -> None:
    players = [Checked(IsmctsBot("i", bots_rng(3), iterations=20))] + [
        Checked(make_bot("random", f"r{s}", bots_rng(3))) for s in range(1, rules.players)
    ]
    state = drive(new_game(rules, 3), players)
    assert state.phase == Phase.OVER and state.winner is not None
    assert players[0].decisions > 0


def test_the_ismcts_bot_never_peeks() -> None:
    one, two = _two_deals_one_view()
    view_one, view_two = one.view(), two.view()
    assert one.hands != two.hands and view_one == view_two
    tree_one = tree_search(view_one, random.Random(4), 200)
    tree_two = tree_search(view_two, random.Random(4), 200)
    assert tree_one.visits == tree_two.visits and tree_one.mean == tree_two.mean
    assert IsmctsBot("i", bots_rng(5), 100).act(view_one) == IsmctsBot("i", bots_rng(5), 100).act(
        view_two
    )


def test_tree_search_takes_the_sure_trick() -> None:
    # 2 players, 2 cards, hearts trump; seat 1 leads the king of clubs. Seat 0, void in
    # clubs, holds the 2 of hearts and the 2 of spades: the trump takes this trick for
    # sure, while the spade loses it and leaves the 2 of hearts to win the last trick
    # only if seat 1's other card is no higher heart.
    deck = deal(0, ["2h 2s", "Kc 9d"], turned_up="3h")
    rules = Rules(players=2, start_cards=2)
    state = State(rules, random.Random(0), dealer=0, deck=StackedDeck([deck]))
    state.apply(parse_card("Kc"))
    view = state.view()
    assert view.seat == 0 and view.legal == (parse_card("2h"), parse_card("2s"))
    tree = tree_search(view, random.Random(1), 300)
    assert sum(tree.visits.values()) == 300
    assert tree.best() == parse_card("2h")
    assert tree.mean[parse_card("2h")] > tree.mean[parse_card("2s")]
    assert IsmctsBot("i", random.Random(2), 300).act(view) == parse_card("2h")


def test_random_policy_draws_the_knock_too() -> None:
    facts = TrickFacts(
        seat=0, hand=1, legal=1, may_knock=True, seen=0, winning=-1, led=-1, trump=0,
        to_come=True, won=0, tricks_left=3,
    )  # fmt: skip
    policy = random_policy(random.Random(0))
    drawn = {policy(facts) for _ in range(50)}
    assert drawn == {0, KNOCK}


def test_iterations_must_be_positive() -> None:
    with pytest.raises(ValueError, match="iterations"):
        IsmctsBot("i", random.Random(0), iterations=0)
    view = new_game(Rules(), 1).view()
    with pytest.raises(ValueError, match="iterations"):
        tree_search(view, random.Random(0), 0)
