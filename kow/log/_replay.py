"""Step through a logged game with the engine: :func:`replay` (pokerkit's ``HandHistory``
iteration is the model)."""

from __future__ import annotations

import collections
import functools
import json
import random
from collections.abc import Callable, Iterator
from typing import Any, Final, NamedTuple, cast

from ..cards import Card
from ..engine import IllegalActionError, State
from ..engine.deal import DeckRanOut, StackedDeck
from ..events import Action, Deal, RoundEnd, Seat
from ..rules import MAX_PLAYERS
from ._format import build
from ._logged import (
    decisions,
    logged_decks,
    logged_line,
    logged_rules,
    play_action,
    play_logged,
    real_decks,
)
from ._writer import game_text
from .types import GameLog, PlayerLog, RoundLog

__all__ = [
    "LineReplay",
    "LoggedAction",
    "LoggedPlayer",
    "ReplayError",
    "replay",
    "replay_exact",
    "replay_game",
    "replay_line",
    "round_actions",
]

_HEAD_KEYS = ("number", "hand_size", "dealer", "cut", "hands", "turned_up", "dogs_life")


class LoggedPlayer(NamedTuple):
    """A player as a log names it: ``name``, ``kind`` and ``settings`` (the ``(name,
    value)`` pairs of a searching bot, sorted by name; empty for the other kinds)."""

    name: str
    kind: str
    settings: tuple[tuple[str, int], ...] = ()

    @classmethod
    def from_log(cls, player: PlayerLog) -> LoggedPlayer:
        """Return the player of a log's ``players`` item, with its settings if it has any.

        >>> LoggedPlayer.from_log({"seat": 0, "name": "s", "kind": "search",
        ...                        "settings": {"iterations": 20}})
        LoggedPlayer(name='s', kind='search', settings=(('iterations', 20),))
        """
        settings = player.get("settings")
        pairs = () if settings is None else (("iterations", settings["iterations"]),)
        # cls(...)'s own work, without its Python __new__: one for every player replayed.
        return tuple.__new__(cls, (player["name"], player["kind"], pairs))


class LoggedAction(NamedTuple):
    """One action of a logged round, as :func:`round_actions` reads it.

    ``action``: the vote's or trump choice's suit, the card played, or ``KNOCK``;
    ``seat``: who took it (as the log says; None when the log names no seat);
    ``where``: its place in the round's object (``"tricks[0].plays[2].seat"``), for messages;
    ``trick``: the trick's number (from 1), None for a vote or a trump choice.
    """

    action: Action
    seat: Seat | None
    where: str
    trick: int | None


_new_action = functools.partial(tuple.__new__, LoggedAction)
"""Return the :class:`LoggedAction` of a tuple of its fields in order (a play's: made for
every play of every game replayed, at a fraction of a keyword call's cost)."""


class ReplayError(ValueError):
    """Raised when a log is not the game the engine plays from its deals and actions.

    ``round`` and ``trick`` (from 1, None when not tied to one) place the first
    difference; the message says what the log holds and what the engine did.
    """

    def __init__(self, message: str, round: int | None = None, trick: int | None = None) -> None:
        place = ", ".join(
            f"{what} {n}" for what, n in (("round", round), ("trick", trick)) if n is not None
        )
        super().__init__(f"{place}: {message}" if place else message)
        self.round = round
        self.trick = trick


def replay(game: GameLog) -> Iterator[State]:
    """Replay a logged game through the engine, yielding its :class:`~kow.engine.State`.

    ``game`` is a version-1 log (a parsed JSON object, as :func:`kow.log.loads` returns;
    check it first with :func:`kow.verify.verify_game` for a message about any fault of
    shape). The engine deals each round from the log's hands, cut and tie cuts (a
    :class:`~kow.engine.deal.StackedDeck`, round 1's dealer given), so the log's ``seed`` is
    not needed (null when the deals came from outside kow), and is given the log's votes,
    trump choices and plays in turn. The state is yielded once before the first
    action and again after each action: one :class:`~kow.engine.State`, advanced in
    place (copy what you keep). Its ``events`` are the game's, so the last state
    rebuilds the same log: ``build(game["seed"], rules, players, state.events,
    abandoned)``. A game cut short (``"abandoned": true``) stops where its log does.

    Raises :class:`ReplayError` at the first place where the log and the engine differ:
    a seat acting out of turn, an action the rules refuse, a deal, a trick or a round's
    end that is not what the engine made of the log's cards and actions, or a log that
    stops before the game ends (or cannot be read).
    """
    state, players = _start(game)
    abandoned = bool(game.get("abandoned"))
    checked = _check(game, state, players, abandoned=abandoned, checked=0)
    yield state
    for number, rnd in enumerate(game["rounds"], start=1):
        for logged in round_actions(rnd, number):
            if logged.seat != state.turn:  # the first difference: who acts
                made = f"{logged.where}: the log says {logged.seat}, the engine made {state.turn}"
                raise ReplayError(made, number, logged.trick)
            try:
                state.apply(logged.action)
            except DeckRanOut:
                raise ReplayError(
                    f"the log ends before the game does: the engine deals round {number + 1}",
                    number,
                ) from None
            except (IllegalActionError, ValueError) as err:
                raise ReplayError(str(err), number, logged.trick) from None
            checked = _check(game, state, players, abandoned=abandoned, checked=checked)
            yield state
    if state.outcome is None and not abandoned:
        raise ReplayError("the log ends before the game does", len(game["rounds"]) or None)
    _compare(game, state, players, abandoned=abandoned)


def replay_game(game: GameLog, *, text: str | None = None) -> State:
    """Replay a whole logged game through the engine and return its last state.

    The state :func:`replay` yields last, at less cost: the actions are applied without
    comparing each deal and round's end with the log as they come, and the log the
    engine rebuilds is compared with ``game`` once, at the end. When anything differs
    or fails, the game is replayed again by :func:`replay`, step by step, so that the
    error is the one :func:`replay` raises, at the first difference. Raises what
    :func:`replay` raises (:class:`ReplayError`).

    ``text``, when given, must be ``game``'s compact text, ``json.dumps(game,
    separators=(",", ":"), ensure_ascii=False)`` (:attr:`GameRecord.text
    <kow.log.GameRecord.text>`): the rebuilt log is then compared with it, and ``game``
    need not be written again.
    """
    try:
        state, players = _start(game)
        abandoned = bool(game.get("abandoned"))
        for number, rnd in enumerate(game["rounds"], start=1):
            for logged in round_actions(rnd, number):
                if logged.seat != state.turn:
                    raise ReplayError("out of turn")
                state.apply(logged.action)
        if state.outcome is None and not abandoned:
            raise ReplayError("the log ends before the game does")
        _compare(game, state, players, abandoned=abandoned, text=text)
    except Exception:  # noqa: BLE001 - the step-by-step replay decides, and says where
        # One state, advanced in place by each action: keep it once the replay ends.
        (state,) = collections.deque(replay(game), maxlen=1)
    return state


def _start(
    game: GameLog, stacked: tuple[list[list[Card]], list[Any]] | None = None
) -> tuple[State, list[LoggedPlayer]]:
    """Return the state that replays ``game`` (its deck stacked from the log's hands,
    cuts and tie cuts, round 1's dealer given) and the log's players. ``stacked``: the
    log's decks and cuts (:func:`~kow.log._logged.logged_decks`), when read already.
    Raises :class:`ReplayError` for a log that cannot be read so."""
    try:
        rules = logged_rules(game["rules"])
        decks, cuts = logged_decks(game) if stacked is None else stacked
        rounds = game["rounds"]
        first_dealer = rounds[0]["dealer"] if rounds else None
        # The deck is stacked: the generator draws nothing that matters once the first
        # dealer is given (the state keeps no generator), so one serves every replay; else
        # it draws the dealer, from the log's seed (a null seed, deals from outside kow,
        # stands in as 0).
        if first_dealer is None:
            rng = random.Random(0 if game["seed"] is None else game["seed"])
        else:
            rng = _NO_DRAWS
        state = State(rules, rng, first_dealer, deck=StackedDeck(decks, cuts))
        players = [LoggedPlayer.from_log(p) for p in game["players"]]
    except (KeyError, TypeError, IndexError, ValueError) as err:
        raise ReplayError(f"not a log that can be replayed: {type(err).__name__} {err}") from None
    return state, players


_NO_DRAWS = random.Random(0)
"""The generator of a replay whose first dealer the log gives: what it draws is not used."""


def replay_exact(game: GameLog, text: str) -> State | None:
    """Replay ``game`` and return its last state when its log is, byte for byte, the log
    kow writes of the game the engine plays from it; else return None.

    ``text`` is ``game``'s compact text (:attr:`GameRecord.text
    <kow.log.GameRecord.text>`). A state returned proves the game legal: the engine refused
    none of its actions, and every fact of the log is the engine's (who deals, cuts,
    leads and wins, what is dealt, knocked out and why the game ended), or one that the
    fast writer (:func:`~kow.log.game_text`) checks as it writes (the seed, the players'
    names, kinds and settings) or that this checks of the deals the log gives the engine:
    each deck holds each card at most once and each cut lifts 1 to 51 cards, as a real
    deck's (:class:`~kow.engine.deal.Deck`). None says nothing: the game may be legal (a
    log of another kow version, a null seed) or not (:func:`kow.verify.verify_game` and
    :func:`replay_game` then tell). Raises nothing but what interrupts a run
    (:class:`KeyboardInterrupt`), whatever ``game`` holds.

    Each round's plays go through the engine's one trick loop at once
    (:func:`~kow.log._logged.play_logged`), the engine checking each card as it comes.
    """
    try:
        seed = game["seed"]
        if seed.__class__ is not int:
            return None
        stacked = logged_decks(game)
        if not real_decks(*stacked):
            return None
        state, players = _start(game, stacked)
        if not play_logged(state, game["rounds"]):
            return None
        abandoned = game.get("abandoned") is True
        made = game_text(seed, state.rules, players, events=state.events, abandoned=abandoned)
    except Exception:  # noqa: BLE001 - None: not proved here; the oracle and replay_game tell
        return None
    if made != text or (state.outcome is None and not abandoned):
        return None
    return state


class LineReplay(NamedTuple):
    """A game proved from its line by :func:`replay_line`: ``game``, its object less its
    ``rounds`` (the value json reads of the line, but for them), and ``state``, its last
    state, whose events hold the rounds."""

    game: dict[str, Any]
    state: State


def replay_line(text: str) -> LineReplay | None:
    """Prove a game from its text alone: return the game's object less its ``rounds`` and
    its last state (:class:`LineReplay`) when ``text`` is, byte for byte, the log kow
    writes of the game the engine plays from it (as :func:`replay_exact` proves); else
    return None.

    ``text`` is one game's text, as a line of a log that kow wrote holds it (without its
    ``\\n``). The game is not parsed whole: what the engine needs of it (the deals, the
    decisions and the plays) is read off the text as kow lays it out
    (:func:`~kow.log._logged.logged_line`), the rest only by json (the players, the rules,
    the result). The object returned is the value json reads of ``text``, but for its
    ``rounds``, which the state's events hold. None says nothing, as for
    :func:`replay_exact`: another text of a legal game (spaced out, of another kow
    version, a game of a top-level array) is proved so only once parsed. Raises nothing
    but what interrupts a run (:class:`KeyboardInterrupt`), whatever ``text`` holds.
    """
    try:
        game = logged_line(text, _SCAN)
    except Exception:  # noqa: BLE001 - None: not laid out as kow writes it
        return None
    if game is None:
        return None
    state = replay_exact(cast(GameLog, game), text)
    if state is None:
        return None
    del game["rounds"]
    return LineReplay(game, state)


_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = vars(json.JSONDecoder())["scan_once"]
"""json's scanner (C, as :class:`json.JSONDecoder` reads with): the value at an index of
a string, and the index after it."""


def _compare(
    game: GameLog,
    state: State,
    players: list[LoggedPlayer],
    *,
    abandoned: bool,
    text: str | None = None,
) -> None:
    """Raise :class:`ReplayError` where the log the engine rebuilds from ``state``'s events
    first differs from ``game`` (whose compact text is ``text``, when given).

    With ``text``, the fast writer's text of the events (:func:`~kow.log.game_text`, the
    bytes of ``dumps(build(...))``) is compared first: equal, the log is the engine's
    (two texts of one value); else the log is rebuilt and compared as without ``text``,
    since a log of another kow version, say, may still be the same game."""
    if text is not None and isinstance(game["seed"], int):
        try:
            made = game_text(game["seed"], state.rules, players, events=state.events,
                             abandoned=abandoned)  # fmt: skip
        except (TypeError, ValueError):
            made = None
        if made == text:
            return
    rebuilt = build(game["seed"], state.rules, players, events=state.events, abandoned=abandoned)
    rebuilt["kow_version"] = game["kow_version"]
    result = game.get("result")
    if isinstance(result, dict) and "termination" not in result:
        del rebuilt["result"]["termination"]  # a log of kow 0.5.0 or before: none written
    if text is not None and _COMPACT.encode(rebuilt) == text:
        # Two texts of one writer are equal only when the values are, as _same_json's.
        return
    where = _difference(rebuilt, game)
    if where is not None:
        raise ReplayError(where)


def round_actions(rnd: RoundLog, number: int) -> list[LoggedAction]:
    """Return a logged round's actions, each a :class:`LoggedAction`.

    ``rnd`` is the round's object in the log and ``number`` its number (from 1). The
    actions come in the order taken: the votes, the trump choice (when a seat chose),
    then each trick's plays; the trick number is None for a vote or a trump choice.
    :mod:`kow.runs.provenance` reads a log's decisions here too. Raises :class:`ReplayError`
    for a round whose actions cannot be read.
    """
    out: list[LoggedAction] = []
    try:
        made = decisions(rnd)
        voted = len(rnd["votes"] or ())
        for i, (suit, seat) in enumerate(made):
            where = f"votes[{i}].seat" if i < voted else "trump_chosen_by"
            out.append(LoggedAction(suit, seat, where, trick=None))
        for t, trick in enumerate(rnd["tricks"]):
            plays = _PLAY_PLACES[t] if t < len(_PLAY_PLACES) else _places(t)
            number_of_trick = trick["number"]
            for j, play in enumerate(trick["plays"]):
                action = play_action(play)
                where = plays[j] if j < len(plays) else f"tricks[{t}].plays[{j}].seat"
                out.append(_new_action((action, play["seat"], where, number_of_trick)))
    except (KeyError, TypeError, IndexError, AttributeError) as err:
        why = f"not a log that can be replayed: {type(err).__name__} {err}"
        raise ReplayError(why, number) from None
    return out


def _places(trick: int) -> tuple[str, ...]:
    """Return where each play of trick ``trick`` (from 0) is in its round's object, for
    :class:`LoggedAction`: ``tricks[T].plays[J].seat``, one a seat."""
    return tuple(f"tricks[{trick}].plays[{j}].seat" for j in range(MAX_PLAYERS))


_PLAY_PLACES = tuple(_places(trick) for trick in range(52 // 2))
"""The places of the plays of each trick a round can have (made once: a round's actions
are read for every game replayed)."""


def _check(
    game: GameLog,
    state: State,
    players: list[LoggedPlayer],
    *,
    abandoned: bool,
    checked: int,
) -> int:
    """Compare each deal and round's end new in ``state.events`` with the log; return how
    many events are checked."""
    events = state.events
    made: list[RoundLog] = []
    for place in range(checked, len(events)):
        event = events[place]
        if not isinstance(event, (Deal, RoundEnd)):
            continue
        if not made:  # the rounds so far, as the engine made them
            made = build(game["seed"], state.rules, players, events=events, abandoned=abandoned)[
                "rounds"
            ]
        # A round's end closes the round of the last deal before it.
        number = sum(1 for e in events[: place + 1] if isinstance(e, Deal))
        if number > len(game["rounds"]):
            raise ReplayError("the engine deals a round that the log does not have", number)
        logged = game["rounds"][number - 1]
        keys = _HEAD_KEYS if isinstance(event, Deal) else tuple(logged)
        for key in keys:
            where = _difference(made[number - 1].get(key), logged.get(key), key)
            if where is not None:
                raise ReplayError(where, number)
    return len(events)


def _difference(made: Any, logged: Any, path: str = "") -> str | None:
    """Return where ``made`` (by the engine) first differs from ``logged``, or None.

    Values differ when ``==`` says so or their types do (``true`` is not ``1``).
    """
    if isinstance(made, (dict, list)) and _same_json(made, logged):
        return None  # the common case, at C speed: nothing to look for
    if isinstance(made, dict) and isinstance(logged, dict):
        for key in dict.fromkeys([*logged, *made]):
            where = _difference(made.get(key), logged.get(key), f"{path}.{key}" if path else key)
            if where is not None:
                return where
        return None
    if isinstance(made, list) and isinstance(logged, list) and len(made) == len(logged):
        for i, (a, b) in enumerate(zip(made, logged, strict=True)):
            where = _difference(a, b, f"{path}[{i}]")
            if where is not None:
                return where
        return None
    if made == logged and type(made) is type(logged):
        return None
    return f"{path or 'the log'}: the log says {_short(logged)}, the engine made {_short(made)}"


_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
"""The writer of a game's compact text (:attr:`GameRecord.text <kow.log.GameRecord.text>`)."""


def _same_json(made: Any, logged: Any) -> bool:
    """Return whether two JSON values are the same, types included, keys in the same order.

    Their JSON texts are equal only then (``true`` and ``1``, ``1.0`` and ``1`` are
    written apart); a value that JSON cannot write, or keys in another order, answer
    False and leave the question to :func:`_difference`'s walk."""
    try:
        return json.dumps(made) == json.dumps(logged)
    except (TypeError, ValueError):
        return False


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
