"""The heuristic bot's rules over masks (kow.players.policy), and the facts they read."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import pytest

from kow.cards import BIT, NO_CARD, NO_SUIT, SUIT_OF, mask_of, parse_card
from kow.engine.view import TrickFacts, View
from kow.events import KNOCK, Knock, Phase
from kow.game import bots_rng, new_game
from kow.players import HeuristicBot, make_bot
from kow.players.policy import (
    HeuristicPolicy,
    UniformPolicy,
    heuristic_card,
    heuristic_trump,
    lowest,
    strongest,
    uniform_action,
    uniform_choice,
)
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


def facts_from_view(view: View) -> TrickFacts:
    """Work out a play's facts from the view's other fields, independently of the engine."""
    hand = mask_of(view.hand)
    legal = mask_of(a for a in view.legal if a != KNOCK)
    seen = 0 if view.turned_up is None else BIT[view.turned_up]
    for play in [p for t in view.tricks for p in t.plays] + list(view.trick):
        if not isinstance(play, Knock):
            seen |= BIT[play.card]
    trump = NO_SUIT if view.trump is None else view.trump
    winning = NO_CARD
    for play in view.trick:  # the highest trump, else the highest card of the led suit
        if isinstance(play, Knock):
            continue
        if winning < 0:
            winning = play.card
        elif SUIT_OF[play.card] == SUIT_OF[winning]:
            winning = max(winning, play.card)
        elif SUIT_OF[play.card] == trump:
            winning = play.card
    played = {p.seat for p in view.trick}
    to_come = any(
        s != view.seat and view.hand_counts[s] > 0 and s not in played for s in view.in_round
    )
    return TrickFacts(
        seat=view.seat, hand=hand, legal=legal, may_knock=view.legal[-1] == KNOCK, seen=seen,
        winning=winning, led=NO_SUIT if view.led is None else view.led, trump=trump,
        to_come=to_come, won=view.tricks_won[view.seat],
        tricks_left=view.hand_size - view.trick_number + 1,
    )  # fmt: skip


@pytest.mark.parametrize("rules", VARIANTS)
def test_the_facts_of_a_view_are_its_public_facts(rules: Rules) -> None:
    # Every play of many games, heuristic and random bots mixed so that odd positions
    # come up too: the facts the engine gives with each view (and to the policies of its
    # trick loop) are those that the view's other fields imply.
    decisions = 0
    for seed in range(40):
        state = new_game(rules, seed)
        kinds = ["heuristic" if (s + seed) % 3 else "random" for s in range(rules.players)]
        bots = [make_bot(k, str(s), bots_rng(seed)) for s, k in enumerate(kinds)]
        judge = HeuristicBot("judge", random.Random(0))
        while state.phase != Phase.OVER:
            view = state.view()
            if view.phase == Phase.PLAY:
                assert view.facts == facts_from_view(view) == state.facts(), view
                assert view.hand_mask == mask_of(view.hand)
                assert view.seen == view.facts.seen
                assert view.winning_card == (None if view.facts.winning < 0 else view.facts.winning)
                decisions += 1
            elif view.phase == Phase.TRUMP:
                hand = mask_of(view.hand)
                assert heuristic_trump(hand, view.legal) == judge.choose_trump(view)
            state.apply(bots[state.turn].act(view))
    assert decisions > 400


def facts(
    hand: int,
    *,
    seen: int = 0,
    winning: int = NO_CARD,
    led: int = NO_SUIT,
    trump: int = 2,
    to_come: bool = True,
    won: int = 0,
    tricks_left: int = 3,
    may_knock: bool = False,
) -> TrickFacts:
    """Return the facts of a play of seat 0 holding ``hand``, every card of it legal."""
    return TrickFacts(
        seat=0, hand=hand, legal=hand, may_knock=may_knock, seen=seen, winning=winning, led=led,
        trump=trump, to_come=to_come, won=won, tricks_left=tricks_left,
    )  # fmt: skip


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
    assert heuristic_card(facts(hand)) == parse_card("2c")
    # With its trick in, it takes the sure trick at once.
    assert heuristic_card(facts(hand, won=1)) == parse_card("Ah")
    # Without the top trump (the Kh and Ah unseen) and with its trick in, it leads its
    # highest side card.
    assert heuristic_card(facts(m("Qh 2c 9d"), won=1)) == parse_card("9d")
    # When the Ah and Kh are seen (played), the Qh is the top trump: it takes the trick.
    assert heuristic_card(facts(m("Qh 2c 9d"), won=1, seen=m("Ah Kh"))) == parse_card("Qh")


def test_a_single_legal_card_is_played() -> None:
    only = parse_card("7s")
    assert heuristic_card(facts(BIT[only], winning=parse_card("As"), led=3)) == only


# The dog's life: the rules text's tip (seed 000, 'Conseils et stratégies'): play the one
# card where its chance is best, often trumping a led ace. Hearts are trump in each.


def test_a_dogs_life_card_leads_only_when_sure_and_wins_last_to_play() -> None:
    hand = BIT[parse_card("Kc")]
    # Leading, the Ac unseen: the Kc may lose, so knock; last to play over a 5c, play it.
    assert heuristic_card(facts(hand, may_knock=True)) == KNOCK
    five = parse_card("5c")
    played = facts(hand, winning=five, led=0, to_come=False, may_knock=True)
    assert heuristic_card(played) == parse_card("Kc")
    # The Ac and every heart seen: the Kc is sure to win even with seats to come.
    hearts = m("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah")
    sure = facts(hand, seen=hearts | m("Ac"), may_knock=True)
    assert heuristic_card(sure) == parse_card("Kc")


def test_a_dogs_life_trumps_a_led_ace_with_players_to_come() -> None:
    # The Ac led, seats still to come, the Ah..4h unseen: the 3h may be overtrumped, but
    # it wins the trick as it stands, so it is played (before: it knocked).
    three = parse_card("3h")
    ace = parse_card("Ac")
    led_ace = facts(BIT[three], winning=ace, led=0, seen=BIT[ace], may_knock=True)
    assert heuristic_card(led_ace) == three
    # Likewise the Kc over a 5c led, the Ac unseen: it wins as the trick stands.
    king = parse_card("Kc")
    five = parse_card("5c")
    assert heuristic_card(facts(BIT[king], winning=five, led=0, may_knock=True)) == king


def test_a_dogs_life_knocks_when_its_card_cannot_win_the_trick() -> None:
    # A side card under the led ace: it cannot win, so it waits for another trick.
    ace = parse_card("Ac")
    king = facts(m("Kd"), winning=ace, led=0, seen=BIT[ace], may_knock=True)
    assert heuristic_card(king) == KNOCK
    # The Ac already trumped with the 9h: the 3h no longer wins.
    ruffed = facts(m("3h"), winning=parse_card("9h"), led=0, seen=m("Ac 9h"), may_knock=True)
    assert heuristic_card(ruffed) == KNOCK
    # Leading, with cards unseen that beat it (the Ac; and trumps for a side card): knock.
    assert heuristic_card(facts(m("Kc"), may_knock=True)) == KNOCK
    assert heuristic_card(facts(m("3h"), may_knock=True)) == KNOCK


def test_a_dogs_life_plays_a_sure_winner() -> None:
    # Leading with the Ah, the highest trump: nothing unseen beats it.
    assert heuristic_card(facts(m("Ah"), may_knock=True)) == parse_card("Ah")
    # Leading with the Kh, the Ah seen: a sure winner too.
    assert heuristic_card(facts(m("Kh"), seen=m("Ah"), may_knock=True)) == parse_card("Kh")


def test_on_the_last_trick_a_dogs_life_card_is_played_win_or_lose() -> None:
    # The round's last trick: no knock allowed, so the one card goes, though the Ac wins.
    ace = parse_card("Ac")
    last = facts(m("2d"), winning=ace, led=0, seen=BIT[ace], tricks_left=1)
    assert heuristic_card(last) == parse_card("2d")


def test_trump_is_the_longest_suit_ties_to_higher_ranks() -> None:
    assert heuristic_trump(m("2c 3c 4c Ad Kd"), (0, 1, 2, 3)) == 0
    assert heuristic_trump(m("2c 3c Ad Kd"), (0, 1, 2, 3)) == 1
    assert heuristic_trump(m("2c 3c Ad Kd"), (0, 2)) == 0


def test_uniform_action_draws_once_over_the_cards_then_the_knock() -> None:
    # The random bot's card: legal 3c and 6d with a knock allowed, so three actions in
    # the order of legal_actions_of (cards lowest first, then the knock); the draw picks
    # index int(draw * 3).
    three, six = parse_card("3c"), parse_card("6d")
    facts = TrickFacts(seat=1, hand=mask_of([three, six]), legal=mask_of([three, six]),
                       may_knock=True, seen=0, winning=NO_CARD, led=NO_SUIT, trump=NO_SUIT,
                       to_come=True, won=0, tricks_left=3)  # fmt: skip
    drawn = []

    def draw(value: float) -> Callable[[], float]:
        def one() -> float:
            drawn.append(value)
            return value

        return one

    assert [uniform_action(draw(x), facts) for x in (0.0, 0.33, 0.34, 0.66, 0.67, 0.999)] == [
        three, three, six, six, KNOCK, KNOCK,
    ]  # fmt: skip
    assert drawn == [0.0, 0.33, 0.34, 0.66, 0.67, 0.999]  # one draw a decision
    no_knock = facts._replace(may_knock=False)
    assert uniform_action(draw(0.5), no_knock) == six
    assert uniform_action(draw(0.49), no_knock) == three


def test_the_random_bot_asks_uniform_action_with_its_generator() -> None:
    # Its card policy and its act over the same legal actions draw the same action.
    facts = TrickFacts(seat=0, hand=0b1011, legal=0b1011, may_knock=True, seen=0,
                       winning=NO_CARD, led=NO_SUIT, trump=NO_SUIT, to_come=True, won=0,
                       tricks_left=4)  # fmt: skip
    fast = make_bot("random", "r", random.Random(4))
    other = random.Random(4)
    picks = [fast.card_policy(facts) for _ in range(40)]  # type: ignore[misc]
    legal = (0, 1, 3, KNOCK)
    assert picks == [legal[int(other.random() * 4)] for _ in range(40)]
    assert set(picks) == set(legal)


def test_uniform_choice_draws_once_and_the_random_bots_trump_is_its_compiled_policy() -> None:
    # The random bot's decision over sorted actions: index int(draw * count), one draw.
    drawn: list[float] = []

    def draw(value: float) -> Callable[[], float]:
        def one() -> float:
            drawn.append(value)
            return value

        return one

    values = (0.0, 0.33, 0.34, 0.66, 0.67, 0.999)
    assert [uniform_choice(draw(x), (1, 4, 9)) for x in values] == [1, 1, 4, 4, 9, 9]
    assert drawn == list(values)
    # Its trump policy is its card policy's trump (a compiled method in the installed
    # build), drawing from the bot's generator as its act and its former method did.
    bot = make_bot("random", "r", random.Random(6))
    assert bot.trump_policy.__self__ is bot.card_policy  # type: ignore[union-attr]
    other = random.Random(6)
    allowed = (0, 2, 3)
    picks = [bot.trump_policy(allowed, 0) for _ in range(30)]  # type: ignore[misc]
    assert picks == [allowed[int(other.random() * 3)] for _ in range(30)]
    assert set(picks) == set(allowed)


@pytest.mark.parametrize("rules", VARIANTS)
def test_the_card_policies_decide_as_the_rules_functions(rules: Rules) -> None:
    # HeuristicPolicy and UniformPolicy (which the compiled trick loop asks through
    # decide, with no TrickFacts) choose what heuristic_card and uniform_action choose
    # from the same facts, called with the facts or through decide; and a round played
    # with them is the round played with the functions as plain policies.
    checked = 0
    for seed in range(12):
        state = new_game(rules, seed)
        bots = [make_bot("random", str(s), bots_rng(seed)) for s in range(rules.players)]
        while state.phase != Phase.OVER:
            view = state.view()
            if view.phase == Phase.PLAY:
                f = view.facts
                assert f is not None
                forget = BIT[(f.seen | f.hand).bit_length() - 1]  # a card it holds or saw
                for policy, expected in (
                    (HeuristicPolicy(), heuristic_card(f)),
                    (HeuristicPolicy(forget), heuristic_card(f, forget)),
                ):
                    assert policy(f) == policy.decide(**f._asdict()) == expected
                one, other = random.Random(seed), random.Random(seed)
                drawn = UniformPolicy(one.random)(f)
                assert drawn == uniform_action(other.random, f)
                assert one.random() == other.random()  # one draw each
                checked += 1
                if checked % 7 == 0:  # the round out, both ways, from here
                    natives, functions = state.copy(), state.copy()
                    natives.play_round([HeuristicPolicy()] * rules.players)
                    functions.play_round([heuristic_card] * rules.players)
                    assert natives.events == functions.events
                    r1, r2 = random.Random(seed), random.Random(seed)
                    natives, functions = state.copy(), state.copy()
                    natives.play_round([UniformPolicy(r1.random)] * rules.players)
                    functions.play_round([partial(uniform_action, r2.random)] * rules.players)
                    assert natives.events == functions.events
            state.apply(bots[state.turn].act(view))
    assert checked > 100


def test_bosses_are_the_cards_no_unseen_card_beats_in_their_suit() -> None:
    # _bosses works suit by suit with shifts; here is its definition, card by card.
    from kow.players.policy import _bosses

    rng = random.Random(7)
    for _ in range(3000):
        cards = rng.getrandbits(52) & rng.getrandbits(52)
        unseen = rng.getrandbits(52) & ~cards
        expected = 0
        for c in range(52):
            above = sum(BIT[d] for d in range(c + 1, 13 * (c // 13) + 13))
            if cards & BIT[c] and not unseen & above:
                expected |= BIT[c]
        assert _bosses(cards, unseen) == expected
    assert _bosses(mask_of([parse_card("Ah"), parse_card("Kh")]), BIT[parse_card("Qh")]) == (
        mask_of([parse_card("Ah"), parse_card("Kh")])
    )
    assert _bosses(BIT[parse_card("Kh")], BIT[parse_card("Ah")]) == 0
