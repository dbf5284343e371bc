"""A sitting at the keyboard: the games of ``kow play``, one after another.

:class:`Terminal` is the screen and keyboard: lines wrapped to the width, entries read
with line editing, a private clear between people. :class:`Sitting` plays a game with
people and bots on it, keeps the log, shows the end-of-game summary, offers the search
bot's analysis of the people's decisions (:mod:`kow.runs.analysis`) and another game, and
keeps the running score of the sitting (games won by each player). A sitting may start by
continuing an abandoned game (:class:`Continuation`, from ``kow play --resume``). The command line
(:func:`kow.cli.play`) only reads the options and the exit code.
"""

from __future__ import annotations

import contextlib
import os
import random
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import IO, Any, NamedTuple

from .. import log
from ..engine import State
from ..entries import MAX_ENTRY, EntryError, parse_choice
from ..events import HUMAN, Deal, Event, Knock, Phase, Play, RoundEnd, TrickWon, Vote
from ..game import bots_rng, drive, new_game
from ..players import Player, make_bot
from ..rulebook import rules_summary
from ..rules import Rules
from ..runs.analysis import DEFAULT_ITERATIONS, analyze_game, decisions, text_lines
from ..screen import GLUE, Screen, printable, strip_escapes, terminal_width, wrap
from ..stopping import Stopped, signals_ignored
from ._files import atomic_output
from ._pipes import silence_stdout
from ._terminal import page
from .human import HotSeat, HumanPlayer, Quit

__all__ = ["PIPED_PATIENCE", "Ending", "LogWriteError", "Continuation", "Sitting", "Terminal"]

PIPED_PATIENCE = 20
"""Entries read for one decision from piped input before the game is left (a script
that repeats a refused entry would otherwise loop forever)."""

_QUIT_REASONS = {
    "quit": "you quit",
    "refused": f"{PIPED_PATIENCE} entries in a row were refused",
    "end of input": "end of input",
}

_AGAIN_ANSWERS = {
    "y": True, "yes": True, "n": False, "no": False, "q": False, "quit": False, "exit": False,
}  # fmt: skip
"""The answers to "Play again?" (``quit`` and ``exit`` stop, as at every prompt)."""
_ANALYSIS_ANSWERS = ("a", "analyse", "analyze", "analysis")
"""The answers to "Play again?" that show the analysis of the game just played."""
_HELP_ANSWERS = ("help", "?")
"""The answers to "Play again?" that say what it takes, as ``help`` does at every prompt."""

PRIVATE_CLEAR = "\x1b[H\x1b[2J\x1b[3J"
"""Home, erase the screen, erase the scrollback: the hand shown before is gone from both
(a terminal that moves an erased screen into its scrollback erases it there too)."""


class Ending(NamedTuple):
    """How a game of a sitting ended: the exit ``code`` (0: played to the end, and no
    other game wanted), the ``reason`` it was left (empty for 0), and the ``seed`` of that
    game. ``finished``: the game was played to the end, and the sitting was left after it
    (at the play-again prompt)."""

    code: int
    reason: str
    seed: int
    finished: bool = False


class Continuation(NamedTuple):
    """Where a sitting takes up an abandoned game, its first game (``kow play --resume``).

    ``state``: the game played again from its seed up to where its log stops
    (:func:`kow.runs.provenance.play_again`), the next decision awaited; ``bots``: the
    players of the bot seats, in seat order after the people's, each having made its
    logged decisions (so the bots' generator stands where it stood); ``source``: the
    file it came from, as shown (escaped).
    """

    state: State
    bots: Sequence[Player]
    source: str


class LogWriteError(OSError):
    """Raised when the file given to ``--log`` cannot be written (a full disk, a device
    that refuses); ``path`` names it, ``strerror`` says why."""

    def __init__(self, path: str, err: OSError) -> None:
        super().__init__(err.errno, err.strerror or str(err))
        self.path = path


class Terminal:
    """The terminal of ``kow play``: lines out, entries in, and a private clear.

    ``stdin``/``stdout`` are text streams; ``interactive`` when a person types at
    ``stdin`` (a terminal), ``screen`` when ``stdout`` is a terminal. ``color`` keeps
    ANSI escapes in the lines written (else they are removed). Lines are wrapped to the
    terminal's width at each write (:func:`kow.screen.wrap`; ``COLUMNS`` overrides it, as
    for any program; 80 when unknown).
    """

    def __init__(
        self, stdin: IO[str], stdout: IO[str], *, interactive: bool, screen: bool, color: bool
    ) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.interactive = interactive
        self.screen = screen
        self.color = color
        self.moved = False
        """Set when the game has moved on since the last entry (see :meth:`read`)."""
        self._hushed: tuple[int, list[Any]] | None = None
        self.readline = None
        if interactive and stdin is sys.stdin:
            with contextlib.suppress(ImportError):  # not on Windows: keys work as they do
                import readline  # noqa: F401  input() now has line editing and history

                self.readline = readline

    @property
    def private(self) -> bool:
        """Whether :meth:`clear` erases what was shown, scrollback included: a terminal
        that understands erasing (not ``TERM=dumb``, not a file or a pipe)."""
        return self.screen and os.environ.get("TERM") != "dumb"

    @contextlib.contextmanager
    def hushed(self) -> Iterator[None]:
        """Within the block, keys typed are not shown, except while an entry is read.

        So keys pressed while the bots play leave nothing on screen (:meth:`read` drops
        them). The terminal's settings are restored on the way out, however the block
        ends. Does nothing without a terminal, or on Windows.
        """
        if not self.interactive or sys.platform == "win32":
            yield
            return
        import termios

        try:
            fd = self.stdin.fileno()
            old = termios.tcgetattr(fd)
        except (OSError, ValueError, termios.error):
            yield
            return
        self._hushed = (fd, old)
        self.echo(False)
        try:
            yield
        finally:
            self.echo(True)
            self._hushed = None

    def echo(self, on: bool) -> None:
        """Show typed keys (``on``) or not, within :meth:`hushed` (elsewhere they are shown)."""
        if self._hushed is None or sys.platform == "win32":
            return
        import termios

        fd, old = self._hushed
        settings = list(old)
        if not on:
            settings[3] = settings[3] & ~termios.ECHO
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, settings)

    @property
    def width(self) -> int:
        """The columns its lines are wrapped to: :func:`kow.screen.terminal_width`."""
        return terminal_width()

    def page(self, lines: Sequence[str]) -> None:
        """Show ``lines`` through a pager (:func:`~kow.cli._terminal.page`: ``$PAGER``, else
        ``less``) when a person reads this terminal; else write them as :meth:`write` does."""
        if not (self.screen and self.interactive):
            self.write("\n".join(lines))
            return
        text = "\n".join(lines)
        if not self.color:
            text = strip_escapes(text)
        page(text + "\n", color=self.color)

    def write(self, text: str) -> None:
        """Write ``text`` (one line or several), each line wrapped to the width."""
        if not self.color:
            text = strip_escapes(text)
        width = self.width
        out = [part for line in text.split("\n") for part in wrap(line, width)]
        self.stdout.write("\n".join(out) + "\n")
        self.stdout.flush()

    def read(self, prompt: str) -> str:
        """Show ``prompt`` and return the line typed, without its newline.

        Keys typed while the game moved on (:attr:`moved` set: others played) are dropped
        first, so they never count as an entry; keys typed ahead after a command are kept.
        Piped entries are echoed, so a transcript reads as typed. Raises
        :class:`EOFError` at the end of input.
        """
        if self.moved:
            self.discard_typed()
            self.moved = False
        lines = wrap(prompt.rstrip(" "), self.width)
        if len(lines) > 1:  # a long prompt wraps as other lines do; the entry follows its end
            self.write("\n".join(lines[:-1]))
            prompt = lines[-1] + prompt[len(prompt.rstrip(" ")) :]
        self.echo(True)
        try:
            if self.interactive and self.stdin is sys.stdin and self.stdout is sys.stdout:
                line = input(prompt)  # with readline's editing when it is loaded
            else:
                self.stdout.write(prompt)
                self.stdout.flush()
                line = self._readline()
        finally:
            self.echo(False)
        if not self.interactive:  # control characters shown escaped, never sent as such
            self.stdout.write(printable(line) + "\n")
        return line

    def _readline(self) -> str:
        """Return the next line of ``stdin`` without its newline, cut after
        :data:`~kow.entries.MAX_ENTRY` + 1 characters (the rest of a longer line is read
        and dropped, so that memory stays flat and the entry is refused as too long).
        Raises :class:`EOFError` at the end of input."""
        line = self.stdin.readline(MAX_ENTRY + 2)  # room for the newline and one more
        if not line:
            raise EOFError
        if line.endswith("\n"):
            return line[:-1]
        while (rest := self.stdin.readline(1 << 16)) and not rest.endswith("\n"):
            pass
        return line

    def discard_typed(self) -> None:
        """Drop the keys typed and not yet read (a terminal only)."""
        if not self.interactive:
            return
        with contextlib.suppress(OSError, ValueError):
            if sys.platform == "win32":  # pragma: no cover
                import msvcrt

                while msvcrt.kbhit():
                    msvcrt.getwch()
            else:
                import termios

                # A closed terminal (SIGHUP) fails with termios.error, not an OSError.
                with contextlib.suppress(termios.error):
                    termios.tcflush(self.stdin.fileno(), termios.TCIFLUSH)

    def clear(self) -> None:
        """Hide what is on screen from the next person: screen and scrollback erased, and
        the entries' history forgotten. Without a terminal, a dashed line; on a terminal
        that cannot erase (``TERM=dumb``), blank lines push the screen up first."""
        self.moved = True  # keys typed at the hand-over (a second Enter) are not entries
        if self.readline is not None:
            self.readline.clear_history()
        if not self.screen:
            self.write("-" * 40)
        elif os.environ.get("TERM") == "dumb":  # it cannot erase: push the hand off screen
            rows = shutil.get_terminal_size((80, 24)).lines
            self.write("\n" * rows + "-" * 40)
        elif sys.platform == "win32":  # pragma: no cover - cls erases the buffer too
            os.system("cls")
        else:
            self.stdout.write(PRIVATE_CLEAR)
            self.stdout.flush()


@dataclass
class Sitting:
    """The games of one ``kow play``: people at one keyboard and bots, one game at a time.

    ``humans`` are the people's names, in seats 0, 1, ...; ``bots`` the bot kinds of the
    other seats, named ``bot_names`` in order. ``dealer`` is the first dealer's seat (None:
    drawn from each game's seed). ``log_path``: the file that keeps every game of the
    sitting, one JSON log per line (``logs``), rewritten whole after each game (and when
    a game is abandoned); a device or a pipe there gets each game once, as it ends.
    ``delay`` seconds pass after each bot's card and each trick; none once every person
    is knocked out. ``symbols``: suits as ♣ ♦ ♥ ♠, else letters.
    ``rulebook``: the lines that ``rules`` shows at a prompt (in a pager on a terminal).
    ``auto_forced``: each person's forced moves play themselves from the start (each
    person's ``auto`` command turns it on or off for the rest of the sitting).
    ``wins[seat]``: the games each player has won in this sitting, shown after each game.
    """

    rules: Rules
    humans: Sequence[str]
    bots: Sequence[str]
    _: KW_ONLY
    bot_names: Sequence[str]
    terminal: Terminal
    dealer: int | None = None
    search_iterations: int | None = None
    log_path: str | None = None
    delay: float = 0.0
    symbols: bool = True
    rulebook: Callable[[], Sequence[str]] | None = None
    auto_forced: bool = False
    kept: str = ""
    """The text a log file written whole keeps before this sitting's games: what the file
    held (a log is never replaced), or the games before a resumed one."""
    # What the sitting keeps as it goes: not given to __init__.
    logs: list[str] = field(default_factory=list, init=False)
    wins: list[int] = field(default_factory=list, init=False)
    _auto: dict[str, bool] = field(default_factory=dict, init=False)
    _rewrite: bool = field(default=True, init=False)
    _games: int = field(default=0, init=False)
    _finished: log.GameLog | None = field(default=None, init=False)

    def play(
        self, seed: int, new_seed: Callable[[], int], *, resume: Continuation | None = None
    ) -> Ending:
        """Play games from ``seed`` until the people stop; return how the last one ended.

        ``resume``: the first game is that abandoned game of ``seed``, continued.

        After each finished game the people are asked whether to play again, with a seed
        from ``new_seed()`` and the same options. The :class:`Ending`'s code is 0 when the
        last game was played to the end (and no other wanted); 1 when a game was left
        (quit, end of input, a closed screen) or when :data:`PIPED_PATIENCE` piped answers
        to "Play again?" were refused (then ``finished`` is set); 130 on Ctrl-C, and the
        signal's code on SIGTERM or SIGHUP. Raises :class:`~kow.game.PlayerError` (a bot's fault;
        like any other exception, only once the game so far is in the log),
        :class:`click.BadParameter` for a ``log_path`` that can't be opened and
        :class:`LogWriteError` when writing it fails (the games so far are shown).
        """
        with self.terminal.hushed():
            while True:
                ending = self.play_game(seed, resume=resume)
                resume = None
                if ending.code:
                    return ending
                try:
                    if not self._again():
                        return ending
                except Quit as err:  # entries refused again and again
                    return Ending(1, _QUIT_REASONS[str(err)], seed, finished=True)
                seed = new_seed()

    def play_game(self, seed: int, *, resume: Continuation | None = None) -> Ending:
        """Play one game with ``seed``; return how it ended (see :meth:`play`).

        ``resume``: continue that game of ``seed`` instead, from where its log stops: the
        game so far is followed silently, then the current round so far is told.
        """
        terminal = self.terminal
        self._games += 1
        self._finished = None
        names = [*self.humans, *self.bot_names]
        shown_names = [printable(name) for name in names]  # a resumed log's names too
        screen = Screen(shown_names, self.rules, symbols=self.symbols, color=terminal.color)
        transcript: list[str] = []
        hot_seat = HotSeat(terminal.clear, transcript) if len(self.humans) > 1 else None
        players: list[Player] = [
            HumanPlayer(
                name, screen, terminal.read, write=terminal.write, hot_seat=hot_seat,
                hint_rng=random.Random(f"kow-hint:{seed}:{i}"),
                hint_iterations=self.search_iterations,
                patience=None if terminal.interactive else PIPED_PATIENCE,
                rulebook=self.rulebook, page=terminal.page,
                auto_forced=self._auto.get(name, self.auto_forced),
            )
            for i, name in enumerate(self.humans)
        ]  # fmt: skip
        if resume is None:
            rng = bots_rng(seed)
            players += [
                make_bot(kind, name, rng, search_iterations=self.search_iterations)
                for kind, name in zip(self.bots, self.bot_names, strict=True)
            ]
            state = new_game(self.rules, seed, self.dealer)
        else:
            players += resume.bots
            state = resume.state
        if not self.wins:
            self.wins = [0] * len(players)
        seats = ", ".join(
            f"{s}{GLUE}{shown_names[s]}" + ("" if p.kind == HUMAN else f"{GLUE}({p.kind})")
            for s, p in enumerate(players)
        )
        opening = [
            screen.bold(f"Knock-Out Whist, seed {seed}"),
            f"Seats, clockwise: {seats}",
            f"Rules: {rules_summary(self.rules)}.",
            "Type help at any prompt for the commands, rules for the rules, quit to leave.",
        ]
        if hot_seat is not None and not terminal.private:
            opening.append(
                "Warning: this screen cannot be erased (not a terminal, or TERM=dumb), so "
                "each hand stays in its scrollback; hot seat needs a terminal to be private."
            )
        if resume is not None:
            opening.append(
                f"Resuming the game left in {resume.source}, at round {state.round}"
                + (f", trick {state.trick_number}." if state.phase is Phase.PLAY else ".")
            )
        humans_in = set(range(len(self.humans)))
        delay = self.delay
        past = len(state.events)  # a resumed game's events so far: followed, not told
        told = 0
        recap: list[str] = []

        def on_event(event: Event) -> None:
            nonlocal delay, told, recap
            lines = screen.event(event)
            told += 1
            if told <= past:  # the game so far: only the current round is told, at its end
                recap = list(lines) if isinstance(event, Deal) else recap + lines
                if isinstance(event, RoundEnd):
                    humans_in.difference_update(event.eliminated)
                if told < past:
                    return
                lines = recap  # from the current round's deal on
                if not humans_in and state.phase is not Phase.OVER:
                    delay = 0.0
                    lines.append(self._knocked_out_note())
            terminal.moved = True
            for line in lines:
                terminal.write(line)
            transcript.extend(lines)
            if hot_seat is not None and isinstance(event, (Play, Knock, Vote)):
                name = players[event.seat].name
                if players[event.seat].kind == HUMAN:  # not told back their own action
                    hot_seat.seen[name] = len(transcript)
            if isinstance(event, RoundEnd) and humans_in & set(event.eliminated):
                humans_in.difference_update(event.eliminated)
                if not humans_in and state.phase is not Phase.OVER:
                    delay = 0.0  # nobody to keep waiting: the game plays out at once
                    terminal.write(self._knocked_out_note())
            if delay and (
                isinstance(event, TrickWon)
                or (isinstance(event, (Play, Knock)) and players[event.seat].kind != HUMAN)
            ):
                time.sleep(delay)

        out = contextlib.ExitStack()
        if self.log_path is not None:  # checked (and a usage error) before the game starts
            if not self.logs:  # a device or a pipe is written game by game, not rewritten
                path = self.log_path
                self._rewrite = not os.path.exists(path) or os.path.isfile(path)
            stream = out.enter_context(atomic_output(self.log_path, "--log"))
        ending = Ending(0, "", seed)
        fault: Exception | None = None
        try:
            with contextlib.ExitStack() as calm, out:  # calm ends after the log is saved
                try:
                    ending = self._play_out(
                        seed, state, players, on_event=on_event, opening=opening, screen=screen
                    )
                except Exception as err:  # a bot's fault, or kow's: the game so far is kept
                    fault = err
                    ending = Ending(1, "a fault", seed)
                # A second signal (a closing terminal sends several) must not cut the
                # save short.
                calm.enter_context(signals_ignored())
                if self.log_path is not None:
                    game = log.build(
                        seed, self.rules, players, events=state.events, abandoned=ending.code != 0
                    )
                    self.logs.append(log.dumps(game) + "\n")
                    written = self.logs if self._rewrite else self.logs[-1:]
                    stream.write((self.kept if self._rewrite else "") + "".join(written))
        except OSError as err:  # only the log is written here: the screen's faults are caught
            raise LogWriteError(self.log_path or "", err) from None
        if fault is not None:
            raise fault
        for i, player in enumerate(players[: len(self.humans)]):
            if isinstance(player, HumanPlayer):  # auto on or off: kept for the next game
                self._auto[self.humans[i]] = player.auto_forced
        with contextlib.suppress(OSError):
            terminal.discard_typed()  # nothing typed during the game reaches the shell
        if ending.code:
            return ending
        self._finished = log.build(seed, self.rules, players, events=state.events)
        terminal.write(f"Seed {seed}: play this deal again with --seed {seed}.")
        if self.log_path:
            games = len(self.logs)
            what = "Log" if games == 1 else f"Logs of the {games} games"
            after = ", after the games it held" if self.kept and self._rewrite else ""
            terminal.write(f"{what} saved to {self.log_path}{after}.")
        return Ending(0, "", seed)

    def _play_out(
        self,
        seed: int,
        state: State,
        players: Sequence[Player],
        *,
        on_event: Callable[[Event], None],
        opening: Sequence[str],
        screen: Screen,
    ) -> Ending:
        """Play the game of ``seed`` to its end, or until it is left; return how it ended."""
        terminal = self.terminal
        try:
            for line in opening:
                terminal.write(line)
            drive(state, players, on_event)
            for line in ["", *screen.summary(), self._score(state, screen)]:
                terminal.write(line)
        except Quit as err:
            return Ending(1, _QUIT_REASONS.get(str(err), "end of input"), seed)
        except BrokenPipeError:  # the screen went away: keep the game so far
            silence_stdout()
            return Ending(1, "the screen's output closed", seed)
        except OSError as err:  # the screen or keyboard failed (a full disk, a lost tty)
            silence_stdout()
            return Ending(1, f"the terminal failed: {err.strerror or err}", seed)
        except KeyboardInterrupt:
            return Ending(130, "interrupted", seed)
        except Stopped as err:
            return Ending(err.code, f"ended by {err.name}", seed)
        return Ending(0, "", seed)

    def _score(self, state: State, screen: Screen) -> str:
        """Count the game just won (``state.outcome``, the engine's) in :attr:`wins`, and
        return the sitting's running score: ``Games won so far (2 played): You 1 · Ada 1``."""
        if state.outcome is not None:
            self.wins[state.outcome.winner] += 1
        games = sum(self.wins)
        return f"Games won so far ({games} played): " + screen.between.join(
            f"{screen.names[seat]}{GLUE}{won}" for seat, won in enumerate(self.wins)
        )

    def _knocked_out_note(self) -> str:
        """Return what the people are told when the last of them is knocked out (the
        screen has just said who is)."""
        if self.rules.eliminated_vote:
            you = "you" if len(self.humans) == 1 else "each of you"
            return f"From now on {you} only vote for each round's trump; the bots play the tricks."
        return "Nobody at the keyboard is left in: the bots play the game out now."

    def _again(self) -> bool:
        """Ask whether to play another game; ``n``, ``quit`` or end of input is no.

        When the people had decisions with a choice in the game just played, ``a`` shows
        their analysis first (:meth:`_analyze`), then asks again. Any other answer is
        refused (:func:`kow.entries.parse_choice`) and asked again. Raises
        :class:`~kow.cli.human.Quit` (``"refused"``) after :data:`PIPED_PATIENCE`
        entries from piped input with no y or n, as every prompt of the game does.
        """
        terminal = self.terminal
        count = self._human_decisions()
        offer = count > 0
        if offer:
            whose = "your" if len(self.humans) == 1 else "each person's"
            terminal.write(
                f"Type a to see how the search bot rates {whose} decisions in this game."
            )
        answers: dict[str, bool | None] = dict(_AGAIN_ANSWERS)
        what = "y to play again, n to stop"
        if offer:
            answers.update(dict.fromkeys(_ANALYSIS_ANSWERS, None))
            what = "y to play again, n to stop, a for the analysis of this game"
        for _ in range(PIPED_PATIENCE if not terminal.interactive else 1 << 62):
            try:
                text = terminal.read("Play again, with a new seed? [y/n] ")
                if text.strip().lower() in _HELP_ANSWERS:  # help works at every prompt
                    terminal.write(f"Type {what}; quit or exit stops too.")
                    continue
                answer = parse_choice(text, answers, what)
            except EOFError:
                return False
            except EntryError as err:
                terminal.write(f"{err}.")
                continue
            if answer is None:
                self._analyze(count)
                continue
            return answer
        raise Quit("refused")

    def _human_decisions(self) -> int:
        """Return how many decisions with a choice the people made in the game just played
        (0 when it was not played to the end)."""
        if self._finished is None:
            return 0
        return len(decisions(self._finished, range(len(self.humans))))

    def _analyze(self, count: int) -> None:
        """Show the analysis of the people's ``count`` decisions in the game just played.

        The same as ``kow analyze LOG --game K --seat S`` on the sitting's log (game K of
        the sitting, from 1): the default deals per decision and seed 0, in this process.
        """
        game = self._finished
        if game is None:
            return
        terminal = self.terminal
        terminal.write(
            f"Analyzing {count} decision{'s' if count != 1 else ''}, {DEFAULT_ITERATIONS} "
            "deals each: a few seconds..."
        )
        result = analyze_game(game, index=self._games, seats=range(len(self.humans)))
        names = [*self.humans, *self.bot_names]
        screen = Screen(names, self.rules, symbols=self.symbols, color=terminal.color)
        title = f"Game {self._games} of this sitting, seed {game['seed']}"
        terminal.write("\n".join(["", *text_lines(result, screen, title), ""]))
        if self.log_path and len(self.humans) == 1:
            path = shlex.quote(self.log_path)
            terminal.write(f"As JSON: kow analyze {path} --game {self._games} --seat 0 --json")
