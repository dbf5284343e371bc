"""A logged game read for the engine: the decks that deal its rounds (:func:`logged_decks`),
how a round's decisions and plays read (:func:`decisions`, :func:`play_action`), and
:func:`play_logged`, which plays a log's rounds through the engine, each round's cards
through the one trick loop (:class:`LoggedPlays`), for :func:`kow.log.replay_exact`.

Compiled in the installed build (``setup.py``'s ``COMPILED``): every game that ``kow
export`` proves legal by its replay passes here. The values of a log are read as the
JSON values they are (``Any``), so a log that cannot be read raises what Python raises
for it (:class:`KeyError`, :class:`TypeError`, :class:`IndexError`,
:class:`AttributeError`), in both builds alike. The rules are the engine's: it deals,
plays and judges every card here as in any game.
"""

from __future__ import annotations

from typing import Any, Final

from ..cards import NAMES, RANKS, SUITS, Card, Mask, Suit
from ..engine import State
from ..engine._checks import check_cut
from ..engine.deal import deal_deck
from ..engine.view import CardPolicy, TrickFacts
from ..events import KNOCK, Action, Seat
from ..rules import Rules
from ._format import rules_from_log

__all__ = [
    "CARDS",
    "LoggedPlays",
    "RoundCut",
    "card_of",
    "decisions",
    "logged_decks",
    "logged_rules",
    "play_action",
    "play_logged",
    "real_decks",
]

CARDS: Final[dict[object, Card]] = {name: card for card, name in enumerate(NAMES)}
"""A card by its name in the log (``"Ah"``)."""
_RANK_OF_CODE: Final = tuple(RANKS.find(chr(code)) for code in range(128))
"""A card's rank (0 for 2) by the code of its name's first letter; -1 for none."""
_SUIT_OF_CODE: Final = tuple(SUITS.find(chr(code)) for code in range(128))
"""A card's suit by the code of its name's second letter; -1 for none."""
_SUITS: Final[dict[object, Suit]] = {name: suit for suit, name in enumerate(SUITS)}
"""A suit by its letter; None (no trump) is read as a missing key, as any other."""


def logged_rules(logged: Any) -> Rules:
    """Return the :class:`~kow.rules.Rules` of a log's ``rules`` object
    (:func:`~kow.log.rules_from_log` of ``dict(logged)``), raising what it raises.

    The rules of a file's games are mostly one: those of the last object whose values are
    all strs, ints or bools are kept, and given again for an object with the same keys
    and values in the same order, each value of the same type (then the same object as
    JSON).
    """
    if type(logged) is not dict:
        return rules_from_log(dict(logged))
    known: dict[Any, Any] = logged
    kept = _KEPT_RULES[0]  # read once: another thread may replace it, never change it
    if kept is not None and _same_items(known, kept[0]):
        return kept[1]
    rules = rules_from_log(dict(known))
    items: list[tuple[Any, Any]] = []
    for key, value in known.items():
        kind = type(value)
        if kind is not str and kind is not int and kind is not bool:
            return rules
        items.append((key, value))
    _KEPT_RULES[0] = (items, rules)  # one store: the pairs and their rules together
    return rules


_KEPT_RULES: Final[list[tuple[list[tuple[Any, Any]], Rules] | None]] = [None]
"""The ``(key, value)`` pairs of the last rules object of plain values that
:func:`logged_rules` read, with its :class:`~kow.rules.Rules`, as one pair (None before
the first): replaced whole, so a thread reads the pairs and the rules of one object."""


def _same_items(known: dict[Any, Any], items: list[tuple[Any, Any]]) -> bool:
    """Return whether ``known`` holds ``items``'s keys and values in the same order, each
    value of the same type as its kept one."""
    if len(known) != len(items):
        return False
    at = 0
    for key, value in known.items():
        kept_key, kept_value = items[at]
        if key != kept_key or type(value) is not type(kept_value) or value != kept_value:
            return False
        at += 1
    return True


def logged_decks(game: Any) -> tuple[list[list[Card]], list[Any]]:
    """Return the decks and cut positions that deal ``game``'s rounds as logged: each
    round's deal (:func:`~kow.engine.deal.deal_deck`), then each of its tie-cut passes;
    the cut positions as the log gives them. Raises :class:`KeyError`, :class:`TypeError`
    or :class:`IndexError` for a log that cannot be read so."""
    decks: list[list[Card]] = []
    cuts: list[Any] = []
    for rnd in game["rounds"]:
        hands: list[list[Card] | None] = [None if h is None else _cards(h) for h in rnd["hands"]]
        turned_up = None if rnd["turned_up"] is None else card_of(rnd["turned_up"])
        decks.append(deal_deck(rnd["dealer"], hands, turned_up))
        cuts.append(rnd["cut"]["position"])
        for cut_pass in rnd["tie_cut"] or ():
            decks.append([card_of(cut["card"]) for cut in cut_pass])
    return decks, cuts


def card_of(name: object) -> Card:
    """Return the card named ``name`` in the log (``CARDS[name]``); raises
    :class:`KeyError` for a name that is no card's, :class:`TypeError` for one that cannot
    be a key.

    Read from the name's two letters, where ``CARDS`` would hash it (a new string in every
    parsed log): every card dealt in a log replayed is read so. (A play's card is read by
    ``CARDS``: :func:`play_action` is :func:`~kow.log.round_actions`'s too, which the pure
    build runs, where the table is the cheaper.)
    """
    if type(name) is str and len(name) == 2:
        rank_code = ord(name[0])
        suit_code = ord(name[1])
        if rank_code < 128 and suit_code < 128:
            rank = _RANK_OF_CODE[rank_code]
            suit = _SUIT_OF_CODE[suit_code]
            if rank >= 0 and suit >= 0:
                return 13 * suit + rank
    return CARDS[name]


def _cards(names: Any) -> list[Card]:
    """Return the cards of a list of names in the log, in order (raises :class:`KeyError`
    for a name that is no card's, :class:`TypeError` for names that are not a list)."""
    if type(names) is list:  # the same read, typed: a list's items without an iterator
        listed: list[Any] = names
        return [card_of(name) for name in listed]
    return [card_of(name) for name in names]


def real_decks(decks: list[list[Card]], cuts: list[Any]) -> bool:
    """Return whether ``decks`` and ``cuts`` (:func:`logged_decks`) are those a real deck
    gives (:class:`~kow.engine.deal.Deck`): each deck holds each card at most once, and each
    cut lifts 1 to 51 cards (an int)."""
    for deck in decks:
        held = 0
        for card in deck:
            bit = 1 << card
            if held & bit:
                return False
            held |= bit
    for cut in cuts:
        if type(cut) is not int:
            return False
        try:
            check_cut(cut)  # the engine's statement of a cut
        except ValueError:
            return False
    return True


def decisions(rnd: Any) -> list[tuple[Suit, Any]]:
    """Return a logged round's decisions before its first play, in the order taken: each
    vote's ``(suit, seat)``, then the trump choice's when a seat chose (the method
    ``"chosen"``, or ``"vote"`` with a ``trump_chosen_by``: a tied vote settled). The
    seats are as the log gives them. Raises :class:`KeyError` or :class:`TypeError` for a
    round that cannot be read so."""
    out: list[tuple[Suit, Any]] = []
    for vote in rnd["votes"] or ():
        out.append((_SUITS[vote["suit"]], vote["seat"]))
    method = rnd["trump_method"]
    if (method == "chosen" or method == "vote") and rnd["trump_chosen_by"] is not None:
        out.append((_SUITS[rnd["trump"]], rnd["trump_chosen_by"]))
    return out


def play_action(play: Any) -> Action:
    """Return the action of a logged play (an item of a trick's ``plays``):
    :data:`~kow.events.KNOCK` when its ``knock`` is true, else its card. Raises
    :class:`KeyError`, :class:`TypeError` or :class:`AttributeError` for a play that cannot
    be read so."""
    if type(play) is dict:  # the same read, typed: a dict's get is a C call, not a method's
        known: dict[str, Any] = play
        return KNOCK if known.get("knock") else CARDS[known["card"]]
    return KNOCK if play.get("knock") else CARDS[play["card"]]


class RoundCut(Exception):
    """Raised by :class:`LoggedPlays` when the trick loop asks for a play after the log's
    last play of the round (a game cut short stops so)."""


class OutOfTurn(Exception):
    """Raised by :class:`LoggedPlays` when the seat asked is not the one the log names."""


class LoggedPlays(CardPolicy):
    """A logged round's plays as a policy of the engine's trick loop
    (:meth:`State.play_round <kow.engine.State.play_round>`): each time a seat is asked, the
    log's next play, in order, which the engine checks as any other card or knock.

    ``rnd`` is the round's object in the log; :attr:`plays` are its tricks' plays in
    order, each read when the loop asks for it, and :attr:`played` how many the loop has
    taken. :meth:`decide` raises :class:`OutOfTurn` when the seat asked is not the play's
    (an int), :class:`RoundCut` when the plays ran out, and what :func:`play_action`
    raises for a play that cannot be read. The constructor raises :class:`KeyError` or
    :class:`TypeError` for tricks that cannot be read.
    """

    def __init__(self, rnd: Any) -> None:
        plays: list[Any] = []
        for trick in rnd["tricks"]:
            plays.extend(trick["plays"])
        self.plays = plays
        self.played = 0

    def decide(
        self, *, seat: Seat, hand: Mask, legal: Mask, may_knock: bool, seen: Mask,
        winning: Card, led: Suit, trump: Suit, to_come: bool, won: int, tricks_left: int,
    ) -> Action:  # fmt: skip
        """Return the log's next play, for ``seat`` (the other facts are not read)."""
        played = self.played
        plays = self.plays
        if played == len(plays):
            raise RoundCut
        play = plays[played]
        logged = play["seat"]
        if type(logged) is not int or logged != seat:
            raise OutOfTurn
        self.played = played + 1
        return play_action(play)

    def __call__(self, facts: TrickFacts) -> Action:
        """Return :meth:`decide` of ``facts``' fields."""
        return self.decide(
            seat=facts.seat, hand=facts.hand, legal=facts.legal, may_knock=facts.may_knock,
            seen=facts.seen, winning=facts.winning, led=facts.led, trump=facts.trump,
            to_come=facts.to_come, won=facts.won, tricks_left=facts.tricks_left,
        )  # fmt: skip


def play_logged(state: State, rounds: Any) -> bool:
    """Play a log's ``rounds`` on ``state`` (dealt from the log's decks); return whether
    every action was taken by the seat the log names and each round's plays end with it.

    Each round's decisions (:func:`decisions`) are given to :meth:`State.apply
    <kow.engine.State.apply>`, then its plays to the trick loop, :meth:`State.play_round
    <kow.engine.State.play_round>`, by a :class:`LoggedPlays`. False at the first action
    of a seat not the one to act, for a round whose plays go on after its end, and for one
    whose plays stop before it unless it is the last (a game cut short). The engine checks
    every action: it raises :class:`~kow.engine.IllegalActionError` for one the rules
    refuse (and :class:`ValueError` for plays where it awaits no card); a round that cannot
    be read raises what :func:`decisions` and :class:`LoggedPlays` raise.
    """
    last = len(rounds) - 1
    for number, rnd in enumerate(rounds):
        for suit, seat in decisions(rnd):
            if type(seat) is not int or seat != state.turn:  # as LoggedPlays.decide
                return False
            state.apply(suit)
        plays = LoggedPlays(rnd)
        if not plays.plays:  # no play: the game was cut short here, in its last round
            if number != last:
                return False
            continue
        try:
            state.play_round([plays] * state.players)
        except RoundCut:
            if number != last:
                return False
        except OutOfTurn:
            return False
        else:
            if plays.played != len(plays.plays):
                return False
    return True
