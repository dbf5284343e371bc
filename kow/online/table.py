"""A table of the online game: its seats, its games one after another, and who is told what.

A :class:`Table` lives on the server's event loop (asyncio). Its games are played by the
one game loop, :func:`kow.game.drive`, in a thread of their own: the engine, the bots and
the log writer are the ones ``kow play`` uses. A seat taken over the network is a
:class:`RemotePlayer`, whose :meth:`~RemotePlayer.act` hands the seat's
:class:`~kow.engine.view.View` to the loop and waits for the answer: the seat's client
gets a ``turn`` message and answers with an ``action``, which the table reads against the
view's legal actions before the engine applies it. A seat whose player has gone waits
``away`` seconds, then a stand-in bot (the ``heuristic`` bot, drawing from a generator of
its own, so that the kow bots' draws stay those of the seed) plays its turns until the
player is back.

Each event is sent to each seat as that seat may know it (:func:`~.protocol.event_json`);
a spectator sees what is public; the seed, and every hand, only in the log sent when the
game is over. The log is written whole to the table's file (:mod:`kow.online.log_file`)
at a trick's end (at most every :data:`~.log_file.SAVE_EVERY` seconds), at every round's
end and at the game's end, the game in progress marked abandoned, so that a server that
dies leaves the game so far readable and ready to reopen.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import random
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .. import log
from ..engine import State
from ..engine.view import View
from ..events import AGENT, BOT_NAMES, HUMAN, Deal, Event, GameEnd, Seat
from ..game import bots_rng, drive, new_game
from ..log import rules_to_log
from ..players import Player, make_bot
from ..players.heuristic import HeuristicBot
from ..rules import Rules
from ..settings import draw_seed
from .log_file import LogFile
from .protocol import (
    CODE_LENGTH,
    ProtocolError,
    Status,
    action_json,
    action_of,
    dumps,
    seats_json,
    shown_code,
)
from .views import event_json, view_json

if TYPE_CHECKING:
    from .reopen import Reopened

__all__ = ["Peer", "RemotePlayer", "Table", "TableClosed", "TableSettings", "new_code"]


def new_code() -> str:
    """Return a new table code: :data:`~.protocol.CODE_LENGTH` base-32 characters (80 bits)
    from the system's random source."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    return "".join(secrets.choice(alphabet) for _ in range(CODE_LENGTH))


class TableSettings(NamedTuple):
    """What a table plays: ``rules``; ``bots``, the kind of bot that takes each seat nobody
    took; ``hints``, whether its people may ask for the search bot's hint; ``away``,
    seconds a seat whose player has gone waits before a stand-in bot plays its turns;
    ``seed``, the first game's seed (None: drawn; later games draw theirs);
    ``search_iterations``, a search bot's deals per decision (None: its default);
    ``log_path``, the file that keeps the table's games (None: none kept)."""

    rules: Rules
    bots: str = "heuristic"
    hints: bool = True
    away: float = 60.0
    seed: int | None = None
    search_iterations: int | None = None
    log_path: str | None = None


class Peer(Protocol):
    """A client's connection, as a table sees it: messages out, and a way to end it."""

    address: str

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message`` (a JSON-ready object, or one already written as its frame's
        text by :func:`~.protocol.dumps`) for the client, in order."""

    def close(self, reason: str) -> None:
        """End the connection, saying ``reason``."""


class TableClosed(Exception):
    """Raised in a game's thread when its table closes while it awaits a decision."""


@dataclass(kw_only=True)
class _Seat:
    """One seat: who holds it (``name``, ``kind``, the ``secret`` that retakes it), its
    connection (``peer``, None while away), since when it is away, whether its player
    left for good (a bot plays for it), and whether it is ``held`` for its player by name
    (a reopened table's seat nobody has claimed yet)."""

    name: str | None = None
    kind: str = HUMAN
    secret: str = ""
    peer: Peer | None = None
    away_since: float | None = None
    left: bool = False
    held: bool = False


class _Turn(NamedTuple):
    """A decision awaited from a network seat: its number, the seat, its view, and the
    future its answer sets (on the table's loop)."""

    number: int
    seat: Seat
    view: View
    answer: asyncio.Future[Any]


_STAND_IN = object()
"""The answer of a turn that a stand-in bot is to take (the seat's player is away)."""


class RemotePlayer(Player):
    """A seat played over the network: each decision is asked of the seat's client.

    ``kind`` is the client's (``human`` or ``agent``), as the log records it. The stand-in
    (a ``heuristic`` bot with a generator of its own, seeded from the game's seed and the
    seat) plays the turns the table gives it while the player is away.
    """

    def __init__(self, name: str, kind: str, *, table: Table, seat: Seat, seed: int) -> None:
        super().__init__(name)
        self.kind = kind
        self.table = table
        self.seat = seat
        self.stand_in = HeuristicBot(name, random.Random(f"kow-stand-in:{seed}:{seat}"))

    def act(self, view: View) -> int:
        """Return the action for ``view``: the client's, or the stand-in's while it is away.

        Raises :class:`TableClosed` when the table closes meanwhile.
        """
        future = asyncio.run_coroutine_threadsafe(self.table.ask(self.seat, view), self.table.loop)
        try:
            answer = future.result()
        except (asyncio.CancelledError, concurrent.futures.CancelledError, RuntimeError):
            raise TableClosed from None
        if answer is _STAND_IN:
            return self.stand_in.act(view)
        return int(answer)


@dataclass(eq=False)
class Table:
    """One table: ``code`` (joining needs it), ``settings``, its seats (seat 0: the host,
    who starts each game), its spectators, and its games, one at a time.

    Everything but a game's thread runs on ``loop``. ``wins[seat]`` counts the games each
    seat won at this table; ``log_file`` keeps its games (at ``settings.log_path``).
    ``on_empty`` is called when the last connection leaves a table whose game is not in
    progress (the server then closes it). ``resume``: an abandoned game to continue first
    (state and bots, from :func:`kow.runs.provenance.play_again`).
    """

    code: str
    settings: TableSettings
    _: KW_ONLY
    loop: asyncio.AbstractEventLoop
    on_empty: Callable[[Table], None] | None = None
    seats: list[_Seat] = field(init=False)
    watchers: list[Peer] = field(default_factory=list, init=False)
    wins: list[int] = field(init=False)
    games: int = field(default=0, init=False)
    playing: bool = field(default=False, init=False)
    closed: bool = field(default=False, init=False)
    events: list[Event] = field(default_factory=list, init=False)
    players: list[Player] = field(default_factory=list, init=False)
    log_file: LogFile = field(init=False)
    seed: int | None = field(default=None, init=False)
    thread: threading.Thread | None = field(default=None, init=False)
    _state: State | None = field(default=None, init=False)
    _turn: _Turn | None = field(default=None, init=False)
    _turns: int = field(default=0, init=False)
    _resume: tuple[State, int, Sequence[Player]] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        players = self.settings.rules.players
        self.seats = [_Seat() for _ in range(players)]
        self.wins = [0] * players
        self.log_file = LogFile(self.settings.log_path)

    # ------------------------------------------------------------------ seats

    @property
    def shown(self) -> str:
        """The table's code as people see it (four groups of four)."""
        return shown_code(self.code)

    def sit(
        self, name: str, kind: str, peer: Peer | None, *, host: bool = False
    ) -> tuple[Seat, str]:
        """Seat ``name`` (a ``kind`` of player) at the first open seat; return the seat
        and its secret. ``host`` takes seat 0. The caller welcomes ``peer``, then tells
        the table (:meth:`tell_seats`), as after :meth:`retake` and :meth:`claim`.

        Raises :class:`ProtocolError`: ``table-full`` (no open seat, or a game in progress:
        only its players may rejoin it), ``name-taken`` (another seat has that name, in
        any case).
        """
        if any(s.name is not None and s.name.casefold() == name.casefold() for s in self.seats):
            raise ProtocolError(
                "name-taken", f"{name!r} is taken at this table; choose another name"
            )
        open_seats = [i for i, s in enumerate(self.seats) if s.name is None]
        if host:
            open_seats = [0] if self.seats[0].name is None else []
        if self.playing or self._resume is not None:
            raise ProtocolError(
                "table-full",
                "a game is in progress at this table: its players may rejoin it;"
                " watch it with --watch",
            )
        if not open_seats:
            raise ProtocolError("table-full", f"all {len(self.seats)} seats are taken")
        index = open_seats[0]
        seat = self.seats[index]
        seat.name, seat.kind, seat.secret = name, kind, secrets.token_urlsafe(32)
        seat.peer = peer
        seat.away_since = None if peer is not None else time.monotonic()
        return index, seat.secret

    def retake(self, secret: str, peer: Peer) -> Seat:
        """Give back the seat whose secret is ``secret`` to ``peer`` (a connection that
        dropped, or a second terminal: the older connection is closed); return the seat.

        Secrets are compared in constant time. Raises :class:`ProtocolError`
        (``bad-secret``) when no seat has it.
        """
        found = None
        for index, seat in enumerate(self.seats):
            if seat.name is not None and secrets.compare_digest(seat.secret, secret):
                found = index  # no early exit: the time taken tells nothing of the secrets
        if found is None:
            raise ProtocolError("bad-secret", "that secret is no seat's at this table")
        seat = self.seats[found]
        old, seat.peer, seat.away_since = seat.peer, peer, None
        seat.left = False
        if old is not None and old is not peer:
            old.close("this seat was taken again from another connection")
        return found

    def watch(self, peer: Peer) -> None:
        """Add ``peer`` as a spectator: it is told what is public."""
        self.watchers.append(peer)

    def gone(self, peer: Peer, *, left: bool = False) -> None:
        """Note that ``peer``'s connection ended: its seat is away (``left``: for good, a
        bot plays for it at once), or it no longer watches."""
        if peer in self.watchers:
            self.watchers.remove(peer)
        for seat in self.seats:
            if seat.peer is peer:
                seat.peer = None
                seat.away_since = time.monotonic()
                seat.left = seat.left or left
                if not self.playing and self._resume is None and (left or seat.kind != HUMAN):
                    seat.name = None  # between games, a seat left is open again
        self.tell_seats()
        if self.on_empty is not None and not self.playing and not self.peers():
            self.on_empty(self)

    def peers(self) -> list[Peer]:
        """Return every connection at the table: the seats' then the spectators'."""
        return [s.peer for s in self.seats if s.peer is not None] + list(self.watchers)

    def status(self) -> list[Status]:
        """Return each seat's :data:`~.protocol.Status`."""
        out: list[Status] = []
        for index, seat in enumerate(self.seats):
            if seat.name is None:
                bot = self.playing and index < len(self.players)
                out.append("bot" if bot else "open")
            elif seat.left:
                out.append("left")
            else:
                out.append("here" if seat.peer is not None else "away")
        return out

    def names(self) -> list[str | None]:
        """Return each seat's name: a player's, a bot's during a game, else None."""
        return [
            s.name
            if s.name is not None
            else (self.players[i].name if i < len(self.players) else None)
            for i, s in enumerate(self.seats)
        ]

    def kinds(self) -> list[str]:
        """Return each seat's kind: a player's, a bot's during a game, else the bots'."""
        return [
            s.kind if s.name is not None else (
                self.players[i].kind if i < len(self.players) else self.settings.bots
            )
            for i, s in enumerate(self.seats)
        ]  # fmt: skip

    def seats_message(self) -> dict[str, Any]:
        """Return the ``seats`` message: every seat, its status, and the running score."""
        return {
            "type": "seats",
            "seats": seats_json(self.names(), self.kinds(), self.status()),
            "wins": list(self.wins),
            "games": self.games,
            "playing": self.playing,
        }

    def tell_seats(self) -> None:
        """Send the ``seats`` message to everyone at the table."""
        self.broadcast(self.seats_message())

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send ``message`` to every connection at the table (written out once)."""
        peers = self.peers()
        if peers:
            text = dumps(message)
            for peer in peers:
                peer.send(text)

    def welcome(self, seat: Seat | None, secret: str | None) -> dict[str, Any]:
        """Return the ``welcome`` message for a new connection at ``seat`` (None: a
        spectator), with its ``secret`` (None for a spectator)."""
        s = self.settings
        return {
            "type": "welcome",
            "protocol": 1,
            "table": self.shown,
            "seat": seat,
            "secret": secret,
            "host": seat == 0,
            "rules": rules_to_log(s.rules),
            "bots": s.bots,
            "hints": s.hints,
            "away": s.away,
        }

    def catch_up(self, peer: Peer, seat: Seat | None) -> None:
        """Tell ``peer`` (at ``seat``, None: a spectator) the game in progress: its
        ``game`` message, the events so far as that seat may know them, and the turn it
        owes, if any."""
        if not self.playing:
            return
        peer.send(self._game_message())
        peer.send({"type": "catchup", "events": [event_json(e, seat) for e in list(self.events)]})
        turn = self._turn
        if turn is not None and turn.seat == seat:
            peer.send(self._turn_message(turn))
        elif turn is not None:
            peer.send({"type": "waiting", "seat": turn.seat})

    # ------------------------------------------------------------------ games

    def resume_from(self, reopened: Reopened) -> None:
        """Set the abandoned game of a reopened table's log (:func:`~.reopen.reopen`) to
        be continued at the next start.

        The seats of its people and agents are held for them, by name (they join again
        with the same names: :meth:`claim`); its bots play the other seats, their
        generator standing where it stood. The log's finished games stay first in the
        table's log, and count in its running score.
        """
        self._resume = (reopened.state, reopened.seed, reopened.bots)
        self.log_file.continue_from(reopened.logs)
        self.wins = list(reopened.wins)
        self.games = len(reopened.logs)
        for index, seat in enumerate(self.seats):
            kind = reopened.kinds[index]
            if kind in (HUMAN, AGENT):
                seat.name, seat.kind = reopened.names[index], kind
                seat.secret = secrets.token_urlsafe(32)
                seat.away_since = time.monotonic()
                seat.held = True

    def claim(self, name: str, peer: Peer | None) -> tuple[Seat, str]:
        """Give the seat held for ``name`` in a reopened game to ``peer`` (None: keep it
        for a connection that will come with the secret, as ``kow host`` does for its
        host); return the seat and its new secret. A seat is claimed once: from then on
        only its secret retakes it. Raises :class:`ProtocolError` (``table-full``) when no
        seat waits for that name."""
        for index, seat in enumerate(self.seats):
            if seat.held and seat.name is not None and seat.name.casefold() == name.casefold():
                seat.held = False
                if peer is not None:
                    seat.peer, seat.away_since = peer, None
                return index, seat.secret
        raise ProtocolError("table-full", f"no seat of the reopened game waits for {name!r}")

    def start(self) -> None:
        """Start the next game: bots take the open seats. Raises :class:`ProtocolError`
        (``not-now``) while a game is in progress."""
        if self.playing:
            raise ProtocolError("not-now", "a game is in progress")
        if self.closed:
            raise ProtocolError("not-now", "this table is closed")
        s = self.settings
        resume, self._resume = self._resume, None
        if resume is not None:
            state, seed, bots = resume
            bot_iter = iter(bots)
        else:
            seed = s.seed if self.games == 0 and s.seed is not None else draw_seed()
            state = new_game(s.rules, seed)
            rng = bots_rng(seed)
        taken = {seat.name.casefold() for seat in self.seats if seat.name is not None}
        free = iter([n for n in BOT_NAMES if n.casefold() not in taken])
        players: list[Player] = []
        for index, seat in enumerate(self.seats):
            if seat.name is not None:
                players.append(
                    RemotePlayer(seat.name, seat.kind, table=self, seat=index, seed=seed)
                )
            elif resume is not None:
                players.append(next(bot_iter))
            else:
                players.append(
                    make_bot(s.bots, next(free), rng, search_iterations=s.search_iterations)
                )
        self.players, self.seed, self.events, self._state = players, seed, [], state
        self.playing = True
        self.games += 1
        self._turn = None
        self.broadcast(self._game_message())
        self.tell_seats()
        self.thread = threading.Thread(
            target=self._play, args=(state,), name=f"kow-table-{self.games}", daemon=True
        )
        self.thread.start()

    def _game_message(self) -> dict[str, Any]:
        return {
            "type": "game",
            "number": self.games,
            "players": [
                {"seat": i, "name": p.name, "kind": p.kind} for i, p in enumerate(self.players)
            ],
        }

    def _play(self, state: State) -> None:
        """Play ``state``'s game to its end in this thread (the game's), keeping the log."""
        done = False
        try:
            drive(state, self.players, self._from_game)
            done = True
        except TableClosed:
            pass
        except Exception as err:  # noqa: BLE001 - a fault in a game ends that game, not the server
            self.loop.call_soon_threadsafe(self._fault, f"{type(err).__name__}: {err}")
        finally:
            game = log.build(self.seed, self.settings.rules, self.players, events=state.events,
                             abandoned=not done)  # fmt: skip
            self._save(game, final=done)
            if not self.closed:
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    self.loop.call_soon_threadsafe(self._over, game, done)

    def _from_game(self, event: Event) -> None:
        """In the game's thread: hand ``event`` to the loop, and save the log when it is
        due (:meth:`~.log_file.LogFile.due`)."""
        self.loop.call_soon_threadsafe(self._tell, event)
        if self.log_file.due(event):
            state = self._state
            assert state is not None  # set before the game's thread starts
            game = log.build(self.seed, self.settings.rules, self.players,
                             events=state.events, abandoned=True)  # fmt: skip
            self._save(game, final=False)

    def _tell(self, event: Event) -> None:
        """On the loop: send ``event`` to each seat as it may know it (a public event is
        written out once for all)."""
        self.events.append(event)
        public = dumps({"type": "event", "event": event_json(event, None)})
        for index, seat in enumerate(self.seats):
            if seat.peer is not None:
                seat.peer.send(
                    {"type": "event", "event": event_json(event, index)}
                    if isinstance(event, Deal)
                    else public
                )
        for peer in self.watchers:
            peer.send(public)
        if isinstance(event, GameEnd):
            self.wins[event.outcome.winner] += 1

    def _over(self, game: log.GameLog, done: bool) -> None:
        """On the loop: the game is over (``done``) or was cut short; tell everyone,
        with its log (its seed and every hand are public now)."""
        self.playing = False
        self._turn = None
        self.broadcast(
            {"type": "game_over", "number": self.games, "finished": done, "log": game,
             "wins": list(self.wins)}
        )  # fmt: skip
        for seat in self.seats:  # between games, seats left for good are open again
            if seat.name is not None and seat.left:
                seat.name, seat.left = None, False
        self.players = []
        self.tell_seats()
        if self.on_empty is not None and not self.peers():
            self.on_empty(self)

    def _fault(self, what: str) -> None:
        self.broadcast(
            {"type": "error", "code": "server-fault", "message": f"the game stopped: {what}"}
        )

    def _save(self, game: log.GameLog, *, final: bool) -> None:
        """Save the table's log with ``game`` (:meth:`~.log_file.LogFile.save`; ``final``:
        it is over). A failure to write is told to the table, not raised."""
        try:
            self.log_file.save(game, final=final)
        except OSError as err:
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(
                    self.broadcast,
                    {"type": "error", "code": "server-fault",
                     "message": f"the server cannot write its log: {err.strerror or err}"},
                )  # fmt: skip

    # ------------------------------------------------------------------ turns

    async def ask(self, seat: Seat, view: View) -> Any:
        """Return ``seat``'s answer to ``view``: its action, or :data:`_STAND_IN` once its
        player has been away ``away`` seconds (or left). On the loop."""
        self._turns += 1
        loop = asyncio.get_running_loop()
        turn = _Turn(self._turns, seat, view, loop.create_future())
        self._turn = turn
        s = self.seats[seat]
        if s.peer is not None:
            s.peer.send(self._turn_message(turn))
        waiting = dumps({"type": "waiting", "seat": seat})
        for index, other in enumerate(self.seats):
            if index != seat and other.peer is not None:
                other.peer.send(waiting)
        for peer in self.watchers:
            peer.send(waiting)
        try:
            while True:
                if self.closed:
                    raise TableClosed
                if s.left or (
                    s.away_since is not None
                    and time.monotonic() - s.away_since >= self.settings.away
                ):
                    return _STAND_IN
                if turn.answer.done():
                    return turn.answer.result()
                await asyncio.wait((turn.answer,), timeout=0.25)
        finally:
            self._turn = None
            if not turn.answer.done():
                turn.answer.cancel()

    def _turn_message(self, turn: _Turn) -> dict[str, Any]:
        return {"type": "turn", "turn": turn.number, "view": view_json(turn.view)}

    def answer(self, seat: Seat, number: int, text: str) -> None:
        """Take ``seat``'s action ``text`` for turn ``number``.

        Raises :class:`ProtocolError`: ``not-your-turn`` (no turn of this seat is awaited,
        or ``number`` is another turn's) or ``illegal`` (not an action, or one the rules do
        not allow now, naming the legal ones).
        """
        turn = self._turn
        if turn is None or turn.seat != seat:
            raise ProtocolError("not-your-turn", "it is not your turn")
        if number != turn.number:
            raise ProtocolError(
                "not-your-turn", f"turn {number} is not the turn awaited of you ({turn.number})"
            )
        phase = turn.view.phase
        action = action_of(text, phase)
        if action not in turn.view.legal:
            legal = ", ".join(action_json(a, phase) for a in turn.view.legal)
            raise ProtocolError("illegal", f"{text} is not allowed now; allowed: {legal}")
        if not turn.answer.done():
            turn.answer.set_result(action)

    def close(self, reason: str) -> None:
        """Close the table: every connection is told ``reason`` and ended; a game in
        progress stops at its next decision asked of the network (its log keeps it,
        abandoned: :attr:`thread` ends once it is written)."""
        self.closed = True
        turn = self._turn
        if turn is not None and not turn.answer.done():
            turn.answer.cancel()
        for peer in self.peers():
            peer.send({"type": "closed", "reason": reason})
            peer.close(reason)
