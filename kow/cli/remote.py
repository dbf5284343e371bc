"""A sitting at a remote table: the terminal client of ``kow join`` and ``kow host``.

:class:`RemoteSitting` shows a table served by :mod:`kow.online` with the screen and
commands of ``kow play``: each event the server sends is read back
(:func:`kow.online.protocol.event_of`) and told by a :class:`~kow.screen.Screen`; each
turn's view (:func:`~kow.online.protocol.view_of`) is put to a
:class:`~kow.cli.human.HumanPlayer`, whose answer goes back as an ``action``. The rules
are the server's: the client only shows what it is sent and says what is typed.

Between games the host (seat 0) has a prompt of its own (``start``, ``seats``, ``help``,
``quit``), read while the table's news keeps coming; the others wait. A connection that
drops is taken again by itself (:meth:`~kow.online.client.Connection.rejoin`, a few tries
with growing waits), and :class:`kow.cli.seats.SeatBook` keeps each seat's secret in a
file of the user's, so that the same ``kow join`` line, run again after the terminal
closed, takes the same seat back.
"""

from __future__ import annotations

import contextlib
import queue
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, NamedTuple

from ..entries import EntryError, check_entry
from ..events import Deal, Event, Knock, Play, RoundEnd, TrickWon, Vote
from ..online.client import Connection, JoinError
from ..online.protocol import ProtocolError, action_json
from ..online.views import event_of, view_of
from ..rulebook import rule_lines, rules_summary
from ..rules import Rules
from ..screen import GLUE, Screen, printable
from ..stopping import Stopped
from .human import HumanPlayer, Quit
from .session import PIPED_PATIENCE, Terminal

__all__ = ["RETRIES", "Parting", "RemoteSitting"]

RETRIES: tuple[float, ...] = (1.0, 2.0, 4.0, 8.0, 15.0)
"""Seconds waited before each try to take the seat again after the connection dropped."""

_RETRY_CODES = (1000, 1008)
"""WebSocket close codes after which the client does not try again: a normal close (the
server ended this connection on purpose) and a policy close (the seat was taken from
another terminal, too many faults, too long silent)."""

LOBBY_PROMPT = "Lobby (start, seats, help, quit): "
"""The host's prompt between games."""

_LOBBY_HELP = (
    "Commands between games:",
    "  start  start the game now: bots take the open seats",
    "  seats  who is at the table",
    "  help   this list (also ?)",
)

WAIT_PROMPT = "(quit to leave) "
"""The prompt shown on a terminal while the table waits for another player (one who
thinks, or whose connection dropped): the one thing to do then is leave."""

_WAIT_SHOWN_AFTER = 0.3
"""Seconds a seat must think before "Waiting for NAME..." is shown (a quick answer
shows no line)."""


class Parting(NamedTuple):
    """How a sitting at a remote table ended: the exit ``code`` (0: left between games;
    1: left mid-game or the connection lost; 130 Ctrl-C; 128 + the signal for SIGTERM
    and SIGHUP) and the ``reason``, for a person."""

    code: int
    reason: str


@dataclass
class RemoteSitting:
    """A person at a remote table, through ``connection``, on ``terminal``.

    ``note(line)`` shows a message that is not the game (the connection's state, the
    server's errors): the command line sends it to stderr. ``delay`` seconds pass after
    each other seat's card and each trick (none while catching up). ``symbols``: suits
    as ♣ ♦ ♥ ♠, else letters. ``auto_forced``: forced moves play themselves from the start.
    ``hint_iterations``: the hint's deals per decision (None: the search bot's default).
    ``retries``: the waits, in seconds, before each try to take the seat again after the
    connection dropped. ``hosting``: the table lives in this process (``kow host``), so
    the host's ``quit`` closes it for everyone. ``log_path``: where the host's table keeps
    its games (said after each game).
    """

    connection: Connection
    terminal: Terminal
    _: KW_ONLY
    note: Callable[[str], None]
    delay: float = 0.0
    symbols: bool = True
    auto_forced: bool = False
    hint_iterations: int | None = None
    retries: Sequence[float] = RETRIES
    hosting: bool = False
    log_path: str | None = None
    # What the sitting keeps as it goes: not given to __init__.
    playing: bool = field(default=False, init=False)
    screen: Screen | None = field(default=None, init=False)
    player: HumanPlayer | None = field(default=None, init=False)
    number: int = field(default=0, init=False)
    roster: list[dict[str, Any]] = field(default_factory=list, init=False)
    _closed: str | None = field(default=None, init=False)
    _starting: bool = field(default=False, init=False)
    _prompted: bool = field(default=False, init=False)
    _waiting: int | None = field(default=None, init=False)
    _shown_wait: int | None = field(default=None, init=False)
    _out: bool = field(default=False, init=False)
    _told_out: bool = field(default=False, init=False)
    _told_lobby: bool = field(default=False, init=False)
    _hush: contextlib.ExitStack = field(default_factory=contextlib.ExitStack, init=False)

    # ------------------------------------------------------------------ what the welcome says

    @property
    def seat(self) -> int | None:
        """This client's seat (0-based, clockwise), or None when watching."""
        seat = self.connection.welcome.get("seat")
        return seat if isinstance(seat, int) else None

    @property
    def host(self) -> bool:
        """Whether this client is the table's host (seat 0), who starts each game."""
        return self.connection.welcome.get("host") is True

    @property
    def rules(self) -> Rules:
        """The table's rules, as the welcome gives them."""
        from ..log import rules_from_log

        return rules_from_log(self.connection.welcome["rules"])

    # ------------------------------------------------------------------ the sitting

    def run(self) -> Parting:
        """Sit at the table until the person leaves, the table closes or the connection is
        lost for good; return how it ended (:class:`Parting`).

        ``quit`` at a prompt leaves the table (a bot plays the seat from then on); Ctrl-C
        only closes the connection (the seat is away: a bot plays it after the table's
        wait, and the same join line takes it back).
        """
        try:
            self._intro()
            while True:
                message = self._next()
                if message is None:
                    parting = self._dropped()
                else:
                    parting = self._handle(message)
                if parting is not None:
                    return parting
        except Quit as err:
            mid_game = self.playing
            if str(err) == "end of input":  # a closed terminal, or a script's end: a drop
                self._hang_up()
                return Parting(1, "end of input; your seat waits for the same join line")
            self._hang_up(leave=True)
            if str(err) == "refused":
                reason = f"{PIPED_PATIENCE} entries in a row were refused"
            else:
                reason = "you quit"
            if mid_game and not self.hosting:
                reason += "; a bot plays your seat from now on"
            return Parting(1 if mid_game else 0, reason)
        except KeyboardInterrupt:
            self._hang_up()
            return Parting(130, "interrupted")
        except Stopped as err:
            self._hang_up()
            return Parting(err.code, f"ended by {err.name}")
        except BrokenPipeError:
            self._hang_up()
            return Parting(1, "the screen's output closed")
        except OSError as err:  # the terminal failed (a lost tty)
            self._hang_up()
            return Parting(1, f"the terminal failed: {err.strerror or err}")
        finally:
            self._hush.close()

    def _intro(self) -> None:
        """Say where this client sits, and what it may do while the table fills."""
        w = self.connection.welcome
        table = printable(str(w.get("table", "")))
        if self.seat is None:
            self.note(f"You are watching table {table}: you see what is public. Ctrl-C leaves.")
        elif self.host:
            self.note(f"You are the host of table {table}, at seat 0.")
        else:
            self.note(f"You sit at seat {self.seat} of table {table}.")
        if self.seat is not None and not w.get("hints", True):
            self.note("The host turned hints off at this table.")

    def _handle(self, message: dict[str, Any]) -> Parting | None:
        """Show one message from the server; return how the sitting ends, if it does."""
        kind = message.get("type")
        try:
            if kind == "seats":
                self._seats(message)
            elif kind == "game":
                self._game(message)
            elif kind == "event":
                self._event(event_of(message["event"], self.seat))
            elif kind == "catchup":
                self._catch_up(message["events"])
            elif kind == "turn":
                self._turn(message)
            elif kind == "waiting":
                self._waiting = int(message["seat"])
            elif kind == "game_over":
                self._game_over(message)
            elif kind == "error":
                self._starting = False
                self.note(f"The server says: {printable(str(message.get('message')))}")
            elif kind == "closed":
                self._closed = printable(str(message.get("reason") or "the table closed"))
        except (ProtocolError, KeyError, TypeError, ValueError, IndexError) as err:
            self.note(
                f"The server sent a {printable(str(kind))!s} message this client cannot read: {err}"
            )
        return None

    # ------------------------------------------------------------------ reading

    def _next(self) -> dict[str, Any] | None:
        """Return the next message from the server (None: the connection ended).

        Meanwhile the host's entries are read at the lobby prompt between games, and a
        seat that thinks a while is said to (once per turn).
        """
        connection = self.connection
        while True:
            if self._waiting is not None and self._waiting != self._shown_wait:
                try:
                    return connection.receive(timeout=_WAIT_SHOWN_AFTER)
                except queue.Empty:
                    self._shown_wait = self._waiting
                    self._say([f"Waiting for {self._name(self._waiting)}..."])
                    continue
            waited = self._waiting is not None and self._may_leave_while_waiting()
            if not self._in_lobby() and not waited:
                return connection.receive()
            try:
                return connection.receive(timeout=0.05 if self._prompted else 0.3)
            except queue.Empty:
                pass
            if waited:
                entry = self._typed(WAIT_PROMPT)
                if entry is not None:
                    self._waiting_command(entry)
                continue
            entry = self._lobby_entry()
            if entry is not None:
                self._lobby_command(entry)

    def _in_lobby(self) -> bool:
        """Whether the host's lobby prompt is up: between games, no start asked yet."""
        return self.host and not self.playing and not self._starting and self._closed is None

    def _lobby_entry(self) -> str | None:
        """Return a line typed at the lobby prompt, or None when none was typed yet.

        On a terminal the prompt is shown and the keyboard watched for a moment (the
        server's news is shown meanwhile); without one, a line is read. Raises
        :class:`Quit` at the end of input.
        """
        if self._watched():
            return self._typed(LOBBY_PROMPT)
        try:
            return self.terminal.read(LOBBY_PROMPT)
        except EOFError:
            raise Quit("end of input") from None

    def _watched(self) -> bool:
        """Whether the keyboard can be watched for a moment, the server's news shown
        meanwhile: a terminal, not Windows' console."""
        return self.terminal.interactive and sys.platform != "win32"

    def _typed(self, prompt: str) -> str | None:
        """Show ``prompt`` (once, until a line is typed) and return a line typed within a
        moment, or None. Only where :meth:`_watched`. Raises :class:`Quit` at the end of
        input."""
        import select

        terminal = self.terminal
        stdin = terminal.stdin
        if not self._prompted:
            terminal.stdout.write(prompt)
            terminal.stdout.flush()
            terminal.echo(True)  # in a game keys are hushed: shown at this prompt
            self._prompted = True
        try:
            ready, _, _ = select.select([stdin], [], [], 0.2)
        except (OSError, ValueError):
            ready = [stdin]
        if not ready:
            return None
        self._prompted = False
        terminal.echo(False)
        line = stdin.readline()
        if not line:
            raise Quit("end of input")
        return line.rstrip("\r\n")

    def _may_leave_while_waiting(self) -> bool:
        """Whether this client is offered ``quit`` while the table waits for another
        player (one who thinks, or whose connection dropped): a seated person at a
        terminal, once "Waiting for NAME..." is shown (piped entries are kept for the
        person's own turns)."""
        return self.seat is not None and self._shown_wait is not None and self._watched()

    def _waiting_command(self, text: str) -> None:
        """Do what was typed while the table waits for another player. Raises
        :class:`Quit` on ``quit``."""
        try:
            entry = check_entry(text).lower()
        except EntryError as err:
            self._say([f"{err}."])
            return
        if entry in ("quit", "exit"):
            raise Quit("quit")
        if entry:
            waited = self._name(self._waiting) if self._waiting is not None else "a player"
            leave = "close the table" if self.hosting else "leave the table"
            self._say([f"It is {waited}'s turn: type quit to {leave}, or wait."])

    def _lobby_command(self, text: str) -> None:
        """Do what the host typed at the lobby prompt. Raises :class:`Quit` on ``quit``."""
        try:
            entry = check_entry(text).lower()
        except EntryError as err:
            self._say([f"{err}."])
            return
        if entry in ("", "seats"):
            if entry:
                self._say(self._roster_lines())
        elif entry in ("start", "s"):
            self._starting = True
            self.connection.send({"type": "start"})
        elif entry in ("help", "?"):
            leave = (
                "  quit   close the table (everyone's game ends) and leave"
                if self.hosting
                else "  quit   leave the table"
            )
            self._say([*_LOBBY_HELP, leave])
        elif entry in ("quit", "exit"):
            raise Quit("quit")
        else:
            what = printable(text.strip())
            self._say([f"{what} is not a command here: type start, seats, help or quit."])

    # ------------------------------------------------------------------ writing

    def _say(self, lines: Sequence[str]) -> None:
        """Write ``lines`` on the screen, below the lobby prompt if it is up."""
        terminal = self.terminal
        if self._prompted:
            terminal.stdout.write("\r\x1b[K" if terminal.screen else "\n")
            terminal.echo(False)
            self._prompted = False
        for line in lines:
            terminal.write(line)

    def _name(self, seat: int) -> str:
        """Return ``seat``'s name as shown: "You" for this client's own seat."""
        if self.screen is not None and seat < len(self.screen.names):
            return self.screen.names[seat]
        if seat == self.seat:
            return "You"
        for entry in self.roster:
            if entry.get("seat") == seat and entry.get("name"):
                return printable(str(entry["name"]))
        return f"seat {seat}"

    # ------------------------------------------------------------------ the table's news

    def _seats(self, message: dict[str, Any]) -> None:
        """Show who came, went or came back: the whole roster between games, one line
        per change during a game."""
        seats = [dict(s) for s in message["seats"]]
        before = {s["seat"]: s for s in self.roster}
        self.roster = seats
        if message.get("playing") or self.playing:
            away = self.connection.welcome.get("away", 60)
            lines = []
            for s in seats:
                old = before.get(s["seat"])
                if old is None or s["seat"] == self.seat or s.get("name") is None:
                    continue
                name = printable(str(s["name"]))
                if old["status"] == s["status"] or old.get("name") != s.get("name"):
                    continue
                if s["status"] == "away":
                    lines.append(
                        f"{name} is away: a bot plays for them after {away:g} s unless back."
                    )
                elif s["status"] == "here":
                    lines.append(f"{name} is back.")
                elif s["status"] == "left":
                    lines.append(f"{name} left the table: a bot plays for them.")
            if lines:
                self._say(lines)
            return
        changed = [(s.get("name"), s["status"]) for s in seats] != [
            (s.get("name"), s["status"]) for s in before.values()
        ]
        if changed:
            self._say(self._roster_lines())
        if not self.host and self.seat is not None and not self._told_lobby:
            self._told_lobby = True
            host = next((s.get("name") for s in seats if s.get("seat") == 0), None)
            who = f"{printable(str(host))}, the host," if host else "the host"
            self._say([f"Waiting for {who} to start the game (Ctrl-C leaves; your seat is kept)."])

    def _roster_lines(self) -> list[str]:
        """Return the roster: each seat, its player and state."""
        parts = []
        for s in self.roster:
            seat = s["seat"]
            if s.get("name") is None:
                who = "open"
            else:
                who = "You" if seat == self.seat else printable(str(s["name"]))
                tags = ["host"] if seat == 0 else []
                if s.get("kind") not in (None, "human"):
                    tags.append(str(s["kind"]))
                if s["status"] != "here":
                    tags.append(str(s["status"]))
                if tags:
                    who += f"{GLUE}({', '.join(tags)})"
            parts.append(f"{seat}{GLUE}{who}")
        between = f"{GLUE}· " if self.symbols else ", "
        line = "At the table: " + between.join(parts) + "."
        if any(s.get("name") is None for s in self.roster):
            bots = printable(str(self.connection.welcome.get("bots", "kow")))
            line += f" Open seats get {bots} bots at the start."
        return [line]

    def _game(self, message: dict[str, Any]) -> None:
        """Set up the screen for the game that starts (or that this client rejoins)."""
        players = message["players"]
        number = int(message["number"])
        names = [printable(str(p["name"])) for p in players]
        if self.seat is not None:
            names[self.seat] = "You"
        terminal = self.terminal
        rules = self.rules
        self.screen = Screen(names, rules, symbols=self.symbols, color=terminal.color)
        auto = self.player.auto_forced if self.player is not None else self.auto_forced
        self.player = HumanPlayer(
            "You", self.screen, terminal.read, write=terminal.write,
            hint_rng=random.Random(f"kow-hint:{self.connection.welcome.get('table')}:{number}"),
            hint_iterations=self.hint_iterations,
            patience=None if terminal.interactive else PIPED_PATIENCE,
            rulebook=lambda: rule_lines(rules, min(terminal.width, 100)), page=terminal.page,
            auto_forced=auto, hints=self.connection.welcome.get("hints", True) is not False,
        )  # fmt: skip
        self.playing, self._starting, self._out, self._told_out = True, False, False, False
        self._waiting = self._shown_wait = None
        self._hush.close()
        self._hush.enter_context(terminal.hushed())
        if number == self.number:
            return  # the game this client was at: the catch-up tells it again
        self.number = number
        seats = ", ".join(
            f"{s}{GLUE}{names[s]}" + ("" if p["kind"] == "human" else f"{GLUE}({p['kind']})")
            for s, p in enumerate(players)
        )
        lines = [
            "",
            self.screen.bold(f"Knock-Out Whist online, game {number}"),
            f"Seats, clockwise: {seats}",
            f"Rules: {rules_summary(rules)}.",
        ]
        if self.seat is not None:
            lines.append(
                "Type help at any prompt for the commands, rules for the rules, quit to leave."
            )
        self._say(lines)

    def _event(self, event: Event, *, pace: bool = True) -> list[str]:
        """Show ``event`` (or, with ``pace`` off, only return its lines, as a catch-up does)."""
        screen = self.screen
        if screen is None:
            return []
        lines = screen.event(event)
        if self._waiting is not None and isinstance(event, (Play, Knock, Vote)):
            if event.seat == self._waiting:
                self._waiting = self._shown_wait = None
        if isinstance(event, RoundEnd) and self.seat in event.eliminated:
            self._out = True  # said as the next round is dealt: the game may end here
        elif isinstance(event, Deal) and self._out and not self._told_out:
            self._told_out = True
            lines = [self._knocked_out_note(), *lines]
        if not pace:
            return lines
        self.terminal.moved = True
        self._say(lines)
        if self.delay and (
            isinstance(event, TrickWon)
            or (isinstance(event, (Play, Knock)) and event.seat != self.seat)
        ):
            time.sleep(self.delay)
        return lines

    def _knocked_out_note(self) -> str:
        """Return what this person is told when knocked out."""
        if self.rules.eliminated_vote:
            return "You are knocked out: from now on you vote for each round's trump."
        return "You are knocked out: you watch the rest of the game."

    def _catch_up(self, events: Sequence[Any]) -> None:
        """Follow the game so far (a rejoin mid-game) and show only its current round."""
        recap: list[str] = []
        for data in events:
            event = event_of(data, self.seat)
            lines = self._event(event, pace=False)
            recap = list(lines) if isinstance(event, Deal) else recap + lines
        screen = self.screen
        where = f"round {screen.round}" if screen is not None and screen.round else "its start"
        self._say([f"Caught up with game {self.number}: {where} so far.", *recap])
        self.terminal.moved = True

    def _turn(self, message: dict[str, Any]) -> None:
        """Ask the person for the decision of this turn, and send it."""
        view = view_of(message["view"])
        self._waiting = self._shown_wait = None
        if self.player is None:
            raise ValueError("a turn before any game")
        self._say([])
        action = self.player.act(view)
        self.connection.act(int(message["turn"]), action_json(action, view.phase))

    def _game_over(self, message: dict[str, Any]) -> None:
        """Show the end-of-game summary, the running score, and what comes next."""
        self._hush.close()
        self.playing = False
        self._waiting = self._shown_wait = None
        screen = self.screen
        lines: list[str] = []
        if screen is not None:
            lines += ["", *screen.summary()]
            wins = message.get("wins") or []
            games = sum(wins)
            lines.append(
                f"Games won so far ({games} played): "
                + screen.between.join(
                    f"{screen.names[s]}{GLUE}{won}"
                    for s, won in enumerate(wins)
                    if s < len(screen.names)
                )
            )
        if not message.get("finished", True):
            lines.append("This game stopped before its end.")
        game = message.get("log")
        if isinstance(game, dict) and isinstance(game.get("seed"), int):
            lines.append(f"Seed {game['seed']}.")
        if self.seat is None and screen is not None and isinstance(game, dict):
            lines += _hands_dealt(game, screen)
        if self.log_path:
            lines.append(f"The table's games are saved in {printable(self.log_path)}.")
        if self.host:
            lines.append("Type start for the next game, or quit to stop.")
        elif self.seat is not None:
            host = next((s.get("name") for s in self.roster if s.get("seat") == 0), None)
            who = printable(str(host)) if host else "the host"
            lines.append(
                f"Waiting for {who} to start the next game (Ctrl-C leaves; your seat is kept)."
            )
        self._say(lines)

    # ------------------------------------------------------------------ leaving, rejoining

    def _hang_up(self, *, leave: bool = False) -> None:
        """End this client's connection as the sitting ends: ``leave`` for good (a bot
        plays the seat from now on), else only close it (the seat is away). When
        hosting, neither: the host's process closes the table next, which tells every
        seat why, and ends this connection too; leaving first would tell them that the
        host left and a bot plays for them, just before the table closed."""
        if self.hosting:
            return
        if leave:
            self._leave()
        else:
            self.connection.close()

    def _leave(self) -> None:
        """Leave the table for good: a bot plays the seat from now on."""
        with contextlib.suppress(Exception):
            self.connection.send({"type": "leave"})
        self.connection.close()

    def _dropped(self) -> Parting | None:
        """The connection ended: take the seat again if it only dropped (None when back),
        or return how the sitting ends."""
        connection = self.connection
        if self._closed is not None:
            return Parting(1 if self.playing else 0, f"the table closed: {self._closed}")
        reason = printable(connection.ended or "the connection closed")
        code = getattr(connection.websocket, "close_code", None)
        if code in _RETRY_CODES:
            return Parting(1, f"the server ended the connection: {reason}")
        self._say([])
        for attempt, wait in enumerate(self.retries, 1):
            self.note(
                f"Connection lost ({reason}); trying again in {wait:g} s"
                f" ({attempt} of {len(self.retries)})..."
            )
            time.sleep(wait)
            try:
                self.connection = self._reconnect()
            except JoinError as err:
                if err.code != "unreachable":
                    return Parting(1, f"cannot take the seat again: {printable(str(err))}")
                reason = printable(str(err))
                continue
            self.note("Back at the table.")
            return None
        return Parting(1, f"the connection is lost: {reason}")

    def _reconnect(self) -> Connection:
        """Return a new connection to this client's seat (or to the table it watches)."""
        old = self.connection
        if self.seat is None:
            return Connection.join(old.url, str(old.welcome["table"]), watch=True, tls=old.tls)
        return old.rejoin()


def _hands_dealt(game: dict[str, Any], screen: Screen) -> list[str]:
    """Return the hands dealt in each round of a finished ``game`` (its log), for a
    spectator: public once the game is over. Empty for a log of another shape."""
    from ..online.protocol import CARD_OF

    lines = ["The hands, as dealt:"]
    try:
        for rnd in game["rounds"]:
            hands = []
            for seat, hand in enumerate(rnd["hands"]):
                if hand:
                    cards = sorted(CARD_OF[c] for c in hand)
                    hands.append(f"{screen.names[seat]}: " + " ".join(map(screen.card, cards)))
            lines.append(f"  Round {int(rnd['number'])}: " + "; ".join(hands))
    except (KeyError, TypeError, ValueError, IndexError):
        return []
    return lines
