"""Check that a logged game is the game its seed gives: ``kow verify --against-seed``.

:func:`kow.verify.verify_game` proves that a log is a legal game under its ``rules``; it
cannot tell whether the cards are the ones its ``seed`` deals, or whether its bots chose
what they would have chosen. :func:`check_against_seed` does: it plays the game again
through the engine (:func:`kow.game.new_game`, so the engine deals from the seed, as
``kow simulate`` and ``kow play`` did) and the one game loop (:func:`kow.game.drive`),
and compares each deal, turned-up card and tie cut with the log's as the engine makes
it. Each decision comes from the log (:func:`kow.log._replay.round_actions`); when every
player is a person or a bot of a kind kow knows (``players[].kind``), each bot is made
again as kow made it (:func:`kow.players.make_bot`, drawing from
:func:`kow.game.bots_rng`) and its choice is compared with the log's. An agent (kind
``agent``: a program that played through one of kow's framework adapters) is taken as a
person is: kow cannot play it again, so its decisions are the log's, unchecked
(:func:`agents_note` says so). So no rule is stated here: the engine deals and plays, the
log and the bots decide.

:func:`play_again` is that walk, returning where it stopped: the engine's state and the
bots made again, which is what ``kow play --resume`` continues an abandoned game from.

A log whose ``seed`` is null (its deals came from outside kow, such as OpenSpiel's chance
nodes) has no seed to be checked against: :func:`check_against_seed` raises
:class:`NoSeedError`, and ``kow verify --against-seed`` counts the game as faulty with
:data:`NO_SEED` as its message.

The deals follow the game's course (who is knocked out changes the hands dealt, and a
tie cut happens only on a tie), which is why the game is played again rather than each
round dealt alone: the first difference is named, and nothing after it is compared.

What the log does not say, and how it is taken:

- The first dealer: ``--dealer`` sets it without changing the cards (the seed's draw of
  a dealer is made all the same), and the log does not say whether it was given. So the
  first dealer is taken from the log, and the seed's cards are dealt from there (a
  first dealer edited, the log kept legal, moves the seed's hands to other seats: the
  hands then differ).
- ``--search-deals``: a search bot's choices depend on it and the log does not
  record it; give the one the game was played with (default: the bot's own).
- The kow version: deals and bots are those of the kow running the check; a log from
  another version may differ for that reason, and the message then says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, NoReturn

from ..cards import NAMES, Mask
from ..engine import State
from ..engine.view import TrickFacts, View
from ..events import (
    AGENT,
    NOT_BOTS,
    Action,
    Deal,
    EventVisitor,
    Lead,
    Phase,
    Seat,
    TieCut,
    TurnedUp,
    action_name,
)
from ..game import PlayerError, bots_rng, drive, new_game
from ..log import GameLog, RoundLog, round_actions, rules_from_log
from ..players import BOT_KINDS, Player, make_bot
from ..players.search import DEFAULT_ITERATIONS
from ..screen import printable
from ..verify import Fault
from ..version import __version__

__all__ = [
    "AGENT",
    "NO_SEED",
    "Difference",
    "NoSeedError",
    "PlayedAgain",
    "agents_note",
    "check_against_seed",
    "play_again",
    "seed_check",
]

NO_SEED = (
    "the seed is null (the deals came from outside kow), so there is no seed to check the"
    " game against"
)
"""The message of :class:`NoSeedError`, and ``kow verify --against-seed``'s fault for such
a game."""

_WHAT: dict[str, Callable[[Seat | None], str]] = {
    "cut": lambda seat: "the cut position",
    "hand": lambda seat: f"seat {seat}'s hand",
    "turned_up": lambda seat: "the turned-up card",
    "tie_cut": lambda seat: "the tie cut",
    "vote": lambda seat: f"seat {seat}'s vote",
    "trump": lambda seat: f"seat {seat}'s trump choice",
    "play": lambda seat: f"seat {seat}'s play",
}
"""What each ``Difference.field`` names, in words, given the seat."""


class NoSeedError(ValueError):
    """Raised by :func:`check_against_seed` for a log whose ``seed`` is null."""

    def __init__(self) -> None:
        super().__init__(NO_SEED)


class Difference(NamedTuple):
    """The first place where a log is not the game its seed gives.

    ``round`` counts from 1; ``trick`` from 1 within the round (None when the difference
    is not in a trick); ``seat`` is 0-based, clockwise (None when not one seat's).
    ``field`` is what differs: ``"cut"`` (the cut position), ``"hand"``,
    ``"turned_up"``, ``"tie_cut"`` (chance: the seed's), or ``"vote"``, ``"trump"``,
    ``"play"`` (a bot's decision). ``logged`` is what the log says and ``expected``
    what ``source`` gives (the seed, or the seat's bot playing from the seed), both in
    the log's notation: a card ``Ah``, a hand ``[Ah 2c]``, a suit ``h``, ``knock``, a
    tie cut ``[seat 3: 3s, seat 2: 3h] [seat 3: 9d, seat 2: Ad]`` (one ``[...]`` a
    pass), or ``none``.
    """

    round: int
    trick: int | None
    seat: Seat | None
    field: str
    logged: str
    expected: str
    source: str

    @property
    def message(self) -> str:
        """Return the difference in words, without its place.

        >>> Difference(2, None, 3, "hand", "[Ah 2c]", "[7d 9s]", "the seed 0").message
        "seat 3's hand is [Ah 2c] in the log, the seed 0 gives [7d 9s]"
        """
        what = _WHAT[self.field](self.seat)
        return f"{what} is {self.logged} in the log, {self.source} gives {self.expected}"

    def fault(self) -> Fault:
        """Return the difference as a :class:`~kow.verify.Fault`, as ``kow verify`` shows it."""
        return Fault(self.round, self.trick, self.seat, message=self.message)

    def __str__(self) -> str:
        """Return the difference with its place.

        >>> str(Difference(1, 4, 0, "play", "Ah", "2c", "the seed 7"))
        "round 1, trick 4: seat 0's play is Ah in the log, the seed 7 gives 2c"
        """
        return str(self.fault())


def check_against_seed(game: GameLog, *, search_iterations: int | None = None) -> Difference | None:
    """Return the first place where ``game`` is not the game its seed gives, or None.

    ``game`` is a version-1 log (a parsed JSON object) that
    :func:`kow.verify.verify_game` finds legal: check that first, since this check
    trusts the log's shape and rules. The engine deals again from ``game["seed"]`` under
    ``game["rules"]``, with the log's first dealer, and every cut position, hand,
    turned-up card and tie cut is compared with the log's as it is made. Decisions are
    the log's; when every player's ``kind`` is ``human``, ``agent`` or a kow bot
    (``random``, ``heuristic``, ``search``, ``ismcts``), each bot is made again and its
    decisions are compared with the log's too, each searching bot at the ``settings``
    its player records (since 0.5.0), else a search bot at ``search_iterations`` deals
    per decision (by default its own). The decisions of people and agents, and
    every decision when a player is of another kind, are taken from the log unchecked.
    A game cut short (``abandoned``) is compared up to where its log stops.

    Raises :class:`NoSeedError` for a log whose ``seed`` is null (its deals came from
    outside kow), :class:`~kow.game.PlayerError` when the engine refuses a decision of
    the log (a log that is not legal, or a fault in kow), and :class:`KeyError` or
    :class:`ValueError` for a log that is not one.
    """
    return play_again(game, search_iterations=search_iterations).difference


class PlayedAgain(NamedTuple):
    """A logged game played again from its seed, as far as its log goes
    (:func:`play_again`).

    ``state``: the engine's game, dealt from the seed, stopped at the first decision
    the log does not have (or at the first difference); ``bots[seat]``: the kow bot of
    that seat made again from the seed, having made each of its logged decisions (so
    its generator, :func:`kow.game.bots_rng`, shared by the game's bots, has drawn what
    it had drawn at that point), or None for a seat whose decisions were the log's (a
    person, an agent, a player of an unknown kind); ``difference``: the first place
    where the log is not the game its seed gives (None: there is none).
    """

    state: State
    bots: tuple[Player | None, ...]
    difference: Difference | None


def play_again(game: GameLog, *, search_iterations: int | None = None) -> PlayedAgain:
    """Play a logged ``game`` again from its seed, up to where its log stops.

    The walk of :func:`check_against_seed` (which returns its ``difference``), and what
    ``kow play --resume`` continues from: the state and the bots as they stood when
    the game was left, so that the rest of the game is the one its seed gives.
    ``search_iterations``: the deals per decision of search bots whose log records no
    ``settings`` (logs before they did). Raises as :func:`check_against_seed` does.
    """
    if game["seed"] is None:
        raise NoSeedError
    seed: int = game["seed"]
    rules = rules_from_log(dict(game["rules"]))
    rounds = game["rounds"]
    state = new_game(rules, seed, rounds[0]["dealer"] if rounds else None)
    version = game.get("kow_version")
    other = (
        []
        if version == __version__
        else [f"kow {__version__}; the log is from kow {printable(str(version))}"]
    )
    course = _Course(rounds, state, f"the seed {seed}" + "".join(f" ({o})" for o in other))
    logged = game["players"]
    bots_known = all(p["kind"] in BOT_KINDS or p["kind"] in NOT_BOTS for p in logged)
    rng = bots_rng(seed)
    players: list[Player] = []
    bots: list[Player | None] = []
    for p in logged:
        kind = p["kind"]
        if bots_known and kind in BOT_KINDS:
            settings = p.get("settings")  # since 0.5.0
            logged_iterations = None if settings is None else settings["iterations"]
            if logged_iterations is not None:  # the log says how the bot played
                bot = make_bot(
                    kind, p["name"], rng,
                    search_iterations=logged_iterations if kind == "search" else None,
                    ismcts_iterations=logged_iterations if kind == "ismcts" else None,
                )  # fmt: skip
                effort = "deals" if kind == "search" else "iterations"
                deals = [f"{logged_iterations} {effort}, as logged"]
            else:
                bot = make_bot(kind, p["name"], rng, search_iterations=search_iterations)
                deals = [f"{search_iterations or DEFAULT_ITERATIONS} deals"] * (kind == "search")
                if kind == "search" and search_iterations is None:  # the log cannot tell
                    deals[0] += ", which this log does not record: give --search-deals"
            source = f"its {kind} bot ({', '.join([f'seed {seed}', *deals, *other])})"
            players.append(_Checked(bot, course, source))
            bots.append(bot)
        else:
            players.append(_FromLog(p["name"], kind, course))
            bots.append(None)
    difference = None
    try:
        course.catch_up()
        try:
            drive(state, players)
        except _LogEnds:
            pass
        course.catch_up()
        course.tie_cut_made()
    except _Found as found:
        difference = found.difference
    return PlayedAgain(state, tuple(bots), difference)


def seed_check(search_iterations: int | None = None) -> Callable[[GameLog], Fault | None]:
    """Return the check of one legal log against its seed, as a :class:`~kow.verify.Fault`.

    For :meth:`kow.verify.Verdict.check`'s ``also`` (``kow verify --against-seed``): the
    check calls :func:`check_against_seed` and returns its difference as a fault, or
    None. It raises nothing: a null seed (:data:`NO_SEED`), a decision that the engine
    refuses, or any error, is a fault saying so.
    """

    def check(game: GameLog) -> Fault | None:
        try:
            difference = check_against_seed(game, search_iterations=search_iterations)
        except NoSeedError:
            return Fault(None, None, None, message=NO_SEED)
        except PlayerError as err:
            return Fault(
                None, None, err.seat, message=f"the engine refuses the log's decision: {err}"
            )
        except Exception as err:  # a safety net: the verdict must never raise
            why = f"internal error in the seed check: {type(err).__name__} {err}"
            return Fault(None, None, None, message=why)
        return None if difference is None else difference.fault()

    return check


def agents_note(game: GameLog) -> str | None:
    """Return what ``--against-seed`` leaves unchecked in a legal ``game``: its agents'
    decisions, naming their seats; None when no player is an agent.

    >>> players = [{"seat": s, "name": f"p{s}", "kind": k}
    ...            for s, k in enumerate(["agent", "heuristic", "agent"])]
    >>> agents_note({"players": players})
    "seats 0 and 2 are agents: kow can't play them again, so their decisions are unchecked"
    >>> agents_note({"players": players[1:2]}) is None
    True
    """
    seats = [str(p["seat"]) for p in game["players"] if p["kind"] == AGENT]
    if not seats:
        return None
    if len(seats) == 1:
        return (
            f"seat {seats[0]} is an agent: kow can't play it again, so its decisions are unchecked"
        )
    listed = ", ".join(seats[:-1]) + f" and {seats[-1]}"
    return f"seats {listed} are agents: kow can't play them again, so their decisions are unchecked"


# -- playing the game again -----------------------------------------------------------


class _Found(Exception):
    """Raised, through the game loop, with the first difference."""

    def __init__(self, difference: Difference) -> None:
        super().__init__(difference)
        self.difference = difference


class _LogEnds(Exception):
    """Raised, through the game loop, when the log has no next decision (a game cut short)."""


class _Course(EventVisitor):
    """The logged game beside the one the engine plays again: chance compared, decisions
    looked up.

    ``rounds`` is the log's ``rounds``; ``state`` the engine's game, round 1 dealt;
    ``chance`` names what gives the engine's cards (``"the seed 7"``).
    """

    def __init__(self, rounds: Sequence[RoundLog], state: State, chance: str) -> None:
        self.rounds = rounds
        self.state = state
        self.chance = chance
        self._checked = 0  # events of the state compared so far
        self._round = 0  # the engine's rounds dealt so far
        self._tie_cut_seen = False  # in the engine's current round
        self._decisions: dict[tuple[int | None, Seat | None], Action] = {}
        self._decisions_round = 0

    def catch_up(self) -> None:
        """Compare the chance events that the engine made since the last call."""
        events = self.state.events
        for i in range(self._checked, len(events)):
            events[i].accept(self)
        self._checked = len(events)

    def logged(self, seat: Seat, trick: int | None) -> Action:
        """Return the log's decision for ``seat`` now: in ``trick``, or (None) a vote or a
        trump choice. Raises :class:`_LogEnds` when the log has none."""
        number = self.state.round
        if self._decisions_round != number:
            self._decisions_round = number
            self._decisions = {
                (logged.trick, logged.seat): logged.action
                for logged in round_actions(self.rounds[number - 1], number)
            }
        action = self._decisions.get((trick, seat))
        if action is None:
            raise _LogEnds
        return action

    def compare(
        self, phase: Phase, seat: Seat, trick: int | None, *, made: Action, logged: Action, by: str
    ) -> None:
        """Raise :class:`_Found` when the decision ``made`` (by ``by``) is not ``logged``."""
        if made != logged:
            field = "play" if phase is Phase.PLAY else phase.value
            raise _Found(
                Difference(
                    round=self.state.round,
                    trick=trick,
                    seat=seat,
                    field=field,
                    logged=action_name(logged, phase),
                    expected=action_name(made, phase),
                    source=by,
                )
            )

    def tie_cut_made(self) -> None:
        """Check, once a round, a tie cut in the log that the engine did not make."""
        if self._round and not self._tie_cut_seen:
            self._tie_cut_seen = True
            logged = self.rounds[self._round - 1]["tie_cut"]
            if logged:
                cuts = [[(c["seat"], c["card"]) for c in cut] for cut in logged]
                self._found(None, "tie_cut", _tie_cut(cuts), expected="none")

    def _found(self, seat: Seat | None, field: str, logged: str, *, expected: str) -> NoReturn:
        """Raise :class:`_Found` for a difference of chance in the current round."""
        raise _Found(
            Difference(
                round=self._round,
                trick=None,
                seat=seat,
                field=field,
                logged=logged,
                expected=expected,
                source=self.chance,
            )
        )

    # The engine's chance, event by event (catch_up passes each event here).

    def on_deal(self, event: Deal) -> None:
        """Compare a round's cut position and hands."""
        self._round = event.round
        self._tie_cut_seen = False
        if event.round > len(self.rounds):  # not in a legal log: it ends where the game does
            raise _LogEnds
        logged = self.rounds[event.round - 1]
        position = logged["cut"]["position"]
        if position != event.cut_position:
            self._found(None, "cut", str(position), expected=str(event.cut_position))
        for seat, (hand, dealt) in enumerate(zip(logged["hands"], event.hands, strict=True)):
            made = None if dealt is None else [NAMES[c] for c in dealt]
            if hand != made:
                self._found(seat, "hand", _hand(hand), expected=_hand(made))

    def on_turned_up(self, event: TurnedUp) -> None:
        """Compare round 1's turned-up card."""
        logged = self.rounds[self._round - 1]["turned_up"]
        if logged != NAMES[event.card]:
            self._found(None, "turned_up", logged or "none", expected=NAMES[event.card])

    def on_tie_cut(self, event: TieCut) -> None:
        """Compare a round's tie cut, every pass and card."""
        self._tie_cut_seen = True
        logged = self.rounds[self._round - 1]["tie_cut"]
        made = [[(c.seat, NAMES[c.card]) for c in cut] for cut in event.passes]
        if logged is None:
            self._found(None, "tie_cut", "none", expected=_tie_cut(made))
        cuts = [[(c["seat"], c["card"]) for c in cut] for cut in logged]
        if cuts != made:
            pairs = (
                pair for p, q in zip(cuts, made, strict=False) for pair in zip(p, q, strict=False)
            )
            seat = next((a[0] for a, b in pairs if a != b), None)
            self._found(seat, "tie_cut", _tie_cut(cuts), expected=_tie_cut(made))

    def on_lead(self, event: Lead) -> None:
        """A round's tie cut, if any, comes before its first leader: check it was made."""
        self.tie_cut_made()


class _Checked(Player):
    """A kow bot played again beside the log: each of its decisions is compared with the
    log's, and the game goes on with it.

    It offers the bot's :attr:`card_policy` and :attr:`trump_policy` when the bot has
    them, so that :func:`kow.game.drive` plays the game as ``kow simulate`` did (the
    engine's trick loop, the same draws from the bots' generator).
    """

    def __init__(self, bot: Player, course: _Course, by: str) -> None:
        super().__init__(bot.name)
        self.kind = bot.kind
        self._bot = bot
        self._course = course
        self._by = by
        self.card_policy_draws = bot.card_policy_draws
        if bot.card_policy is not None:
            self._policy = bot.card_policy
            self.card_policy = self._card
        if bot.trump_policy is not None:
            self._choose = bot.trump_policy
            self.trump_policy = self._trump

    def act(self, view: View) -> Action:
        course = self._course
        course.catch_up()
        trick = view.trick_number if view.phase is Phase.PLAY else None
        logged = course.logged(view.seat, trick)
        made = self._bot.act(view)
        course.compare(view.phase, view.seat, trick, made=made, logged=logged, by=self._by)
        return made

    def _card(self, facts: TrickFacts) -> Action:
        course = self._course
        course.catch_up()
        trick = course.state.hand_size - facts.tricks_left + 1
        logged = course.logged(facts.seat, trick)
        made = self._policy(facts)
        course.compare(Phase.PLAY, facts.seat, trick, made=made, logged=logged, by=self._by)
        return made

    def _trump(self, allowed: tuple[int, ...], hand: Mask) -> int:
        course = self._course
        course.catch_up()
        seat = course.state.turn
        logged = course.logged(seat, None)
        made = self._choose(allowed, hand)
        course.compare(Phase.TRUMP, seat, None, made=made, logged=logged, by=self._by)
        return made


class _FromLog(Player):
    """A player whose decisions are the log's: a person, an agent, or a player of an
    unknown kind."""

    def __init__(self, name: str, kind: str, course: _Course) -> None:
        super().__init__(name)
        self.kind = kind
        self._course = course

    def act(self, view: View) -> Action:
        self._course.catch_up()
        trick = view.trick_number if view.phase is Phase.PLAY else None
        return self._course.logged(view.seat, trick)


def _hand(cards: Sequence[str] | None) -> str:
    """Return a hand as ``[Ah 2c]``, or ``none`` for a seat not dealt in.

    >>> _hand(["Ah", "2c"]), _hand(None)
    ('[Ah 2c]', 'none')
    """
    return "none" if cards is None else f"[{' '.join(cards)}]"


def _tie_cut(passes: Sequence[Sequence[tuple[Seat, str]]]) -> str:
    """Return a tie cut's passes as ``[seat 3: 3s, seat 2: 3h] [seat 3: 9d, seat 2: Ad]``.

    >>> _tie_cut([[(3, "3s"), (2, "3h")], [(3, "9d"), (2, "Ad")]])
    '[seat 3: 3s, seat 2: 3h] [seat 3: 9d, seat 2: Ad]'
    """
    return " ".join("[" + ", ".join(f"seat {s}: {c}" for s, c in cut) + "]" for cut in passes)
