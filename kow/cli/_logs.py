"""The commands that read logs: ``kow verify``, ``replay``, ``export`` and ``analyze``.

Part of the command line (:mod:`kow.cli` adds them to its group): each parses its
options, reads the logs and writes its output; the work is done by :mod:`kow.verify`,
:mod:`kow.log`, :mod:`kow.runs.export` and :mod:`kow.runs.analysis`. What only one command needs
is imported inside that command, so ``kow --help`` stays fast.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable, Generator, Iterator
from typing import IO, TYPE_CHECKING, Any

import click

from ..entries import EntryError, is_number, parse_number
from ..entries import shown as quoted
from ..rules import ANALYSIS_DEALS, JOBS, SEED, Rules
from ..stopping import Stopped, stop_code, stop_said, stops_held
from ._io import (
    FALLBACK,
    Progress,
    atomic_output,
    color_fits,
    file_state,
    page,
    progress_fits,
    reader_may_leave,
    replaced_whole,
    suits_fit,
    write_out,
)
from ._options import (
    PATH,
    Count,
    ascii_option,
    cluster_executor,
    cluster_option,
    json_option,
    no_color_option,
    output_option,
    quiet_option,
    refuse_jobs_with_cluster,
    search_iterations_option,
)

if TYPE_CHECKING:
    from ..log import GameLog, PlayerLog
    from ..verify import Fault, GameFault, JsonVerdict


def _label(name: str) -> str:
    r"""Return how messages and outputs name the input ``name``: ``stdin`` for ``-``, else
    the path with anything unprintable escaped (a file name can hold an escape sequence or
    an undecodable byte, and is shown, written to CSV and to JSON like text from a log).

    >>> _label("-"), _label("a\x1b[31m.jsonl")
    ('stdin', 'a\\x1b[31m.jsonl')
    """
    from ..screen import printable

    return "stdin" if name == "-" else printable(name)


def _open_bytes(name: str) -> IO[bytes]:
    """Return the bytes of the input ``name`` to read: stdin's for ``-``, else the file's.

    The one place an input of the commands that read logs is opened. Raises
    :class:`OSError` when the file cannot be opened, for the caller to say so its way.
    """
    return sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115


def _open_input(file: str) -> tuple[IO[bytes], str]:
    """Return the bytes of ``file`` (``-``: stdin) to read, and its name in messages.

    Raises :class:`click.BadParameter` (exit 2) naming the file when it cannot be opened.
    """
    try:
        stream = _open_bytes(file)
    except OSError as err:
        raise click.BadParameter(
            f"cannot open {file!r}: {err.strerror or err}", param_hint="'FILE'"
        ) from None
    return stream, _label(file)


def _games_in(
    stream: IO[bytes], label: str, *, clear: Callable[[], None] | None = None
) -> Iterator[tuple[int, int, Any, Fault | None]]:
    """Yield ``(index, line, game, fault)`` for each game of the input ``stream``, in order.

    ``index`` counts the games from 1; ``line`` is where the game starts; ``label`` names
    the input in messages. ``fault`` is what makes this game alone unreadable as kow
    reads logs everywhere (as ``kow verify`` reads them: a repeated key, a nesting too
    deep, an integer too long), or None: every command refuses such a game as it refuses
    one that is not legal. A game that repeats an earlier game of the input whole is
    said on stderr (:class:`_Repeats`), after ``clear()`` (a progress bar's). Raises
    :class:`click.ClickException` (exit 1) naming the input when it can't be read as
    JSON or can't be read at all. An input with no game (empty, or ``[]``) yields
    nothing, as jq reads it. The caller closes ``stream``.
    """
    from ..log import LogReadError, iter_entries
    from ..verify import Fault

    index = 0
    repeats = _Repeats(label, clear=clear)
    try:
        for entry in iter_entries(stream, unique_keys=True):
            index += 1
            fault = None
            if entry.fault is not None:
                fault = Fault(None, None, None, message=str(entry.fault))
            else:
                repeats.check(entry.value, index, entry.line)
            yield index, entry.line, entry.value, fault
        repeats.finish()
    except LogReadError as err:
        raise click.ClickException(f"{label}: {err}") from None
    except OSError as err:
        raise click.ClickException(f"{label}: cannot read: {err.strerror or err}") from None


class _Repeats:
    """The games of one input seen so far, to say on stderr when one repeats another
    whole (``cat a.jsonl a.jsonl``): every command that reads logs says it the same way.

    The first repeat is said when it is read (``FILE: game 4 (line 4) repeats game 1
    whole``); the others are counted, and :meth:`finish` says how many there were in all.
    Holds a 16-byte digest per game read, not the games.
    """

    def __init__(self, label: str, *, clear: Callable[[], None] | None = None) -> None:
        self.label = label
        self.clear = clear  # called before a line is said: a progress bar's clear
        self.seen: dict[bytes, int] = {}
        self.repeated = 0

    def check(self, game: Any, index: int, line: int) -> None:
        """Note ``game``, the ``index``-th of the input (from 1), starting at ``line``;
        say the first that is the same value as an earlier game (keys in any order)."""
        import hashlib
        import json

        text = json.dumps(game, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        first = self.seen.setdefault(digest, index)
        if first == index:
            return
        self.repeated += 1
        if self.repeated == 1:
            self._say(f"{self.label}: game {index} (line {line}) repeats game {first} whole")

    def finish(self) -> None:
        """Say how many games of the input repeated an earlier one, when more than one."""
        if self.repeated > 1:
            self._say(f"{self.label}: {self.repeated} games in all repeat an earlier game whole")

    def _say(self, text: str) -> None:
        if self.clear is not None:
            self.clear()
        click.echo(text, err=True)


def _check_game_found(
    label: str, count: int, found: bool, *, game_number: int | None, verb: str
) -> None:
    """Stop when the input held no game (an empty input or array: exit 1) or not game
    ``game_number`` of ``--game`` (exit 2); ``count``: the games read, ``verb``: what
    the command would do with one."""
    if count == 0:
        raise click.ClickException(f"{label}: holds no game, so there is none to {verb}")
    if not found:
        raise click.BadParameter(
            f"{label} holds {count} game{'s' if count != 1 else ''}, so there is no game "
            f"{game_number}",
            param_hint="'--game'",
        )


def _title(index: int, label: str, seed: int | None) -> str:
    """Return the first line of a replay or an analysis: the game's place and its seed.

    >>> _title(2, "g.jsonl", 7), _title(1, "os.json", None)
    ('Game 2 of g.jsonl, seed 7', 'Game 1 of os.json, no seed (dealt outside kow)')
    """
    shown = "no seed (dealt outside kow)" if seed is None else f"seed {seed}"
    return f"Game {index} of {label}, {shown}"


# ----------------------------------------------------------------------------- verify


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...", type=PATH)
@json_option("Print the verdict as one JSON object.")
@click.option(
    "--against-seed", is_flag=True,
    help="Also check that each legal game is the one its seed gives: the cuts, hands,"
    " turned-up card and tie cuts, and every decision of its kow bots.",
)  # fmt: skip
@search_iterations_option
@quiet_option
def verify(
    *,
    files: tuple[str, ...],
    as_json: bool,
    against_seed: bool,
    search_iterations: int | None,
    quiet: bool,
) -> None:
    """Check game logs against the rules: every deal, trick and knock-out.

    Each FILE (or - for stdin) may hold one game, JSON Lines, concatenated JSON objects
    (simulate --pretty) or JSON arrays of games, and may be gzip-compressed (.jsonl.gz);
    games count from 1 in each file. Prints one line per faulty game with the
    place of its first fault, as it is found, then a summary; an object that repeats a
    key is a fault, placed at the key (replay, export and analyze refuse it too); a game
    that repeats an earlier game of its file whole, and an input with no game, are said
    so on stderr. Exit 0 when every game is legal; 1 when any
    is not, or an input can't be read as JSON (its place is named); 2 when a FILE can't
    be opened, or - is given more than once; 141 when stdout closes first (| head).

    A legal game is one the rules allow; it need not be the game its seed gives (a log
    edited by hand can be legal). With --against-seed, each legal game is also played
    again from its seed, rules and first dealer: its cuts, hands, turned-up card and tie
    cuts must be the seed's, and, when every player is a person, an agent or a kow bot,
    each bot's decision must be the one that bot makes (the decisions of people and of
    agents, programs that played through a framework adapter, are taken from the log; a
    line on stderr names the agents' seats). The first difference is named; a game counts
    as legal only when there is none. A legal game whose seed is null (dealt outside
    kow) has no seed to be checked against: it stays legal, and the summary says it was
    not checked. When every game passes, a line on stderr says how many were checked
    against their seeds; with
    --json, the verdict's "against_seed" counts the games checked, matched, unmatched and
    unseeded. Searching bots play at the settings their log records; give
    --search-iterations for logs that record none (older logs; default 100). Logs of
    another kow version may differ for that reason alone.
    A progress bar shows on stderr when it is a terminal and every FILE is a file.
    """
    from ..log import LogReadError, iter_entries
    from ..verify import Fault, JsonVerdict, Verdict

    if search_iterations is not None and not against_seed:
        raise click.BadParameter(
            "it is used with --against-seed", param_hint="'--search-iterations'"
        )
    # The check against each game's seed (it loads the engine and bots), and what it
    # leaves to the log: the agents' decisions.
    also: Callable[[GameLog], Fault | None] | None = None
    note: Callable[[GameLog], str | None] | None = None
    if against_seed:
        from ..runs.provenance import agents_note, seed_check

        also = seed_check(search_iterations)
        note = agents_note

    if files.count("-") > 1:  # stdin can be read once: checked before reading anything
        raise click.BadParameter(
            f"'-' (stdin) is given {files.count('-')} times; it may be given once",
            param_hint="'FILE...'",
        )
    verdict = Verdict(against_seed=against_seed)
    missing = False
    shown: list[str] = []  # faults not yet written: a few at a time, never all held
    total = None if quiet or not sys.stderr.isatty() else _input_bytes(files)
    progress = Progress(total or 0, total is not None, "Verifying",
                        show_pos=False, item=_games_shown)  # fmt: skip
    before = 0  # the bytes of the files read whole, for the bar
    games = 0  # the games read in every file
    with reader_may_leave():
        json_out = JsonVerdict(sys.stdout) if as_json else None
        try:
            with progress:  # ended before the summary, so that it starts on a line of its own
                for name in files:
                    try:
                        stream = _open_bytes(name)
                    except OSError as err:
                        verdict.unreadable_input(
                            _label(name), f"cannot open: {err.strerror or err}"
                        )
                        missing = True
                        continue
                    label = _label(name)
                    count = 0
                    repeats = _Repeats(label, clear=progress.clear)
                    try:
                        with stream:
                            for entry in iter_entries(stream, unique_keys=True):
                                count += 1
                                games += 1
                                if progress.show:
                                    progress.advance(before + stream.tell() - progress.done, games)
                                game = entry.value
                                line = entry.line
                                if entry.fault is not None:  # of this game alone: read on
                                    fault = Fault(None, None, None, message=str(entry.fault))
                                    read = verdict.faulty_game(
                                        game, fault, file=label, game=count, line=line
                                    )
                                    _show_fault(read, json_out, shown, progress=progress)
                                    continue
                                repeats.check(game, count, line)  # said on stderr
                                unmatched = verdict.unmatched
                                found = verdict.check(
                                    game, file=label, game=count, line=line, also=also
                                )
                                checked = found is None or verdict.unmatched > unmatched  # legal
                                if note is not None and checked and game["seed"] is not None:
                                    told = note(game)
                                    if told is not None:  # on stderr: stdout holds the verdict
                                        seed = f" (seed {game['seed']})"
                                        progress.clear()
                                        click.echo(f"{label}: game {count}{seed}: {told}", err=True)
                                if found is not None:
                                    _show_fault(found, json_out, shown, progress=progress)
                            if progress.show:
                                before += stream.tell()
                            repeats.finish()
                    except LogReadError as err:  # every fault of reading: an OSError is a write's
                        verdict.unreadable_input(label, str(err))
                    else:
                        if count == 0:  # jq's reading: no game is no fault, but say so
                            progress.clear()
                            click.echo(f"{label}: no games", err=True)
        except (KeyboardInterrupt, Stopped) as stop:  # stop_signals ignores any more now
            if json_out is None:  # the faults found so far: the JSON stays cut short
                _show_fault(None, json_out, shown, progress=progress)
            with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
                click.echo(
                    f"{stop_said(stop)} after checking {_games_shown(verdict.games)}: "
                    f"{verdict.legal} legal, {verdict.faulty} faulty so far.",
                    err=True,
                )
            click.get_current_context().exit(stop_code(stop))
        _show_fault(None, json_out, shown, progress=progress)
        if json_out is not None:
            json_out.close(verdict)
        else:
            for unreadable in verdict.unreadable:
                click.echo(str(unreadable), err=True)
            click.echo(verdict.summary(len(files)))
    if missing:
        sys.exit(2)  # a FILE argument that can't be opened is a usage error
    if verdict.unreadable or verdict.faulty:
        sys.exit(1)
    if against_seed and verdict.games:
        seeded = verdict.games - verdict.unseeded
        said = f"checked against their seeds: {_games_shown(seeded)}"
        if seeded:
            said += ", each the game its seed gives"
        if verdict.unseeded:
            said += f"; not checked: {_games_shown(verdict.unseeded)} with no seed"
        click.echo(said, err=True)


def _show_fault(
    found: GameFault | None, json_out: JsonVerdict | None, shown: list[str], *, progress: Progress
) -> None:
    """Write the faulty game ``found`` to stdout, in
    the verdict's JSON (``json_out``) or as a line; ``shown`` holds the lines not yet
    written, written 100 at a time, and all at once when ``found`` is None. The
    ``progress`` bar is cleared first, so that a line never starts after it."""
    if found is not None and json_out is not None:
        progress.clear()
        json_out.fault(found)
    elif found is not None:
        shown.append(str(found))
    if shown and (found is None or len(shown) >= 100):
        progress.clear()
        click.echo("\n".join(shown))
        shown.clear()


# ----------------------------------------------------------------------------- replay


def table_names(players: list[PlayerLog]) -> list[str]:
    """Return the name a replay shows for each of a log's ``players`` (seat order).

    A bot logged under ``kow simulate``'s name for it, ``KIND-SEAT`` (``heuristic-0``),
    takes the first name of :data:`~kow.events.BOT_NAMES` that no other seat holds, as at
    ``kow play``'s table; every other player (a person, an agent, a bot named otherwise)
    keeps the name logged. The log itself is not changed.

    >>> table_names([{"seat": 0, "name": "heuristic-0", "kind": "heuristic"},
    ...              {"seat": 1, "name": "Ada", "kind": "human"},
    ...              {"seat": 2, "name": "random-2", "kind": "random"},
    ...              {"seat": 3, "name": "agent-3", "kind": "agent"}])
    ['Ben', 'Ada', 'Cleo', 'agent-3']
    """
    from ..events import BOT_NAMES, NOT_BOTS, seat_name
    from ..screen import printable

    logged = [p["name"] for p in players]
    renamed = [
        p["kind"] not in NOT_BOTS and p["name"] == seat_name(p["kind"], p["seat"]) for p in players
    ]
    kept = {name for name, new in zip(logged, renamed, strict=True) if not new}
    free = iter([n for n in BOT_NAMES if n not in kept])
    names = [next(free, name) if new else name for name, new in zip(logged, renamed, strict=True)]
    return [printable(name) for name in names]


@click.command()
@click.argument("file", metavar="FILE", type=PATH)
@click.option(
    "--game", "game_number", type=Count(1, None, "a game number"), default=1,
    show_default=True,
    metavar="N", help="Which game of a file of several (counting from 1).",
)  # fmt: skip
@click.option(
    "--round", "round_number", type=Count(1, None, "a round number"), default=None,
    metavar="R",
    help="Show only round R.",
)  # fmt: skip
@ascii_option
@no_color_option
def replay(
    *, file: str, game_number: int, round_number: int | None, ascii_only: bool, no_color: bool
) -> None:
    """Tell a logged game trick by trick, as `kow play` shows it, with every hand.

    FILE (or - for stdin) may hold one game or many, in any form verify reads (JSON
    Lines, concatenated, an array; gzip-compressed or not); long output goes through a
    pager when stdout is a terminal. Bots that simulate named by kind and seat
    (heuristic-0) are shown with table names, as play gives them: "Ada (heuristic)".
    """
    import collections

    from ..log import ReplayError
    from ..log import replay as replay_log
    from ..screen import Screen, terminal_width
    from ..verify import verify_game

    stream, label = _open_input(file)
    game: GameLog | None = None
    found = False
    count = 0
    read_fault = None
    with stream:
        for count, _, value, fault_read in _games_in(stream, label):
            if count == game_number:
                game, read_fault = value, fault_read
                found = True
                break
    _check_game_found(label, count, found, game_number=game_number, verb="replay")
    fault = read_fault or verify_game(game)
    if fault is not None:
        raise click.ClickException(
            f"{label}: game {game_number} is not a legal game, so it can't be replayed: {fault}"
        )
    assert game is not None  # a legal game (a null read is a fault)
    rounds = len(game["rounds"])
    if round_number is not None and round_number > rounds:
        raise click.BadParameter(
            f"game {game_number} has {rounds} round{'s' if rounds != 1 else ''}, "
            f"so there is no round {round_number}",
            param_hint="'--round'",
        )
    color = color_fits(sys.stdout, no_color=no_color)
    symbols = suits_fit(sys.stdout.encoding, ascii_only=ascii_only)
    try:
        # One state, advanced in place by each action: keep it once the replay ends.
        (state,) = collections.deque(replay_log(game), maxlen=1)
    except ReplayError as err:  # verify_game and the engine disagree: a fault of kow's
        raise click.ClickException(
            f"{label}: game {game_number} can't be replayed: {err}"
        ) from None
    names = table_names(game["players"])
    logged = game["players"]
    shown: GameLog = {
        **game,
        "players": [{**p, "name": n} for p, n in zip(logged, names, strict=True)],
    }
    screen = Screen(names, Rules.from_dict(game["rules"]), symbols=symbols, color=color)
    title = _title(game_number, label, game["seed"])
    width = terminal_width() if sys.stdout.isatty() else None  # as kow play wraps; a pipe: none
    lines = screen.narrate(shown, state.events, title, round=round_number, width=width)
    text = "\n".join(lines)
    if sys.stdout.isatty():
        encoding = sys.stdout.encoding  # the pager's: it would write "?" for what it lacks
        text = text.encode(encoding, FALLBACK).decode(encoding)
        page(text + "\n", color=color)
    else:
        click.echo(text, color=color)


# ----------------------------------------------------------------------------- export

EXPORT_TABLES = ("games", "rounds", "tricks", "plays")
"""``kow export --table``'s choices: ``kow.runs.export.TABLES``, named here so that ``kow
--help`` imports no engine."""


def _export_games(
    files: tuple[str, ...], *, measure: bool = False, clear: Callable[[], None] | None = None
) -> Generator[tuple[str, int, int, GameLog, Fault | None, int], None, None]:
    """Yield ``(label, index, line, game, fault, read)`` for each game of ``files``, read
    in order.

    ``label`` names the input (``stdin`` for -); ``index`` counts its games from 1;
    ``line`` is where the game starts; ``fault`` is the game's fault of reading
    (:func:`_games_in`), or None; ``clear`` clears the progress bar before a repeated game
    is said; ``read`` is the bytes of ``files`` read so far
    with ``measure`` (regular files only: see :func:`_input_bytes`), else 0. Raises
    :class:`click.ClickException` for input that can't be opened or read (the place
    named); an input with no game (empty, or ``[]``) yields nothing, as jq reads it.
    Only the reading is guarded here: an error in writing a row is not raised inside
    this generator.
    """
    before = 0  # the bytes of the files read whole
    for name in files:
        label = _label(name)
        try:
            stream = _open_bytes(name)
        except OSError as err:
            raise click.ClickException(f"{label}: cannot open: {err.strerror or err}") from None
        with stream:
            for index, line, game, fault in _games_in(stream, label, clear=clear):
                yield label, index, line, game, fault, before + stream.tell() if measure else 0
            if measure:
                before += stream.tell()


def _input_bytes(files: tuple[str, ...]) -> int | None:
    """Return the size in bytes of the inputs ``files``, for a progress bar: None when one
    is stdin, a pipe or a device (its size is not known before it is read), or can't be
    opened (the command says so its way). A gzip file counts its compressed bytes."""
    total = 0
    for name in files:
        try:
            found = os.stat(name) if name != "-" else None
        except OSError:
            return None
        if found is None or not stat.S_ISREG(found.st_mode):
            return None
        total += found.st_size
    return total


def _games_shown(count: int) -> str:
    """Return what a progress bar of the commands that read logs shows after the bar.

    >>> _games_shown(1), _games_shown(1200)
    ('1 game', '1200 games')
    """
    return f"{count} game{'s' if count != 1 else ''}"


def _same_file(output: str, name: str) -> bool:
    """Return whether the path ``output`` names the file ``name`` (through any link)."""
    if os.path.realpath(output) == os.path.realpath(name):
        return True
    try:
        return os.path.samefile(output, name)
    except OSError:  # the output does not exist yet
        return False


_FILE_SUFFIXES = frozenset([".csv", ".tsv", ".txt", ".json", ".jsonl", ".gz", ".xlsx"])
"""The suffixes of a new ``-o`` that names a file, where several tables need a folder."""


def _export_folder(folder: str) -> bool:
    """Make the folder ``-o DIR`` of a several-table export if it does not exist; return
    whether it was made here (then it is removed again if the export ends early).

    Raises :class:`click.BadParameter` (exit 2) for a path that is a file, a new folder
    named as a file is (``out.csv``: :data:`_FILE_SUFFIXES`; ``out.csv/`` is a folder),
    or a folder that can't be made (its parent must exist).
    """
    hint = "'-o' / '--output'"
    if not folder.strip():
        raise click.BadParameter("give a folder path, not an empty string", param_hint=hint)
    if os.path.isdir(folder):
        return False
    if os.path.exists(folder):
        raise click.BadParameter(
            f"{folder!r} is a file: several tables go to a folder, one CSV file each",
            param_hint=hint,
        )
    stem, suffix = os.path.splitext(folder)
    if suffix.lower() in _FILE_SUFFIXES and stem.strip():
        raise click.BadParameter(
            f"{folder!r} is the name of a file: several tables go to a folder, one CSV "
            f"file each (give -o {stem!r}, or {folder + '/'!r} for a folder of that name)",
            param_hint=hint,
        )
    try:
        os.mkdir(folder)
    except OSError as err:
        raise click.BadParameter(
            f"cannot make the folder {folder!r}: {err.strerror or err}", param_hint=hint
        ) from None
    return True


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...", type=PATH)
@click.option(
    "--table", "tables", required=True, multiple=True,
    type=click.Choice((*EXPORT_TABLES, "all")),
    help="One row per game, round, trick or play (docs/tables.md gives every column)."
    " Give it more than once, or all, for several tables in one pass, to -o DIR.",
)  # fmt: skip
@click.option(
    "--output", "-o", default=None, metavar="FILE|DIR", type=PATH,
    help="Write the table to FILE (replaced whole at the end; gzip if FILE ends in .gz)"
    " instead of stdout. With several tables, DIR is a folder (made if it does not"
    " exist; its parent must; a new one named like a file, out.csv, is refused) and each"
    " table is written to DIR/TABLE.csv, replaced whole"
    " at the end.",
)  # fmt: skip
@click.option(
    "--spreadsheet-safe", is_flag=True,
    help="Prefix with ' each text cell that begins with = + - @, a tab or a carriage"
    " return, so that Excel or LibreOffice shows it instead of running it as a formula"
    " (a player's name can be one). Numbers are not changed.",
)  # fmt: skip
@quiet_option
def export(
    *,
    files: tuple[str, ...],
    tables: tuple[str, ...],
    output: str | None,
    spreadsheet_safe: bool,
    quiet: bool,
) -> None:
    """Write logged games as CSV tables: a row per game, round, trick or play.

    Each FILE (or - for stdin) may hold one game, JSON Lines, or concatenated JSON
    objects, read as kow verify reads them, in flat memory. Every row starts with the
    keys file, game (the game's place in its file, from 1) and seed (empty when the log's
    is null: dealt outside kow); seats are 0-based, cards as in the log, booleans true
    or false, a missing value empty. Each game is checked against the rules first, once
    whatever the number of tables: --table all -o DIR writes DIR/games.csv,
    DIR/rounds.csv, DIR/tricks.csv and DIR/plays.csv in one pass. Exit 1 at a game that
    is not legal or input that can't be read, naming its place: the rows of the games
    before it stay on stdout, and a file given to -o is left as it was (so are the
    tables of DIR). Exit 2 when a FILE can't be opened. Stopped (Ctrl-C, SIGTERM,
    SIGHUP), it says how many games it exported and what it kept, and exits 130, 143
    or 129. For a spreadsheet, give --spreadsheet-safe (the default keeps every value as
    logged, for pandas and DuckDB). A progress bar shows on stderr when it is a
    terminal (the table not on the same screen) and every FILE is a file.
    """
    chosen = EXPORT_TABLES if "all" in tables else tuple(t for t in EXPORT_TABLES if t in tables)
    several = len(chosen) > 1
    if several and output in (None, "-"):
        raise click.BadParameter(
            f"{len(chosen)} tables go to a folder, one CSV file each: give -o DIR",
            param_hint="'-o' / '--output'",
        )
    if files.count("-") > 1:  # stdin can be read once
        raise click.BadParameter(
            f"'-' (stdin) is given {files.count('-')} times; it may be given once",
            param_hint="'FILE...'",
        )
    folder = output if several else None
    paths: dict[str, str | None] = (
        {table: os.path.join(output, f"{table}.csv") for table in chosen}
        if several and output is not None
        else {chosen[0]: output}
    )
    for name in files:  # before a row is written; not opened, so a pipe is left unread
        if name != "-" and (os.path.isdir(name) or not os.access(name, os.R_OK)):
            why = "it is a folder" if os.path.isdir(name) else "no such file, or not readable"
            raise click.BadParameter(f"cannot open {name!r}: {why}", param_hint="'FILE...'")
        for path in paths.values():
            if path not in (None, "-") and _same_file(path, name):
                what = "table" if folder is None else f"table {path!r}"
                raise click.BadParameter(
                    f"{path!r} is the input {name!r}: the {what} would replace the games it"
                    " is read from; give another " + ("file" if folder is None else "folder"),
                    param_hint="'-o' / '--output'",
                )
    made = folder is not None and _export_folder(folder)
    states = {table: None if path is None else file_state(path) for table, path in paths.items()}
    kept = not several and not replaced_whole(output)  # stdout, a device or a pipe
    show = not quiet and progress_fits(output)
    total = _input_bytes(files) if show else None
    progress = Progress(total or 0, show and total is not None, "Exporting",
                        show_pos=False, item=_games_shown)  # fmt: skip
    exported = [0]  # games whose rows are written whole
    try:
        with progress:
            _export_rows(files, paths, exported, progress=progress,
                         spreadsheet_safe=spreadsheet_safe)  # fmt: skip
    except (KeyboardInterrupt, Stopped) as stop:  # stop_signals ignores any more now
        written = [t for t, path in paths.items() if path and file_state(path) != states[t]]
        _remove_if_empty(folder if made else None)
        note = _stopped_export(stop_said(stop), exported[0], paths=paths, written=written,
                               kept=kept, folder=folder, made=made and not written)  # fmt: skip
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            click.echo(note, err=True)
        click.get_current_context().exit(stop_code(stop))
    except BaseException:
        _remove_if_empty(folder if made else None)
        raise


def _remove_if_empty(folder: str | None) -> None:
    """Remove the folder ``folder`` (None: none) that an export made, when it is empty: an
    export that ends early leaves the place as it was."""
    if folder is not None:
        with contextlib.suppress(OSError):  # not empty (another wrote there), or gone
            os.rmdir(folder)


def _export_rows(
    files: tuple[str, ...],
    paths: dict[str, str | None],
    exported: list[int],
    *,
    progress: Progress,
    spreadsheet_safe: bool,
) -> None:
    """Write the rows of the games of ``files`` in each table of ``paths`` (table to its
    output: a path, or None or ``-`` for stdout), each checked and replayed once;
    ``exported[0]`` counts the games whose rows are written whole, for a stop's message.

    Each output is written whole at the end (:func:`atomic_output`); stdout gets each
    game's rows whole (:func:`stops_held`). Raises :class:`click.ClickException` at a
    game that is not legal or input that can't be read.
    """
    import csv
    import functools

    from ..log import ReplayError
    from ..runs.export import COLUMNS, IllegalGameError, cells, tables_rows
    from ..verify import GameFault

    as_cells = functools.partial(cells, spreadsheet_safe=spreadsheet_safe)
    tables = tuple(paths)
    with contextlib.ExitStack() as stack:
        writers = {}
        for table, path in paths.items():
            out = stack.enter_context(atomic_output(path))
            stack.enter_context(reader_may_leave(out))
            writers[table] = csv.writer(out, lineterminator="\n")
            writers[table].writerow(COLUMNS[table])
        read_games = _export_games(files, measure=progress.show, clear=progress.clear)
        games = stack.enter_context(contextlib.closing(read_games))
        read = 0
        for label, index, line, game, read_fault, now in games:  # closed on an error
            try:
                if read_fault is not None:  # as verify reads it: refused as not legal
                    raise IllegalGameError(read_fault)
                found = tables_rows(game, tables, file=label, index=index)
            except IllegalGameError as err:
                seed = game.get("seed") if isinstance(game, dict) else None
                if not isinstance(seed, int) or isinstance(seed, bool):
                    seed = None
                place = GameFault(label, index, line, seed=seed, fault=err.fault)
                raise click.ClickException(
                    f"{place}; the export stops at a game that is not legal"
                ) from None
            except ReplayError as err:  # verify_game and the engine disagree
                raise click.ClickException(
                    f"{label}: game {index} can't be replayed (a fault of kow's): {err}"
                ) from None
            with stops_held():  # a stop ends the export between games, not in one
                for table, table_rows in found.items():
                    writers[table].writerows(map(as_cells, table_rows))
                exported[0] += 1
            progress.advance(now - read, exported[0])
            read = now


def _stopped_export(
    said: str,
    exported: int,
    *,
    paths: dict[str, str | None],
    written: list[str],
    kept: bool,
    folder: str | None,
    made: bool = False,
) -> str:
    """Return what a stopped ``kow export`` says on stderr: how many games it
    ``exported``, and what became of each output of ``paths`` (table to path; None or
    ``-`` for stdout): ``kept`` when it is stdout, a device or a pipe, which keep the
    rows written; else left as it was, but for the tables ``written`` (stopped as their
    files were renamed into place). ``folder`` is -o DIR of several tables, ``made``
    when the export made it (and removed it again).

    >>> _stopped_export("Interrupted", 3, paths={"games": None}, written=[], kept=True,
    ...                 folder=None)
    'Interrupted after 3 games: their rows are written whole to stdout.'
    >>> _stopped_export("Stopped by SIGTERM", 1, paths={"plays": "p.csv"}, written=[],
    ...                 kept=False, folder=None)
    "Stopped by SIGTERM after 1 game: 'p.csv' was left as it was (not written)."
    >>> _stopped_export("Interrupted", 9, paths={"games": "t/games.csv", "plays":
    ...                 "t/plays.csv"}, written=[], kept=False, folder="t")
    "Interrupted after 9 games: the tables in 't' were left as they were (not written)."
    """
    counted = f"{said} after {_games_shown(exported)}"
    if kept:
        (path,) = paths.values()
        where = "stdout" if path in (None, "-") else repr(path)
        return f"{counted}: their rows are written whole to {where}."
    left = [path for table, path in paths.items() if table not in written]
    done = [path for table, path in paths.items() if table in written]
    if not done:
        if folder is not None and made:
            return f"{counted}: no table was written, and {folder!r}, made for them, was removed."
        if folder is not None:
            return f"{counted}: the tables in {folder!r} were left as they were (not written)."
        return f"{counted}: {left[0]!r} was left as it was (not written)."
    named = ", ".join(repr(p) for p in done)
    if not left:
        return f"{counted}: {named} written whole."
    return (
        f"{counted}: {named} written whole; {', '.join(repr(p) for p in left)} left as they were."
    )


# ----------------------------------------------------------------------------- analyze

ANALYSIS_ITERATIONS = 200
"""``kow analyze --iterations``'s default: :data:`kow.runs.analysis.DEFAULT_ITERATIONS`, named
here so that ``kow --help`` imports no engine."""
SECONDS_PER_DEAL = 0.00026
"""About what one deal of one decision costs an analysis, in seconds (a 4-player game of
50 decisions at 200 deals each took 2.6 s in pure Python): the cost
:func:`~kow.runs.batch.auto_jobs` weighs against starting processes."""


def _seats_of(text: str, game: GameLog, label: str, *, index: int) -> frozenset[int]:
    """Return the seat that ``--seat`` names in ``game``: a seat number (the digits 0-9),
    or a player's name as logged or as ``replay`` and ``analyze`` show it (in any case;
    a name such as ``²`` or ``-1`` too, which is refused as a number when nobody has it).

    Raises :class:`click.BadParameter` for a seat the game does not have, or a name that
    matches no player or several.
    """
    players = game["players"]
    shown = table_names(players)
    listed = ", ".join(
        f"{p['seat']} {p['name']!r}" + (f" (shown as {name!r})" if name != p["name"] else "")
        for p, name in zip(players, shown, strict=True)
    )
    where = f"game {index} of {label}"
    wanted = text.strip().casefold()
    found = {
        p["seat"]
        for p, name in zip(players, shown, strict=True)
        if wanted in (str(p["name"]).casefold(), name.casefold())
    }
    # The digits 0-9 are a seat number; other text that reads as a number (``²``, ``-1``)
    # is a player's name when one is so named, else a number refused as such.
    if wanted.isascii() and wanted.isdigit() or is_number(text) and not found:
        try:
            seat = parse_number(text, 0, len(players) - 1, what="a seat")
        except EntryError as err:
            raise click.BadParameter(
                f"{err} (0-based: {where} has {len(players)} seats)", param_hint="'--seat'"
            ) from None
        return frozenset({seat})
    if len(found) != 1:
        what = "no player" if not found else f"{len(found)} players"
        option = (
            f" ({quoted(text)} looks like an option: put the seat right after --seat)"
            if text.startswith("-") and not found
            else ""
        )
        raise click.BadParameter(
            f"{where} has {what} named {quoted(text)}: give a seat number or one of {listed}"
            + option,
            param_hint="'--seat'",
        )
    return frozenset(found)


@click.command()
@click.argument("file", metavar="FILE", type=PATH)
@click.option(
    "--game", "game_number", type=Count(1, None, "a game number"), default=None, metavar="K",
    help="Analyse only game K of the file (counting from 1) [default: every game].",
)  # fmt: skip
@click.option(
    "--seat", default=None, metavar="SEAT",
    help="Analyse only this player's decisions: a seat (0-based, clockwise) or a name in"
    " the log [default: every seat].",
)  # fmt: skip
@click.option(
    "--iterations", type=Count.of(ANALYSIS_DEALS),
    default=ANALYSIS_ITERATIONS, show_default=True, metavar="N",
    help="Deals sampled per decision, 2 to 100000; more gives tighter intervals.",
)  # fmt: skip
@click.option(
    "--seed", type=Count.of(SEED), default=0, show_default=True, metavar="INT",
    help="Seed of the analysis's deals (0 to 2^53-1): the same seed, the same output.",
)  # fmt: skip
@json_option("One JSON object per game, one per line (kow schema analysis gives its schema).")
@output_option("the analysis")
@click.option(
    "--jobs", "-j", type=Count.of(JOBS), default=None, metavar="N",
    show_default="one per CPU, fewer for little work",
    help="Processes analysing decisions at once; the output does not depend on it.",
)  # fmt: skip
@cluster_option
@ascii_option
@no_color_option
@quiet_option
def analyze(
    *,
    file: str,
    game_number: int | None,
    seat: str | None,
    iterations: int,
    seed: int,
    as_json: bool,
    output: str | None,
    jobs: int | None,
    cluster: str | None,
    ascii_only: bool,
    no_color: bool,
    quiet: bool,
) -> None:
    """Annotate each decision of logged games with the search bot's values.

    For each trump choice, card and knock with more than one legal action, the search
    bot, given that seat's view only, plays every legal action out in the same sampled
    deals and estimates its chance of winning the game and of taking a trick this
    round, with 95% intervals. A choice worth clearly less than the best found is a
    blunder (??): its loss in win chance, deal by deal, has a 95% lower bound above 2
    points. Votes and forced actions are not analysed.

    FILE (or - for stdin) holds logs of kow play or kow simulate, in any form verify
    reads; it is read up to the last game analysed (with --game K, up to game K) and
    those games are checked before any analysis: at the first fault (bytes that can't be
    read, a game that is not legal), the games before it are analysed and written, then
    the fault is named (exit 1). --seat analyses the games that have
    that seat or player and skips the others. Text for people,
    or --json for tools. Seeded: the same log, --seed and --iterations give the same
    output whatever --jobs or --cluster is. A progress bar shows on stderr when it is a terminal.
    Exit 1 for input that can't be read or a game that is not legal (its place named),
    2 for a FILE that can't be opened or a --game or --seat the input does not have.
    """
    import json

    from ..log import ReplayError
    from ..runs.analysis import analyse_game, decisions, text_lines, to_dict
    from ..runs.batch import auto_jobs
    from ..runs.executors import TaskError
    from ..screen import Screen, terminal_width, wrap
    from ..verify import GameFault, verify_game

    if output not in (None, "-") and file != "-" and _same_file(output, file):
        raise click.BadParameter(
            f"{output!r} is the input {file!r}: the analysis would replace the games it is"
            " read from; give another file",
            param_hint="'-o' / '--output'",
        )
    refuse_jobs_with_cluster(jobs, cluster)
    stream, label = _open_input(file)
    games: list[tuple[int, int, GameLog, Fault | None]] = []
    count = 0
    # The games before the first fault are analysed, then the fault is named (exit 1).
    pending: click.ClickException | None = None
    with stream:  # read whole, so that a fault anywhere is named before the long work
        try:
            for count, line, game, read_fault in _games_in(stream, label):
                if game_number is None or count == game_number:
                    games.append((count, line, game, read_fault))
                    if game_number is not None:
                        break
        except click.ClickException as err:  # bytes that can't be read: games before kept
            if not games:
                raise
            pending = err
    if pending is None:
        _check_game_found(label, count, bool(games), game_number=game_number, verb="analyse")
    work: list[tuple[int, GameLog, frozenset[int] | None]] = []
    refused: list[click.BadParameter] = []
    total = 0
    for index, line, game, read_fault in games:
        fault = read_fault or verify_game(game)
        if fault is not None:
            logged = game.get("seed") if isinstance(game, dict) else None
            known = isinstance(logged, int) and not isinstance(logged, bool)
            place = GameFault(label, index, line, seed=logged if known else None, fault=fault)
            pending = click.ClickException(f"{place}; a game that is not legal can't be analysed")
            break
        seats = None
        if seat is not None:
            try:
                seats = _seats_of(seat, game, label, index=index)
            except click.BadParameter as err:
                # Games of one file may have other tables: analyse those that have it.
                refused.append(err)
                continue
        try:
            total += len(decisions(game, seats))
        except ReplayError as err:  # verify_game and the engine disagree: a fault of kow's
            raise click.ClickException(
                f"{label}: game {index} can't be replayed (a fault of kow's): {err}"
            ) from None
        work.append((index, game, seats))
    if not work:  # no game before the fault, or none has that seat: say why
        raise pending if pending is not None else refused[0]
    to_stdout = output in (None, "-")
    screen_out = to_stdout and sys.stdout.isatty()
    color = to_stdout and color_fits(sys.stdout, no_color=no_color)
    encoding = sys.stdout.encoding if to_stdout else "utf-8"
    symbols = suits_fit(encoding, ascii_only=ascii_only)
    width = terminal_width() if screen_out else None  # as kow play wraps; a file: none
    show = not quiet and sys.stderr.isatty()
    with (
        atomic_output(output) as out,
        cluster_executor(cluster, jobs) as executor,
        Progress(total, show, "Analysing") as progress,
        reader_may_leave(out),
    ):
        if executor is None:
            jobs = jobs or auto_jobs(total, iterations * SECONDS_PER_DEAL)
        try:
            for number, (index, game, seats) in enumerate(work):
                try:
                    result = analyse_game(
                        game, index=index, seed=seed, iterations=iterations, seats=seats,
                        jobs=jobs or 1, on_decision=lambda: progress.advance(1),
                        executor=executor,
                    )  # fmt: skip
                except TaskError as err:
                    raise click.ClickException(
                        f"{label}: game {index}, the decision at action {err.item}"
                        f" (analysis seed {seed}): {err}"
                    ) from None
                if as_json:
                    text = json.dumps(to_dict(result, label), separators=(",", ":"))
                else:
                    names = table_names(game["players"])
                    screen = Screen(
                        names, Rules.from_dict(game["rules"]), symbols=symbols, color=color
                    )
                    title = _title(index, label, game["seed"])
                    lines = [""] if number else []
                    for each in text_lines(result, screen, title):
                        lines += wrap(each, width)
                    text = "\n".join(lines)
                if screen_out:
                    progress.clear()  # the bar's line, on the same screen
                write_out(text, out)
        except ReplayError as err:  # verify_game and the engine disagree: a fault of kow's
            raise click.ClickException(f"{label}: a game can't be replayed: {err}") from None
    if pending is not None:  # the games before it are analysed and written
        raise pending
