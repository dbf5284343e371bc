"""The search bot and its sampler: legal play, samples that honour the view, no peeking."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from conftest import deal
from hypothesis import given, settings
from hypothesis import strategies as st

from kow.cards import BIT, SUIT_MASK, SUIT_OF, parse_card
from kow.engine import State
from kow.engine.deal import StackedDeck
from kow.engine.view import View
from kow.events import Phase, RoundEnd
from kow.game import bots_rng, drive, new_game
from kow.players import Player, RandomBot, SearchBot, make_bot
from kow.players.inference import likely_deals, misses, observed_plays, trump_chooser
from kow.players.policy import heuristic_card
from kow.players.sampling import Sampler, seen_cards, voids
from kow.players.search import estimate
from kow.players.value import CHOOSER, DOG, chooser_win, mean, round_value
from kow.rules import Rules


class Checked(Player):
    """Wrap a player and fail the test if it returns an action not in ``view.legal``."""

    def __init__(self, inner: Player) -> None:
        super().__init__(inner.name)
        self.inner = inner
        self.kind = inner.kind
        self.decisions = 0

    def act(self, view: View) -> int:
        action = self.inner.act(view)
        assert action in view.legal, (action, view.legal)
        self.decisions += 1
        return action


VARIANTS = [
    Rules(),
    Rules(players=3, dogs_life="once-per-player", eliminated_vote=True, start_cards=5),
    Rules(players=5, dogs_life="once-per-game", lead="dealer-left", sweep_wins=False),
    Rules(players=2, final_round_trump=False, start_cards=4),
]


@pytest.mark.parametrize("rules", VARIANTS)
def test_search_bot_only_plays_legal_actions(rules: Rules) -> None:
    for seed in range(2):
        bot = SearchBot("s", bots_rng(seed), iterations=4)
        players = [Checked(bot)] + [
            Checked(make_bot("heuristic", f"h{s}", bots_rng(seed))) for s in range(1, rules.players)
        ]
        state = drive(new_game(rules, seed), players)
        assert state.phase == Phase.OVER and state.winner is not None
        assert players[0].decisions > 0


def _check_deal(view: View, hands: list[int]) -> None:
    """Assert that ``hands`` agree with everything ``view`` shows."""
    n = view.rules.players
    own = 0
    for c in view.hand:
        own |= BIT[c]
    assert hands[view.seat] == own
    seen = seen_cards(view)
    void = voids(view)
    total = 0
    for s in range(n):
        assert hands[s].bit_count() == view.hand_counts[s], "hand counts"
        if s != view.seat:
            assert not hands[s] & seen, "a played, own or turned-up card was dealt"
            for suit in range(4):
                if void[s] >> suit & 1:
                    assert not hands[s] & SUIT_MASK[suit], "a void was broken"
        assert not total & hands[s], "a card in two hands"
        total |= hands[s]
    if view.turned_up is not None:
        assert not total & BIT[view.turned_up]


@pytest.mark.parametrize("players", [4, 7])
def test_samples_honour_every_known_fact(players: int) -> None:
    # Random play shows many voids; with 7 players x 7 cards only 2 cards stay undealt,
    # so a careless deal would often paint itself into a corner.
    rules = Rules(players=players, dogs_life="once-per-game")
    checked_voids = 0
    for seed in range(12):
        state = new_game(rules, seed)
        rng = random.Random(seed)
        bots = [RandomBot(str(s), bots_rng(seed)) for s in range(players)]
        while state.phase != Phase.OVER:
            view = state.view()
            if view.phase == Phase.PLAY:
                sampler = Sampler(view)
                checked_voids += any(voids(view))
                for _ in range(5):
                    _check_deal(view, sampler.deal(rng))
            state.apply(bots[state.turn].act(view))
    assert checked_voids > 20


def test_voids_come_from_failing_to_follow() -> None:
    # Seat 1 leads clubs; seat 2 plays a heart (void in clubs); seat 3 knocks nothing.
    state = State(
        Rules(players=3, start_cards=2),
        random.Random(0),
        dealer=0,
        deck=StackedDeck([deal(0, ["2s 3s", "4c 5c", "Ah Kh"], turned_up="7d")]),
    )
    state.apply(parse_card("4c"))
    state.apply(parse_card("Ah"))
    view = state.view()
    assert view.seat == 0
    assert voids(view) == [0, 0, 1 << SUIT_OF[parse_card("4c")]]
    assert seen_cards(view) == (
        BIT[parse_card("2s")] | BIT[parse_card("3s")] | BIT[parse_card("4c")]
        | BIT[parse_card("Ah")] | BIT[parse_card("7d")]
    )  # fmt: skip
    rng = random.Random(1)
    for _ in range(50):
        hands = Sampler(view).deal(rng)
        _check_deal(view, hands)
        assert not hands[2] & SUIT_MASK[0]


def test_sampler_rejects_an_impossible_view() -> None:
    state = new_game(Rules(players=2, start_cards=25), 3)
    view = state.view()
    broken = view._replace(hand_counts=tuple(40 for _ in view.hand_counts))
    with pytest.raises(ValueError, match="unseen"):
        Sampler(broken)


def _two_deals_one_view() -> tuple[State, State]:
    """Return two games whose seat 0 sees the same view but the other hands differ."""
    mine = "As Kd 7h 2c 9c Tc 4s"
    a = ["Ac 3d 5h 8s 2h Jd 6c", "Kc 4d 6h 9s 3h Qd 7c", "Qc 5d 8h Ts 4h 2d 8c"]
    b = ["Kc 4d 6h 9s 3h Qd 7c", "Qc 5d 8h Ts 4h 2d 8c", "Ac 3d 5h 8s 2h Jd 6c"]
    states = []
    for others in (a, b):
        deck = deal(3, [mine, *others], turned_up="Jh")
        states.append(State(Rules(), random.Random(0), dealer=3, deck=StackedDeck([deck])))
    return states[0], states[1]


def test_the_search_bot_never_peeks() -> None:
    one, two = _two_deals_one_view()
    assert one.hands != two.hands
    view_one, view_two = one.view(), two.view()
    assert view_one == view_two and view_one.seat == 0
    choice_one = SearchBot("s", bots_rng(5), iterations=30).act(view_one)
    choice_two = SearchBot("s", bots_rng(5), iterations=30).act(view_two)
    assert choice_one == choice_two
    found_one = estimate(view_one, random.Random(9), 20)
    found_two = estimate(view_two, random.Random(9), 20)
    assert found_one == found_two


def test_the_search_bot_never_peeks_after_seeing_plays() -> None:
    # Mid-trick, with the inference at work: seats 1-3 have each played a club, and
    # their other cards go round the table between the two games.
    mine = "As Kd 7h 2c 9c Tc 4s"
    rest = ["Ac 3d 5h 8s 2h Jd", "Kc 4d 6h 9s 3h Qd", "Qc 5d 8h Ts 4h 2d"]
    played = ["6c", "7c", "8c"]
    states = []
    for turn in (0, 1):
        others = [f"{rest[(s + turn) % 3]} {played[s]}" for s in range(3)]
        deck = deal(0, [mine, *others], turned_up="Jh")
        state = State(Rules(), random.Random(0), dealer=0, deck=StackedDeck([deck]))
        for text in played:
            state.apply(parse_card(text))
        states.append(state)
    one, two = states
    assert one.hands != two.hands
    view_one, view_two = one.view(), two.view()
    assert view_one == view_two and view_one.seat == 0 and len(view_one.trick) == 3
    choice_one = SearchBot("s", bots_rng(5), iterations=30).act(view_one)
    choice_two = SearchBot("s", bots_rng(5), iterations=30).act(view_two)
    assert choice_one == choice_two
    one_found = estimate(view_one, random.Random(9), 20)
    assert one_found == estimate(view_two, random.Random(9), 20)


def test_estimates_cover_each_legal_action_and_the_trump_choice() -> None:
    state = new_game(Rules(players=3), 11)
    view = state.view()
    found = estimate(view, random.Random(0), 10)
    assert [e.action for e in found] == list(view.legal)
    assert all(0.0 <= e.survival <= 1.0 and e.deals == 10 for e in found)
    # Play round 1 out, then the chooser of round 2 tries every suit.
    bots = [RandomBot(str(s), bots_rng(11)) for s in range(3)]
    while state.phase == Phase.PLAY:
        state.apply(bots[state.turn].act(state.view()))
    if state.phase is Phase.TRUMP:
        view = state.view()
        found = estimate(view, random.Random(0), 5)
        assert [e.action for e in found] == list(view.legal)
        choice = SearchBot("s", random.Random(1), iterations=5).act(view)
        assert choice in view.legal


def test_round_value_puts_survival_first() -> None:
    view = new_game(Rules(), 1).view()  # a 7-card round: the next deals 6
    assert round_value([0, 3, 2, 2], 0, view) == 0.0
    assert round_value([7, 0, 0, 0], 0, view) == 1.0  # a sweep wins the game
    assert round_value([6, 1, 0, 0], 0, view) == CHOOSER[2, 6]  # two left; it names trump
    assert round_value([1, 6, 0, 0], 0, view) == pytest.approx(1 - CHOOSER[2, 6])
    other = (1 - CHOOSER[4, 6]) / 3
    assert round_value([1, 2, 2, 2], 0, view) == pytest.approx(other)
    # A three-way tie for the most tricks shares the trump choice, as the cut would.
    assert round_value([2, 2, 2, 1], 0, view) == pytest.approx((CHOOSER[4, 6] + 2 * other) / 3)
    assert round_value([4, 3, 0, 0], 0, view) > round_value([3, 4, 0, 0], 0, view) > 0.0
    last = view._replace(hand_size=1)
    assert round_value([1, 0, 0, 0], 0, last) == 1.0  # the 1-card round's trick wins


def test_round_value_reads_who_a_dogs_life_may_save_from_the_view() -> None:
    # Round 1 of a once-per-game game: the engine says any seat taking no trick is saved.
    dog = new_game(Rules(dogs_life="once-per-game"), 1).view()
    assert dog.dogs_life_open == (0, 1, 2, 3) and dog.hand_size == 7
    assert round_value([0, 3, 2, 2], 0, dog) == DOG / 4  # three seats took a trick
    assert DOG / 4 < round_value([1, 2, 2, 2], 0, dog)
    # The others share what the dog's life leaves: the values of a round sum to 1.
    assert math.fsum(round_value([0, 3, 2, 2], s, dog) for s in range(4)) == pytest.approx(1.0)
    # Two saved: the two seats with a trick share 1 - 2 x DOG / 3, the most tricks naming trump.
    assert round_value([6, 0, 0, 1], 0, dog) == pytest.approx((1 - 2 * DOG / 3) * CHOOSER[2, 6])
    assert round_value([6, 0, 0, 1], 1, dog) == DOG / 3
    # A sweep under sweep_wins ends the game: no dog's life for anyone.
    assert round_value([7, 0, 0, 0], 0, dog) == 1.0
    assert round_value([7, 0, 0, 0], 1, dog) == 0.0
    # Without sweep_wins, the three saved seats keep the game going.
    no_sweep = new_game(Rules(dogs_life="once-per-game", sweep_wins=False), 1).view()
    assert no_sweep.dogs_life_open == (0, 1, 2, 3)
    assert round_value([7, 0, 0, 0], 0, no_sweep) == pytest.approx(1 - 3 * DOG / 2)
    assert round_value([7, 0, 0, 0], 1, no_sweep) == DOG / 2
    # Once the game's dog's life is used, the engine opens none (the view's fact, which
    # the value read from the rules before): no trick scores 0, and the only seat with a
    # trick has won.
    used = no_sweep._replace(dogs_life_used=(2,), dogs_life_open=())
    assert round_value([0, 3, 2, 2], 0, used) == 0.0
    assert round_value([7, 0, 0, 0], 0, used) == 1.0
    assert round_value([7, 0, 0, 0], 1, used) == 0.0
    # Once per player: the seat that used its own is not saved again; the others are.
    per_player = dog._replace(dogs_life_used=(1,), dogs_life_open=(0, 2, 3))
    assert round_value([3, 0, 2, 2], 1, per_player) == 0.0
    assert round_value([0, 3, 2, 2], 0, per_player) == DOG / 4


def test_chooser_win_takes_the_nearest_cell() -> None:
    assert chooser_win(4, 6) == CHOOSER[4, 6]
    assert chooser_win(4, 9) == CHOOSER[4, 6]  # more cards than measured
    assert chooser_win(4, 1) == CHOOSER[4, 2]
    assert chooser_win(2, 1) == CHOOSER[2, 1] > chooser_win(2, 6) > 0.5


SCORES = st.sampled_from([0.0, 1.0, 0.3 / 3, 1 / 3, (1 - CHOOSER[4, 6]) / 3, CHOOSER[3, 5]])
"""Scores of a round as :func:`round_value` gives them, which often come again and again."""


@settings(max_examples=150)
@given(values=st.lists(SCORES | st.floats(0.0, 1.0), min_size=1, max_size=120), rnd=st.randoms())
def test_mean_is_the_exact_sum_whatever_the_order(values: list[float], rnd: random.Random) -> None:
    # The built-in sum() gives other floats before Python 3.12, and depends on the order.
    exact = float(sum(map(Fraction, values), Fraction(0)))
    assert mean(values) == exact / len(values)
    shuffled = values[:]
    rnd.shuffle(shuffled)
    assert mean(shuffled) == mean(values)


def test_likely_deals_honour_the_view_and_explain_the_plays() -> None:
    views = explained = 0
    for seed in range(3):
        state = new_game(Rules(), seed)
        bots = [make_bot("heuristic", str(s), bots_rng(seed)) for s in range(4)]
        while state.phase != Phase.OVER:
            view = state.view()
            if view.phase == Phase.PLAY and view.trick_number > 1:
                deals = likely_deals(view, Sampler(view), random.Random(seed), iterations=10)
                assert len(deals) == 10
                for hands in deals:
                    _check_deal(view, hands)
                # The best deals come first; against heuristic bots they explain all.
                found = observed_plays(view)
                chooser = trump_chooser(view)
                played = [0] * 4
                for d in found:
                    played[d.facts.seat] |= d.later
                trump = -1 if view.trump is None else view.trump
                counts = [misses(h, found, trump, chooser=chooser, played=played) for h in deals]
                assert counts == sorted(counts)
                views += 1
                explained += counts[0] == 0
            state.apply(bots[state.turn].act(view))
    assert views > 50 and explained > 0.9 * views


def test_iterations_must_be_positive() -> None:
    with pytest.raises(ValueError, match="iterations"):
        SearchBot("s", random.Random(0), iterations=0)
    assert make_bot("search", "s", random.Random(0), search_iterations=7).iterations == 7  # type: ignore[attr-defined]


@pytest.mark.parametrize("rules", VARIANTS)
def test_rollouts_replay_heuristic_bots_exactly(rules: Rules) -> None:
    # Every seat of the rollout plays as the heuristic bot, seeing only its own hand and
    # the cards played: from any point of a game of heuristic bots, a rollout on the
    # true hands ends the round with the game's own trick counts.
    checked = 0
    for seed in range(15):
        state = new_game(rules, seed)
        bots = [make_bot("heuristic", str(s), bots_rng(seed)) for s in range(rules.players)]
        pending: list[list[int]] = []
        while state.phase != Phase.OVER:
            view = state.view()
            if view.phase == Phase.PLAY:
                rollout = state.round_copy()
                rollout.play_round([heuristic_card] * rules.players)
                pending.append(rollout.tricks_won[:])
            round_number = state.round
            state.apply(bots[state.turn].act(view))
            if state.round != round_number or state.phase == Phase.OVER:  # type: ignore[comparison-overlap]
                end = [e for e in state.events if isinstance(e, RoundEnd)][-1]
                tricks = [t or 0 for t in end.tricks_won]
                assert pending and all(p == tricks for p in pending)
                checked += len(pending)
                pending = []
    assert checked > 200


def test_a_careful_deal_checks_only_what_its_seat_can_break() -> None:
    # The careful deal re-checks, for each card, only the sets of suits that giving it to
    # its seat can break (Sampler.risky). With every check made instead, each deal must
    # be the same, with the same draws: 7 players, random play, many voids.
    rules = Rules(players=7, dogs_life="once-per-game")
    compared = 0
    for seed in range(6):
        state = new_game(rules, seed)
        bots = [RandomBot(str(s), bots_rng(seed)) for s in range(7)]
        while state.phase != Phase.OVER:
            view = state.view()
            if view.phase == Phase.PLAY and any(voids(view)):
                fast = Sampler(view)
                slow = Sampler(view)
                slow.risky = [[slow.checks] * (rules.players + 1) for _ in range(4)]
                for draw in range(3):
                    a, b = random.Random(draw), random.Random(draw)
                    pool = fast.pool[:]
                    assert fast._careful(pool, a.random) == slow._careful(pool[:], b.random)
                    assert a.random() == b.random()  # the same draws were made
                    compared += 1
            state.apply(bots[state.turn].act(view))
    assert compared > 100


def test_the_deck_of_a_searched_state_is_never_drawn() -> None:
    # Every state made from a view shares one deck, made once (seeding a generator per
    # deal was a tenth of a decision); it deals no round, and a fork copies it.
    state = new_game(Rules(), 1)
    view = state.view()
    first = State.from_view(view, state.hands)
    second = State.from_view(view, state.hands)
    assert first._deck is second._deck
    assert first.fork()._deck is not first._deck
