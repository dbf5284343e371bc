"""The options that several commands share, each one decorator, and their checks.

Rule settings are checked by :class:`~kow.rules.Rules` itself: a
:class:`~kow.settings.SettingError` becomes a usage error naming the option (exit 2) with the
library's own message. The other settings of a run (seed, games, jobs, iterations) are
stated once in :mod:`kow.settings` (:data:`~kow.settings.SEED`, ...), whose bounds and words
both their options (:meth:`Count.of`) and the library's checks use.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from ..entries import EntryError, parse_decimal, parse_number
from ..rules import DOGS_LIFE, LEADS, MAX_PLAYERS, MIN_PLAYERS, PRESETS, Rules
from ..settings import (
    JOBS,
    MAX_GAMES,
    MAX_ITERATIONS,
    MAX_JOBS,
    SEARCH_ITERATIONS,
    SEED,
    IntSetting,
    SettingError,
    draw_seed,
)
from ..verify import name_fault

__all__ = [
    "PATH",
    "BOTS_HELP",
    "ENTRANTS_HELP",
    "Count",
    "LEVELS",
    "MAX_GAMES",
    "MAX_JOBS",
    "MAX_SEARCH_ITERATIONS",
    "ascii_option",
    "bots_option",
    "dealer_option",
    "draw_seed",
    "cluster_executor",
    "cluster_option",
    "jobs_option",
    "log_executor",
    "log_jobs_option",
    "refuse_jobs_with_cluster",
    "json_option",
    "level_kinds",
    "no_color_option",
    "output_option",
    "parse_bots",
    "parse_entrants",
    "people",
    "quiet_option",
    "rule_options",
    "search_iterations_option",
    "seed_option",
    "usage_errors",
]


F = TypeVar("F", bound=Callable[..., Any])


class Count(click.IntRange):
    """An option's whole number, from ``low`` to ``high`` (no upper bound when None): a
    seat, a game, a seed or a count, read as a typed entry is
    (:func:`kow.entries.parse_number`: the digits 0-9 only, at most
    :data:`kow.entries.MAX_ENTRY` characters).

    ``what`` names the value in the message (``"a number of games"``); ``hint``, when
    given, ends the message of a number refused as below ``low`` (what to do instead). A
    value refused is a usage error (exit 2) naming the option, the value and the numbers
    allowed.
    ``--help`` shows the range as for :class:`click.IntRange`.
    """

    def __init__(
        self, low: int, high: int | None = None, what: str = "a number", *, hint: str = ""
    ) -> None:
        super().__init__(low, high)
        self.low = low
        self.high = high
        self.what = what
        self.hint = hint

    @classmethod
    def of(cls, setting: IntSetting) -> Count:
        """Return the option type of a setting of the library (:data:`kow.settings.SEED`,
        ...): its bounds and words, so the option and the library's check of the same
        value say the same (``'-1' is not a seed: allowed 0 to ...``)."""
        return cls(setting.lo, setting.hi, setting.what)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """Return ``value`` (text, or an int default) as an int in range; else fail."""
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # a default, checked as if typed
        if not isinstance(value, str):
            self.fail(f"{value!r} is not {self.what}", param, ctx)
        try:
            return parse_number(value, self.low, self.high, what=self.what)
        except EntryError as err:
            below = value.isascii() and value.isdigit() and int(value) < self.low
            self.fail(f"{err}; {self.hint}" if self.hint and below else str(err), param, ctx)


class Seconds(click.FloatRange):
    """An option's number of seconds, from ``low`` to ``high``, read as a typed entry is
    (:func:`kow.entries.parse_decimal`: the digits 0-9 and one decimal point). A value
    refused is a usage error (exit 2) naming the option, the value and what is allowed.
    """

    def __init__(self, low: int, high: int) -> None:
        super().__init__(low, high)
        self.low = low
        self.high = high

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        """Return ``value`` (text, or a number as default) as a float in range; else fail."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)  # a default, checked as if typed
        if not isinstance(value, str):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        try:
            return parse_decimal(value, self.low, self.high, what="a number of seconds")
        except EntryError as err:
            self.fail(str(err), param, ctx)


def rule_options(f: F) -> F:
    """Add every rule option to a command, and pass it a ``rules`` (a :class:`Rules`).

    The options are ``--preset``, ``--players``, ``--start-cards``, ``--dogs-life``,
    ``--fixed-trump``, ``--no-final-round-trump``, ``--lead``, ``--eliminated-vote`` and
    ``--no-sweep-wins``; ``kow rules`` (and ``docs/rules.md``) gives the source of each.
    ``--preset NAME`` sets the fields of ``PRESETS[NAME]`` (:data:`kow.rules.PRESETS`)
    that no option given on the command line sets. :class:`Rules` checks the result (a
    usage error names the option), and a ``--dealer`` given to the command too.
    """

    @functools.wraps(f)
    def wrapper(
        *args: Any,
        preset: str | None,
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
        settings: dict[str, Any] = {
            "players": players,
            "start_cards": start_cards,
            "dogs_life": dogs_life,
            "trump": "fixed" if fixed_trump else "winner-chooses",
            "final_round_trump": final_round_trump,
            "lead": lead,
            "eliminated_vote": eliminated_vote,
            "sweep_wins": sweep_wins,
        }
        if preset is not None:
            settings.update(
                (name, value)
                for name, value in PRESETS[preset].items()
                if not _given(_OPTION_OF.get(name, name))
            )
        with usage_errors():
            rules = Rules(**settings)
            if kwargs.get("dealer") is not None:
                rules.check_seat(kwargs["dealer"], "dealer")
        return f(*args, rules=rules, **kwargs)

    options = [
        click.option(
            "--preset", type=click.Choice(tuple(PRESETS)), default=None,
            help=f"Start from a named set of rules; options given override it. {_preset_help()}.",
        ),
        _rule_option(
            "players", "--players", type=Count(MIN_PLAYERS, MAX_PLAYERS, "a number of players"),
            help="Number of players, each for themselves.",
        ),
        _rule_option(
            "start_cards", "--start-cards", type=Count(1, None, "a number of cards"),
            help="Cards dealt in round 1; one fewer each round (players x cards + 1 <= 52).",
        ),
        _rule_option(
            "dogs_life", "--dogs-life", type=click.Choice(DOGS_LIFE),
            help="Dog's life: once per game (traditional) or once per player (rules text).",
        ),
        click.option(
            "--fixed-trump", is_flag=True,
            help="Round 1's turned-up suit stays trump all game; nobody chooses.",
        ),
        _rule_option(
            "final_round_trump", "--final-round-trump/--no-final-round-trump",
            help="Whether the final 1-card round has a trump.",
        ),
        _rule_option(
            "lead", "--lead", type=click.Choice(LEADS),
            help="Who leads rounds 2 on: last round's most tricks, or the dealer's left.",
        ),
        click.option(
            "--eliminated-vote", is_flag=True,
            help="Knocked-out players vote for the next trump.",
        ),
        _rule_option(
            "sweep_wins", "--sweep-wins/--no-sweep-wins",
            help="Whether winning every trick of a round wins the game at once.",
        ),
    ]  # fmt: skip
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def _rule_option(field: str, *decls: str, **attrs: Any) -> Callable[[F], F]:
    """Return the option of the :class:`Rules` field ``field`` (``decls``: its names), its
    default the field's own, shown in ``--help``; ``attrs`` are Click's (type, help)."""
    default = getattr(_DEFAULT_RULES, field)
    return click.option(*decls, field, default=default, show_default=True, **attrs)


_DEFAULT_RULES = Rules()
"""The rules with every field at its default: the defaults of the rule options."""

_OPTION_OF = {"trump": "fixed_trump"}
"""The parameter of a :class:`Rules` field whose option has another name."""


def _given(param: str) -> bool:
    """Return whether the option of ``param`` was given (on the command line or from the
    environment), so that it overrides a preset; outside a Click command, True.

    A value passed by ``ctx.invoke`` has no source and counts as not given: to run a
    command again with the same rules, pass on the resolved :class:`Rules`, not the raw
    option values beside ``preset``.
    """
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return True
    source = ctx.get_parameter_source(param)
    return source is not None and source is not click.ParameterSource.DEFAULT


def _preset_help() -> str:
    """Return what each preset sets, as options: "traditional: --dogs-life ...; ..."."""

    def option(name: str, value: Any) -> str:
        if name == "trump":  # the one field whose option is a flag of another name
            return "--fixed-trump" if value == "fixed" else ""
        flag = name.replace("_", "-")
        if isinstance(value, bool):
            return f"--{flag}" if value else f"--no-{flag}"
        return f"--{flag} {value}"

    parts = []
    for name, settings in PRESETS.items():
        sets = " ".join(filter(None, (option(k, v) for k, v in settings.items())))
        source = "sources 002, 004" if name == "traditional" else "sources 000/001/003"
        parts.append(f"{name}: {sets or 'the defaults'} ({source})")
    return "; ".join(parts)


@contextlib.contextmanager
def usage_errors() -> Iterator[None]:
    """Turn a :class:`~kow.settings.SettingError` raised in the block into a usage error (exit 2).

    The error names the option of the setting at fault (``start_cards``: ``--start-cards``)
    and says what the library says for the same value, with the option for the field's
    name: "Invalid value for '--start-cards': must be 1 to 7 with 7 players (...), not 8".
    """
    try:
        yield
    except SettingError as err:
        option = "--" + err.setting.replace("_", "-")
        said = str(err)
        if err.allowed is not None:  # "start_cards must be ...": the option is named above
            said = said.removeprefix(f"{err.setting} ")
        raise click.BadParameter(said, param_hint=f"'{option}'") from None


def parse_bots(text: str, seats: int, option: str = "--bots") -> list[str]:
    """Return one bot kind per seat from ``KIND`` or ``KIND,KIND,...`` (one per seat).

    With no seat for a bot (every player human), the kinds are checked and none is
    returned. Raises :class:`click.BadParameter` naming an unknown kind or a wrong count.
    """
    from ..players import check_kinds

    try:
        return check_kinds([k.strip() for k in text.split(",")], seats, text)
    except ValueError as err:
        why = str(err)
        if ":" in text:  # an entrant's setting, which only a tournament takes
            why += " (KIND:NAME=VALUE is for kow tournament; here use --search-deals)"
        raise click.BadParameter(why, param_hint=f"'{option}'") from None


def parse_entrants(text: str, seats: int, option: str = "--bots") -> list[str]:
    """Return one entrant per seat from ``ENTRANT`` or ``ENTRANT,ENTRANT,...`` (one per
    seat), each ``KIND`` or ``KIND:NAME=VALUE`` (``kow tournament --bots``), as its
    canonical text. Raises :class:`click.BadParameter` (exit 2) naming an unknown kind, a
    bad setting with the allowed ones (:meth:`kow.players.Entrant.from_text`), or a wrong
    count.
    """
    from ..players import check_entrants

    try:
        return check_entrants(text.split(","), seats, text)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint=f"'{option}'") from None


LEVELS: dict[str, str] = {"easy": "random", "medium": "heuristic", "hard": "search"}
"""``kow play --level``: the bot kind that each level gives every bot seat, weakest first
(the search bot at its default deals per decision, unless ``--search-deals`` is given)."""


def level_kinds(level: str | None, bots: str, seats: int) -> list[str]:
    """Return one bot kind per bot seat of ``kow play``, from ``--level`` or ``--bots``.

    ``level``: a key of :data:`LEVELS`, or None when ``--level`` was not given; then
    ``bots`` is read by :func:`parse_bots`. Raises :class:`click.BadParameter` (exit 2)
    when ``--bots`` was given too, naming both options, and as :func:`parse_bots` does.
    """
    if level is None:
        return parse_bots(bots, seats)
    if _given("bots"):
        raise click.BadParameter(
            "give --level or --bots, not both: --level sets the kind of every bot seat",
            param_hint="'--level'",
        )
    return [LEVELS[level]] * seats


def people(names: tuple[str, ...], humans: int, seats: int) -> list[str]:
    """Return the names of ``humans`` people at the keyboard: ``names`` given, then defaults.

    The defaults are "You" for one person, else "Player 1", "Player 2", .... Raises
    :class:`click.BadParameter` for more people than ``seats``, more names than people,
    names that are blank or repeated (in any case), that no log may hold
    (:func:`kow.log.check_name`: a control character, an undecodable byte...), or longer
    than :data:`MAX_PLAY_NAME`.
    """
    if humans > seats:
        raise click.BadParameter(
            f"{humans} humans do not fit {seats} seats: allowed 1 to {seats}",
            param_hint="'--humans'",
        )
    if len(names) > humans:
        raise click.BadParameter(
            f"{len(names)} names given for {humans} human(s): give at most one per human",
            param_hint="'--name'",
        )
    out = list(names) + [
        "You" if humans == 1 else f"Player {i + 1}" for i in range(len(names), humans)
    ]
    folded = [name.strip().casefold() for name in out]
    if not all(folded) or len(folded) != len(set(folded)):
        raise click.BadParameter(
            f"names must be distinct (in any case) and not blank: {', '.join(map(repr, out))}",
            param_hint="'--name'",
        )
    for name in out:
        fault = name_fault(name)  # the log's one rule: what kow writes, kow reads
        if fault is not None:
            raise click.BadParameter(fault, param_hint="'--name'")
        if len(name) > MAX_PLAY_NAME:
            raise click.BadParameter(
                f"{name!r} has {len(name)} characters; a name has at most {MAX_PLAY_NAME}",
                param_hint="'--name'",
            )
    return out


MAX_PLAY_NAME = 20
"""The most characters in the name of a person at ``kow play`` (so that a line of the table
fits 40 columns); any log allows longer names (:data:`kow.log.MAX_NAME`)."""


MAX_SEARCH_ITERATIONS = MAX_ITERATIONS
"""The most deals per decision ``--search-deals`` allows
(:data:`kow.settings.MAX_ITERATIONS`)."""
seed_option = click.option(
    "--seed", type=Count.of(SEED), default=None, metavar="INT",
    help="Seed of the run (0 to 2^53-1); drawn at random and recorded when omitted.",
)  # fmt: skip
search_iterations_option = click.option(
    "--search-deals", "--search-iterations", "search_iterations",
    type=Count.of(SEARCH_ITERATIONS), default=None, metavar="N",
    help="Deals a search bot samples per decision, 1 to 100000 [default: the bot's own, 100]"
    " (--search-iterations: the same, its older name).",
)  # fmt: skip
dealer_option = click.option(
    "--dealer", type=Count(0, None, "a seat"), default=None, metavar="SEAT",
    help="First dealer's seat (0-based, clockwise); drawn from the seed when omitted.",
)  # fmt: skip

jobs_option = click.option(
    "--jobs", "-j", type=Count.of(JOBS), default=None,
    show_default="one per CPU, fewer for runs of little work",
    help="Processes playing games at once; the results do not depend on it.",
)  # fmt: skip


def _cluster(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Check ``--cluster``'s value (:func:`kow.runs.executors.check_cluster`): a usage
    error naming it and what is allowed."""
    if value is None:
        return None
    from ..runs.executors import check_cluster

    try:
        return check_cluster(value)
    except ValueError as err:
        raise click.BadParameter(str(err), ctx, param) from None


cluster_option = click.option(
    "--cluster", metavar="local|ray|ray://HOST:PORT|HOST:PORT", default=None,
    callback=_cluster,
    help="Play the blocks as Ray tasks: on a Ray runtime started here (local), on the"
    " cluster RAY_ADDRESS names (ray), or at an address; the output does not depend on it."
    " Needs pip install '.[ray]' in kow's folder; not with --jobs.",
)  # fmt: skip
"""``--cluster`` of the runs (``simulate``, ``tournament``, ``analyze``): see
:func:`cluster_executor`."""


def refuse_jobs_with_cluster(jobs: int | None, cluster: str | None) -> None:
    """Raise a usage error (exit 2) when both ``--jobs`` and ``--cluster`` are given:
    ``--jobs`` counts this machine's processes, and on a cluster Ray places the tasks."""
    if jobs is not None and cluster is not None:
        raise click.UsageError(
            f"give --jobs or --cluster, not both: --jobs {jobs} counts this machine's"
            f" processes, and on the cluster {cluster!r} Ray places the tasks"
        )


@contextlib.contextmanager
def cluster_executor(cluster: str | None, jobs: int | None) -> Iterator[Any]:
    """Connect to ``--cluster``'s Ray cluster for the block and yield an executor of Ray
    tasks (:func:`kow.runs.executors.on_ray`), or yield None when ``cluster`` is None.

    ``--jobs`` with ``--cluster`` is a usage error (exit 2): ``--jobs`` counts this
    machine's processes, and on a cluster Ray places the tasks, 2 in flight per cluster
    CPU. A cluster that cannot be used (Ray not installed, no cluster at the address,
    another kow on its workers) is an error of exit 1 saying why.
    """
    if cluster is None:
        yield None
        return
    refuse_jobs_with_cluster(jobs, cluster)
    from ..runs.executors import ClusterError, on_ray, ray_connection

    try:
        with ray_connection(cluster):
            yield on_ray()
    except ClusterError as err:
        raise click.ClickException(str(err)) from None


log_jobs_option = click.option(
    "--jobs", "-j", type=Count.of(JOBS), default=None, metavar="N", show_default="1",
    help="Processes checking games at once; the output does not depend on it.",
)  # fmt: skip
"""``--jobs`` of the commands that check logs (``verify``, ``export``): one process unless
asked (:func:`log_executor`)."""


@contextlib.contextmanager
def log_executor(jobs: int | None, cluster: str | None) -> Iterator[Any]:
    """Yield the executor that checks the games of ``verify`` or ``export``: None (this
    process, each game as it is read) for ``--jobs`` 1 or none, kow's own ``jobs``
    processes (:class:`kow.runs.executors.Processes`), or Ray tasks on ``--cluster``'s
    cluster for the block (:func:`cluster_executor`: a usage error with
    ``--jobs``, exit 1 for a cluster that cannot be used)."""
    with cluster_executor(cluster, jobs) as on_cluster:
        if on_cluster is not None:
            yield on_cluster
        elif jobs is None or jobs == 1:
            yield None
        else:
            from ..runs.executors import Processes

            yield Processes(jobs)


ascii_option = click.option(
    "--ascii", "ascii_only", is_flag=True, help="Show suits as letters c d h s."
)
"""``--ascii`` (the parameter ``ascii_only``) of the commands that show cards as text."""
no_color_option = click.option(
    "--no-color", is_flag=True, help="No colour (also off when NO_COLOR is set or TERM is dumb)."
)
"""``--no-color`` of the commands that may colour their text
(:func:`kow.cli._terminal.color_fits`)."""
quiet_option = click.option("--quiet", "-q", is_flag=True, help="Show no progress bar.")
"""``--quiet`` of the commands that show a progress bar (:class:`kow.cli._terminal.Progress`)."""

BOTS_HELP = "Bot kind for every seat, or one per seat: random, heuristic, search, ismcts."
"""The help of ``--bots`` where the bots take every seat (``simulate``, ``tournament``)."""
ENTRANTS_HELP = (
    "Entrant for every seat, or one per seat: a bot kind (random, heuristic, search, ismcts),"
    " with settings as KIND:NAME=VALUE (search:iterations=1000, ismcts:iterations=500)."
)
"""The help of ``kow tournament --bots``: entrants, bot kinds at their settings."""


def bots_option(
    default: str, help: str = BOTS_HELP, metavar: str = "KIND[,KIND...]"
) -> Callable[[F], F]:
    """Return the ``--bots KIND[,KIND...]`` option (read by :func:`parse_bots`, or by
    :func:`parse_entrants` where its ``metavar`` is ``ENTRANT[,ENTRANT...]``), with its
    ``default`` kinds and ``help``."""
    return click.option("--bots", default=default, show_default=True, metavar=metavar, help=help)


PATH = click.Path(file_okay=True, dir_okay=True, readable=False, writable=False, allow_dash=True)
"""The type of every file or folder parameter (the logs read, ``-o``, ``--log``,
``--resume``): a path as given, checked by the command itself, in its own words (Click's
checks are all off), but completed by the shell as a file name when Click's completion is
loaded (``eval "$(_KOW_COMPLETE=bash_source kow)"``), where a bare string completes
nothing."""


def output_option(what: str) -> Callable[[F], F]:
    """Return the ``--output``/``-o FILE`` option (written by
    :func:`kow.cli._files.atomic_output`) of a command whose output is ``what`` (``"the logs"``)."""
    return click.option(
        "--output", "-o", default=None, metavar="FILE", type=PATH,
        help=f"Write {what} to FILE (replaced whole at the end; gzip if FILE ends in .gz)"
        " instead of stdout.",
    )  # fmt: skip


def json_option(help: str) -> Callable[[F], F]:
    """Return the ``--json`` flag (the parameter ``as_json``) with the command's ``help``."""
    return click.option("--json", "as_json", is_flag=True, help=help)
