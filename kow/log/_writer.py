"""The fast writer of the log format: a game's compact JSON text straight from its events.

:func:`game_text` gives exactly the bytes of ``dumps(build(...))`` (``tests/log/test_log.py``
checks it over every rule, odd names, and games cut short at any event), but writes the
text from pieces made once (the text of every play by seat and card; the rules and
players, once per run) instead of building dicts and encoding them: ``json.dumps`` of a
game costs more than playing it. :class:`GameWriter` writes the games of one run (the same
rules and players, checked once): ``kow simulate`` writes its logs with it.

It writes a game in one pass over its events, each piece of text appended to one list
joined once at the end, and tests each event's type in a chain, most frequent first,
where the rest of kow walks events with an :class:`~kow.events.EventVisitor`: a
visitor's two calls per event cost a few percent of a random game here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final, cast

from ..cards import NAMES, SUITS
from ..events import (
    Deal,
    Event,
    GameEnd,
    Knock,
    Lead,
    Play,
    RoundEnd,
    Termination,
    TieCut,
    TrickWon,
    TrumpSet,
    TurnedUp,
    Vote,
)
from ..rules import Rules
from ..settings import MAX_SEED, check_bool, check_seed
from ..version import __version__
from ._format import FORMAT, VERSION, PlayerInfo, check_players, rules_to_log, settings_of

__all__ = ["GameWriter", "game_text"]


def game_text(
    seed: int,
    rules: Rules,
    players: Sequence[PlayerInfo],
    *,
    events: Iterable[Event],
    abandoned: bool = False,
) -> str:
    """Return the compact JSON text of a game's log: the bytes of ``dumps(build(...))``.

    Takes the arguments of :func:`kow.log.build` and checks them as it does (see there):
    the seed and the players' names before anything is written.
    """
    seats = _checked_seats(players, rules.players)
    if abandoned is not False and abandoned is not True:
        abandoned = check_bool("abandoned", abandoned)
    return _text(
        check_seed(seed),
        _rules_players(rules, seats),
        events,
        votes=rules.eliminated_vote,
        abandoned=abandoned,
    )


class GameWriter:
    """Write the compact JSON text of the games of one run: the same rules and players.

    ``GameWriter(rules, players)`` checks the players as :func:`game_text` does, once;
    :meth:`text` then gives, game after game, what ``game_text(seed, rules, players,
    events=events)`` gives, without checking them again (``kow simulate``'s writer: a
    run's bots are made once and keep their names). Raises as :func:`game_text` does.
    """

    def __init__(self, rules: Rules, players: Sequence[PlayerInfo]) -> None:
        self._head = _rules_players(rules, _checked_seats(players, rules.players))
        self._votes = bool(rules.eliminated_vote)

    def text(self, seed: int, events: Iterable[Event]) -> str:
        """Return the text of the game with ``seed`` and ``events`` (its
        :attr:`State.events <kow.engine.State.events>`), finished or not.

        Raises :class:`~kow.settings.SettingError` for a seed that is not one.
        """
        if type(seed) is not int or not 0 <= seed <= _MAX_SEED:
            seed = check_seed(seed)
        return _text(seed, self._head, events, votes=self._votes, abandoned=False)


def _text(seed: int, head: str, events: Iterable[Event], *, votes: bool, abandoned: bool) -> str:
    """Return a game's text: ``head`` is the text of its rules and players
    (:func:`_rules_players`), ``votes`` whether its rules take votes.

    One pass over the events: each piece of text goes to one list, joined once at the
    end. The pieces that the events after them decide (a trick's number and leader,
    written before its plays; a round's trump, leader and votes, before its tricks) are
    kept a place in the list and filled in when known.
    """
    out: list[str] = [_HEAD, str(seed), head]
    play_text = _PLAY_TEXT
    next_play_text = _NEXT_PLAY_TEXT
    rounds = 0  # rounds opened so far
    current: _RoundHead | None = None  # the round open (dealt, not ended)
    round_slot = 0  # where the open round's head goes in ``out``
    tricks = 0  # the open round's tricks won so far
    trick_slot = -1  # where the open trick's head goes in ``out`` (-1: no play yet)
    first_seat = -1  # who played the open trick's first card (for a trick cut short)
    winner = -1
    termination = _NULL
    rounds_played = 0
    # A list (the engine's events) is walked as one, by index: compiled, an iterable's
    # protocol costs about 25 instructions an event more.
    listed = cast("list[Event]", events) if type(events) is list else list(events)
    for ev in listed:
        kind = type(ev)
        if kind is _PLAY:
            play = cast(Play, ev)
            if trick_slot < 0:
                trick_slot = len(out)
                out.append("")
                first_seat = play.seat
                out.append(play_text[play.seat][play.card])
            else:
                out.append(next_play_text[play.seat][play.card])
        elif kind is _TRICK_WON:
            won = cast(TrickWon, ev)
            trick_head = (_TRICK_HEAD if tricks == 0 else _NEXT_TRICK_HEAD)[won.number][won.leader]
            if trick_slot < 0:  # a trick of no plays: not the engine's
                out.append(trick_head)
            else:
                out[trick_slot] = trick_head
            out.append(_TRICK_TAIL[won.winner])
            tricks += 1
            trick_slot = -1
        elif kind is _KNOCK:
            seat = cast(Knock, ev).seat
            if trick_slot < 0:
                trick_slot = len(out)
                out.append("")
                first_seat = seat
                out.append(_KNOCK_TEXT[seat])
            else:
                out.append(_NEXT_KNOCK_TEXT[seat])
        elif kind is _DEAL:
            if current is not None:  # a round not ended: not the engine's
                _close_round(
                    out,
                    current,
                    None,
                    slot=round_slot,
                    trick_slot=trick_slot,
                    first_seat=first_seat,
                    tricks=tricks,
                )
            trick_slot = -1
            tricks = 0
            deal = cast(Deal, ev)
            _write_deal(out, deal, rounds)
            rounds += 1
            round_slot = len(out)
            out.append("")
            current = _RoundHead(_ints(deal.dogs_life), votes)
        elif kind is _GAME_END:
            outcome = cast(GameEnd, ev).outcome
            winner = outcome.winner
            termination = _termination(outcome.termination)
            rounds_played = outcome.rounds_played
        elif current is None:  # no other event outside a round is written
            pass
        elif kind is _TRUMP_SET:
            trump_set = cast(TrumpSet, ev)
            current.trump = _NULL if trump_set.suit is None else _QUOTED_SUITS[trump_set.suit]
            current.method = _string(trump_set.method)
            current.chosen_by = _NULL if trump_set.chosen_by is None else _int(trump_set.chosen_by)
        elif kind is _LEAD:
            current.leader = _int(cast(Lead, ev).seat)
        elif kind is _ROUND_END:
            _close_round(
                out,
                current,
                cast(RoundEnd, ev),
                slot=round_slot,
                trick_slot=trick_slot,
                first_seat=first_seat,
                tricks=tricks,
            )
            current = None
            trick_slot = -1
            tricks = 0
        elif kind is _TURNED_UP:
            current.turned_up = _QUOTED_NAMES[cast(TurnedUp, ev).card]
        elif kind is _TIE_CUT:
            current.tie_cut = (
                "["
                + ",".join(
                    "[" + ",".join([_CUT_TEXT[c.seat][c.card] for c in cut_pass]) + "]"
                    for cut_pass in cast(TieCut, ev).passes
                )
                + "]"
            )
        elif kind is _VOTE:
            vote = cast(Vote, ev)
            if current.votes is not None:
                current.votes.append(f'{{"seat":{vote.seat},"suit":{_QUOTED_SUITS[vote.suit]}}}')
    if current is not None:
        _close_round(
            out,
            current,
            None,
            slot=round_slot,
            trick_slot=trick_slot,
            first_seat=first_seat,
            tricks=tricks,
        )
    if winner < 0:
        rounds_played = rounds
    out.append(
        f'],"result":{{"winner":{"null" if winner < 0 else winner},'
        f'"rounds_played":{rounds_played},"termination":{termination}}}'
    )
    out.append(',"abandoned":true}' if abandoned else "}")
    return "".join(out)


def _write_deal(out: list[str], deal: Deal, rounds: int) -> None:
    """Append a round's text from its key ``number`` to its ``hands`` (``rounds``: the
    rounds written before it, after which it takes a comma)."""
    out.append(
        f'{"," if rounds else ""}{{"number":{_int(deal.round)},"hand_size":{_int(deal.hand_size)},'
        f'"dealer":{_int(deal.dealer)},"cut":{{"by":{_int(deal.cut_by)},'
        f'"position":{_int(deal.cut_position)}}},"hands":['
    )
    first_hand = True
    for hand in deal.hands:
        if hand is None:
            out.append("null" if first_hand else ",null")
        elif not hand:
            out.append("[]" if first_hand else ",[]")
        else:
            first = True
            for card in hand:
                if first:
                    out.append((_FIRST_CARD if first_hand else _NEXT_HAND)[card])
                    first = False
                else:
                    out.append(_NEXT_CARD[card])
            out.append("]")
        first_hand = False
    out.append("]")


def _close_round(
    out: list[str],
    current: _RoundHead,
    end: RoundEnd | None,
    *,
    slot: int,
    trick_slot: int,
    first_seat: int,
    tricks: int,
) -> None:
    """Write a round's head in its ``slot`` and append its end: ``end``, or the end of a
    round cut short (its open trick, from ``trick_slot``, with no winner)."""
    out[slot] = current.text()
    if trick_slot >= 0:  # a trick cut short: its number follows the tricks won
        out[trick_slot] = (_TRICK_HEAD if tricks == 0 else _NEXT_TRICK_HEAD)[tricks + 1][first_seat]
        out.append('],"winner":null}')
    if end is None:
        out.append('],"tricks_won":null,"eliminated":[],"dogs_life_granted":[],"revived":[]}')
        return
    text = _ENDS.get(end)
    if text is None:
        text = (
            f'],"tricks_won":[{_ints(end.tricks_won)}],"eliminated":[{_ints(end.eliminated)}],'
            f'"dogs_life_granted":[{_ints(end.dogs_life_granted)}],'
            f'"revived":[{_ints(end.revived)}]}}'
        )
        if len(_ENDS) < 10_000:
            _ENDS[end] = text
    out.append(text)


_ENDS: Final[dict[RoundEnd, str]] = {}
"""The text of the round ends met so far, from the end of its tricks (the same few recur
in every game)."""


_Seat = tuple[str, str, tuple[tuple[str, int], ...]]
"""A seat as the writer keeps it: ``(name, kind, settings)``."""


def _checked_seats(players: Sequence[PlayerInfo], count: int) -> tuple[_Seat, ...]:
    """Return each seat's ``(name, kind, settings)``, checked by :func:`check_players`
    (``count``: the rules' number of seats, one player a seat).

    A run writes the same players game after game, so the seats checked last are kept
    (in :data:`_CHECKED`) and the check is made again only for others (or for a name or
    kind that is not a plain str, which may compare equal to one).
    """
    global _CHECKED
    try:
        seats: tuple[_Seat, ...] | None = tuple(
            [(p.name, p.kind, getattr(p, "settings", ())) for p in players]
        )
    except AttributeError:
        seats = None
    if (
        seats is None
        or len(seats) != count
        or seats != _CHECKED
        or not all(type(seat[0]) is str and type(seat[1]) is str for seat in seats)
    ):
        check_players(players, count)  # raises for a missing name or kind, or a bad value
        seats = tuple([(p.name, p.kind, settings_of(p)) for p in players])
        _CHECKED = seats
    return seats


_CHECKED: tuple[_Seat, ...] | None = None
"""The seats that :func:`_checked_seats` checked last."""

# The events' classes as C statics: compiled code reads a module's global names from its
# dict, at every use.
_PLAY: Final = Play
_TRICK_WON: Final = TrickWon
_KNOCK: Final = Knock
_DEAL: Final = Deal
_TRUMP_SET: Final = TrumpSet
_LEAD: Final = Lead
_ROUND_END: Final = RoundEnd
_TURNED_UP: Final = TurnedUp
_TIE_CUT: Final = TieCut
_VOTE: Final = Vote
_GAME_END: Final = GameEnd

_NULL: Final = "null"
_MAX_SEED: Final = MAX_SEED
_HEAD: Final = (
    f'{{"format":"{FORMAT}","version":{VERSION},"kow_version":{json.dumps(__version__)},"seed":'
)
_QUOTED_NAMES: Final = tuple(f'"{name}"' for name in NAMES)
_QUOTED_SUITS: Final = tuple(f'"{suit}"' for suit in SUITS)
_TERMINATIONS: Final = tuple((why, f'"{why.value}"') for why in Termination)
"""Each :class:`Termination` and the text of a game's ``result.termination`` for it."""


def _termination(why: Termination) -> str:
    """Return the text of ``why``, found by identity (an enum's hash is a Python method)."""
    for member, text in _TERMINATIONS:
        if member is why:
            return text
    raise ValueError(f"{why!r} is no Termination")


_PLAY_TEXT: Final = tuple(
    tuple(f'{{"seat":{seat},"card":"{name}"}}' for name in NAMES) for seat in range(7)
)
"""``_PLAY_TEXT[seat][card]``: the text of a play."""
_CUT_TEXT: Final = _PLAY_TEXT
"""``_CUT_TEXT[seat][card]``: the text of a tie cut's card (the same shape as a play)."""
_TRICK_HEAD: Final = tuple(
    tuple(f'{{"number":{number},"leader":{leader},"plays":[' for leader in range(7))
    for number in range(27)
)
"""``_TRICK_HEAD[number][leader]``: a trick's text up to its plays (numbers 1..26)."""
_TRICK_TAIL: Final = tuple(f'],"winner":{winner}}}' for winner in range(7))
"""``_TRICK_TAIL[winner]``: a trick's text after its plays."""
_KNOCK_TEXT: Final = tuple(f'{{"seat":{seat},"knock":true}}' for seat in range(7))
_NEXT_PLAY_TEXT: Final = tuple(tuple("," + text for text in texts) for texts in _PLAY_TEXT)
"""``_NEXT_PLAY_TEXT[seat][card]``: the text of a play after another: with its comma."""
_NEXT_KNOCK_TEXT: Final = tuple("," + text for text in _KNOCK_TEXT)
_NEXT_TRICK_HEAD: Final = tuple(tuple("," + text for text in texts) for texts in _TRICK_HEAD)
"""``_NEXT_TRICK_HEAD[number][leader]``: the head of a trick after another: with its comma."""
_FIRST_CARD: Final = tuple("[" + text for text in _QUOTED_NAMES)
"""``_FIRST_CARD[card]``: the first card of the first hand of a deal, with the hand's ``[``."""
_NEXT_HAND: Final = tuple(",[" + text for text in _QUOTED_NAMES)
"""``_NEXT_HAND[card]``: the first card of a later hand of a deal."""
_NEXT_CARD: Final = tuple("," + text for text in _QUOTED_NAMES)
"""``_NEXT_CARD[card]``: a hand's card after its first."""


def _int(value: int) -> str:
    """Return the text of the int ``value``, from a table for those below 64."""
    return _INT_TEXT[value] if 0 <= value < 64 else str(value)


_INT_TEXT: Final = tuple(str(i) for i in range(64))


def _string(value: str) -> str:
    quoted = _STRINGS.get(value)
    if quoted is None:
        quoted = json.dumps(value)
    return quoted


_STRINGS: Final = {m: f'"{m}"' for m in ("turned-up", "chosen", "fixed", "vote", "none")}


def _ints(values: tuple[int | None, ...]) -> str:
    text = _INTS.get(values)
    if text is None:
        text = ",".join(["null" if v is None else str(v) for v in values])
        if len(_INTS) < 10_000:
            _INTS[values] = text
    return text


_INTS: Final[dict[tuple[int | None, ...], str]] = {}
"""The text of short lists of ints met so far (the same few recur in every game)."""


class _RoundHead:
    """A round's keys from ``turned_up`` to ``dogs_life``, each the JSON text of its value,
    gathered while the round's events come; :meth:`text` writes them once.

    ``votes``: the texts of the votes (None where the rules take no vote);
    ``dogs_life``: the seats, joined by commas.
    """

    def __init__(self, dogs_life: str, votes: bool) -> None:
        self.turned_up = _NULL
        self.trump = _NULL
        self.method = _NULL
        self.chosen_by = _NULL
        self.tie_cut = _NULL
        self.leader = _NULL
        self.votes: list[str] | None = [] if votes else None
        self.dogs_life = dogs_life

    def text(self) -> str:
        """Return the text of the keys, and the start of the round's ``tricks``."""
        votes = self.votes
        return (
            f',"turned_up":{self.turned_up},"trump":{self.trump},'
            f'"trump_method":{self.method},"trump_chosen_by":{self.chosen_by},'
            f'"tie_cut":{self.tie_cut},'
            f'"votes":{"null" if votes is None else "[" + ",".join(votes) + "]"},'
            f'"leader":{self.leader},"dogs_life":[{self.dogs_life}],"tricks":['
        )


@lru_cache(maxsize=64)
def _rules_players(rules: Rules, players: tuple[_Seat, ...]) -> str:
    """Return the text from the key ``rules`` to the start of ``rounds``' list.

    ``players`` holds each seat's ``(name, kind, settings)``. Cached: a run repeats them
    every game.
    """
    listed: list[dict[str, object]] = []
    for seat, (name, kind, settings) in enumerate(players):
        item: dict[str, object] = {"seat": seat, "name": name, "kind": kind}
        if settings:
            item["settings"] = dict(settings)
        listed.append(item)
    return (
        ',"rules":'
        + json.dumps(rules_to_log(rules), separators=(",", ":"))
        + ',"players":'
        + json.dumps(listed, separators=(",", ":"))
        + ',"rounds":['
    )
