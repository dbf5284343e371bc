"""``kow play --resume FILE``: an abandoned game read back, checked, and set where it was left.

:func:`resume_game` reads the log that ``kow play --log`` kept of a game left before its
end, checks it, and plays it again from its seed up to where it stops
(:func:`kow.runs.provenance.play_again`: the engine deals, the bots are made again from
the seed and make their logged decisions, so their shared generator stands where it
stood). The sitting (:class:`kow.cli.session.Sitting`) then goes on from there with the
same seats, names, bots, rules and seed, and its log is the one that playing the game in
one go with the same choices writes, byte for byte.

What is refused, and how (the house's exit codes):

- a FILE that can't be opened, ``-`` (stdin is the keyboard), a file whose last game is
  not an abandoned game of ``kow play`` (no game, a finished game, a game with no seed or
  without a person, an agent's or an unknown bot's seat; the games of a sitting before it
  are kept when the game is written back to FILE), or an option that
  differs from the game's (``--seed``, ``--bots``, a rule...): a usage error, exit 2,
  naming what is wrong and what is allowed;
- a log that can't be read (its place named), that is not legal (:func:`kow.verify.verify_game`,
  the first fault named) or that is not the game its seed gives (the first difference, as
  ``kow verify --against-seed`` names it): exit 1.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, NamedTuple

import click

from ..rules import PRESETS, Rules
from ._inputs import say
from ._options import LEVELS, parse_bots

if TYPE_CHECKING:
    from ..log import GameRecord
    from .session import Continuation

__all__ = ["AbandonedGame", "kept_text", "resume_game"]

_OPTION = "'--resume'"

_RULE_OPTIONS = {
    "players": "--players",
    "start_cards": "--start-cards",
    "dogs_life": "--dogs-life",
    "trump": "--fixed-trump",
    "final_round_trump": "--final-round-trump",
    "lead": "--lead",
    "eliminated_vote": "--eliminated-vote",
    "sweep_wins": "--sweep-wins",
}
"""Each :class:`~kow.rules.Rules` field and the option that sets it (its parameter is the
option's name without dashes, but for ``trump``: ``fixed_trump``)."""


class AbandonedGame(NamedTuple):
    """An abandoned game, checked and played again up to where its log stops.

    ``seed``, ``rules``: the game's; ``humans``: the people's names (seats 0, 1, ...);
    ``kinds`` and ``bot_names``: the bot seats' kinds and names, in seat order;
    ``resume``: what the sitting continues from (:class:`kow.cli.session.Continuation`);
    ``log_path``: the file the continued game is written to (FILE itself unless
    ``--log`` names another); ``kept``: the text of the games before the abandoned one in
    FILE (a sitting's log), which a log written back to FILE keeps before it;
    ``search_iterations``: the deals per decision its search bots record (the games after
    it are played with them), else the ``--search-iterations`` given.
    """

    seed: int
    rules: Rules
    humans: tuple[str, ...]
    kinds: tuple[str, ...]
    bot_names: tuple[str, ...]
    resume: Continuation
    log_path: str
    kept: str = ""
    search_iterations: int | None = None


def resume_game(path: str, *, search_iterations: int | None, log_path: str | None) -> AbandonedGame:
    """Return the abandoned game of the file ``path``, checked, ready to continue.

    ``search_iterations``: the deals per decision of its search bots (a log does not
    record it: give the one it was played with). ``log_path``: the ``--log`` given (None:
    the continued game is written back to ``path``, which must then be a regular file).
    Must run inside the ``kow play`` command: the options given there are compared with
    the game's (:func:`_check_options`). Raises :class:`click.BadParameter` (exit 2) and
    :class:`click.ClickException` (exit 1) as the module says.
    """
    from ..game import PlayerError
    from ..log import InputError, LoggedPlayer, build, input_label
    from ..players import BOT_KINDS
    from ..runs.provenance import play_again
    from ..verify import verify_game
    from .session import Continuation

    label = input_label(path)
    if path == "-":
        raise click.BadParameter(
            "give a file: stdin is the keyboard of the game", param_hint=_OPTION
        )
    if log_path is None and os.path.exists(path) and not os.path.isfile(path):
        raise click.BadParameter(
            f"{label} is not a regular file, so the game can't be written back to it:"
            " give --log FILE too",
            param_hint=_OPTION,
        )
    last: GameRecord | None = None
    try:  # a sitting's log: its last game is the one to resume
        for record in _games(path):
            last = record
    except InputError as err:
        if not err.opened:
            why = f"cannot open {label}: {err.why}"
            raise click.BadParameter(why, param_hint=_OPTION) from None
        raise click.ClickException(str(err)) from None
    if last is None:
        raise click.ClickException(f"{label}: holds no game, so there is none to resume")
    count, line, game = last.index, last.line, last.game
    fault = str(last.fault) if last.fault is not None else verify_game(game)
    if fault is not None:
        raise click.ClickException(f"{label}: not a legal game, so it can't be resumed: {fault}")
    seed = game["seed"]
    players = game["players"]
    kinds = [p["kind"] for p in players]
    humans = sum(1 for kind in kinds if kind == "human")
    if not game.get("abandoned"):
        winner = None if game["result"] is None else game["result"]["winner"]
        won = "" if winner is None else f", won by {players[winner]['name']!r}"
        which = "a finished game" if count == 1 else f"a finished game last (game {count})"
        raise click.BadParameter(
            f"{label} holds {which}{won}: only an abandoned game, at the end of a log, can"
            " be resumed",
            param_hint=_OPTION,
        )
    if seed is None:
        raise click.BadParameter(
            f"{label} holds a game with no seed (dealt outside kow): only a game of kow"
            " play can be resumed",
            param_hint=_OPTION,
        )
    bots = kinds[humans:]
    if not humans or kinds[:humans] != ["human"] * humans or not set(bots) <= set(BOT_KINDS):
        raise click.BadParameter(
            f"{label} is not a game of kow play (people in the first seats, then kow's"
            f" bots: {', '.join(BOT_KINDS)}); its seats are {', '.join(kinds)}",
            param_hint=_OPTION,
        )
    from ..log import rules_from_log

    rules = rules_from_log(dict(game["rules"]))
    names = tuple(p["name"] for p in players)
    recorded_iterations = {
        settings["iterations"]
        for p in players
        if p["kind"] == "search" and (settings := p.get("settings")) is not None
    }
    if len(recorded_iterations) == 1:  # the log records them (since 0.5.0): the game's own
        (recorded,) = recorded_iterations
        if search_iterations is not None and search_iterations != recorded:
            raise click.BadParameter(
                f"{search_iterations} is not the game's: {label} was played with"
                f" {recorded}; a resumed game keeps its own, so leave the option out",
                param_hint="'--search-deals'",
            )
        search_iterations = recorded
    dealer = game["rounds"][0]["dealer"]
    _check_options(label, seed=seed, rules=rules, names=names[:humans], kinds=bots, dealer=dealer)
    try:
        again = play_again(game, search_iterations=search_iterations)
    except PlayerError as err:  # verify_game found it legal: a fault of kow's
        raise click.ClickException(f"{label}: can't be played again: {err}") from None
    if again.difference is not None:
        raise click.ClickException(
            f"{label}: not the game its seed gives, so it can't be resumed: {again.difference}"
        )
    logged = [LoggedPlayer.from_log(p) for p in players]
    made = build(seed, rules, logged, events=again.state.events, abandoned=True)
    made["kow_version"] = game["kow_version"]
    if made != game:
        raise click.ClickException(
            f"{label}: the game played again from its seed is not the log's"
            " (it holds more than the game's decisions), so it can't be resumed"
        )
    bot_players = [bot for bot in again.bots[humans:] if bot is not None]
    return AbandonedGame(
        seed=seed,
        rules=rules,
        humans=names[:humans],
        kinds=tuple(bots),
        bot_names=names[humans:],
        resume=Continuation(again.state, bot_players, label),
        log_path=path if log_path is None else log_path,
        kept=kept_text(path, before_line=line) if count > 1 else "",
        search_iterations=search_iterations,
    )


def kept_text(path: str, *, before_line: int | None = None) -> str:
    """Return the text of the log file ``path`` (gzip or plain) that a log written to it
    keeps before its own games: all of it, or its lines before ``before_line`` (from 1:
    the games before a resumed game), ending with a newline unless empty.

    Raises :class:`click.ClickException` (exit 1) naming the file and the place when what
    it holds is not kow's logs (bytes that are not UTF-8, a line that is not JSON, a
    truncated gzip): nothing it held is lost, and no game is added where no reader of
    logs would find it.
    """
    import gzip

    from ..log import InputError, input_label

    label = input_label(path)
    try:
        for _ in _games(path):
            pass
    except InputError as err:
        if err.opened:  # one that can't be opened is said below, as reading it fails
            raise click.ClickException(
                f"{err}: it holds something other than kow's logs, which the new games"
                " can't follow; give another --log"
            ) from None
    try:
        with open(path, "rb") as stream:
            data = stream.read()
        if data.startswith(b"\x1f\x8b"):
            data = gzip.decompress(data)
        text = data.decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as err:
        raise click.ClickException(
            f"{label}: can't read what it holds, to keep it before the new games ({err});"
            " give another --log"
        ) from None
    if before_line is not None:
        text = "".join(text.splitlines(keepends=True)[: before_line - 1])
    if text and not text.endswith("\n"):
        text += "\n"
    return text


def _games(path: str) -> Iterator[GameRecord]:
    """Yield the record of each game of the log file ``path`` (:func:`kow.log.read_logs`),
    saying on stderr the games that repeat an earlier one whole. Raises
    :class:`kow.log.InputError` when it can't be opened or read whole."""
    from ..log import InputEnd, read_logs

    for item in read_logs([path]):
        say(item.note)
        if not isinstance(item, InputEnd):
            yield item
            continue
        error = item.error()
        if error is not None:
            raise error


def _given(ctx: click.Context, param: str) -> bool:
    """Return whether the option of ``param`` was given (command line or environment)."""
    source = ctx.get_parameter_source(param)
    return source is not None and source is not click.ParameterSource.DEFAULT


def _check_options(
    label: str,
    *,
    seed: int,
    rules: Rules,
    names: Sequence[str],
    kinds: Sequence[str],
    dealer: int,
) -> None:
    """Refuse each option of ``kow play`` given with ``--resume`` that is not the game's:
    ``--seed``, ``--humans``, ``--name``, ``--bots``, ``--level``, ``--dealer`` and the
    rule options (``--preset`` as the fields it sets). Raises :class:`click.BadParameter`
    (exit 2) naming the option, the value given and the game's."""
    ctx = click.get_current_context()
    params = ctx.params

    def refuse(option: str, given: Any, game: Any) -> None:
        raise click.BadParameter(
            f"{given} is not the game's: {label} was played with {game}; a resumed game"
            " keeps its own, so leave the option out",
            param_hint=f"'{option}'",
        )

    if _given(ctx, "seed") and params["seed"] != seed:
        refuse("--seed", params["seed"], seed)
    if _given(ctx, "humans") and params["humans"] != len(names):
        refuse("--humans", params["humans"], len(names))
    given_names = tuple(params.get("names") or ())
    if given_names and given_names != tuple(names[: len(given_names)]):
        refuse("--name", ", ".join(map(repr, given_names)), ", ".join(map(repr, names)))
    if _given(ctx, "level") and params["level"] is not None:
        chosen = [LEVELS[params["level"]]] * len(kinds)
        if chosen != list(kinds):
            refuse("--level", params["level"], f"--bots {','.join(kinds)}")
    if _given(ctx, "bots") and parse_bots(params["bots"], len(kinds)) != list(kinds):
        refuse("--bots", params["bots"], ",".join(kinds))
    if _given(ctx, "dealer") and params["dealer"] != dealer:
        refuse("--dealer", params["dealer"], f"dealer {dealer}")
    preset = params.get("preset") if _given(ctx, "preset") else None
    chosen_rules = _rules_given(ctx)
    for field in fields(Rules):
        name = field.name
        param = "fixed_trump" if name == "trump" else name
        value = chosen_rules.get(name)
        if _given(ctx, param):
            option = _RULE_OPTIONS.get(name, "--" + name.replace("_", "-"))
        elif preset is not None and name in PRESETS[preset]:
            option, value = "--preset", PRESETS[preset][name]
        else:
            continue
        if value != getattr(rules, name):
            shown = preset if option == "--preset" else value
            refuse(option, shown, f"{name.replace('_', ' ')} {getattr(rules, name)}")


def _rules_given(ctx: click.Context) -> dict[str, Any]:
    """Return the rule settings as their options give them (``Rules`` field names)."""
    params = ctx.params
    out = {name: params[name] for name in _RULE_OPTIONS if name in params}
    if "fixed_trump" in params:
        out["trump"] = "fixed" if params["fixed_trump"] else "winner-chooses"
    return out
