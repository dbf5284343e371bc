"""Inference from the other seats' plays (kow.players.inference)."""

from __future__ import annotations

import random

from conftest import deal

from kow.cards import BIT, NO_CARD, NO_SUIT, parse_card
from kow.engine import State
from kow.engine.deal import StackedDeck
from kow.engine.view import TrickFacts, View
from kow.events import Phase
from kow.game import bots_rng, new_game
from kow.players import make_bot
from kow.players.inference import ObservedPlay, misses, observed_plays, trump_chooser
from kow.players.sampling import Sampler
from kow.rules import Rules


def _played(view: View) -> list[int]:
    """Return the mask of cards each seat played this round in ``view``."""
    out = [0] * view.rules.players
    for d in observed_plays(view):
        out[d.facts.seat] |= d.later
    return out


def _trump(view: View) -> int:
    return -1 if view.trump is None else view.trump


def _first_lead() -> State:
    # Hearts trump. Seat 0 leads, holding no boss: the heuristic bot leads the lowest card
    # of its shortest side suit, the 9s (its only spade).
    hands = [
        "2c 8c 5d 7d 9s 3h 4h",
        "Ac Kc Qc Jc Tc 9c 7c",
        "As Ad 2d 3d 4d 6d 8d",
        "Ks Qs Js Ts 8s 7s 6s",
    ]
    state = State(
        Rules(), random.Random(0), dealer=3, deck=StackedDeck([deal(3, hands, turned_up="Jh")])
    )
    state.apply(parse_card("9s"))
    return state


def test_a_lead_is_replayed_with_what_the_leader_knew() -> None:
    state = _first_lead()
    view = state.view()
    assert view.seat == 1
    found = observed_plays(view)
    nine = parse_card("9s")
    # Seat 0 led the 9s knowing only the turned-up Jh, with three seats to come; its
    # hand then is unknown to seat 1 (0 here), and the 9s is the card it played after.
    seen = BIT[parse_card("Jh")]
    facts = TrickFacts(
        seat=0, hand=0, legal=0, may_knock=False, seen=seen, winning=NO_CARD, led=NO_SUIT,
        trump=2, to_come=True, won=0, tricks_left=7,
    )  # fmt: skip
    assert found == [ObservedPlay(facts, nine, BIT[nine])]
    assert misses(state.hands, found, _trump(view)) == 0


def test_a_deal_that_gives_the_leader_an_ace_misses() -> None:
    # Had seat 0 held the As (a side card no unseen card beats), it would have led it.
    state = _first_lead()
    view = state.view()
    hands = state.hands[:]
    ace, two = parse_card("As"), parse_card("2c")
    hands[0] ^= BIT[two] | BIT[ace]
    hands[2] ^= BIT[two] | BIT[ace]
    assert misses(hands, observed_plays(view), _trump(view)) == 1
    assert misses(hands, observed_plays(view), _trump(view), limit=1) == 1


def test_the_trump_chooser_names_its_longest_suit() -> None:
    rules = Rules(players=3, start_cards=3)
    # Round 1 (spades turned up): seat 1 takes two tricks, seat 2 one, seat 0 is out.
    round_1 = deal(0, ["2c 3c Ad", "Ac Kc 2h", "4c 5c Ah"], turned_up="7s")
    round_2 = deal(1, [None, "3d 4d", "Ah Kh"])
    state = State(rules, random.Random(0), dealer=0, deck=StackedDeck([round_1, round_2]))
    for text in ("Ac", "4c", "2c", "Kc", "5c", "3c", "2h", "Ah", "Ad"):
        state.apply(parse_card(text))
    assert state.phase is Phase.TRUMP and state.turn == 1
    state.apply(1)  # diamonds, its only suit
    state.apply(parse_card("3d"))  # all trumps and none a boss: the lowest
    view = state.view()
    assert view.seat == 2 and trump_chooser(view) == 1
    played = _played(view)
    assert played[1] == BIT[parse_card("3d")]
    found = observed_plays(view)
    assert misses(state.hands, found, _trump(view), chooser=1, played=played) == 0
    # Had seat 1 held the Qh, not the 4d, it would have named hearts and led the Qh.
    other = state.hands[:]
    other[1] = BIT[parse_card("Qh")]
    assert misses(other, found, _trump(view), chooser=1, played=played) == 2
    assert misses(other, found, _trump(view)) == 1


def test_the_true_deal_explains_every_heuristic_play() -> None:
    # Against heuristic bots the model is exact: the real hands never miss.
    checked = 0
    for rules in (Rules(), Rules(players=5, dogs_life="once-per-game"), Rules(players=3)):
        for seed in range(30):
            state = new_game(rules, seed)
            bots = [make_bot("heuristic", str(s), bots_rng(seed)) for s in range(rules.players)]
            while state.phase != Phase.OVER:
                view = state.view()
                if view.phase == Phase.PLAY:
                    found = observed_plays(view)
                    chooser = trump_chooser(view)
                    played = _played(view)
                    trump = _trump(view)
                    assert misses(state.hands, found, trump, chooser=chooser, played=played) == 0
                    checked += len(found)
                state.apply(bots[state.turn].act(view))
    assert checked > 5000


def test_most_random_deals_miss_late_in_a_round() -> None:
    # The inference has teeth: late in round 1 few consistent deals explain all plays.
    state = new_game(Rules(), 4)
    bots = [make_bot("heuristic", str(s), bots_rng(4)) for s in range(4)]
    while state.trick_number < 5:
        state.apply(bots[state.turn].act(state.view()))
    view = state.view()
    sampler = Sampler(view)
    rng = random.Random(0)
    found = observed_plays(view)
    hits = sum(not misses(sampler.deal(rng), found, _trump(view)) for _ in range(200))
    assert hits < 100


def test_a_swap_draws_the_seats_card_by_its_place_in_the_hand() -> None:
    # _proposed_swap picks the seat's card as cards_in(hand)[int(draw() * count)], from
    # the mask's bits, then a hidden card from the pool: two draws, in that order.
    from kow.cards import cards_in
    from kow.players.inference import _proposed_swap

    state = new_game(Rules(), 2)
    view = state.view()
    sampler = Sampler(view)
    hands = sampler.deal(random.Random(0))
    seat = (view.seat + 1) % 4
    mine = cards_in(hands[seat])
    for x in (0.0, 0.3, 0.5, 0.99):
        draw = iter([x, 0.0]).__next__
        found = _proposed_swap(hands, seat, sampler=sampler, draw=draw)
        a = mine[int(x * len(mine))]
        b = sampler.pool[0]
        if found is not None:
            assert found[0] == BIT[a] | BIT[b]
        else:  # b is the seat's own card, or a void forbids the swap
            assert hands[seat] & BIT[b] or any(sampler.void)
    assert _proposed_swap([0, 0, 0, 0], 1, sampler=sampler, draw=lambda: 0.5) is None
