"""Check game logs against the rules, independently of the engine, and keep the verdict.

This package is a second implementation of the rules, deliberately independent of the
engine: it imports nothing from the rest of :mod:`kow` and shares no code with the engine,
so that a bug in one is caught by the other. It walks a parsed log (``docs/log-format.md``,
version 1) round by round, trick by trick and play by play, and reports the first fault as a
:class:`Fault`. :class:`Verdict` counts the games of a run of logs as they are checked and
gives the verdict as JSON or as a summary line; :meth:`Verdict.run` is the checking loop
of ``kow verify``, over the records of a log reader, and :attr:`Verdict.return_code` its
exit status.

Rules text: seed 000 ("Mise en place et Distribution", "Déroulement du jeu", "Variantes
courantes") and seed 002 (the dog's life, once per game); the variants are the fields of
the log's ``rules`` object. Where the sources leave a choice open, this follows the rules
as kow implements them (``docs/log-format.md``).

The parts: :mod:`._shape` checks the shape of each value (types, keys, ranges, cards,
seats) and holds the format's constants; :mod:`._table` holds the rules, who is still in,
and seats around the table; :mod:`._walk` walks the game, its rounds, tricks and ends of
round; :mod:`._trump` checks how each round's trump is set (votes, tie cut, suit).

The rule of a player's name (:func:`name_fault`, :func:`check_name`, :data:`MAX_NAME`)
and the players' kinds and settings the format allows (:data:`KINDS`, :data:`SETTINGS`
up to :data:`MAX_ITERATIONS`) are stated here once and offered to every writer of logs
and names (the log, the players, the protocol, the command line's options).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import KW_ONLY, dataclass, field
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from ._shape import (
    KINDS,
    MAX_ITERATIONS,
    MAX_NAME,
    NOT_TEXT,
    SETTINGS,
    Stop,
    check_name,
    name_fault,
)

if TYPE_CHECKING:
    from ._walk import Checker

__all__ = [
    "KINDS",
    "MAX_ITERATIONS",
    "MAX_NAME",
    "NOT_TEXT",
    "SETTINGS",
    "Checked",
    "Fault",
    "GameFault",
    "JsonVerdict",
    "Judged",
    "UnreadableInput",
    "Verdict",
    "judge",
    "judge_block",
    "judge_each",
    "check_name",
    "name_fault",
    "verify_game",
]


@dataclass(frozen=True)
class Fault:
    """The first thing in a log that breaks the format or the rules.

    ``round`` and ``trick`` count from 1 (the round's place in ``rounds``, the trick's place
    in its round); ``seat`` is 0-based, clockwise. Each is ``None`` when the fault is not
    tied to one. ``message`` says in plain words what the log holds and what the rule
    required.
    """

    round: int | None
    trick: int | None
    seat: int | None
    _: KW_ONLY
    message: str

    def __str__(self) -> str:
        """Return the message, prefixed by the round and trick where they are known.

        >>> str(Fault(2, 4, 1, message="seat 1 played 5c but holds Kh of the led suit h"))
        'round 2, trick 4: seat 1 played 5c but holds Kh of the led suit h'
        >>> str(Fault(None, None, None, message="format: expected 'kow-log', got 'x'"))
        "format: expected 'kow-log', got 'x'"
        """
        place = []
        if self.round is not None:
            place.append(f"round {self.round}")
        if self.trick is not None:
            place.append(f"trick {self.trick}")
        if not place:
            return self.message
        return f"{', '.join(place)}: {self.message}"


_Checker: type[Checker] | None = None
"""The oracle's walk (:class:`._walk.Checker`) once imported: a process that writes logs
(``kow simulate``) needs the name rule of :mod:`._shape`, not the oracle's three
compiled modules, which :func:`_walker` imports on the first :func:`verify_game`."""


def _walker() -> type[Checker]:
    """Import the oracle's walk (:mod:`._walk`) and keep it in :data:`_Checker`."""
    global _Checker
    from ._walk import Checker

    _Checker = Checker
    return Checker


def verify_game(log: object) -> Fault | None:
    """Check one game's log and return its first fault, or ``None`` when it is legal.

    ``log`` is a parsed JSON value (``json.loads`` of one game; see ``docs/log-format.md``).
    Raises nothing, whatever ``log`` holds: a wrong type, a missing key, ``true`` where an
    int belongs, an unknown card or an out-of-range seat is a :class:`Fault` naming the key
    path.

    Checks, walking the game in order: the header (``format``, ``version``, ``seed``: an
    int or null, the eight ``rules`` and the ``players``); then per round the hand size,
    the dealer (passes clockwise to the next seat still in the game), the cutter (the
    dealer's right), the dealt hands (one card on a dog's life, none once knocked out, no
    card twice), the turned-up card, the trump and how it was set (turned up, fixed,
    chosen by the last round's most-tricks player, or voted by knocked-out seats), the tie
    cut, the leader; per trick the leader, the turn order, that each card is held, follow
    suit, knocks (dog's life only, never on the last trick) and the winner (highest trump,
    else highest card of the led suit); at the end of a round the tricks won,
    eliminations, dog's lives granted, revivals and sweeps; and last that the game ends
    where the rules end it, with the right ``result``. A log with ``abandoned: true`` may
    stop anywhere.
    """
    try:
        (_Checker if _Checker is not None else _walker())().game(log)
    except Stop as stop:
        return Fault(stop.round, stop.trick, stop.seat, message=stop.message)
    except Exception as error:  # a safety net: verify_game must never raise
        return Fault(
            None, None, None, message=f"internal error in the verifier: {type(error).__name__}"
        )
    return None


class Judged(NamedTuple):
    """What :func:`judge` found of one game: its ``fault`` (None: legal), whether it is
    legal with a null seed, so not checked further (``unseeded``), and whether the rules
    allow it but the further check refused it (``unmatched``)."""

    fault: Fault | None
    unseeded: bool = False
    unmatched: bool = False


def judge(log: object, also: Callable[[Any], Fault | None] | None = None) -> Judged:
    """Verify one game's log (:func:`verify_game`), then check a legal one with a seed
    further with ``also`` (see :meth:`Verdict.check`). Raises what ``also`` raises."""
    fault = verify_game(log)
    if fault is not None or also is None:
        return Judged(fault)
    if isinstance(log, dict) and log.get("seed") is None:
        return Judged(None, unseeded=True)  # legal, with no seed to check it against
    fault = also(log)
    return Judged(fault, unmatched=fault is not None)


def judge_block(
    logs: list[tuple[object, str | None]], also: Callable[[Any], Fault | None] | None
) -> list[Judged]:
    """Return what :func:`judge` finds of each of ``logs`` (an executor's block: it is a
    module-level function, so that it pickles).

    Each of ``logs`` is ``(log, text)``: the parsed log, or None and ``text``, the JSON
    text that reads as it (a reader's canonical text: sent to a worker, a string is a
    copy where a parsed log is a pickle, and the worker reads it at json's speed)."""
    return [judge(json.loads(text) if log is None and text is not None else log, also)
            for log, text in logs]  # fmt: skip


def judge_each(
    records: Iterable[Any], also: Callable[[Any], Fault | None] | None = None
) -> Iterator[tuple[Any, Judged | None]]:
    """Yield each of ``records`` (as :meth:`Verdict.run` takes them) with what
    :func:`judge` found of it, here, one game at a time as it is read: None for the end of
    an input, and for a game read with a fault (not checked). :meth:`Verdict.run`'s
    ``judging`` by default; :func:`kow.runs.blocks.judging` gives one on an executor."""
    for item in records:
        read = hasattr(item, "game") and item.fault is None
        yield item, judge(item.game, also) if read else None


# -- the verdict on a run of logs ---------------------------------------------------------


@dataclass(frozen=True)
class GameFault:
    """One faulty game of a verdict: where it was read, its seed and its first fault.

    ``file`` is the input's label (a path, or ``"stdin"``); ``game`` counts the games of
    that input from 1; ``line`` (from 1) is the line where the game starts; ``seed`` is the
    log's ``seed`` when it is an int (not a bool), else ``None``.
    """

    file: str
    game: int
    line: int
    _: KW_ONLY
    seed: int | None
    fault: Fault

    def to_dict(self) -> dict[str, object]:
        """Return the item of ``faults`` in the verdict's JSON, keys in their order.

        >>> GameFault("g.jsonl", 2, 5, seed=None, fault=Fault(1, None, 0, message="x")).to_dict()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'file': 'g.jsonl', 'game': 2, 'line': 5, 'seed': None, 'round': 1, 'trick': None,
         'seat': 0, 'message': 'x', 'text': 'round 1: x'}
        """
        fault = self.fault
        return {
            "file": self.file,
            "game": self.game,
            "line": self.line,
            "seed": self.seed,
            "round": fault.round,
            "trick": fault.trick,
            "seat": fault.seat,
            "message": fault.message,
            "text": str(fault),
        }

    def __str__(self) -> str:
        """Return the verdict's line for this game: ``FILE: game N (seed S): PLACE: message``.

        The seed is left out when it is ``None``.

        >>> str(GameFault("g.jsonl", 2, 5, seed=7, fault=Fault(1, 4, 0, message="x")))
        'g.jsonl: game 2 (seed 7): round 1, trick 4: x'
        >>> str(GameFault("stdin", 1, 1, seed=None, fault=Fault(None, None, None, message="y")))
        'stdin: game 1: y'
        """
        seed = f" (seed {self.seed})" if self.seed is not None else ""
        return f"{self.file}: game {self.game}{seed}: {self.fault}"


@dataclass(frozen=True)
class UnreadableInput:
    """An input of a verdict that could not be read as games: its label and why."""

    file: str
    message: str

    def to_dict(self) -> dict[str, object]:
        """Return the item of ``unreadable`` in the verdict's JSON, keys in their order.

        >>> UnreadableInput("g.json", "line 1, column 2: not JSON").to_dict()
        {'file': 'g.json', 'message': 'line 1, column 2: not JSON'}
        """
        return {"file": self.file, "message": self.message}

    def __str__(self) -> str:
        """Return the verdict's line for this input: ``FILE: message``.

        >>> str(UnreadableInput("g.json", "line 1, column 2: not JSON"))
        'g.json: line 1, column 2: not JSON'
        """
        return f"{self.file}: {self.message}"


class Checked(NamedTuple):
    """One game as :meth:`Verdict.run` checked it.

    ``record`` is the game's record as the reader gave it; ``fault`` its fault record, or
    None when it is legal; ``note`` what the further check leaves to the log, to say on
    stderr (``kow verify --against-seed``: the seats of agents), or None.
    """

    record: Any
    fault: GameFault | None
    note: str | None


@dataclass
class Verdict:
    """The verdict on a run of logs, counted as each game is checked.

    ``games`` counts every game checked, ``legal`` those without a fault and ``faulty``
    those with one; ``unmatched`` the faulty games that the rules allow but the further
    check (``also``) refused, and ``unseeded`` the legal games whose seed is null (dealt
    outside kow: nothing to check them against, so not checked, and not faulty);
    ``unreadable`` lists the unreadable inputs in the order met (at most one per input),
    ``unopened`` counts those that could not be opened.
    ``against_seed``: whether the games are checked against their seeds too (``kow
    verify --against-seed``, whose check is ``also``), which :meth:`to_dict` then reports.
    The faulty games are not kept: each is returned as it is found, for the caller to
    show, so memory stays flat however many there are.
    """

    games: int = 0
    legal: int = 0
    faulty: int = 0
    _: KW_ONLY
    unmatched: int = 0
    unseeded: int = 0
    unreadable: list[UnreadableInput] = field(default_factory=list)
    unopened: int = 0
    against_seed: bool = False

    def run(
        self,
        records: Iterable[Any],
        *,
        also: Callable[[Any], Fault | None] | None = None,
        note: Callable[[Any], str | None] | None = None,
        judging: Callable[
            [Iterable[Any], Callable[[Any], Fault | None] | None],
            Iterable[tuple[Any, Judged | None]],
        ] = judge_each,
    ) -> Iterator[Any]:
        """Check each game of ``records`` as it is read, count it, and yield it checked.

        ``records`` are a log reader's (:func:`kow.log.read_logs`): an item with a
        ``game`` is one game's record (``label``, ``index``, ``line``, ``game``,
        ``fault``: a fault of reading that game alone, or None, and it may have ``text``:
        the game's JSON text, or None, sent to an executor's workers in place of the
        parsed game); any other is the end of
        an input (``label``, ``opened``, ``why``: why it could not be opened or read on,
        or None). Yields a :class:`Checked` for each game, in order, and each input's end
        as it comes, once counted (an unreadable input is in :attr:`unreadable`). ``also``
        checks a legal game further (see :meth:`check`); ``note`` is given each game with
        a seed that the rules allow, and returns what to say of it, or None.

        ``judging(records, also)`` yields each record with what :func:`judge` found of it
        (None for an input's end and a game read with a fault), in order:
        :func:`judge_each` (the default) here, one game at a time;
        :func:`kow.runs.blocks.judging` gives one that checks the games in blocks on an
        executor's workers (``--jobs``, ``--cluster``; ``also`` then pickles), with the
        same verdict and the same items yielded. A record may come back with ``game``
        None and its ``text`` (sent to a worker as its text): it is read again from its
        text when the game is faulty or ``note`` is given.
        Raises what ``records``, ``also``, ``note`` or ``judging`` (its executor) raise,
        nothing else.
        """
        for item, judged in judging(records, also):
            if not hasattr(item, "game"):  # the end of an input
                if item.why is not None:
                    opened = item.opened
                    why = item.why if opened else f"cannot open: {item.why}"
                    self.unreadable_input(item.label, why)
                    self.unopened += not opened
                yield item
                continue
            if item.game is None and judged is not None and getattr(item, "text", None):
                if judged.fault is not None or note is not None:  # its seed is needed
                    item = dataclasses.replace(item, game=json.loads(item.text))
            game, label, index, line = item.game, item.label, item.index, item.line
            if item.fault is not None:  # of this game alone: read on
                fault = Fault(None, None, None, message=str(item.fault))
                read = self.faulty_game(game, fault, file=label, game=index, line=line)
                yield Checked(item, read, None)
                continue
            assert judged is not None  # a game read whole is judged
            found = self.count(game, judged, file=label, game=index, line=line)
            told = None
            legal = found is None or judged.unmatched  # by the rules
            if note is not None and legal and game["seed"] is not None:
                told = note(game)
            yield Checked(item, found, told)

    @property
    def return_code(self) -> int:
        """Return the exit status of the verdict: 2 when an input could not be opened (a
        usage error), else 1 when an input could not be read or a game is faulty, else 0.

        >>> Verdict(games=2, legal=2).return_code, Verdict(games=2, faulty=1).return_code
        (0, 1)
        """
        if self.unopened:
            return 2
        return 1 if self.unreadable or self.faulty else 0

    def check(
        self,
        log: object,
        *,
        file: str,
        game: int,
        line: int,
        also: Callable[[Any], Fault | None] | None = None,
    ) -> GameFault | None:
        """Verify one game's log, count it, and return its fault record (``None`` if legal).

        ``log`` is the parsed JSON value; ``file``, ``game`` and ``line`` say where it was
        read (see :class:`GameFault`). ``also``, when given, checks a legal game with a
        seed further and returns its fault or ``None`` (``kow verify --against-seed``
        passes :func:`kow.runs.provenance.seed_check`'s); a game counts as legal only when
        it passes both. A legal game whose seed is null is not given to ``also``: it is
        legal, and counted :attr:`unseeded`. Raises nothing, whatever ``log`` holds, if
        ``also`` raises nothing.
        """
        return self.count(log, judge(log, also), file=file, game=game, line=line)

    def count(
        self, log: object, judged: Judged, *, file: str, game: int, line: int
    ) -> GameFault | None:
        """Count one game's log as :func:`judge` found it, and return its fault entry
        (``None`` if legal); ``file``, ``game`` and ``line`` are as :meth:`check` takes them."""
        self.unseeded += judged.unseeded
        self.unmatched += judged.unmatched
        if judged.fault is None:
            self.games += 1
            self.legal += 1
            return None
        return self.faulty_game(log, judged.fault, file=file, game=game, line=line)

    def faulty_game(
        self, log: object, fault: Fault, *, file: str, game: int, line: int
    ) -> GameFault:
        """Count a game found faulty by ``fault`` (``log``: its value, for its seed, or
        None when it could not be read) and return its fault record.

        For a fault found in reading one game (a key repeated, a nesting too deep), whose
        message places it by line and column; :meth:`check` counts the others.
        """
        self.games += 1
        self.faulty += 1
        seed = log.get("seed") if isinstance(log, dict) else None
        return GameFault(
            file=file,
            game=game,
            line=line,
            seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
            fault=fault,
        )

    def unreadable_input(self, file: str, message: str) -> UnreadableInput:
        """Record an input that could not be read (``message`` says why) and return it."""
        item = UnreadableInput(file, message)
        self.unreadable.append(item)
        return item

    def to_dict(self) -> dict[str, object]:
        """Return the verdict's JSON object but its ``faults``: unreadable inputs, counts.

        With :attr:`against_seed`, the key ``against_seed`` says that the games the rules
        allow were checked against their seeds, and how they came out: ``checked`` (those
        games), ``matched`` (each the game its seed gives: the legal ones), ``unmatched``
        (not the game of their seed: faulty games too) and ``unseeded`` (legal, but a null
        seed: not checked, since there is nothing to check them against).

        >>> Verdict().to_dict()
        {'unreadable': [], 'games': 0, 'legal': 0, 'faulty': 0}
        >>> Verdict(games=3, legal=1, faulty=2, unmatched=1, against_seed=True).to_dict()[
        ...     "against_seed"]
        {'checked': 2, 'matched': 1, 'unmatched': 1, 'unseeded': 0}
        """
        out: dict[str, object] = {
            "unreadable": [u.to_dict() for u in self.unreadable],
            "games": self.games,
            "legal": self.legal,
            "faulty": self.faulty,
        }
        if self.against_seed:
            out["against_seed"] = {
                "checked": self.legal - self.unseeded + self.unmatched,
                "matched": self.legal - self.unseeded,
                "unmatched": self.unmatched,
                "unseeded": self.unseeded,
            }
        return out

    def summary(self, files: int) -> str:
        """Return the summary line for a run over ``files`` inputs.

        >>> Verdict(games=3, legal=2).summary(1)
        '3 games in 1 file: 2 legal, 0 faulty'
        """
        games = f"{self.games} game{'s' if self.games != 1 else ''}"
        inputs = f"{files} file{'s' if files != 1 else ''}"
        text = f"{games} in {inputs}: {self.legal} legal, {self.faulty} faulty"
        notes = []
        if self.unmatched:
            notes.append(f"{self.unmatched} of them legal, but not the game of their seed")
        if self.unseeded:
            notes.append(f"{self.unseeded} of them with no seed, not checked against one")
        if notes:
            text += f" ({'; '.join(notes)})"
        if self.unreadable:
            count = len(self.unreadable)
            text += f", {count} unreadable input{'s' if count != 1 else ''}"
        return text


class JsonVerdict:
    """Write a verdict as one JSON object to ``out`` as it is made, in flat memory.

    The object is ``{"faults": [...], "unreadable": [...], "games": N, "legal": N,
    "faulty": N}`` (and ``"against_seed": {...}`` when checked so: :meth:`Verdict.to_dict`),
    indented by 2, as ``json.dumps(..., indent=2)`` writes it: each fault
    (:meth:`GameFault.to_dict`) is written when :meth:`fault` is called, the rest by
    :meth:`close`, once the counts are known. ``out`` is flushed by the caller.

    >>> import io
    >>> out = io.StringIO()
    >>> writer = JsonVerdict(out)
    >>> writer.fault(GameFault("g", 1, 1, seed=None, fault=Fault(None, None, None, message="x")))
    >>> writer.close(Verdict(games=1, faulty=1))
    >>> import json; json.loads(out.getvalue())["faults"][0]["text"]
    'x'
    """

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.first = True
        out.write('{\n  "faults": [')

    def fault(self, item: GameFault) -> None:
        """Write one item of ``faults``."""
        text = json.dumps(item.to_dict(), indent=2).replace("\n", "\n    ")
        self.out.write(("\n    " if self.first else ",\n    ") + text)
        self.first = False

    def close(self, verdict: Verdict) -> None:
        """End ``faults`` and write the rest of ``verdict`` (:meth:`Verdict.to_dict`)."""
        rest = json.dumps(verdict.to_dict(), indent=2)
        self.out.write(("]," if self.first else "\n  ],") + rest[1:] + "\n")
