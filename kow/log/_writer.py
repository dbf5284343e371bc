"""The fast writer of the log format: a game's compact JSON text straight from its events.

:func:`game_text` gives exactly the bytes of ``dumps(build(...))`` (``tests/log/test_log.py``
checks it over every rule, odd names, and games cut short at any event), but writes the
text from pieces made once (the text of every play by seat and card; the rules and
players, once per run) instead of building dicts and encoding them: ``json.dumps`` of a
game costs more than playing it. ``kow simulate`` writes its logs with it.

It tests each event's type in a chain, most frequent first, where the rest of kow walks
events with an :class:`~kow.events.EventVisitor`: a visitor's two calls per event cost a
few percent of a random game here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

from ..cards import NAMES, SUITS, Card
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
from ..settings import check_bool, check_seed
from ..version import __version__
from ._format import FORMAT, VERSION, PlayerInfo, check_players, rules_to_log, settings_of

__all__ = ["game_text"]


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
    seats = _checked_seats(players)
    if abandoned is not False and abandoned is not True:
        abandoned = check_bool("abandoned", abandoned)
    out = [_HEAD, str(check_seed(seed)), _rules_players(rules, seats)]
    rounds: list[str] = []
    tricks: list[str] = []
    plays: list[str] = []
    current = _RoundText()  # the round being written; none open yet
    winner = None
    termination = _NULL
    rounds_played = 0
    play_text = _PLAY_TEXT
    trick_head = _TRICK_HEAD
    trick_tail = _TRICK_TAIL
    # Exact types as local names, tested with ``is``: the events are the engine's own.
    play, trick_won, knock, deal, trump_set = Play, TrickWon, Knock, Deal, TrumpSet
    lead, round_end, turned_up, tie_cut, vote = Lead, RoundEnd, TurnedUp, TieCut, Vote
    for ev in events:
        if type(ev) is play:
            plays.append(play_text[ev.seat][ev.card])
        elif type(ev) is trick_won:
            tricks.append(
                trick_head[ev.number][ev.leader] + ",".join(plays) + trick_tail[ev.winner]
            )
            plays = []
        elif type(ev) is knock:
            plays.append(_KNOCK_TEXT[ev.seat])
        elif type(ev) is deal:
            if current.head:
                rounds.append(current.text(tricks, None))
                tricks = []
            current = _RoundText(ev, votes=rules.eliminated_vote)
        elif type(ev) is trump_set:
            current.trump = _NULL if ev.suit is None else _QUOTED_SUITS[ev.suit]
            current.method = _string(ev.method)
            current.chosen_by = _NULL if ev.chosen_by is None else str(ev.chosen_by)
        elif type(ev) is lead:
            current.leader = str(ev.seat)
        elif type(ev) is round_end:
            rounds.append(current.text(tricks, ev))
            tricks = []
            current = _RoundText()
        elif type(ev) is turned_up:
            current.turned_up = _QUOTED_NAMES[ev.card]
        elif type(ev) is tie_cut:
            current.tie_cut = (
                "["
                + ",".join(
                    "[" + ",".join([_CUT_TEXT[c.seat][c.card] for c in cut_pass]) + "]"
                    for cut_pass in ev.passes
                )
                + "]"
            )
        elif type(ev) is vote:
            assert current.votes is not None
            current.votes.append(f'{{"seat":{ev.seat},"suit":{_QUOTED_SUITS[ev.suit]}}}')
        elif type(ev) is GameEnd:
            winner = ev.outcome.winner
            termination = _TERMINATIONS[ev.outcome.termination]
            rounds_played = ev.outcome.rounds_played
    if plays:
        tricks.append(
            f'{{"number":{len(tricks) + 1},"leader":{_SEAT_OF_PLAY[plays[0]]},'
            f'"plays":[{",".join(plays)}],"winner":null}}'
        )
    if current.head:
        rounds.append(current.text(tricks, None))
    if winner is None:
        rounds_played = len(rounds)
    out.append(",".join(rounds))
    out.append(
        f'],"result":{{"winner":{"null" if winner is None else winner},'
        f'"rounds_played":{rounds_played},"termination":{termination}}}'
    )
    out.append(',"abandoned":true}' if abandoned else "}")
    return "".join(out)


_Seat = tuple[str, str, tuple[tuple[str, int], ...]]
"""A seat as the writer keeps it: ``(name, kind, settings)``."""


def _checked_seats(players: Sequence[PlayerInfo]) -> tuple[_Seat, ...]:
    """Return each seat's ``(name, kind, settings)``, checked by :func:`check_players`.

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
        or seats != _CHECKED
        or not all(type(seat[0]) is str and type(seat[1]) is str for seat in seats)
    ):
        check_players(players)  # raises for a missing name or kind, or a bad value
        seats = tuple([(p.name, p.kind, settings_of(p)) for p in players])
        _CHECKED = seats
    return seats


_CHECKED: tuple[_Seat, ...] | None = None
"""The seats that :func:`_checked_seats` checked last."""

_NULL: Final = "null"
_HEAD: Final = (
    f'{{"format":"{FORMAT}","version":{VERSION},"kow_version":{json.dumps(__version__)},"seed":'
)
_QUOTED_NAMES: Final = tuple(f'"{name}"' for name in NAMES)
_QUOTED_SUITS: Final = tuple(f'"{suit}"' for suit in SUITS)
_TERMINATIONS: Final = {why: f'"{why.value}"' for why in Termination}
"""``_TERMINATIONS[termination]``: the text of a game's ``result.termination``."""
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
_SEAT_OF_PLAY: Final = {
    t: seat for seat in range(7) for t in (*_PLAY_TEXT[seat], _KNOCK_TEXT[seat])
}
"""The seat of each play's text, for the leader of a trick cut short."""


def _hand(cards: tuple[Card, ...]) -> str:
    return "[" + ",".join([_QUOTED_NAMES[c] for c in cards]) + "]"


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


class _RoundText:
    """A round's pieces, each the JSON text of its key, gathered while its events come.

    Made at the round's :class:`Deal` (with no deal: no round is open, and ``head`` is
    empty); its later events set the pieces by name; :meth:`text` writes the round once.
    ``head``: the round's keys from ``number`` to ``hands``; ``votes``: the texts of the
    votes (None where the rules take no vote); ``dogs_life``: the seats, joined by commas.
    """

    __slots__ = (
        "head",
        "turned_up",
        "trump",
        "method",
        "chosen_by",
        "tie_cut",
        "votes",
        "leader",
        "dogs_life",
    )

    def __init__(self, deal: Deal | None = None, *, votes: bool = False) -> None:
        self.head = "" if deal is None else _deal_head(deal)
        self.turned_up = self.trump = self.method = self.chosen_by = _NULL
        self.tie_cut = self.leader = _NULL
        self.votes: list[str] | None = [] if votes else None
        self.dogs_life = "" if deal is None else ",".join([str(s) for s in deal.dogs_life])

    def text(self, tricks: list[str], end: RoundEnd | None) -> str:
        """Return the round's text, its ``tricks`` (the texts of its tricks) and its
        :class:`RoundEnd` (None: a round cut short) included."""
        if end is None:
            won = 'null,"eliminated":[],"dogs_life_granted":[],"revived":[]}'
        else:
            won = (
                f'[{_ints(end.tricks_won)}],"eliminated":[{_ints(end.eliminated)}],'
                f'"dogs_life_granted":[{_ints(end.dogs_life_granted)}],'
                f'"revived":[{_ints(end.revived)}]}}'
            )
        votes = self.votes
        return (
            f'{self.head},"turned_up":{self.turned_up},"trump":{self.trump},'
            f'"trump_method":{self.method},"trump_chosen_by":{self.chosen_by},'
            f'"tie_cut":{self.tie_cut},'
            f'"votes":{"null" if votes is None else "[" + ",".join(votes) + "]"},'
            f'"leader":{self.leader},"dogs_life":[{self.dogs_life}],'
            f'"tricks":[{",".join(tricks)}],"tricks_won":{won}'
        )


def _deal_head(deal: Deal) -> str:
    """Return a round's text from its key ``number`` to its ``hands``."""
    return (
        f'{{"number":{deal.round},"hand_size":{deal.hand_size},"dealer":{deal.dealer},'
        f'"cut":{{"by":{deal.cut_by},"position":{deal.cut_position}}},"hands":['
        + ",".join(["null" if h is None else _hand(h) for h in deal.hands])
        + "]"
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
