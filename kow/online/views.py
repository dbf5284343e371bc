"""The JSON of events and views as one seat may know them (protocol version 1).

:func:`event_json` gives an event as a seat may know it (another seat's dealt cards never
leave the server: a deal tells a seat its own hand and only the *number* of cards of the
others), and :func:`view_json` the seat's :class:`~kow.engine.view.View` when it must
decide. :func:`event_of` and :func:`view_of` read them back on the client, so that the
terminal client shows them with the same :class:`~kow.screen.Screen` and
:class:`~kow.cli.human.HumanPlayer` as ``kow play``. Cards are written as the log writes
them (``"Ah"``), suits as letters; docs/protocol.md lists every field.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from ..cards import NAMES, NO_CARD, NO_SUIT, SUITS, Card, CardError, Suit, cards_in, mask_of
from ..engine.view import TrickFacts, View
from ..events import (
    CutCard,
    Deal,
    Event,
    GameEnd,
    Knock,
    Lead,
    Outcome,
    Phase,
    Play,
    RoundEnd,
    Seat,
    Termination,
    TieCut,
    Trick,
    TrickWon,
    TrumpSet,
    TurnedUp,
    Vote,
    WonBy,
)
from ..log import rules_from_log, rules_to_log
from ..rules import Rules
from .protocol import CARD_OF, ProtocolError, action_json, action_of, brief, quoted

if TYPE_CHECKING:
    from ..log import RulesLog

__all__ = ["event_json", "event_of", "view_json", "view_of"]


def event_json(event: Event, seat: Seat | None) -> dict[str, Any]:
    """Return ``event`` as seat ``seat`` may know it (None: a spectator), as a JSON object.

    Every event is public but a deal: a deal tells ``seat`` its own cards (``hand``) and
    every seat only the number of cards dealt (``dealt``, 0 for a seat out of the game),
    never another seat's cards. The object's ``kind`` names the event (``deal``,
    ``turned-up``, ``tie-cut``, ``vote``, ``trump``, ``lead``, ``play``, ``knock``,
    ``trick``, ``round-end``, ``game-end``); the other fields are the event's own, named
    as in :mod:`kow.events`.
    """
    if isinstance(event, Play):
        return {"kind": "play", "seat": event.seat, "card": NAMES[event.card]}
    if isinstance(event, TrickWon):
        return {
            "kind": "trick", "number": event.number, "leader": event.leader,
            "winner": event.winner, "next_leader": event.next_leader,
            "card": NAMES[event.card], "led": SUITS[event.led], "why": event.why.value,
        }  # fmt: skip
    if isinstance(event, Deal):
        own = event.hands[seat] if seat is not None else None
        return {
            "kind": "deal", "round": event.round, "hand_size": event.hand_size,
            "dealer": event.dealer, "cut_by": event.cut_by,
            "cut_position": event.cut_position,
            "dealt": [0 if h is None else len(h) for h in event.hands],
            "hand": [] if own is None else [NAMES[c] for c in own],
            "dogs_life": list(event.dogs_life),
        }  # fmt: skip
    if isinstance(event, Knock):
        return {"kind": "knock", "seat": event.seat}
    if isinstance(event, Lead):
        return {"kind": "lead", "seat": event.seat}
    if isinstance(event, TrumpSet):
        return {
            "kind": "trump", "suit": _suit(event.suit), "method": event.method,
            "chosen_by": event.chosen_by,
        }  # fmt: skip
    if isinstance(event, TurnedUp):
        return {"kind": "turned-up", "card": NAMES[event.card]}
    if isinstance(event, Vote):
        return {"kind": "vote", "seat": event.seat, "suit": SUITS[event.suit]}
    if isinstance(event, TieCut):
        return {
            "kind": "tie-cut",
            "passes": [[{"seat": c.seat, "card": NAMES[c.card]} for c in p] for p in event.passes],
        }
    if isinstance(event, RoundEnd):
        return {
            "kind": "round-end", "tricks_won": list(event.tricks_won),
            "eliminated": list(event.eliminated),
            "dogs_life_granted": list(event.dogs_life_granted), "revived": list(event.revived),
        }  # fmt: skip
    outcome = event.outcome
    return {
        "kind": "game-end", "winner": outcome.winner,
        "termination": outcome.termination.value, "rounds_played": outcome.rounds_played,
    }  # fmt: skip


def event_of(data: Mapping[str, Any], seat: Seat | None) -> Event:
    """Return the event that :func:`event_json` wrote for ``seat``.

    A deal's hands are ``seat``'s own cards for ``seat``, an empty tuple for each other
    seat dealt in (what it holds is not told) and None for a seat out of the game, so that
    the screen tells who is in. Raises :class:`ProtocolError` (``bad-message``) for an
    object that is not such an event.
    """
    try:
        event: Event = _EVENTS[data["kind"]](data, seat)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, CardError) as err:
        raise ProtocolError("bad-message", f"not an event: {brief(err)}") from None
    return event


def _deal(d: Mapping[str, Any], seat: Seat | None) -> Deal:
    hands = tuple(
        None if n == 0 else tuple(_card(c) for c in d["hand"]) if s == seat else ()
        for s, n in enumerate(d["dealt"])
    )
    return Deal(
        d["round"], d["hand_size"], d["dealer"], d["cut_by"], d["cut_position"], hands,
        tuple(d["dogs_life"]),
    )  # fmt: skip


_EVENTS: Final[dict[str, Any]] = {
    "deal": _deal,
    "play": lambda d, s: Play(d["seat"], _card(d["card"])),
    "knock": lambda d, s: Knock(d["seat"]),
    "lead": lambda d, s: Lead(d["seat"]),
    "turned-up": lambda d, s: TurnedUp(_card(d["card"])),
    "vote": lambda d, s: Vote(d["seat"], SUITS.index(d["suit"])),
    "trump": lambda d, s: TrumpSet(_suit_of(d["suit"]), d["method"], d["chosen_by"]),
    "tie-cut": lambda d, s: TieCut(
        tuple(tuple(CutCard(c["seat"], _card(c["card"])) for c in p) for p in d["passes"])
    ),
    "trick": lambda d, s: TrickWon(
        d["number"],
        d["leader"],
        d["winner"],
        d["next_leader"],
        _card(d["card"]),
        SUITS.index(d["led"]),
        WonBy(d["why"]),
    ),  # fmt: skip
    "round-end": lambda d, s: RoundEnd(
        tuple(d["tricks_won"]),
        tuple(d["eliminated"]),
        tuple(d["dogs_life_granted"]),
        tuple(d["revived"]),
    ),  # fmt: skip
    "game-end": lambda d, s: GameEnd(
        Outcome(d["winner"], Termination(d["termination"]), d["rounds_played"])
    ),
}


def _card(text: object) -> Card:
    card = CARD_OF.get(text) if isinstance(text, str) else None
    if card is None:
        raise CardError(f"{quoted(text)} is not a card")
    return card


def _suit(suit: Suit | None) -> str | None:
    return None if suit is None or suit == NO_SUIT else SUITS[suit]


def _suit_of(text: object) -> Suit | None:
    if text is None:
        return None
    if not isinstance(text, str) or len(text) != 1 or text not in SUITS:
        raise ValueError(f"{quoted(text)} is not a suit")
    return SUITS.index(text)


# ----------------------------------------------------------------------------- views


@functools.lru_cache(maxsize=128)
def _rules_json(rules: Rules) -> RulesLog:
    """Return ``rules_to_log(rules)``, made once per rules (a table asks it at every turn);
    the dict is shared: only ever written out, never changed."""
    return rules_to_log(rules)


def view_json(view: View) -> dict[str, Any]:
    """Return seat ``view.seat``'s :class:`~kow.engine.view.View` as a JSON object.

    The fields are the view's own (see :class:`~kow.engine.view.View`), with cards, suits
    and actions written as the protocol writes them (``legal`` in the form an ``action``
    message sends back); ``hand_mask`` is left out (it is ``hand``). The view holds only
    what its seat may know: its own hand and what the table has seen.
    """
    phase = view.phase
    return {
        "seat": view.seat,
        "phase": phase.value,
        "legal": [action_json(a, phase) for a in view.legal],
        "facts": None if view.facts is None else _facts_json(view.facts),
        "rules": _rules_json(view.rules),
        "round": view.round,
        "hand_size": view.hand_size,
        "dealer": view.dealer,
        "leader": view.leader,
        "trump": _suit(view.trump),
        "trump_method": view.trump_method,
        "trump_chosen_by": view.trump_chosen_by,
        "turned_up": None if view.turned_up is None else NAMES[view.turned_up],
        "in_round": list(view.in_round),
        "dogs_life": list(view.dogs_life),
        "dogs_life_used": list(view.dogs_life_used),
        "dogs_life_open": list(view.dogs_life_open),
        "knocked_out": list(view.knocked_out),
        "previous_tricks_won": None
        if view.previous_tricks_won is None
        else list(view.previous_tricks_won),
        "tricks_won": list(view.tricks_won),
        "tricks": [_trick_json(t) for t in view.tricks],
        "trick_number": view.trick_number,
        "tricks_left": view.tricks_left,
        "trick_order": list(view.trick_order),
        "hand_counts": list(view.hand_counts),
        "votes": [{"seat": v.seat, "suit": SUITS[v.suit]} for v in view.votes],
        "hand": [NAMES[c] for c in view.hand],
        "seen": [NAMES[c] for c in cards_in(view.seen)],
        "trick": [_play_json(p) for p in view.trick],
        "led": _suit(view.led),
        "winning_card": None if view.winning_card is None else NAMES[view.winning_card],
        "winning_seat": view.winning_seat,
    }


def view_of(data: Mapping[str, Any]) -> View:
    """Return the :class:`~kow.engine.view.View` that :func:`view_json` wrote.

    Raises :class:`ProtocolError` (``bad-message``) for an object that is not one.
    """
    try:
        phase = Phase(data["phase"])
        hand = tuple(_card(c) for c in data["hand"])
        facts = data["facts"]
        return View(
            seat=data["seat"],
            phase=phase,
            legal=tuple(action_of(a, phase) for a in data["legal"]),
            facts=None if facts is None else _facts_of(facts),
            rules=rules_from_log(data["rules"]),
            round=data["round"],
            hand_size=data["hand_size"],
            dealer=data["dealer"],
            leader=data["leader"],
            trump=_suit_of(data["trump"]),
            trump_method=data["trump_method"],
            trump_chosen_by=data["trump_chosen_by"],
            turned_up=None if data["turned_up"] is None else _card(data["turned_up"]),
            in_round=tuple(data["in_round"]),
            dogs_life=tuple(data["dogs_life"]),
            dogs_life_used=tuple(data["dogs_life_used"]),
            dogs_life_open=tuple(data["dogs_life_open"]),
            knocked_out=tuple(data["knocked_out"]),
            previous_tricks_won=None
            if data["previous_tricks_won"] is None
            else tuple(data["previous_tricks_won"]),
            tricks_won=tuple(data["tricks_won"]),
            tricks=tuple(_trick_of(t) for t in data["tricks"]),
            trick_number=data["trick_number"],
            tricks_left=data["tricks_left"],
            trick_order=tuple(data["trick_order"]),
            hand_counts=tuple(data["hand_counts"]),
            votes=tuple(Vote(v["seat"], SUITS.index(v["suit"])) for v in data["votes"]),
            hand=hand,
            hand_mask=mask_of(hand),
            seen=mask_of(_card(c) for c in data["seen"]),
            trick=tuple(_play_of(p) for p in data["trick"]),
            led=_suit_of(data["led"]),
            winning_card=None if data["winning_card"] is None else _card(data["winning_card"]),
            winning_seat=data["winning_seat"],
        )
    except ProtocolError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, CardError) as err:
        raise ProtocolError("bad-message", f"not a view: {brief(err)}") from None


def _facts_json(facts: TrickFacts) -> dict[str, Any]:
    return {
        "seat": facts.seat,
        "hand": [NAMES[c] for c in cards_in(facts.hand)],
        "legal": [NAMES[c] for c in cards_in(facts.legal)],
        "may_knock": facts.may_knock,
        "seen": [NAMES[c] for c in cards_in(facts.seen)],
        "winning": None if facts.winning == NO_CARD else NAMES[facts.winning],
        "led": _suit(facts.led),
        "trump": _suit(facts.trump),
        "to_come": facts.to_come,
        "won": facts.won,
        "tricks_left": facts.tricks_left,
    }


def _facts_of(d: Mapping[str, Any]) -> TrickFacts:
    led = _suit_of(d["led"])
    trump = _suit_of(d["trump"])
    return TrickFacts(
        seat=d["seat"],
        hand=mask_of(_card(c) for c in d["hand"]),
        legal=mask_of(_card(c) for c in d["legal"]),
        may_knock=bool(d["may_knock"]),
        seen=mask_of(_card(c) for c in d["seen"]),
        winning=NO_CARD if d["winning"] is None else _card(d["winning"]),
        led=NO_SUIT if led is None else led,
        trump=NO_SUIT if trump is None else trump,
        to_come=bool(d["to_come"]),
        won=d["won"],
        tricks_left=d["tricks_left"],
    )


def _play_json(play: Play | Knock) -> dict[str, Any]:
    if isinstance(play, Knock):
        return {"seat": play.seat, "knock": True}
    return {"seat": play.seat, "card": NAMES[play.card]}


def _play_of(d: Mapping[str, Any]) -> Play | Knock:
    return Knock(d["seat"]) if d.get("knock") else Play(d["seat"], _card(d["card"]))


def _trick_json(trick: Trick) -> dict[str, Any]:
    return {
        "number": trick.number, "leader": trick.leader,
        "plays": [_play_json(p) for p in trick.plays], "winner": trick.winner,
        "card": NAMES[trick.card], "led": SUITS[trick.led], "why": trick.why.value,
    }  # fmt: skip


def _trick_of(d: Mapping[str, Any]) -> Trick:
    return Trick(
        d["number"], d["leader"], tuple(_play_of(p) for p in d["plays"]), d["winner"],
        _card(d["card"]), SUITS.index(d["led"]), WonBy(d["why"]),
    )  # fmt: skip
