"""A logged game read for the engine: the decks that deal its rounds (:func:`logged_decks`),
how a round's decisions and plays read (:func:`decisions`, :func:`play_action`), and
:func:`play_logged`, which plays a log's rounds through the engine, each round's cards
through the one trick loop (:class:`LoggedPlays`), for :func:`kow.log.replay_exact`;
and :func:`logged_line`, what the engine needs of a game read from its text as kow writes
it, without parsing the whole (for :func:`kow.log.replay_line`).

Compiled in the installed build (``setup.py``'s ``COMPILED``): every game that ``kow
export`` proves legal by its replay passes here. The values of a log are read as the
JSON values they are (``Any``), so a log that cannot be read raises what Python raises
for it (:class:`KeyError`, :class:`TypeError`, :class:`IndexError`,
:class:`AttributeError`), in both builds alike. The rules are the engine's: it deals,
plays and judges every card here as in any game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

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
    "logged_line",
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
        card = _card_of_letters(ord(name[0]), ord(name[1]))
        if card >= 0:
            return card
    return CARDS[name]


def _card_of_letters(rank_code: int, suit_code: int) -> int:
    """Return the card whose name's letters have these codes (``"A"``, ``"h"``: the ace of
    hearts, as :data:`~kow.cards.NAMES` writes it), or -1 where they name no card."""
    if rank_code < 128 and suit_code < 128:
        rank = _RANK_OF_CODE[rank_code]
        suit = _SUIT_OF_CODE[suit_code]
        if rank >= 0 and suit >= 0:
            return 13 * suit + rank
    return -1


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

    ``rnd`` is the round's object in the log; :attr:`plays` are its tricks' plays in order,
    each read when the loop asks for it (a play's object, or the pair ``(seat, action)``
    that :func:`logged_line` reads of one, its seat an int), and :attr:`played` how many the
    loop has taken. :meth:`decide` raises :class:`OutOfTurn` when the seat asked is not the
    play's (an int), :class:`RoundCut` when the plays ran out, and what :func:`play_action`
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
        if type(play) is tuple:  # read already, by logged_line
            read: tuple[int, Action] = play
            read_seat, action = read
            if read_seat != seat:
                raise OutOfTurn
            self.played = played + 1
            return action
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


def logged_line(text: str, scan: Callable[[str, int], tuple[Any, int]]) -> dict[str, Any] | None:
    """Return what :func:`~kow.log.replay_exact` reads of a game whose text may be as kow's
    writer writes it (:func:`~kow.log.game_text`: compact, each key once, in its order),
    read without parsing the whole text; None where the text is not laid out so.

    ``scan(string, index)`` reads the JSON value at ``index`` and returns it with the index
    after it (:attr:`json.JSONDecoder.scan_once`: json's scanner, at C speed). The result is
    the game's object less ``rounds`` (the text before ``"rounds"`` and from ``"result"``
    on, read by ``scan``; the rules and players given again, copied, for the same text as
    the last game's), with ``"rounds"`` added last: each round's keys that deal it and take
    its decisions (``"dealer"``, ``"cut"`` with its ``"position"`` alone, ``"hands"``,
    ``"turned_up"``, ``"trump"``, ``"trump_method"``, ``"trump_chosen_by"``, ``"tie_cut"``,
    ``"votes"``: each value read where its key is found, by ``scan`` but a ``null``, an int
    and a string, and the hands, found by their text), with ``"tricks"`` one object whose
    ``"plays"`` are the round's plays in order, each the pair ``(seat, action)`` (a card, or
    :data:`~kow.events.KNOCK`) that :class:`LoggedPlays` takes for a play's object, found by
    their text (most of a log is its cards: json would make a string of each, and an object
    and an int of each play). The trick numbers, leaders and winners and the rounds' ends
    are not read: the engine makes them, and :func:`~kow.log.replay_exact` proves the game
    only when the writer's text of the engine's game is ``text``, byte for byte, whatever is
    read here.
    Raises what ``scan`` raises, and :class:`IndexError` or :class:`ValueError` for some
    texts not laid out as kow writes them.
    """
    start = text.find(_ROUNDS)
    end = text.rfind(_RESULT)
    if start < 0 or end < start or text.find("\\") >= 0:
        return None
    game = _head(text, start, scan)
    if game is None:
        return None
    result, _ = scan("{" + text[end + 2 :], 0)  # '"result":{...}}', and any key after it
    if type(result) is not dict:
        return None
    game.update(result)
    rounds: list[Any] = []
    at = start + len(_ROUNDS)
    while at < end:
        tricks = text.find(_TRICKS, at)
        if tricks < 0 or tricks > end:
            return None
        rnd: dict[str, Any] = {}
        for key, name in _ROUND_KEYS:
            found = text.find(key, at, tricks)
            if found < 0:
                return None
            if name == "hands":
                rnd[name], at = _hands(text, found + len(key))
            else:
                rnd[name], at = _value_at(text, found + len(key), scan)
        rnd["cut"] = {"position": rnd["cut"]}
        after = text.find(_TRICKS_WON, tricks)
        if after < 0 or after > end:
            return None
        rnd["tricks"] = [{"plays": _plays(text, tricks + len(_TRICKS), after)}]
        rounds.append(rnd)
        following = text.find(_NEXT_ROUND, after)
        at = end if following < 0 or following > end else following + 1
    game["rounds"] = rounds
    return game


def _head(
    text: str, start: int, scan: Callable[[str, int], tuple[Any, int]]
) -> dict[str, Any] | None:
    """Return the game's keys before ``rounds`` (which starts at ``text[start]``) as json
    reads them, or None where they are no object.

    The text of the rules and players (from ``,"rules":``) is mostly the same in every game
    of a file: the values read of the last such text are kept, and a copy of them given
    again for the same text (kept as one pair, replaced whole, as :func:`logged_rules`
    keeps its rules)."""
    rules = text.find(_RULES, 0, start)
    kept = _KEPT_HEAD[0]  # read once: another thread may replace it, never change it
    if (
        rules < 0
        or kept is None
        or len(kept.text) != start - rules
        or not text.startswith(kept.text, rules)
    ):
        game, _ = scan(text[:start] + "}", 0)
        if type(game) is not dict:
            return None
        read: dict[str, Any] = game
        if rules >= 0 and "rules" in read and "players" in read:
            _KEPT_HEAD[0] = _Head(text[rules:start], _copied(read["rules"]),
                                  _copied(read["players"]))  # fmt: skip
        return read
    game, _ = scan(text[:rules] + "}", 0)  # format, version, kow_version, seed
    if type(game) is not dict:
        return None
    read = game
    read["rules"] = _copied(kept.rules)
    read["players"] = _copied(kept.players)
    return read


class _Head(NamedTuple):
    """The text of a game from ``,"rules":`` to ``rounds``, and the values json read of
    its ``rules`` and ``players``."""

    text: str
    rules: Any
    players: Any


_KEPT_HEAD: Final[list[_Head | None]] = [None]
"""The :class:`_Head` that :func:`_head` read last (None before the first)."""


def _copied(value: Any) -> Any:
    """Return a copy of a value json read: its objects and arrays new, all the way down."""
    if type(value) is dict:
        known: dict[Any, Any] = value
        return {key: _copied(item) for key, item in known.items()}
    if type(value) is list:
        listed: list[Any] = value
        return [_copied(item) for item in listed]
    return value


def _value_at(text: str, at: int, scan: Callable[[str, int], tuple[Any, int]]) -> tuple[Any, int]:
    """Return the JSON value at ``text[at]`` and the index after it: ``null``, an int of
    digits and a string without escape as kow writes them, read here; any other by
    ``scan``. Raises :class:`ValueError` or :class:`IndexError` for some texts not so
    laid out."""
    code = ord(text[at])
    if code == 110:  # null
        return None, at + 4
    if 48 <= code <= 57:
        value = 0
        while 48 <= code <= 57:
            value = 10 * value + code - 48
            at += 1
            code = ord(text[at])
        return value, at
    if code == 34:
        close = text.find('"', at + 1)
        if close < 0:
            raise ValueError("a string not closed")
        return text[at + 1 : close], close + 1
    return scan(text, at)


def _plays(text: str, start: int, end: int) -> list[tuple[int, Action]]:
    """Return the plays in ``text[start:end]``, a round's tricks as kow writes them (each
    ``{"seat":S,"card":"Xx"}`` or ``{"seat":S,"knock":true}``, S one digit), each as its
    seat and action, read by the places of its characters (the rest of the text is not
    looked at). Raises :class:`ValueError` for a card it cannot name,
    :class:`IndexError` at the text's end."""
    plays: list[tuple[int, Action]] = []
    at = text.find(_SEAT, start, end)
    while at >= 0:
        at += len(_SEAT)  # S, then ,"card":"Xx"} or ,"knock":true}
        seat = ord(text[at]) - 48
        if ord(text[at + 3]) == 107:  # the k of "knock"
            plays.append((seat, KNOCK))
        else:
            plays.append((seat, _card_at(text, at + 10)))
        at = text.find(_SEAT, at, end)
    return plays


def _hands(text: str, at: int) -> tuple[list[list[str] | None], int]:
    """Return the hands of a deal written from ``text[at]`` as kow writes them (``[`` past):
    each ``["Xx","Yy"]``, ``[]`` or ``null``, after the first a comma; and the index
    after the list's ``]``. Raises :class:`ValueError` for a text not so laid out."""
    hands: list[list[str] | None] = []
    while True:
        code = ord(text[at])
        if code == 110:  # null
            hands.append(None)
            at += 4
        elif code == 91:  # [
            at += 1
            cards: list[str] = []
            while ord(text[at]) == 34:  # "Xx"
                cards.append(NAMES[_card_at(text, at + 1)])
                at += 4
                if ord(text[at]) == 44:
                    at += 1
            if ord(text[at]) != 93:
                raise ValueError("not a hand as kow writes it")
            at += 1
            hands.append(cards)
        else:
            raise ValueError("not a hand as kow writes it")
        code = ord(text[at])
        at += 1
        if code == 93:  # ]
            return hands, at
        if code != 44:
            raise ValueError("not hands as kow writes them")


def _card_at(text: str, at: int) -> Card:
    """Return the card whose name's two letters are ``text[at:at + 2]`` (as
    :data:`~kow.cards.NAMES` writes it); raise :class:`ValueError` where no card is named."""
    card = _card_of_letters(ord(text[at]), ord(text[at + 1]))
    if card < 0:
        raise ValueError("no card's name")
    return card


_ROUNDS: Final = ',"rounds":['
_RULES: Final = ',"rules":'
_RESULT: Final = '],"result":'
_TRICKS: Final = ',"tricks":['
_ROUND_KEYS: Final = (
    ('"dealer":', "dealer"),
    ('"position":', "cut"),
    ('"hands":[', "hands"),
    ('"turned_up":', "turned_up"),
    ('"trump":', "trump"),
    ('"trump_method":', "trump_method"),
    ('"trump_chosen_by":', "trump_chosen_by"),
    ('"tie_cut":', "tie_cut"),
    ('"votes":', "votes"),
)
"""The keys of a round that the engine reads, in the order written, each as its text
before its value, with its name (``"cut"`` read from its ``"position"``)."""
_TRICKS_WON: Final = '],"tricks_won":'
_NEXT_ROUND: Final = ',{"number":'
_SEAT: Final = '{"seat":'
_CARD: Final = ',"card":"'
_KNOCK: Final = ',"knock":true}'
