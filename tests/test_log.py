"""The log module's fast writer: ``log.text`` gives the bytes of ``dumps(build(...))``.

``kow simulate`` writes compact logs with :func:`kow.log.text`, which writes the JSON
straight from the events; :func:`kow.log.build` with :func:`kow.log.dumps` is the
reference. They must agree byte for byte on every game, whole or cut short at any event.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from kow import log
from kow.game import bots_rng, run_game
from kow.players import Player, make_bot
from kow.rules import MAX_SEED, Rules, max_start_cards


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    players = draw(st.integers(2, 7))
    return Rules(
        players=players,
        start_cards=draw(st.integers(1, max_start_cards(players))),
        dogs_life=draw(st.sampled_from(["off", "once-per-game", "once-per-player"])),
        trump=draw(st.sampled_from(["winner-chooses", "fixed"])),
        final_round_trump=draw(st.booleans()),
        lead=draw(st.sampled_from(["most-tricks", "dealer-left"])),
        eliminated_vote=draw(st.booleans()),
        sweep_wins=draw(st.booleans()),
    )


NAMES = st.sampled_from(["random-0", "Zoë", 'say "hi"', "back\\slash", "tab\there", "🂡 ace"])


def players_for(rules: Rules, seed: int, kinds: list[str], names: list[str]) -> list[Player]:
    rng = bots_rng(seed)
    return [
        make_bot(kinds[s % len(kinds)], names[s % len(names)], rng)
        for s in range(rules.players)
    ]


@settings(max_examples=150, deadline=None)
@given(
    rules=rules_strategy(),
    seed=st.integers(0, MAX_SEED),
    kinds=st.lists(st.sampled_from(["random", "heuristic"]), min_size=1, max_size=7),
    names=st.lists(NAMES, min_size=1, max_size=7),
    cut=st.floats(0, 1),
)
def test_text_is_the_bytes_of_dumps_build(
    rules: Rules, seed: int, kinds: list[str], names: list[str], cut: float
) -> None:
    players = players_for(rules, seed, kinds, names)
    events = run_game(rules, players, seed).events
    whole = log.text(seed, rules, players, events)
    assert whole == log.dumps(log.build(seed, rules, players, events))
    assert json.loads(whole)["seed"] == seed
    assert whole.isascii()
    # A game cut short at any event (as kow play saves one), abandoned or not.
    part = events[: int(cut * len(events))]
    for abandoned in (False, True):
        assert log.text(seed, rules, players, part, abandoned) == log.dumps(
            log.build(seed, rules, players, part, abandoned)
        )


def test_text_of_every_prefix_of_a_game_with_dogs_votes_and_tie_cuts() -> None:
    rules = Rules(players=5, dogs_life="once-per-player", eliminated_vote=True, sweep_wins=False)
    seen: set[str] = set()
    for seed in range(40):
        players = players_for(rules, seed, ["random", "heuristic"], ["a", "b"])
        events = run_game(rules, players, seed).events
        seen.update(ev[0] for ev in events)
        for end in range(len(events) + 1):
            part = events[:end]
            assert log.text(seed, rules, players, part, True) == log.dumps(
                log.build(seed, rules, players, part, True)
            )
    # Every kind of event came up, so every branch of the writer was compared.
    assert seen >= {"round", "turned_up", "tie_cut", "vote", "trump", "lead", "play",
                    "knock", "trick", "round_end", "game_end"}  # fmt: skip


def test_text_of_no_events() -> None:
    rules = Rules()
    players = players_for(rules, 0, ["random"], ["p"])
    assert log.text(0, rules, players, [], True) == log.dumps(
        log.build(0, rules, players, [], True)
    )
