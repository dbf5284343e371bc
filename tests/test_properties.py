"""Invariants over many seeded games, and legality as judged by the independent verifier.

The verifier (:mod:`kow.verify`) re-implements the rules from the log alone, without the
engine. The issue's bar: for every player count from 2 to 7, and each variant alone and
combined, 1000 seeded games come out legal: run ``KOW_GAMES=1000 python -m pytest
tests/test_properties.py``. The suite runs 250 per case by default, to keep CI short.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kow import log
from kow.cards import NO_SUIT, SUIT_OF
from kow.engine._state import FIELDS as STATE_FIELDS
from kow.events import Event, Knock, Play, TrickWon, TrumpSet, WonBy
from kow.game import bots_rng, drive, game_seed, new_game, play_game
from kow.players import Player, make_bot
from kow.rules import Rules, max_start_cards
from kow.settings import MAX_SEED
from kow.verify import verify_game

GAMES = int(os.environ.get("KOW_GAMES", "250"))

VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "dogs-once-per-game": {"dogs_life": "once-per-game"},
    "dogs-once-per-player": {"dogs_life": "once-per-player"},
    "fixed-trump": {"trump": "fixed"},
    "no-final-round-trump": {"final_round_trump": False},
    "start-6": {"start_cards": 6},
    "start-8": {"start_cards": 8},
    "eliminated-vote": {"eliminated_vote": True},
    "dealer-left": {"lead": "dealer-left"},
    "no-sweep-wins": {"sweep_wins": False},
    "traditional-no-sweep-vote": {
        "dogs_life": "once-per-game", "sweep_wins": False, "eliminated_vote": True,
    },
    "per-player-all-variants": {
        "dogs_life": "once-per-player", "trump": "fixed", "final_round_trump": False,
        "lead": "dealer-left", "eliminated_vote": True, "sweep_wins": False,
    },
    "per-player-no-final-vote": {
        "dogs_life": "once-per-player", "final_round_trump": False, "eliminated_vote": True,
        "start_cards": 6,
    },
}  # fmt: skip


def simulate(rules: Rules, seed: int, kinds: tuple[str, ...]) -> Any:
    """Play one game with bots of ``kinds`` (cycled over the seats) and return its log."""
    rng = bots_rng(seed)
    players = [
        make_bot(kinds[s % len(kinds)], f"bot-{s}", rng) for s in range(rules.players)
    ]
    state = play_game(rules, players, seed)
    return log.build(seed, rules, players, events=state.events)


def check_invariants(game: dict[str, Any]) -> None:
    """Assert the invariants every game keeps, whatever the rules."""
    rules = game["rules"]
    rounds = game["rounds"]
    assert rounds, "a game has at least one round"
    assert game["result"]["rounds_played"] == len(rounds) <= rules["start_cards"]
    out: set[int] = set()
    for number, rnd in enumerate(rounds, 1):
        assert rnd["number"] == number
        assert rnd["hand_size"] == rules["start_cards"] - number + 1
        dealt = [c for h in rnd["hands"] if h is not None for c in h]
        if rnd["turned_up"] is not None:
            dealt.append(rnd["turned_up"])
        assert len(dealt) == len(set(dealt)), "no card is dealt twice"
        assert len(rnd["tricks"]) == rnd["hand_size"], "tricks per round equal the hand size"
        played = [p["card"] for t in rnd["tricks"] for p in t["plays"] if "card" in p]
        held = [c for h in rnd["hands"] if h is not None for c in h]
        assert Counter(played) == Counter(held), "every card dealt is played exactly once"
        won = Counter(t["winner"] for t in rnd["tricks"])
        assert [won.get(s, 0) if h is not None else None for s, h in enumerate(rnd["hands"])] == (
            rnd["tricks_won"]
        )
        assert sum(n for n in rnd["tricks_won"] if n is not None) == rnd["hand_size"]
        assert not out & {s for s, h in enumerate(rnd["hands"]) if h is not None}
        out |= set(rnd["eliminated"])
    winner = game["result"]["winner"]
    assert winner not in out
    assert out == set(range(rules["players"])) - {winner}, "everyone but the winner is out"
    last = rounds[-1]
    assert last["tricks_won"][winner] == last["hand_size"], "the winner sweeps the last round"


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_thousand_games_are_legal(variant: str, players: int) -> None:
    settings_ = dict(VARIANTS[variant])
    if settings_.get("start_cards", 7) > max_start_cards(players):
        pytest.skip(f"{settings_['start_cards']} cards cannot be dealt to {players} players")
    rules = Rules(players=players, **settings_)
    kinds = ("heuristic", "random")
    for index in range(GAMES):
        seed = game_seed(players * 1000 + len(variant), index)
        game = simulate(rules, seed, kinds[index % 2 :] + kinds[: index % 2])
        fault = verify_game(game)
        assert fault is None, f"{variant}, {players} players, seed {seed}: {fault}"
        check_invariants(game)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, MAX_SEED),
    players=st.integers(2, 7),
    dogs_life=st.sampled_from(["off", "once-per-game", "once-per-player"]),
    fixed=st.booleans(),
    final_round_trump=st.booleans(),
    lead=st.sampled_from(["most-tricks", "dealer-left"]),
    vote=st.booleans(),
    sweep_wins=st.booleans(),
    data=st.data(),
)
def test_any_rules_any_seed_keep_the_invariants(
    seed: int,
    players: int,
    dogs_life: str,
    fixed: bool,
    final_round_trump: bool,
    lead: str,
    vote: bool,
    sweep_wins: bool,
    data: st.DataObject,
) -> None:
    start_cards = data.draw(st.integers(1, max_start_cards(players)), label="start_cards")
    rules = Rules(
        players=players,
        start_cards=start_cards,
        dogs_life=dogs_life,  # type: ignore[arg-type]
        trump="fixed" if fixed else "winner-chooses",
        final_round_trump=final_round_trump,
        lead=lead,  # type: ignore[arg-type]
        eliminated_vote=vote,
        sweep_wins=sweep_wins,
    )
    game = simulate(rules, seed, ("random", "heuristic"))
    check_invariants(game)
    assert verify_game(game) is None
    assert simulate(rules, seed, ("random", "heuristic")) == game, "the seed replays the game"


def check_tricks_say_how_they_were_won(events: list[Event]) -> None:
    """Assert that each trick's end names its winner's card, the first card's suit and
    the reason a plain reading of its cards gives (rules text, 'Déroulement du jeu' 3)."""
    trump = NO_SUIT
    cards: list[tuple[int, int]] = []  # (seat, card) played to the trick so far
    for event in events:
        if isinstance(event, TrumpSet):
            trump = NO_SUIT if event.suit is None else event.suit
        elif isinstance(event, Play):
            cards.append((event.seat, event.card))
        elif isinstance(event, TrickWon):
            card = next(c for seat, c in cards if seat == event.winner)
            led = SUIT_OF[cards[0][1]]
            fellows = sum(SUIT_OF[c] == SUIT_OF[card] for _, c in cards) - 1
            if len(cards) == 1:
                why = WonBy.ONLY_CARD
            elif fellows:
                why = WonBy.HIGHEST_TRUMP if SUIT_OF[card] == trump else WonBy.HIGHEST_OF_LED
            else:
                why = WonBy.ONLY_OF_LED if SUIT_OF[card] == led else WonBy.ONLY_TRUMP
            assert (event.card, event.led, event.why) == (card, led, why), (event, cards)
            cards = []
        else:
            assert not cards or isinstance(event, Knock)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, MAX_SEED),
    players=st.integers(2, 7),
    dogs_life=st.sampled_from(["off", "once-per-game", "once-per-player"]),
    final_round_trump=st.booleans(),
    sweep_wins=st.booleans(),
)
def test_every_trick_says_how_it_was_won(
    seed: int, players: int, dogs_life: str, final_round_trump: bool, sweep_wins: bool
) -> None:
    rules = Rules(
        players=players,
        dogs_life=dogs_life,  # type: ignore[arg-type]
        final_round_trump=final_round_trump,
        sweep_wins=sweep_wins,
    )
    state = play_game(rules, _bots(("random", "heuristic"), seed, players), seed)
    check_tricks_say_how_they_were_won(state.events)


def _bots(kinds: tuple[str, ...], seed: int, players: int) -> list[Player]:
    rng = bots_rng(seed)
    return [make_bot(kinds[s % len(kinds)], f"b{s}", rng) for s in range(players)]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fast_loop_plays_the_same_game_as_apply(variant: str) -> None:
    # The policies of the engine's trick loop (State.play_round, as in simulate) against
    # drive's general loop, which builds a view and calls apply for every decision: the
    # same events and the same final state.
    for players in range(2, 8):
        try:
            rules = Rules(players=players, **VARIANTS[variant])
        except ValueError:
            continue  # e.g. 8 start cards cannot be dealt to 7 players
        for seed in range(12):
            kinds = ("random", "heuristic", "heuristic") if seed % 2 else ("random",)
            fast = drive(new_game(rules, seed), _bots(kinds, seed, players))
            shown: list[Event] = []
            slow = drive(new_game(rules, seed), _bots(kinds, seed, players), on_event=shown.append)
            assert fast.events == slow.events == shown, (variant, players, seed)
            for name in STATE_FIELDS:
                if name not in ("rng", "_deck", "_view_parts", "_tricks_kept"):
                    assert getattr(fast, name) == getattr(slow, name), (name, players, seed)
