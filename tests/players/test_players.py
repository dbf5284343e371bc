"""Players (kow.players) and the game loop's checks on them (kow.game)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import ScriptedPlayer, apply_all, cards, deal, new_state
from hypothesis import given
from hypothesis import strategies as st

from kow.cards import mask_of, parse_card
from kow.engine import State
from kow.engine.deal import StackedDeck
from kow.engine.view import TrickFacts, View
from kow.events import KNOCK, Knock, Phase
from kow.game import PlayerError, bots_rng, play_game
from kow.players import BOT_KINDS, HeuristicBot, Player, RandomBot, make_bot
from kow.rules import DOGS_LIFE, LEADS, TRUMPS, Rules, max_start_cards


class Checked(Player):
    """Pass a bot's actions through, asserting each is legal for the view it was given."""

    def __init__(self, bot: Player) -> None:
        super().__init__(bot.name)
        self.bot = bot
        self.kind = bot.kind
        self.by_phase = {Phase.PLAY: 0, Phase.TRUMP: 0, Phase.VOTE: 0}

    def act(self, view: View) -> int:
        chosen = self.bot.act(view)
        assert chosen in view.legal, f"{self.name} chose {chosen} of {view.legal}"
        self.by_phase[view.phase] += 1
        return chosen


def _rules(i: int) -> Rules:
    players = 2 + i % 6
    return Rules(
        players=players,
        start_cards=1 + (i * 5) % max_start_cards(players) if i % 4 == 0 else min(
            7, max_start_cards(players)),
        dogs_life=DOGS_LIFE[i % 3],  # type: ignore[arg-type]
        trump=TRUMPS[i // 3 % 2],  # type: ignore[arg-type]
        final_round_trump=i % 5 != 1,
        lead=LEADS[i // 2 % 2],  # type: ignore[arg-type]
        eliminated_vote=i % 7 < 4,
        sweep_wins=i % 11 != 3,
    )


@pytest.mark.parametrize("kind", sorted(BOT_KINDS))
def test_bots_only_play_legal_actions(kind: str) -> None:
    totals = {Phase.PLAY: 0, Phase.TRUMP: 0, Phase.VOTE: 0}
    knocks = 0
    # The search bots think little here (1 deal, or 8 iterations, a decision) and play
    # fewer games, for speed.
    for i in range(40 if kind in ("search", "ismcts") else 150):
        rules = _rules(i)
        rng = bots_rng(i)
        players = [Checked(make_bot(kind, f"{kind}-{s}", rng, search_iterations=1,
                                    ismcts_iterations=8))
                   for s in range(rules.players)]
        state = play_game(rules, players, i)
        assert state.phase == Phase.OVER and state.winner is not None
        for p in players:
            for phase, n in p.by_phase.items():
                totals[phase] += n
        knocks += sum(1 for ev in state.events if isinstance(ev, Knock))
    # Every kind of decision came up, knocks included.
    assert min(totals.values()) > 0, totals
    assert knocks > 0


@pytest.mark.parametrize("kinds", [("random",), ("heuristic",), ("random", "heuristic")])
def test_same_seed_same_game(kinds: tuple[str, ...]) -> None:
    def play(seed: int) -> list[Any]:
        rules = Rules(players=5, start_cards=6, dogs_life="once-per-player",
                      eliminated_vote=True)
        random.seed(seed * 7 + 1)  # no player may draw from the global generator
        rng = bots_rng(seed)
        bots = [make_bot(kinds[s % len(kinds)], f"b{s}", rng) for s in range(5)]
        return play_game(rules, bots, seed).events

    for seed in (3, 11, 2**40):
        first = play(seed)
        random.random()
        assert play(seed) == first
    assert play(3) != play(4)


def test_make_bot() -> None:
    rng = random.Random(1)
    assert isinstance(make_bot("random", "r", rng), RandomBot)
    bot = make_bot("heuristic", "h", rng)
    assert isinstance(bot, HeuristicBot)
    assert (bot.name, bot.kind) == ("h", "heuristic")
    with pytest.raises(ValueError, match=r"'clever' is not a bot kind: choose from random"):
        make_bot("clever", "c", rng)


# --------------------------------------------------------------------------- the heuristic


# Three players, 4 cards, once-per-game, dealer 0. Round 1: seat 0 takes no trick and
# plays round 2 on a dog's life. Round 2: seat 1 chooses hearts and leads; seat 2 acts
# next and seat 0 last.
DOG_RULES = Rules(players=3, start_cards=4, dogs_life="once-per-game")
DOG_ROUND_1 = deal(0, ["2h 3h 4h 5h", "Ac Kc Qc 2d", "4c 5c 6c Ad"], "2s")


def _dog_state(dog_card: str, moves: str) -> State:
    state = new_state(DOG_RULES, 0, [DOG_ROUND_1, deal(1, [dog_card, "2c 3c 4d", "5c Kd 7h"])])
    apply_all(state, "Ac 4c 2h Kc 5c 3h Qc 6c 4h 2d Ad 5h  h")
    apply_all(state, moves)
    assert state.turn == 0 and 0 in state.dogs_life
    return state


@pytest.mark.parametrize(
    ("dog_card", "moves", "expected"),
    [
        # Trick 2, the Kd led and seat 1 still to play: the ace of trumps is sure to win;
        # the 2h is not, but it trumps the Kd and wins as the trick stands (the rules
        # text's tip); the 2d cannot win, so it waits.
        ("Ah", "2c 5c knock  Kd", "Ah"),
        ("2h", "2c 5c knock  Kd", "2h"),
        ("2d", "2c 5c knock  Kd", "knock"),
        # Trick 1, last to play: 2h trumps the clubs and wins; 2d cannot win.
        ("2h", "2c 5c", "2h"),
        ("2d", "2c 5c", "knock"),
        # The last trick: the card must be played, winning or not.
        ("2d", "2c 5c knock  Kd knock 4d  7h", "2d"),
    ],
)
def test_heuristic_dogs_life(dog_card: str, moves: str, expected: str) -> None:
    state = _dog_state(dog_card, moves)
    view = state.view()
    bot = HeuristicBot("h", random.Random(0))
    assert (KNOCK in view.legal) == (state.trick_number < 3)
    chosen = bot.act(view)
    assert chosen == (KNOCK if expected == "knock" else parse_card(expected))


@pytest.mark.parametrize(
    ("hand", "allowed", "suit"),
    [
        ("2d 3d 4d Ac Kc", "cdhs", "d"),  # three diamonds beat two high clubs
        ("2s 3s Ah 5c", "cdhs", "s"),
        ("2d 3d Ac Kc", "cdhs", "c"),  # two each: the higher ranks
        ("2d 3d 4d 5s", "cs", "s"),  # only the tied suits of a vote are allowed
        ("2d 3d 4d 5h 6h 2c", "ch", "h"),
    ],
)
def test_heuristic_chooses_longest_suit(hand: str, allowed: str, suit: str) -> None:
    state = new_state(DOG_RULES, 0, [DOG_ROUND_1, deal(1, ["2h", "2c 3c 4d", "5c Kd 7h"])])
    apply_all(state, "Ac 4c 2h Kc 5c 3h Qc 6c 4h 2d Ad 5h")
    assert state.phase == Phase.TRUMP
    view = state.view()._replace(
        hand=tuple(sorted(cards(hand))),
        hand_mask=mask_of(cards(hand)),
        legal=tuple("cdhs".index(s) for s in allowed),
    )
    assert HeuristicBot("h", random.Random(0)).act(view) == "cdhs".index(suit)


def test_heuristic_chooses_trump_in_a_game() -> None:
    # Seat 1, with most tricks in round 1, holds 3c 2d 5d in round 2 and names diamonds.
    state = new_state(DOG_RULES, 0, [DOG_ROUND_1, deal(1, ["2h", "3c 2d 5d", "5c Kd 7h"])])
    apply_all(state, "Ac 4c 2h Kc 5c 3h Qc 6c 4h 2d Ad 5h")
    assert (state.phase, state.turn) == (Phase.TRUMP, 1)
    apply_all(state, [HeuristicBot("h1", random.Random(0)).act(state.view())])
    assert (state.trump, state.phase) == (1, Phase.PLAY)


# --------------------------------------------------------------------------- checks on players


def test_illegal_card_is_a_player_error() -> None:
    rules = Rules(players=3, start_cards=2)
    players = [ScriptedPlayer("alice", "3c"), ScriptedPlayer("bob", "Ah"),
               ScriptedPlayer("carol", "2c")]
    deck = StackedDeck([deal(0, ["3c 4c", "Ac Kc", "2c 5c"], "2h")])
    with pytest.raises(PlayerError) as err:
        play_game(rules, players, 1, dealer=0, deck=deck)
    assert (err.value.seat, err.value.player, err.value.action) == (1, players[1], "Ah")
    message = str(err.value)
    assert "'bob'" in message and "seat 1" in message
    assert "Ah" in message and "does not hold Ah" in message


def test_not_following_suit_is_a_player_error() -> None:
    rules = Rules(players=3, start_cards=2)
    players = [ScriptedPlayer("alice"), ScriptedPlayer("bob", "Ac"),
               ScriptedPlayer("carol", "5d")]
    deck = StackedDeck([deal(0, ["3c 4c", "Ac Kc", "2c 5d"], "2h")])
    with pytest.raises(PlayerError, match=r"'carol' \(seat 2\) chose 5d: seat 2 must follow "
                                          r"suit c: it holds 2c, not 5d"):
        play_game(rules, players, 1, dealer=0, deck=deck)


@pytest.mark.parametrize(("bad", "shown"), [(KNOCK, "knock"), (60, "60"), ("Ac", "'Ac'")])
def test_bad_play_is_a_player_error(bad: Any, shown: str) -> None:
    class Stubborn(Player):
        kind = "stubborn"

        def act(self, view: View) -> Any:
            return bad

    rules = Rules(players=2, start_cards=1)
    players = [Stubborn("s0"), Stubborn("s1")]
    with pytest.raises(PlayerError) as err:
        play_game(rules, players, 5, dealer=0)
    assert err.value.seat == 1
    assert f"stubborn player 's1' (seat 1) chose {shown}: seat 1" in str(err.value)


def test_bad_trump_choice_is_a_player_error() -> None:
    rules = Rules(players=3, start_cards=4, dogs_life="once-per-game")
    scripts: list[Any] = ["2h 3h 4h 5h", ["Ac", "Kc", "Qc", "2d", 7], "4c 5c 6c Ad"]
    players = [ScriptedPlayer(f"p{s}", script) for s, script in enumerate(scripts)]
    deck = StackedDeck([DOG_ROUND_1, deal(1, ["2h", "2c 3c 4d", "5c Kd 7h"])])
    with pytest.raises(PlayerError, match=r"'p1' \(seat 1\) chose 7: seat 1 must name a suit"):
        play_game(rules, players, 0, dealer=0, deck=deck)


def test_players_must_match_seats() -> None:
    with pytest.raises(ValueError, match="2 players given for a 3-player game"):
        play_game(Rules(players=3), [ScriptedPlayer("a"), ScriptedPlayer("b")], 0)


def test_views_given_to_players_are_their_own() -> None:
    rules = Rules(players=3, start_cards=2)
    players = [ScriptedPlayer("p0", "3c 4c"), ScriptedPlayer("p1", "Ac Kc"),
               ScriptedPlayer("p2", "2c 5c")]
    play_game(rules, players, 1, dealer=0,
             deck=StackedDeck([deal(0, ["3c 4c", "Ac Kc", "2c 5c"], "2h")]))
    first = [p.views[0] for p in players]
    assert [v.seat for v in first] == [0, 1, 2]
    assert [v.hand for v in first] == [tuple(sorted(cards(h))) for h in
                                       ("3c 4c", "Ac Kc", "2c 5c")]
    assert first[1].trick == ()
    assert first[2].trick == ((1, parse_card("Ac")),)
    assert first[0].trick == ((1, parse_card("Ac")), (2, parse_card("2c")))


@pytest.mark.parametrize(
    ("bad", "shown", "reason"),
    [
        (parse_card("Ac"), "Ac", "seat 2 does not hold Ac"),
        (parse_card("5d"), "5d", "seat 2 must follow suit c: it holds 2c, not 5d"),
        (KNOCK, "knock", "seat 2 is not on a dog's life and cannot knock"),
        (5.0, "5.0", "seat 2: 5.0 is not a card or a knock"),
    ],
)
def test_bad_fast_play_is_a_player_error(bad: Any, shown: str, reason: str) -> None:
    # The engine's trick loop (State.play_round) refuses what apply refuses, and the game
    # loop names the player.
    class FastStubborn(RandomBot):
        kind = "stubborn"

        def card_policy(self, facts: TrickFacts) -> Any:
            legal = facts.legal
            return bad if self.name == "carol" else (legal & -legal).bit_length() - 1

    rules = Rules(players=3, start_cards=2)
    players = [FastStubborn(name, random.Random(0)) for name in ("alice", "bob", "carol")]
    deck = StackedDeck([deal(0, ["3c 4c", "Ac Kc", "2c 5d"], "2h")])
    with pytest.raises(PlayerError) as err:
        play_game(rules, players, 1, dealer=0, deck=deck)
    assert str(err.value) == f"stubborn player 'carol' (seat 2) chose {shown}: {reason}"
    assert (err.value.seat, err.value.player) == (2, players[2])


def test_bad_fast_trump_choice_is_a_player_error() -> None:
    class BadTrump(RandomBot):
        kind = "badtrump"

        def trump_policy(self, allowed: tuple[int, ...], hand: int) -> int:
            return 7

    rules = Rules(players=3, start_cards=2)
    players = [BadTrump(f"p{s}", random.Random(s)) for s in range(3)]
    with pytest.raises(PlayerError) as err:
        play_game(rules, players, 8, dealer=0)  # seed 8: seat 2 names trump for round 2
    assert str(err.value) == (
        "badtrump player 'p2' (seat 2) chose 7: seat 2 must name a suit (c, d, h, s) to trump, "
        "not 7"
    )


@given(
    cards=st.integers(min_value=1, max_value=(1 << 52) - 1),
    trump=st.sampled_from([-1, 0, 1, 2, 3]),
)
def test_heuristic_cheapest_and_strongest_card_by_bits(cards: int, trump: int) -> None:
    # The bit tricks pick what min/max over the sorted cards would, by rank with trumps
    # above every other suit, ties to the first (lowest) suit.
    from kow.cards import RANK_OF, SUIT_OF, cards_in
    from kow.players.policy import lowest, strongest

    def strength(card: int) -> int:
        return RANK_OF[card] + (13 if SUIT_OF[card] == trump else 0)

    assert lowest(cards, trump) == min(cards_in(cards), key=strength)
    assert strongest(cards, trump) == max(cards_in(cards), key=strength)
