"""The game loop (kow.game): seeds, the bots' generator, drive and play_game.

Covers :func:`~kow.game.game_seed` (game 0 keeps the run's seed, a pinned later value,
no shared games between nearby runs, the range), :func:`~kow.game.bots_rng`, and
:func:`~kow.game.drive`: what ``on_event`` receives and when, which path asks the
players (a view for each decision, or the engine's trick loop asking ``card_policy``,
and ``trump_policy`` for trump), when a single legal card is played unasked, the errors
it raises and the state it leaves. ``test_players.py`` covers the messages of most
:class:`~kow.game.PlayerError` s; this file covers the facts they hold and the state after.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from conftest import ScriptedPlayer, action, cards, deal
from hypothesis import given
from hypothesis import strategies as st

from kow.cards import Mask, Suit, parse_card
from kow.engine import State
from kow.engine.deal import StackedDeck
from kow.engine.view import TrickFacts, View
from kow.events import (
    Action,
    Deal,
    Event,
    Knock,
    Lead,
    Phase,
    Play,
    TrickWon,
    TrumpSet,
    Vote,
    WonBy,
)
from kow.game import MAX_SEED, PlayerError, bots_rng, drive, game_seed, new_game, play_game
from kow.players import HeuristicBot, Player, RandomBot, make_bot
from kow.players.policy import heuristic_card
from kow.rules import Rules

# --------------------------------------------------------------------------- a stacked game
#
# The full game of test_engine. Four players, 3 cards, first dealer seat 0. Round 1
# (hearts turned up): seats 0 and 1 take no trick and are out. Round 2: seat 2 chooses
# hearts; seats 2 and 3 take one trick each. Round 3: they tie, cut twice, and seat 3
# chooses diamonds and wins the game.

FULL_RULES = Rules(players=4, start_cards=3)
FULL_DECKS = [
    deal(0, ["7c 8d 9s", "3c 4c 5d", "Ac Kd As", "Qc 3h 4s"], "2h"),
    deal(2, [None, None, "Kh Qh", "Ah 2s"]),
    deal(3, [None, None, "Ac", "2d"]),
    cards("9c 9d"),
    cards("4c Jd"),
]
FULL_SCRIPTS = ["7c 8d 9s", "3c 5d 4c", "Ac Kd As h Kh Qh Ac", "Qc 3h 4s Ah 2s d 2d"]


TRICK_1_WON = TrickWon(
    number=1, leader=1, winner=2, next_leader=2, card=parse_card("Ac"), led=0,
    why=WonBy.HIGHEST_OF_LED,
)  # fmt: skip
"""The end of the full game's first trick: seat 2's Ac, clubs led and followed."""


def full_game() -> State:
    """Return the full game, round 1 dealt, awaiting its first decision."""
    return new_game(FULL_RULES, 0, dealer=0, deck=StackedDeck(FULL_DECKS))


class ScriptedBot(Player):
    """A bot on the engine's fast path: ``card_policy`` and ``trump_policy`` take the
    script's actions in order (card text, ``"knock"``, suit text, or an int; a string is
    split on spaces); ``act`` refuses, so the game must never build it a view."""

    kind = "scripted-bot"

    def __init__(self, name: str, script: str | Sequence[str | int]) -> None:
        super().__init__(name)
        self.script = list(script.split() if isinstance(script, str) else script)

    def card_policy(self, facts: TrickFacts) -> Action:
        return action(self.script.pop(0), Phase.PLAY)

    def trump_policy(self, allowed: tuple[Suit, ...], hand: Mask) -> Suit:
        return action(self.script.pop(0), Phase.TRUMP)

    def act(self, view: View) -> Action:
        raise AssertionError(f"{self.name} was asked with a view in phase {view.phase.value}")


class Quit(Exception):
    """A player gives up (as a human quitting does)."""


def decisions(events: Sequence[Event]) -> int:
    """Return how many decisions ``events`` hold: plays, knocks, votes and named trumps."""
    return sum(
        isinstance(e, (Play, Knock, Vote))
        or (isinstance(e, TrumpSet) and e.method in ("chosen", "vote") and e.chosen_by is not None)
        for e in events
    )


def forced_plays(state: State, events: Sequence[Event]) -> int:
    """Replay ``events`` on ``state`` (a new game) and count the plays of a single legal card."""
    forced = 0
    for event in events:
        if isinstance(event, (Play, Knock)):
            forced += len(state.legal_actions()) == 1
            state.apply(event.action)
        elif isinstance(event, Vote):
            state.apply(event.suit)
        elif isinstance(event, TrumpSet) and state.phase is Phase.TRUMP:
            assert event.suit is not None
            state.apply(event.suit)
    assert state.events == list(events)
    return forced


# --------------------------------------------------------------------------- seeds


@pytest.mark.parametrize("seed", [0, 1, 7, 123_456_789, MAX_SEED])
def test_game_0_keeps_the_runs_seed(seed: int) -> None:
    assert game_seed(seed, 0) == seed


def test_a_later_games_seed_is_pinned() -> None:
    # SHA-256 of "kow-game:7:1" (run seed 7, game 1), its first 8 bytes big-endian,
    # shifted right by 11: the top 53 bits. A change here changes every run's games.
    assert game_seed(7, 1) == 2781223642931011
    assert game_seed(2024, 5) == 2891815933429858


def test_nearby_runs_share_no_games() -> None:
    runs = range(1000, 1020)
    seeds = [game_seed(run, index) for run in runs for index in range(100)]
    assert len(set(seeds)) == len(runs) * 100


@given(
    run_seed=st.integers(min_value=0, max_value=MAX_SEED),
    index=st.integers(min_value=0, max_value=10**9),
)
def test_game_seeds_are_in_range(run_seed: int, index: int) -> None:
    assert 0 <= game_seed(run_seed, index) <= MAX_SEED == 2**53 - 1


def test_bots_rng_repeats_and_is_not_the_deals_generator() -> None:
    for seed in (0, 7, MAX_SEED):
        draws = [bots_rng(seed).random() for _ in range(2)]
        assert draws[0] == draws[1]
        rng = bots_rng(seed)
        same = bots_rng(seed)
        assert [rng.random() for _ in range(20)] == [same.random() for _ in range(20)]
        deal_rng, bots = random.Random(seed), bots_rng(seed)
        assert [deal_rng.random() for _ in range(5)] != [bots.random() for _ in range(5)]
    assert bots_rng(7).random() != bots_rng(8).random()


def test_a_generator_reseeded_is_a_new_one_gauss_included() -> None:
    # bots_rng and new_game reseed a run's generators past Random.seed's wrapper
    for seed in (0, 7, MAX_SEED):
        used = random.Random(99)
        used.gauss(0.0, 1.0)  # leaves a second normal value in gauss_next
        assert bots_rng(seed, used) is used
        assert used.getstate() == bots_rng(seed).getstate()
        assert used.gauss(0.0, 1.0) == bots_rng(seed).gauss(0.0, 1.0)
        dealt = random.Random(99)
        dealt.gauss(0.0, 1.0)
        new_game(Rules(), seed, rng=dealt)
        fresh = random.Random(seed)
        new_game(Rules(), seed, rng=fresh)
        assert dealt.getstate() == fresh.getstate()


def test_a_games_own_generator_is_random_random_of_its_seed() -> None:
    # new_game without an rng makes random.Random(seed) past its Python __init__: the
    # same state (gauss_next cleared), so the same deal as before.
    from kow.game import _new_random

    for seed in (0, 1, 7, 1 << 40, MAX_SEED):
        made, plain = _new_random(seed), random.Random(seed)
        assert type(made) is random.Random
        assert made.getstate() == plain.getstate()
        assert made.gauss(0.0, 1.0) == plain.gauss(0.0, 1.0)
        assert new_game(Rules(), seed).events == new_game(Rules(), seed, rng=plain).events


class Reseeding(random.Random):
    """A generator of its own: seeded by its own method."""

    def seed(self, *args: object, **kwargs: object) -> None:
        self.seeded = args
        super().seed(*args, **kwargs)  # type: ignore[arg-type]


def test_a_subclassed_generator_is_reseeded_by_its_own_seed() -> None:
    rng = Reseeding()
    assert bots_rng(7, rng) is rng
    assert rng.seeded == (7 | 1 << 53,)
    assert rng.getstate() == bots_rng(7).getstate()


# --------------------------------------------------------------------------- drive: on_event


class Watching(ScriptedPlayer):
    """A scripted player that notes, when asked, how many events were shown so far and
    how many the state holds."""

    def __init__(self, name: str, script: str, state: State, seen: list[Event]) -> None:
        super().__init__(name, script)
        self.state = state
        self.seen = seen
        self.asked: list[tuple[int, int]] = []

    def act(self, view: View) -> Action:
        self.asked.append((len(self.seen), len(self.state.events)))
        return super().act(view)


def test_on_event_gets_every_event_in_order_as_it_happens() -> None:
    state = full_game()
    seen: list[Event] = []
    players = [Watching(f"p{s}", FULL_SCRIPTS[s], state, seen) for s in range(4)]
    assert drive(state, players, on_event=seen.append) is state
    assert seen == state.events
    assert all(a is b for a, b in zip(seen, state.events, strict=True))
    # Each decision is asked once every event so far has been shown.
    asked = sorted(a for p in players for a in p.asked)
    assert all(shown == held for shown, held in asked)
    # Round 1: deal, turned-up card, trump, lead (4 events), then one per play and one
    # per trick won; round 2 starts at event 20 with the deal, so seat 2 names trump at 21.
    assert [shown for shown, _ in asked][:13] == [4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 21]
    assert [shown for shown, _ in players[2].asked] == [5, 9, 17, 21, 23, 27, 35]
    assert len(asked) == decisions(state.events) == 20


# --------------------------------------------------------------------------- drive: paths


class Spy(HeuristicBot):
    """A heuristic bot that counts how it is asked, and refuses a view for a card."""

    def __init__(self, name: str, rng: random.Random) -> None:
        super().__init__(name, rng)
        self.asked: Counter[str] = Counter()

    def card_policy(self, facts: TrickFacts) -> Action:  # type: ignore[override]
        self.asked["card_policy"] += 1
        return heuristic_card(facts)

    def trump_policy(self, allowed: tuple[Suit, ...], hand: Mask) -> Suit:
        self.asked["trump_policy"] += 1
        return super().trump_policy(allowed, hand)

    def act(self, view: View) -> Action:
        if view.phase is Phase.PLAY:
            raise AssertionError("a card was asked with a view on the fast path")
        self.asked[view.phase.value] += 1
        return super().act(view)


class SpyWithoutTrumpPolicy(Spy):
    trump_policy = None  # type: ignore[assignment]


class RandomSpy(RandomBot):
    """A random bot that counts its card_policy calls (its policy draws chance)."""

    def __init__(self, name: str, rng: random.Random) -> None:
        super().__init__(name, rng)
        self.calls = 0

    def card_policy(self, facts: TrickFacts) -> Action:
        self.calls += 1
        return super().card_policy(facts)


class ViewOnly(HeuristicBot):
    """A heuristic bot without a card_policy: every decision needs a view. Keeps them."""

    card_policy = None  # type: ignore[assignment]

    def __init__(self, name: str, rng: random.Random) -> None:
        super().__init__(name, rng)
        self.views: list[View] = []

    def act(self, view: View) -> Action:
        self.views.append(view)
        return super().act(view)


class PoliciesUnasked(ViewOnly):
    """A view-keeping bot whose card_policy and trump_policy must never be asked."""

    def card_policy(self, facts: TrickFacts) -> Action:  # type: ignore[override]
        raise AssertionError("card_policy asked with a view-only player at the table")

    def trump_policy(self, allowed: tuple[Suit, ...], hand: Mask) -> Suit:
        raise AssertionError("trump_policy asked with a view-only player at the table")


RULES = Rules(players=4, start_cards=5)
SEED = 3


def chosen_trumps(events: Sequence[Event], seat: int) -> int:
    """Return how many times ``seat`` chose trump in ``events``."""
    return sum(
        isinstance(e, TrumpSet) and e.method == "chosen" and e.chosen_by == seat for e in events
    )


def card_plays(events: Sequence[Event], seat: int | None = None) -> int:
    """Return the plays and knocks of ``seat`` (of every seat when None) in ``events``."""
    return sum(isinstance(e, (Play, Knock)) and seat in (None, e.seat) for e in events)


def test_fast_path_asks_card_policy_and_trump_policy() -> None:
    rng = bots_rng(SEED)
    players = [Spy(f"s{s}", rng) for s in range(4)]
    state = drive(new_game(RULES, SEED), players)
    events = state.events
    assert state.phase is Phase.OVER
    assert sum(chosen_trumps(events, s) for s in range(4)) > 0  # the test has trumps to see
    for seat, p in enumerate(players):
        assert p.asked["trump_policy"] == chosen_trumps(events, seat)
        assert p.asked["trump"] == 0
    # Heuristic policies draw no chance, so a single legal card is played unasked.
    forced = forced_plays(new_game(RULES, SEED), events)
    assert forced > 0
    assert sum(p.asked["card_policy"] for p in players) == card_plays(events) - forced


def test_fast_path_asks_act_for_trump_without_trump_policy() -> None:
    rng = bots_rng(SEED)
    players = [SpyWithoutTrumpPolicy(f"s{s}", rng) for s in range(4)]
    events = drive(new_game(RULES, SEED), players).events
    assert sum(chosen_trumps(events, s) for s in range(4)) > 0
    for seat, p in enumerate(players):
        assert p.asked["trump"] == chosen_trumps(events, seat)
        assert p.asked["trump_policy"] == 0
    assert sum(p.asked["card_policy"] for p in players) > 0


@pytest.mark.parametrize("watch", [False, True])
def test_one_player_without_card_policy_means_a_view_for_every_decision(watch: bool) -> None:
    # Watching the events (on_event) takes the view path too, even with four policies.
    rng = bots_rng(SEED)
    last = PoliciesUnasked("p3", rng) if watch else ViewOnly("v3", rng)
    players = [*(PoliciesUnasked(f"p{s}", rng) for s in range(3)), last]
    seen: list[Event] = []
    state = drive(new_game(RULES, SEED), players, on_event=seen.append if watch else None)
    assert seen == (state.events if watch else [])
    events = state.events
    assert state.phase is Phase.OVER
    assert sum(chosen_trumps(events, s) for s in range(4)) > 0
    for seat, p in enumerate(players):
        assert {v.seat for v in p.views} == {seat}  # its own view, every time
        assert all(v.legal for v in p.views)  # and always its turn
        plays = [v for v in p.views if v.phase is Phase.PLAY]
        assert len(plays) == card_plays(events, seat)
        assert len(p.views) - len(plays) == chosen_trumps(events, seat)
    assert sum(len(p.views) for p in players) == decisions(events)


def test_a_random_bot_at_the_table_means_every_play_is_asked() -> None:
    rng = bots_rng(SEED)
    rand = RandomSpy("r0", rng)
    spies = [Spy(f"s{s}", rng) for s in range(1, 4)]
    players: list[Player] = [rand, *spies]
    events = drive(new_game(RULES, SEED), players).events
    assert forced_plays(new_game(RULES, SEED), events) > 0  # some plays were forced
    assert rand.calls == card_plays(events, 0)
    for seat, spy in enumerate(spies, start=1):
        assert spy.asked["card_policy"] == card_plays(events, seat)


def test_the_fast_path_plays_the_same_game_as_views() -> None:
    scripted = drive(full_game(), [ScriptedPlayer(f"p{s}", t) for s, t in enumerate(FULL_SCRIPTS)])
    bots = [ScriptedBot(f"b{s}", t) for s, t in enumerate(FULL_SCRIPTS)]
    fast = drive(full_game(), bots)
    assert fast.events == scripted.events
    assert fast.outcome == scripted.outcome is not None
    assert all(not b.script for b in bots)


@pytest.mark.parametrize("kinds", [("heuristic",) * 4, ("random", "heuristic", "search", "random")])
def test_play_game_is_drive_of_new_game(kinds: tuple[str, ...]) -> None:
    rules = Rules(players=4, start_cards=4)

    def players() -> list[Player]:
        rng = bots_rng(21)
        return [make_bot(k, f"{k}-{s}", rng, search_iterations=2) for s, k in enumerate(kinds)]

    shown: list[Event] = []
    played = play_game(rules, players(), 21, dealer=2, on_event=shown.append)
    driven = drive(new_game(rules, 21, dealer=2), players())
    assert played.events == driven.events == shown
    assert played.outcome == driven.outcome is not None
    assert isinstance(played.events[0], Deal) and played.events[0].dealer == 2


# --------------------------------------------------------------------------- drive: errors


@pytest.mark.parametrize("count", [3, 5])
def test_wrong_number_of_players(count: int) -> None:
    state = full_game()
    before = list(state.events)
    players = [ScriptedPlayer(f"p{s}") for s in range(count)]
    with pytest.raises(ValueError) as err:
        drive(state, players)
    assert str(err.value) == f"{count} players given for a 4-player game"
    assert state.events == before


def test_illegal_trump_from_trump_policy_leaves_the_trump_decision() -> None:
    # Seat 2 names "7" for trump in round 2, not a suit.
    scripts: list[str | list[str | int]] = [*FULL_SCRIPTS[:2], ["Ac", "Kd", "As", 7]]
    bots = [ScriptedBot(f"b{s}", t) for s, t in enumerate([*scripts, FULL_SCRIPTS[3]])]
    state = full_game()
    with pytest.raises(PlayerError) as err:
        drive(state, bots)
    assert (err.value.seat, err.value.player, err.value.action) == (2, bots[2], "7")
    assert str(err.value).startswith("scripted-bot player 'b2' (seat 2) chose 7: seat 2 must")
    assert (state.phase, state.turn, state.round) == (Phase.TRUMP, 2, 2)
    hands = (None, None, tuple(cards("Kh Qh")), tuple(cards("Ah 2s")))
    assert state.events[-1] == Deal(2, 2, 2, 3, 26, hands, ())
    assert state.legal_actions() == (0, 1, 2, 3)


def test_illegal_card_from_card_policy_leaves_the_play_decision() -> None:
    # Trick 2: seat 2 leads Kd; seat 3 answers with 3d, which it does not hold.
    scripts = [*FULL_SCRIPTS[:3], "Qc 3d"]
    bots = [ScriptedBot(f"b{s}", t) for s, t in enumerate(scripts)]
    state = full_game()
    with pytest.raises(PlayerError) as err:
        drive(state, bots)
    assert (err.value.seat, err.value.player, err.value.action) == (3, bots[3], "3d")
    assert str(err.value) == "scripted-bot player 'b3' (seat 3) chose 3d: seat 3 does not hold 3d"
    assert (state.phase, state.turn, state.trick_number) == (Phase.PLAY, 3, 2)
    assert state.events[-2:] == [TRICK_1_WON, Play(2, parse_card("Kd"))]
    assert state.trick == (Play(2, parse_card("Kd")),)
    assert state.legal_actions() == tuple(cards("3h 4s"))  # void in diamonds
    # The game goes on from there once a legal card comes.
    state.apply(parse_card("3h"))
    assert state.turn == 0


def test_illegal_trump_from_act_leaves_the_trump_decision() -> None:
    # As above, on the view path: seat 2 names 9 for trump in round 2.
    scripts: list[str | list[str | int]] = [*FULL_SCRIPTS[:2], ["Ac", "Kd", "As", 9]]
    players = [ScriptedPlayer(f"p{s}", t) for s, t in enumerate([*scripts, FULL_SCRIPTS[3]])]
    state = full_game()
    with pytest.raises(PlayerError) as err:
        drive(state, players, on_event=lambda event: None)
    assert (err.value.seat, err.value.player, err.value.action) == (2, players[2], "9")
    assert (state.phase, state.turn) == (Phase.TRUMP, 2)
    assert isinstance(state.events[-1], Deal) and state.events[-1].round == 2


# --------------------------------------------------------------------------- drive: quitting


class Quitter(ScriptedPlayer):
    """A scripted player that quits when asked to name trump."""

    def act(self, view: View) -> Action:
        if view.phase is Phase.TRUMP:
            raise Quit
        return super().act(view)


@pytest.mark.parametrize("watch", [False, True])
def test_a_player_quitting_propagates_with_the_game_so_far(watch: bool) -> None:
    players = [ScriptedPlayer(f"p{s}", t) for s, t in enumerate(FULL_SCRIPTS)]
    players[2] = Quitter("p2", FULL_SCRIPTS[2])
    state = full_game()
    seen: list[Event] = []
    with pytest.raises(Quit):
        drive(state, players, on_event=seen.append if watch else None)
    # The whole of round 1 and round 2's deal: the last event before seat 2 names trump.
    assert len(state.events) == 21
    assert isinstance(state.events[-1], Deal) and state.events[-1].round == 2
    assert state.events[-2].eliminated == (0, 1)  # type: ignore[union-attr]
    assert (state.phase, state.turn) == (Phase.TRUMP, 2)
    assert seen == (state.events if watch else [])


class QuitOnTrickTwo(ScriptedBot):
    """A fast-path bot that quits when asked for its second card."""

    def card_policy(self, facts: TrickFacts) -> Action:
        if len(self.script) == len(FULL_SCRIPTS[3].split()) - 1:
            raise Quit
        return super().card_policy(facts)


def test_a_card_policy_quitting_propagates_with_the_game_so_far() -> None:
    bots = [ScriptedBot(f"b{s}", t) for s, t in enumerate(FULL_SCRIPTS)]
    bots[3] = QuitOnTrickTwo("b3", FULL_SCRIPTS[3])
    state = full_game()
    with pytest.raises(Quit):
        drive(state, bots)
    # Trick 2: seat 2 led Kd, and seat 3 quit before answering.
    last = [Play(0, parse_card("7c")), TRICK_1_WON, Play(2, parse_card("Kd"))]
    assert state.events[-3:] == last
    assert len(state.events) == 10 and Lead(1) in state.events


def test_a_card_policy_quitting_leaves_the_state_at_its_decision() -> None:
    bots = [ScriptedBot(f"b{s}", t) for s, t in enumerate(FULL_SCRIPTS)]
    bots[3] = QuitOnTrickTwo("b3", FULL_SCRIPTS[3])
    state = full_game()
    with pytest.raises(Quit):
        drive(state, bots)
    assert (state.turn, state.trick_number, state.trick_played) == (3, 2, 1)
    assert state.legal_actions() == tuple(cards("3h 4s"))
