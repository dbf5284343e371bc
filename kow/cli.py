"""The command line: parse options, build rules and players, run the game loop, write output.

It holds no game logic. What only one command needs is imported inside that command, so
``kow --help`` stays fast.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, TypeVar

import click

from . import __version__
from .rules import DOGS_LIFE, LEADS, MAX_PLAYERS, MAX_SEED, MIN_PLAYERS, Rules, max_start_cards

F = TypeVar("F", bound=Callable[..., Any])


class _Kow(click.Group):
    """The ``kow`` group: Ctrl-C exits 130, and a failed write to stdout is one line."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().main(*args, **kwargs)
        except OSError as err:  # writing --help or --version, before any command runs
            if err.errno == errno.EPIPE:
                _quiet_broken_pipe()
            _silence_stdout()
            click.echo(f"Error: cannot write the output: {err.strerror or err}", err=True)
            sys.exit(1)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with _stop_signals():
                return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            ctx.exit(130)
        except Stopped as err:  # SIGTERM or SIGHUP: cleanups ran; leave without a word
            ctx.exit(err.code)
        except OSError as err:
            if err.errno == errno.EPIPE:
                _quiet_broken_pipe()
            _silence_stdout()
            raise click.ClickException(f"cannot write the output: {err.strerror or err}") from None


@click.group(cls=_Kow, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="kow")
def main() -> None:
    """Knock-Out Whist for the command line.

    \b
    kow play        play in the terminal, against bots or with friends
    kow simulate    seeded bot games as JSON logs
    kow tournament  measure bots against each other
    kow verify      check logs against the rules
    kow replay      tell a logged game trick by trick
    kow schema      the JSON Schema of the log format

    Rules, with their sources: docs/rules.md. Log format: docs/log-format.md.
    """


# ----------------------------------------------------------------------------- shared options


def rule_options(f: F) -> F:
    """Add every rule option to a command, and pass it a ``rules`` (a :class:`Rules`).

    The options are ``--players``, ``--start-cards``, ``--dogs-life``, ``--fixed-trump``,
    ``--no-final-round-trump``, ``--lead``, ``--eliminated-vote`` and ``--no-sweep-wins``;
    ``docs/rules.md`` gives the source of each.
    """

    @functools.wraps(f)
    def wrapper(
        *args: Any,
        players: int,
        start_cards: int,
        dogs_life: str,
        fixed_trump: bool,
        final_round_trump: bool,
        lead: str,
        eliminated_vote: bool,
        sweep_wins: bool,
        **kwargs: Any,
    ) -> Any:
        most = max_start_cards(players)
        if start_cards > most:
            raise click.BadParameter(
                f"{start_cards} is too many for {players} players: allowed 1 to {most} "
                "(players x cards + 1 <= 52, so a card is left to turn up)",
                param_hint="'--start-cards'",
            )
        rules = Rules(
            players=players,
            start_cards=start_cards,
            dogs_life=dogs_life,  # type: ignore[arg-type]
            trump="fixed" if fixed_trump else "winner-chooses",
            final_round_trump=final_round_trump,
            lead=lead,  # type: ignore[arg-type]
            eliminated_vote=eliminated_vote,
            sweep_wins=sweep_wins,
        )
        return f(*args, rules=rules, **kwargs)

    options = [
        click.option(
            "--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=4,
            show_default=True, help="Number of players, each for themselves.",
        ),
        click.option(
            "--start-cards", type=click.IntRange(min=1), default=7, show_default=True,
            help="Cards dealt in round 1; one fewer each round (players x cards + 1 <= 52).",
        ),
        click.option(
            "--dogs-life", type=click.Choice(DOGS_LIFE), default="off", show_default=True,
            help="Dog's life: once per game (traditional) or once per player (rules text).",
        ),
        click.option(
            "--fixed-trump", is_flag=True,
            help="Round 1's turned-up suit stays trump all game; nobody chooses.",
        ),
        click.option(
            "--final-round-trump/--no-final-round-trump", default=True, show_default=True,
            help="Whether the final 1-card round has a trump.",
        ),
        click.option(
            "--lead", type=click.Choice(LEADS), default="most-tricks", show_default=True,
            help="Who leads rounds 2 on: last round's most tricks, or the dealer's left.",
        ),
        click.option(
            "--eliminated-vote", is_flag=True,
            help="Knocked-out players vote for the next trump.",
        ),
        click.option(
            "--sweep-wins/--no-sweep-wins", default=True, show_default=True,
            help="Whether winning every trick of a round wins the game at once.",
        ),
    ]  # fmt: skip
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def check_dealer(dealer: int | None, rules: Rules) -> None:
    """Raise a usage error when ``dealer`` is not a seat of a game under ``rules``."""
    if dealer is not None and dealer >= rules.players:
        raise click.BadParameter(
            f"{dealer} is not a seat: seats are 0 to {rules.players - 1} "
            f"with {rules.players} players",
            param_hint="'--dealer'",
        )


def parse_bots(text: str, seats: int, option: str = "--bots") -> list[str]:
    """Return one bot kind per seat from ``KIND`` or ``KIND,KIND,...`` (one per seat).

    Raises :class:`click.BadParameter` naming an unknown kind or a wrong count.
    """
    from .players import BOT_KINDS

    kinds = [k.strip() for k in text.split(",")]
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise click.BadParameter(
                f"{kind!r} is not a bot kind: choose from {', '.join(BOT_KINDS)}",
                param_hint=f"'{option}'",
            )
    if len(kinds) == 1:
        return kinds * seats
    if len(kinds) != seats:
        raise click.BadParameter(
            f"{text!r} gives {len(kinds)} kinds for {seats} seats: "
            f"give one kind for all seats, or {seats} separated by commas",
            param_hint=f"'{option}'",
        )
    return kinds


def draw_seed() -> int:
    """Return a fresh seed from the operating system, for runs given no ``--seed``."""
    import secrets

    return secrets.randbelow(10**9)


seed_option = click.option(
    "--seed", type=click.IntRange(0, MAX_SEED), default=None, metavar="INT",
    help="Seed of the run (0 to 2^53-1); drawn at random and recorded when omitted.",
)  # fmt: skip
search_iterations_option = click.option(
    "--search-iterations", type=click.IntRange(min=1), default=None, metavar="N",
    help="Deals a search bot samples per decision [default: the bot's own, 100].",
)  # fmt: skip
dealer_option = click.option(
    "--dealer", type=click.IntRange(min=0), default=None, metavar="SEAT",
    help="First dealer's seat (0-based, clockwise); drawn from the seed when omitted.",
)  # fmt: skip


MAX_JOBS = 4 * (os.cpu_count() or 1)
"""The most processes ``--jobs`` may ask for: more than 4 per CPU only adds start-up."""
MAX_GAMES = 10**12
"""The most games one command plays, and the last --first-game (16 years at 2,000 games/s)."""

jobs_option = click.option(
    "--jobs", "-j", type=click.IntRange(min=1, max=MAX_JOBS), default=None,
    show_default="one per CPU, fewer for short runs",
    help="Processes playing games at once; the results do not depend on it.",
)  # fmt: skip


def progress_fits(output: str | None) -> bool:
    """Return whether a progress bar may show: stderr is a terminal that the output
    (``output``: a path, or None or ``-`` for stdout) is not also written to."""
    to_screen = output in (None, "-") and sys.stdout.isatty()
    return sys.stderr.isatty() and not to_screen


class Progress:
    """A progress bar on stderr for ``total`` steps, shown once a run has taken a second.

    ``show`` False (no terminal on stderr, or ``--quiet``) shows nothing. Use as a context
    manager and call :meth:`advance` as steps are done; the bar is redrawn at most ten
    times a second, so advancing costs next to nothing.
    """

    def __init__(self, total: int, show: bool, label: str) -> None:
        import time

        self.total = total
        self.show = show
        self.label = label
        self.clock = time.monotonic
        self.start = self.clock()
        self.next_draw = self.start + 1.0
        self.done = 0
        self.drawn = 0
        self.bar: Any = None

    def __enter__(self) -> Progress:
        return self

    def advance(self, steps: int) -> None:
        """Count ``steps`` more steps done."""
        self.done += steps
        if not self.show or self.clock() < self.next_draw:
            return
        self.next_draw = self.clock() + 0.1
        if self.bar is None:
            self.bar = click.progressbar(
                length=self.total, label=self.label, file=sys.stderr, show_pos=True
            ).__enter__()
        self.bar.update(self.done - self.drawn)
        self.drawn = self.done

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            if exc[0] is None:
                self.bar.update(self.done - self.drawn)
            self.bar.__exit__(*exc)


@contextmanager
def atomic_output(path: str | None, option: str = "--output") -> Iterator[IO[str]]:
    """Yield a text stream for ``path``, or stdout for None or ``-``.

    A regular file (or a link to one) is written to a temporary file in the same folder
    and renamed over it only when the block ends without error, so an existing file is
    never left half-written; it keeps its permissions. Anything else that exists there (a
    device such as /dev/null, a pipe) is written to directly. Raises
    :class:`click.BadParameter`, naming ``option``, for an empty path, a folder, or a
    place that can't be written.
    """
    if path is None or path == "-":
        yield sys.stdout
        return
    hint = f"'{option}'"
    if not path.strip():
        raise click.BadParameter("give a file path, not an empty string", param_hint=hint)
    if path.endswith(("/", os.sep)) and not os.path.isdir(path):
        raise click.BadParameter(
            f"{path!r} ends with {path[-1]!r}, so it names a folder; give a file path",
            param_hint=hint,
        )
    try:
        found: os.stat_result | None = os.stat(path)  # through any link
    except OSError:
        found = None
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise click.BadParameter(f"{path!r} is a folder, not a file", param_hint=hint)
    if found is not None and not stat.S_ISREG(found.st_mode):
        # A device or a pipe (/dev/null, /dev/stdout, a shell's >(...)): opened by the
        # name given, since a pipe's resolved name ("pipe:[...]") cannot be opened.
        try:
            stream = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        except OSError as err:
            raise click.BadParameter(
                f"cannot write {path!r}: {err.strerror or err}", param_hint=hint
            ) from None
        with stream:
            yield stream
        return
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise click.BadParameter(f"{path!r} is a folder, not a file", param_hint=hint)
    folder, name = os.path.split(target)
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # no such folder, or no pathconf here
        longest = 255
    if len(os.fsencode(name)) > longest:
        raise click.BadParameter(
            f"the file name is {len(os.fsencode(name))} bytes; this folder allows {longest}",
            param_hint=hint,
        )
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    import tempfile  # here, not at the top: kow --help stays fast

    try:
        fd, tmp = tempfile.mkstemp(prefix=".kow-", suffix=".tmp", dir=os.path.dirname(target))
    except OSError as err:
        raise click.BadParameter(
            f"cannot write {path!r}: {err.strerror or err}", param_hint=hint
        ) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:  # an error, Ctrl-C, or a signal (see Stopped): no half file
        with contextlib.suppress(FileNotFoundError):  # gone if the signal came after
            os.unlink(tmp)
        raise


class Stopped(BaseException):
    """Raised in the main thread by SIGTERM or SIGHUP, so that cleanups run on the way out.

    ``code`` is the exit code a shell gives a process ended by the signal (128 + its
    number: 143 for SIGTERM, 129 for SIGHUP); ``name`` is the signal's name. A
    :class:`BaseException`, like :class:`KeyboardInterrupt`, so that no ``except
    Exception`` stops it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.code = 128 + signum
        self.name = signal.Signals(signum).name


_STOP_NAMES = ("SIGINT", "SIGTERM", "SIGHUP")


def _stop(signum: int, frame: object) -> None:
    """End the command on the first stop signal; ignore any that follow while it cleans up."""
    for name in _STOP_NAMES:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _ignore)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signum)


def _ignore(signum: int, frame: object) -> None:
    """Let a signal pass. Not SIG_IGN: one already caught then would print a warning."""


@contextmanager
def _signals_ignored() -> Iterator[None]:
    """Ignore Ctrl-C, SIGTERM and SIGHUP in the block (main thread only), then restore them."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    numbers = [getattr(signal, n) for n in _STOP_NAMES if hasattr(signal, n)]
    previous = [(number, signal.signal(number, _ignore)) for number in numbers]
    try:
        yield
    finally:
        for number, handler in previous:
            signal.signal(number, handler)


@contextmanager
def _stop_signals() -> Iterator[None]:
    """Turn Ctrl-C, SIGTERM and SIGHUP into exceptions while a command runs (main thread).

    Ctrl-C raises :class:`KeyboardInterrupt`, the others :class:`Stopped`, so worker
    processes are ended, temporary files removed and a game's log saved on the way out.
    Only the first counts: the rest are ignored from then on (a closing terminal sends
    several), so they cannot cut the cleanup short. Signals that were ignored when kow
    started (``nohup``) stay ignored.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for name in _STOP_NAMES:
        handler = signal.getsignal(getattr(signal, name)) if hasattr(signal, name) else None
        if handler is not None:  # None: set outside Python, left alone
            previous[name] = handler
    for name, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(getattr(signal, name), _stop)
    try:
        yield
    finally:
        for name, handler in previous.items():
            signal.signal(getattr(signal, name), handler)


def _quiet_broken_pipe() -> None:
    """Leave quietly after the reader of stdout went away (e.g. ``| head -n 1``)."""
    _silence_stdout()
    sys.exit(0)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that nothing more fails on the way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


# ----------------------------------------------------------------------------- simulate


@main.command()
@seed_option
@click.option(
    "--games", type=click.IntRange(1, MAX_GAMES), default=1, show_default=True,
    help="Number of games; more than one gives JSON Lines, one game per line.",
)  # fmt: skip
@click.option(
    "--first-game", type=click.IntRange(0, MAX_GAMES), default=0, show_default=True,
    metavar="K",
    help="Start at game K (from 0) of the run, so shards of one run can go to many machines.",
)  # fmt: skip
@click.option(
    "--bots", default="heuristic", show_default=True, metavar="KIND[,KIND...]",
    help="Bot kind for every seat, or one per seat: random, heuristic, search.",
)  # fmt: skip
@dealer_option
@rule_options
@search_iterations_option
@click.option(
    "--output", "-o", default=None, metavar="FILE",
    help="Write the logs to FILE (replaced whole at the end) instead of stdout.",
)  # fmt: skip
@click.option("--pretty", is_flag=True, help="Indent the JSON for reading.")
@jobs_option
@click.option("--quiet", "-q", is_flag=True, help="Show no progress bar.")
def simulate(
    seed: int | None,
    games: int,
    first_game: int,
    bots: str,
    dealer: int | None,
    rules: Rules,
    search_iterations: int | None,
    output: str | None,
    pretty: bool,
    jobs: int | None,
    quiet: bool,
) -> None:
    """Play seeded bot games and print one JSON log per game.

    Each log records its game's own seed, which replays that game alone with the same
    options. The same seed and options always give the same bytes, whatever --jobs is;
    --first-game K with --games M gives games K..K+M-1 of the run, so shards concatenate
    to the whole run. A progress bar shows on stderr when it is a terminal (and the games
    do not go to that same screen).
    """
    from .batch import GameError, Run, WorkerError, auto_jobs, run_text

    check_dealer(dealer, rules)
    kinds = parse_bots(bots, rules.players)
    if seed is None:
        if first_game:
            raise click.BadParameter(
                "give --seed too, so that every shard plays the same run",
                param_hint="'--first-game'",
            )
        seed = draw_seed()
    options = () if search_iterations is None else (("search_iterations", search_iterations),)
    run = Run(seed, rules, tuple(kinds), dealer, pretty, options)
    show = not quiet and progress_fits(output)
    with atomic_output(output) as out, Progress(games, show, "Simulating") as progress:
        try:
            texts = run_text(run, first_game, games, jobs or auto_jobs(games))
            with contextlib.closing(texts):  # on an error, stop any workers at once
                for text, count in texts:
                    out.write(text)
                    progress.advance(count)
            out.flush()
        except (GameError, WorkerError) as err:
            raise click.ClickException(str(err)) from None
        except BrokenPipeError:
            _quiet_broken_pipe()


# ----------------------------------------------------------------------------- play

BOT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus")


@main.command()
@click.option(
    "--humans", type=click.IntRange(1, MAX_PLAYERS), default=1, show_default=True,
    help="People at this keyboard (hot seat); they take seats 0, 1, ...",
)  # fmt: skip
@click.option(
    "--name", "names", multiple=True, metavar="NAME",
    help="A human's name, once per human in seat order (default: You, or Player 1, 2...).",
)  # fmt: skip
@click.option(
    "--bots", default="heuristic", show_default=True, metavar="KIND[,KIND...]",
    help="Bot kind for the other seats, or one per bot seat: random, heuristic, search.",
)  # fmt: skip
@seed_option
@dealer_option
@rule_options
@search_iterations_option
@click.option(
    "--log", "log_path", default=None, metavar="FILE",
    help="Save this game's log to FILE (as simulate writes it), even if you quit.",
)  # fmt: skip
@click.option("--ascii", "ascii_only", is_flag=True, help="Show suits as letters c d h s.")
@click.option("--no-color", is_flag=True, help="No colour (also off when NO_COLOR is set).")
@click.option(
    "--delay", type=click.FloatRange(0, 10), default=None, metavar="SECONDS",
    help="Pause after each bot play [default: 0.6, or 0 when input is not a terminal].",
)  # fmt: skip
def play(
    humans: int,
    names: tuple[str, ...],
    bots: str,
    seed: int | None,
    dealer: int | None,
    rules: Rules,
    search_iterations: int | None,
    log_path: str | None,
    ascii_only: bool,
    no_color: bool,
    delay: float | None,
) -> None:
    """Play a game at this keyboard against bots, or with friends (hot seat).

    Type a card as 10h, Th, Q♠ or qs, or by its number in your hand. Commands: help,
    hand, table, hint (the search bot's suggestion), knock (on a dog's life), quit.
    """
    import random
    import shutil
    import time

    from . import log
    from .engine import E_KNOCK, E_PLAY, E_ROUND_END, E_TRICK, Event
    from .game import PlayerError, bots_rng, drive, new_game
    from .players import Player, make_bot
    from .players.human import HotSeat, HumanPlayer, Quit
    from .screen import Screen, symbols_fit

    check_dealer(dealer, rules)
    if humans > rules.players:
        raise click.BadParameter(
            f"{humans} humans do not fit {rules.players} seats: allowed 1 to {rules.players}",
            param_hint="'--humans'",
        )
    if len(names) > humans:
        raise click.BadParameter(
            f"{len(names)} names given for {humans} human(s): give at most one per human",
            param_hint="'--name'",
        )
    human_names = list(names) + [
        "You" if humans == 1 else f"Player {i + 1}" for i in range(len(names), humans)
    ]
    for name in human_names:
        if not name.strip() or len(human_names) != len(set(human_names)):
            raise click.BadParameter(
                f"names must be distinct and not blank: {', '.join(map(repr, human_names))}",
                param_hint="'--name'",
            )
    bot_seats = rules.players - humans
    kinds = parse_bots(bots, bot_seats) if bot_seats else []
    if seed is None:
        seed = draw_seed()
    if log_path == "-":
        raise click.BadParameter("give a file path; stdout shows the game", param_hint="'--log'")
    if delay is not None and delay != delay:  # NaN passes FloatRange
        raise click.BadParameter("nan is not a number of seconds", param_hint="'--delay'")
    for name in human_names:
        if not name.isprintable():
            raise click.BadParameter(
                f"{name!r} has a control character; names are printable text",
                param_hint="'--name'",
            )
    log_file = contextlib.ExitStack()
    out = log_file.enter_context(atomic_output(log_path, "--log")) if log_path is not None else None
    interactive = sys.stdin.isatty()
    if delay is None:
        delay = 0.6 if interactive else 0.0
    color = not no_color and "NO_COLOR" not in os.environ and sys.stdout.isatty()
    symbols = not ascii_only and symbols_fit(
        sys.stdout.encoding, os.environ if os.name == "posix" else None
    )
    free_names = [n for n in BOT_NAMES if n not in human_names]
    all_names = human_names + [free_names[i] for i in range(bot_seats)]
    screen = Screen(all_names, rules, symbols=symbols, color=color)

    def write(text: str) -> None:
        click.echo(text, color=color)

    def read(prompt: str) -> str:
        line = input(prompt)
        if not interactive:
            click.echo(line)  # show piped entries, so the transcript reads as typed
        return line

    def clear() -> None:
        if sys.stdout.isatty():
            click.clear()
        else:
            click.echo("-" * 40)

    hot_seat = HotSeat(clear) if humans > 1 else None
    players: list[Player] = [
        HumanPlayer(
            n, screen, read, write, hot_seat,
            hint_rng=random.Random(f"kow-hint:{seed}:{i}"), hint_iterations=search_iterations,
        )
        for i, n in enumerate(human_names)
    ]  # fmt: skip
    rng = bots_rng(seed)
    players += [
        make_bot(kind, all_names[humans + i], rng, search_iterations=search_iterations)
        for i, kind in enumerate(kinds)
    ]

    write(screen.bold(f"Knock-Out Whist, seed {seed}"))
    seats = ", ".join(
        f"{s} {p.name}" + ("" if p.kind == "human" else f" ({p.kind})")
        for s, p in enumerate(players)
    )
    width = min(shutil.get_terminal_size((80, 24)).columns, 100)
    write(click.wrap_text(f"Seats, clockwise: {seats}", width, subsequent_indent="  "))
    write("Type help at any prompt for how to play; quit to leave.")
    humans_in = set(range(humans))

    def on_event(ev: Event) -> None:
        for line in screen.event(ev):
            write(line)
        if ev[0] == E_ROUND_END and humans_in & set(ev[2]):
            humans_in.difference_update(ev[2])
            if not humans_in and state.phase != "over":
                who = "You are" if humans == 1 else "Every person is"
                write(f"{who} out of the game. The bots play on; quit with Ctrl-C.")
        if delay and (
            ev[0] == E_TRICK or (ev[0] in (E_PLAY, E_KNOCK) and players[ev[1]].kind != "human")
        ):
            time.sleep(delay)

    state = new_game(rules, seed, dealer)
    code = 0
    reason = ""
    with contextlib.ExitStack() as calm, log_file:  # calm ends after the log is saved
        try:
            drive(state, players, on_event)
        except Quit as err:
            code, reason = 1, "you quit" if str(err) == "quit" else "end of input"
        except KeyboardInterrupt:
            code, reason = 130, "interrupted"
        except Stopped as err:
            code, reason = err.code, f"ended by {err.name}"
        except PlayerError as err:
            raise click.ClickException(str(err)) from None
        # A second signal (a closing terminal sends several) must not cut the save short.
        calm.enter_context(_signals_ignored())
        if out is not None:
            game = log.build(seed, rules, players, state.events, abandoned=code != 0)
            out.write(log.dumps(game) + "\n")
    if code:
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            write("")
        saved = f"; the game so far is saved in {log_path}" if log_path else ""
        with contextlib.suppress(OSError):
            click.echo(f"Game abandoned ({reason}){saved}. Seed {seed}.", err=True)
        sys.exit(code)
    write(f"Seed {seed}: play this deal again with --seed {seed}.")
    if log_path:
        write(f"Log saved to {log_path}.")


# ----------------------------------------------------------------------------- verify


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON object.")
def verify(files: tuple[str, ...], as_json: bool) -> None:
    """Check game logs against the rules: every deal, trick and knock-out.

    Each FILE (or - for stdin) may hold one game, JSON Lines, or concatenated JSON
    objects; games count from 1 in each file. Prints one line per faulty game with the
    place of its first fault, then a summary. Exit 0 when every game is legal; 1 when any
    is not, or an input can't be read as JSON (its place is named); 2 when a FILE can't
    be opened, or - is given more than once.
    """
    import json

    from .log import LogReadError, iter_games
    from .verify import verify_game

    if files.count("-") > 1:  # stdin can be read once: checked before reading anything
        raise click.BadParameter(
            f"'-' (stdin) is given {files.count('-')} times; it may be given once",
            param_hint="'FILE...'",
        )
    games = legal = 0
    faults: list[dict[str, Any]] = []
    unreadable: list[dict[str, Any]] = []
    missing = False
    for name in files:
        try:
            stream = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
        except OSError as err:
            unreadable.append({"file": name, "message": f"cannot open: {err.strerror or err}"})
            missing = True
            continue
        label = "stdin" if name == "-" else name
        count = 0
        try:
            with stream:
                for line, game in iter_games(stream):
                    count += 1
                    fault = verify_game(game)
                    if fault is None:
                        legal += 1
                        continue
                    seed = game.get("seed") if isinstance(game, dict) else None
                    entry = {
                        "file": label, "game": count, "line": line,
                        "seed": seed if isinstance(seed, int) and not isinstance(seed, bool)
                        else None,
                        "round": fault.round, "trick": fault.trick, "seat": fault.seat,
                        "message": fault.message, "text": str(fault),
                    }  # fmt: skip
                    faults.append(entry)
                    if not as_json:
                        click.echo(_fault_line(entry))
        except LogReadError as err:
            unreadable.append({"file": label, "message": str(err)})
        except OSError as err:
            unreadable.append({"file": label, "message": f"cannot read: {err.strerror or err}"})
        if count == 0 and not any(u["file"] == label for u in unreadable):
            unreadable.append({"file": label, "message": "holds no game (empty input)"})
        games += count
    if as_json:
        verdict = {
            "games": games, "legal": legal, "faulty": len(faults),
            "unreadable": unreadable, "faults": faults,
        }  # fmt: skip
        click.echo(json.dumps(verdict, indent=2))
    else:
        for u in unreadable:
            click.echo(f"{u['file']}: {u['message']}", err=True)
        files_text = f"{len(files)} file{'s' if len(files) != 1 else ''}"
        click.echo(f"{games} game{'s' if games != 1 else ''} in {files_text}: {legal} legal, "
                   f"{len(faults)} faulty" + (f", {len(unreadable)} unreadable input"
                                              if unreadable else ""))  # fmt: skip
    if missing:
        sys.exit(2)  # a FILE argument that can't be opened is a usage error
    if unreadable or faults:
        sys.exit(1)


def _fault_line(entry: dict[str, Any]) -> str:
    seed = f" (seed {entry['seed']})" if entry["seed"] is not None else ""
    return f"{entry['file']}: game {entry['game']}{seed}: {entry['text']}"


# ----------------------------------------------------------------------------- replay


@main.command()
@click.argument("file", metavar="FILE")
@click.option(
    "--game", "game_number", type=click.IntRange(min=1), default=1, show_default=True,
    metavar="N", help="Which game of a file of several (counting from 1).",
)  # fmt: skip
@click.option(
    "--round", "round_number", type=click.IntRange(min=1), default=None, metavar="R",
    help="Show only round R.",
)  # fmt: skip
@click.option("--ascii", "ascii_only", is_flag=True, help="Show suits as letters c d h s.")
@click.option("--no-color", is_flag=True, help="No colour (also off when NO_COLOR is set).")
def replay(
    file: str, game_number: int, round_number: int | None, ascii_only: bool, no_color: bool
) -> None:
    """Tell a logged game trick by trick, as `kow play` shows it, with every hand.

    FILE (or - for stdin) may hold one game or many; long output goes through a pager
    when stdout is a terminal.
    """
    from .log import LogReadError, events, iter_games
    from .rules import Rules
    from .screen import Screen, sorted_hand, symbols_fit
    from .verify import verify_game

    try:
        stream = sys.stdin.buffer if file == "-" else open(file, "rb")  # noqa: SIM115
    except OSError as err:
        raise click.BadParameter(
            f"cannot open {file!r}: {err.strerror or err}", param_hint="'FILE'"
        ) from None
    label = "stdin" if file == "-" else file
    game: Any = None
    found = False
    count = 0
    try:
        with stream:
            for _, value in iter_games(stream):
                count += 1
                if count == game_number:
                    game = value
                    found = True
                    break
    except LogReadError as err:
        click.echo(f"Error: {label}: {err}", err=True)
        sys.exit(1)  # as kow verify: the input can't be read as JSON
    if count == 0:
        raise click.ClickException(f"{label} holds no game")
    if not found:
        raise click.BadParameter(
            f"{label} holds {count} game{'s' if count != 1 else ''}, so there is no game "
            f"{game_number}",
            param_hint="'--game'",
        )
    fault = verify_game(game)
    if fault is not None:
        raise click.ClickException(
            f"{label}: game {game_number} is not a legal game, so it can't be replayed: {fault}"
        )
    rounds = len(game["rounds"])
    if round_number is not None and round_number > rounds:
        raise click.BadParameter(
            f"game {game_number} has {rounds} round{'s' if rounds != 1 else ''}, "
            f"so there is no round {round_number}",
            param_hint="'--round'",
        )
    color = not no_color and "NO_COLOR" not in os.environ and sys.stdout.isatty()
    symbols = not ascii_only and symbols_fit(
        sys.stdout.encoding, os.environ if os.name == "posix" else None
    )
    names = [p["name"] for p in game["players"]]
    screen = Screen(names, Rules.from_dict(game["rules"]), symbols=symbols, color=color)
    lines = [
        screen.bold(f"Game {game_number} of {label}, seed {game['seed']}"),
        "Seats, clockwise: "
        + ", ".join(f"{p['seat']} {p['name']} ({p['kind']})" for p in game["players"]),
    ]
    showing = round_number is None
    for ev in events(game):
        if ev[0] == "round":
            showing = round_number is None or ev[1] == round_number
        shown = screen.event(ev)
        if not showing:
            continue
        lines += shown
        if ev[0] == "round":
            width = max(len(n) for n in names)
            for seat, hand in enumerate(ev[6]):
                if hand is not None:
                    cards = "  ".join(screen.card(c) for c in sorted_hand(hand))
                    lines.append(f"  {names[seat]:<{width}}  {cards}")
    if game.get("abandoned"):
        lines.append("The game was abandoned here.")
    text = "\n".join(lines)
    if sys.stdout.isatty():
        os.environ.setdefault("LESS", "-R")  # let less show the colours, not their codes
        click.echo_via_pager(text + "\n", color=color)
    else:
        click.echo(text, color=color)


# ----------------------------------------------------------------------------- schema


@main.command()
def schema() -> None:
    """Print the JSON Schema (draft 2020-12) of the log format, version 1."""
    import json

    from .log import schema as log_schema

    click.echo(json.dumps(log_schema(), indent=2))


# ----------------------------------------------------------------------------- tournament


@main.command()
@click.option(
    "--bots", default="search,heuristic,heuristic,heuristic", show_default=True,
    metavar="KIND[,KIND...]",
    help="Bot kind for every seat, or one per seat: random, heuristic, search.",
)  # fmt: skip
@click.option(
    "--games", type=click.IntRange(1, MAX_GAMES), default=400, show_default=True,
    help="Games to play; a multiple of --players gives every bot every seat equally.",
)  # fmt: skip
@seed_option
@rule_options
@search_iterations_option
@jobs_option
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
def tournament(
    bots: str,
    games: int,
    seed: int | None,
    rules: Rules,
    search_iterations: int | None,
    jobs: int | None,
    as_json: bool,
) -> None:
    """Measure bots against each other over many seeded games.

    The bots rotate through the seats over the same seeds, so each bot plays each
    seat's cards. Prints, per bot kind: seat-games, wins, win rate with its 95% Wilson
    interval, mean round reached, and mean time per decision.
    """
    import json

    from .batch import WorkerError, auto_jobs
    from .game import PlayerError
    from .tournament import run_tournament

    kinds = parse_bots(bots, rules.players)
    jobs = jobs or auto_jobs(games)
    if games % rules.players and len(set(kinds)) > 1:
        click.echo(
            f"Note: {games} games is not a multiple of {rules.players} players, so the bots "
            "do not sit in every seat equally often.",
            err=True,
        )
    if seed is None:
        seed = draw_seed()
    try:
        if sys.stderr.isatty():
            with click.progressbar(length=games, label="games", file=sys.stderr) as bar:
                result = run_tournament(
                    rules, kinds, games, seed, jobs, search_iterations, bar.update, False
                )
        else:
            result = run_tournament(rules, kinds, games, seed, jobs, search_iterations, None, False)
    except (PlayerError, WorkerError) as err:
        raise click.ClickException(str(err)) from None
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
        return
    click.echo(f"{games} games, seed {seed}, bots {','.join(kinds)}")
    click.echo(
        f"{'kind':<10} {'games':>6} {'wins':>6} {'win rate':>8}  {'95% interval':<15} "
        f"{'round':>5} {'ms/decision':>11}"
    )
    for r in result.results():
        click.echo(
            f"{r.kind:<10} {r.games:>6} {r.wins:>6} {r.win_rate:>8.1%}  "
            f"{r.low:>6.1%} - {r.high:<6.1%} {r.mean_round:>5.2f} {r.mean_decision_ms:>11.2f}"
        )
