"""A tuned pure-Python simulator of Knock-Out Whist: the yardstick of issue 35.

``python benchmarks/tuned_simulator.py --bots random --seed 1 --games 10000 -o FILE``
plays the games of ``kow simulate --bots random --seed 1 --games 10000 --jobs 1`` (the
default rules, 4 players) and writes the same JSON per game, byte for byte but for the
``"kow_version"`` field (``--kow-version`` sets it): the same seeds, the same draws from
the same generators, the same log. It is one file of plain Python, written as tightly as
its author could: no classes, no events, no checks, no views; a game is a few local
lists and masks, and its text is written as it is played. ``--bots heuristic`` plays
the heuristic bot's rules (restated here for the default rules, which have no dog's
life: a benchmark's copy, not kow's statement of them).

It imports nothing from kow. ``benchmarks/speed.py`` runs it beside ``kow simulate`` to
give kow's CPU as a share of this simulator's (the ``tuned`` row); issue 35's target is a
half or less for the compiled kow.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import random
import sys
from collections.abc import Callable

PLAYERS = 4
START_CARDS = 7
NAMES = tuple(r + s for s in "cdhs" for r in "23456789TJQKA")
SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4)) + (0,)  # [-1]: no suit
SUIT_OF = tuple(c // 13 for c in range(52))
RANK_OF = tuple(c % 13 for c in range(52))
BIT = tuple(1 << c for c in range(52))
FULL = (1 << 52) - 1
ABOVE = tuple(SUIT_MASK[c // 13] & ~((2 << c) - 1) for c in range(52))
# BEATEN[trump][winning]: the cards that take the trick from the card winning it.
BEATEN = tuple(
    tuple(ABOVE[w] | (SUIT_MASK[t] if t != SUIT_OF[w] else 0) for w in range(52)) for t in range(4)
)
CARDS_OF = {}  # mask of one suit's ranks -> its cards' ranks, lowest first
for _m in range(1 << 13):
    CARDS_OF[_m] = tuple(r for r in range(13) if _m >> r & 1)
CLOCKWISE = tuple(tuple((f + i) % PLAYERS for i in range(PLAYERS)) for f in range(PLAYERS))
PLAY_TEXT = tuple(tuple(f'{{"seat":{s},"card":"{n}"}}' for n in NAMES) for s in range(PLAYERS))
QUOTED = tuple(f'"{n}"' for n in NAMES)
QUOTED_SUITS = ('"c"', '"d"', '"h"', '"s"')
BOTS = 1 << 53


def lowest(cards: int, trump: int) -> int:
    side = cards & ~SUIT_MASK[trump]
    if not side:
        return (cards & -cards).bit_length() - 1
    best, rank = -1, 13
    for s in range(4):
        m = side >> (13 * s) & 0x1FFF
        if m:
            r = (m & -m).bit_length() - 1
            if r < rank:
                rank, best = r, 13 * s + r
    return best


def strongest(cards: int, trump: int) -> int:
    trumps = cards & SUIT_MASK[trump]
    if trumps:
        return trumps.bit_length() - 1
    best, rank = -1, -1
    for s in range(4):
        m = cards >> (13 * s) & 0x1FFF
        if m:
            r = m.bit_length() - 1
            if r > rank:
                rank, best = r, 13 * s + r
    return best


def bosses(cards: int, unseen: int) -> int:
    out = 0
    m = cards
    while m:
        low = m & -m
        if not unseen & ABOVE[low.bit_length() - 1]:
            out |= low
        m ^= low
    return out


def heuristic(
    hand: int, legal: int, seen: int, winning: int, led: int, trump: int, to_come: bool,
    won: int, tricks_left: int,
) -> int:  # fmt: skip
    """The heuristic bot's card, for rules without a dog's life."""
    unseen = FULL ^ (seen | hand)
    trumps = SUIT_MASK[trump]
    winners = legal if winning < 0 else legal & BEATEN[trump][winning]
    if not winners or not to_come:
        sure = winners
    elif unseen & trumps:
        sure = bosses(winners & trumps, unseen)
    else:
        sure = bosses(winners, unseen)
    if won:
        if sure:
            return lowest(sure, trump)
        if winning < 0:
            side = legal & ~trumps
            return strongest(side, trump) if side else lowest(legal, trump)
        if not winners:
            return lowest(legal, trump)
        if not to_come:
            return lowest(winners, trump)
        return strongest(winners, trump)
    mine = hand & trumps
    if mine:
        top = mine.bit_length() - 1
        if not unseen & ABOVE[top]:
            others = legal & ~BIT[top]
            return lowest(others, trump) if others else top
    if sure:
        return lowest(sure, trump)
    if not to_come:
        return lowest(winners, trump) if winners else lowest(legal, trump)
    if winning < 0:
        side = legal & ~trumps
        if not side:
            return lowest(legal, trump)
        b = bosses(side, unseen)
        if b:
            return strongest(b, trump)
        shortest, length = -1, 99
        for s in range(4):
            if side & SUIT_MASK[s]:
                n = (hand & SUIT_MASK[s]).bit_count()
                if n < length:
                    length, shortest = n, s
        return lowest(side & SUIT_MASK[shortest], trump)
    if winners and tricks_left <= 2:
        return strongest(winners, trump)
    if winners and led != trump and not winners & ~trumps:
        return lowest(winners, trump)
    return lowest(legal, trump)


def longest_suit(hand: int) -> int:
    """The heuristic bot's trump: most cards, then the highest sum of ranks, then the first."""
    best, key = 0, -1
    for s in range(4):
        m = hand >> (13 * s) & 0x1FFF
        k = m.bit_count() * 100 + sum(CARDS_OF[m])
        if k > key:
            key, best = k, s
    return best


def game_seed(run_seed: int, index: int) -> int:
    if index == 0:
        return run_seed
    digest = hashlib.sha256(f"kow-game:{run_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 11


FRESH = list(range(52))
SPANS = tuple(enumerate(range(52, 0, -1)))


def draw(rnd: Callable[[], float], count: int) -> list[int]:
    """The top ``count`` cards of a fresh deck, shuffled by a partial Fisher-Yates."""
    deck = FRESH[:]
    for i, span in SPANS[:count]:
        j = i + int(rnd() * span)
        deck[i], deck[j] = deck[j], deck[i]
    return deck[:count]


def play(seed: int, head: str, smart: bool, deal_rng: random.Random, bots: random.Random) -> str:
    """Play the game of ``seed`` and return its log's text."""
    deal_rng.seed(seed)
    bots.seed(seed | BOTS)
    rnd = deal_rng.random
    brnd = bots.random
    suit_mask, bit_of, suit_of, play_text = SUIT_MASK, BIT, SUIT_OF, PLAY_TEXT  # locals: faster
    dealer = int(rnd() * PLAYERS)
    in_game = [True] * PLAYERS
    previous: list[int] = []  # last round's tricks by seat (read from round 2)
    rounds: list[str] = []
    number = 0
    while True:
        number += 1
        size = START_CARDS - number + 1
        left = dealer
        while True:
            left = (left + 1) % PLAYERS
            if in_game[left]:
                break
        cutter = dealer
        while True:
            cutter = (cutter - 1) % PLAYERS
            if in_game[cutter]:
                break
        order = [s for s in CLOCKWISE[left] if in_game[s]]
        n = len(order)
        cut = 1 + int(rnd() * 51)
        k = n * size
        deck = draw(rnd, k + 1 if number == 1 else k)
        dealt: list[str | None] = [None] * PLAYERS
        hands = [0] * PLAYERS
        for i, s in enumerate(order):
            cards = deck[i:k:n]
            dealt[s] = "[" + ",".join([QUOTED[c] for c in cards]) + "]"
            h = 0
            for c in cards:
                h |= BIT[c]
            hands[s] = h
        tie_cut = "null"
        if number == 1:
            turned = deck[k]
            trump = SUIT_OF[turned]
            seen = BIT[turned]
            leader = left
            trump_text = f'"turned_up":{QUOTED[turned]},"trump":{QUOTED_SUITS[trump]},'
            trump_text += '"trump_method":"turned-up","trump_chosen_by":null'
        else:
            seen = 0
            top = max(previous)
            tied = [s for s in CLOCKWISE[left] if previous[s] == top]
            passes = []
            while len(tied) > 1:
                drawn = draw(rnd, len(tied))
                shown = [PLAY_TEXT[s][c] for s, c in zip(tied, drawn, strict=True)]
                passes.append("[" + ",".join(shown) + "]")
                high = max([RANK_OF[c] for c in drawn])
                tied = [s for s, c in zip(tied, drawn, strict=True) if RANK_OF[c] == high]
            if passes:
                tie_cut = "[" + ",".join(passes) + "]"
            leader = tied[0]
            if smart:
                trump = longest_suit(hands[leader])
            else:
                trump = int(brnd() * 4)
            trump_text = f'"turned_up":null,"trump":{QUOTED_SUITS[trump]},'
            trump_text += f'"trump_method":"chosen","trump_chosen_by":{leader}'
        won = [0] * PLAYERS
        beaten = BEATEN[trump]
        tricks = []
        first = leader
        seats = [s for s in CLOCKWISE[leader] if hands[s]]
        for t in range(1, size + 1):
            plays = []
            winning = -1
            led = -1
            winner = seats[0]
            last = len(seats) - 1
            for i, s in enumerate(seats):
                hand = hands[s]
                legal = hand & suit_mask[led] or hand  # suit_mask[-1]: 0, none led
                if smart:
                    if not legal & (legal - 1):
                        card = legal.bit_length() - 1
                    else:
                        card = heuristic(
                            hand, legal, seen, winning, led, trump, i < last, won[s], size - t + 1
                        )
                else:  # the legal cards, lowest first: drop the lowest until the one drawn
                    i = int(brnd() * legal.bit_count())
                    while i:
                        legal &= legal - 1
                        i -= 1
                    card = (legal & -legal).bit_length() - 1
                bit = bit_of[card]
                hands[s] = hand ^ bit
                seen |= bit
                if winning < 0:
                    led = suit_of[card]
                    winning = card
                    winner = s
                elif bit & beaten[winning]:
                    winning = card
                    winner = s
                plays.append(play_text[s][card])
            won[winner] += 1
            tricks.append(
                f'{{"number":{t},"leader":{seats[0]},"plays":[{",".join(plays)}],"winner":{winner}}}'
            )
            if t < size:
                seats = [s for s in CLOCKWISE[winner] if hands[s]]
        in_round = [s for s in range(PLAYERS) if dealt[s] is not None]
        sweeper = next((s for s in in_round if won[s] == size), -1)
        if sweeper >= 0:
            eliminated = [s for s in in_round if s != sweeper]
        else:
            eliminated = [s for s in in_round if not won[s]]
        for s in eliminated:
            in_game[s] = False
        tricks_won = ",".join(["null" if dealt[s] is None else str(won[s]) for s in range(PLAYERS)])
        rounds.append(
            f'{{"number":{number},"hand_size":{size},"dealer":{dealer},'
            f'"cut":{{"by":{cutter},"position":{cut}}},'
            f'"hands":[{",".join(["null" if h is None else h for h in dealt])}],'
            f'{trump_text},"tie_cut":{tie_cut},"votes":null,"leader":{first},"dogs_life":[],'
            f'"tricks":[{",".join(tricks)}],"tricks_won":[{tricks_won}],'
            f'"eliminated":[{",".join(map(str, eliminated))}],"dogs_life_granted":[],"revived":[]}}'
        )
        remaining = in_game.count(True)
        if remaining == 1 or size == 1:
            if size == 1:
                why = "final-trick"
            elif sweeper >= 0:
                why = "sweep"
            else:
                why = "last-standing"
            return (
                f'{head}{seed},{RULES_PLAYERS[smart]}{",".join(rounds)}],"result":'
                f'{{"winner":{in_game.index(True)},"rounds_played":{number},"termination":"{why}"}}}}'
            )
        previous = won
        dealer = (dealer + 1) % PLAYERS
        while not in_game[dealer]:
            dealer = (dealer + 1) % PLAYERS


def rules_players(kind: str) -> str:
    rules = {"players": 4, "start_cards": 7, "dogs_life": "off", "trump": "winner-chooses",
             "final_round_trump": True, "lead": "most-tricks", "eliminated_vote": False,
             "sweep_wins": True}  # fmt: skip
    players = [{"seat": s, "name": f"{kind}-{s}", "kind": kind} for s in range(PLAYERS)]
    dump = json.JSONEncoder(separators=(",", ":")).encode
    return f'"rules":{dump(rules)},"players":{dump(players)},"rounds":['


RULES_PLAYERS = {False: rules_players("random"), True: rules_players("heuristic")}


def natural(text: str) -> int:
    """Return the number of ``text``, in the digits 0-9 only (``int`` takes ``'٣'`` as 3)."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number in the digits 0-9")
    return int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", choices=("random", "heuristic"), default="random")
    parser.add_argument("--seed", type=natural, default=1)
    parser.add_argument("--games", type=natural, default=1000)
    parser.add_argument("-o", "--output", default="-")
    try:
        version = importlib.metadata.version("kow")
    except importlib.metadata.PackageNotFoundError:
        version = "0"
    parser.add_argument("--kow-version", default=version)
    opts = parser.parse_args()
    head = f'{{"format":"kow-log","version":1,"kow_version":{json.dumps(opts.kow_version)},"seed":'
    smart = opts.bots == "heuristic"
    deal_rng = random.Random()
    bots = random.Random()
    out = sys.stdout if opts.output == "-" else open(opts.output, "w")  # noqa: SIM115
    write = out.write
    run_seed = opts.seed
    for index in range(opts.games):
        write(play(game_seed(run_seed, index), head, smart, deal_rng, bots) + "\n")
    out.flush()
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
