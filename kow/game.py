"""The one game loop: engine plus players, for ``play``, ``simulate`` and replays.

Seeds: a run with seed ``S`` plays games ``0, 1, 2, ...`` whose own seeds come from
:func:`game_seed`; game 0's seed is ``S`` itself, so ``--seed S`` replays it alone, and any
game's recorded seed replays that game alone with the same options. Within one game the
deal, cuts and tie cuts draw from ``random.Random(seed)`` and the bots from a second
generator, :func:`bots_rng`, so the same seed gives the same game in any process, and the
deals do not depend on what the bots choose.
"""

from __future__ import annotations

import _random
import random
from typing import TYPE_CHECKING

from .engine import IllegalActionError, State, action_name
from .engine.deal import Deck
from .events import Action, Event, Phase, Seat
from .rules import Rules, check_rules
from .settings import MAX_GAMES, MAX_SEED, check_int, check_seed

try:  # the interpreter's own SHA-256, as random.py takes its SHA-512: hashlib loads OpenSSL
    from _sha2 import sha256  # type: ignore[import-not-found]  # Python 3.12 on; no stubs
except ImportError:
    try:
        from _sha256 import sha256  # type: ignore[import-not-found]  # 3.10 and 3.11
    except ImportError:
        from hashlib import sha256

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from .players.base import Player

__all__ = [
    "MAX_SEED",
    "PlayerError",
    "bots_rng",
    "check_seed",
    "drive",
    "game_seed",
    "new_game",
    "play_game",
]


class PlayerError(RuntimeError):
    """Raised when a player returns an action the rules do not allow; names the player.

    The engine never accepts or replaces such an action. ``seat``, ``player`` and
    ``action`` hold the facts; the message reads e.g. "heuristic player 'heuristic-2'
    (seat 2) chose 5c: seat 2 does not hold 5c".
    """

    def __init__(self, seat: Seat, player: Player, action: object, *, reason: str) -> None:
        self.seat = seat
        self.player = player
        self.action = action
        super().__init__(
            f"{player.kind} player {player.name!r} (seat {seat}) chose {action}: {reason}"
        )


def game_seed(run_seed: object, index: object) -> int:
    """Return the seed of game ``index`` (0-based) of a run with seed ``run_seed``.

    Game 0 keeps the run's seed; later games hash ``(run_seed, index)`` with SHA-256 into
    0..MAX_SEED, so runs with nearby seeds share no games.

    >>> game_seed(7, 0)
    7
    >>> game_seed(7, 1) == game_seed(7, 1) != game_seed(8, 1)
    True

    Raises :class:`~kow.settings.SettingError` for a seed that is not an int 0 to 2^53-1
    (:func:`check_seed`; a numpy integer counts as its int, a bool or a float is
    refused, as ``--seed`` refuses them) or an index not from 0 to
    :data:`~kow.settings.MAX_GAMES`.
    """
    if type(run_seed) is not int or not 0 <= run_seed <= MAX_SEED:
        run_seed = check_seed(run_seed)
    if type(index) is not int or not 0 <= index <= MAX_GAMES:
        index = check_int("index", index, lo=0, hi=MAX_GAMES, what="a game number")
    if index == 0:
        return run_seed
    digest = sha256(b"kow-game:%d:%d" % (run_seed, index)).digest()
    return int.from_bytes(digest[:8], "big") >> 11


def bots_rng(seed: object, rng: random.Random | None = None) -> random.Random:
    """Return the generator that the bots of the game with ``seed`` share.

    Each bot draws from it in turn as it acts, so a game's draws come in the order of the
    decisions. Seeded with an int (a 54-bit one, never a game seed), which Python turns
    into the generator's state the same way in every process and version. One generator
    per game, not one per seat: seeding one costs more than most games' bot draws.

    >>> bots_rng(7).random() == bots_rng(7).random() != bots_rng(8).random()
    True

    ``rng``, when given, is reseeded and returned instead of a new generator: the same
    draws (``Random(x)`` is ``Random().seed(x)``), so that a run's bots, made once, draw
    from one generator reseeded for each game.

    Raises :class:`~kow.settings.SettingError` for a seed that is not one (:func:`check_seed`).
    """
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        seed = check_seed(seed)
    if rng is None:
        return random.Random(seed | _BOTS)
    _reseed(rng, seed | _BOTS)
    return rng


_BOTS = 1 << 53
"""Set in the bots' seed: game seeds are below 2^53, so no game's deal shares it."""

_SEED = _random.Random.seed
"""Seed the C Mersenne Twister that :class:`random.Random` extends (as random.py imports
it): with an int, what ``Random.seed`` does but for ``gauss_next``, which
:func:`_reseed` clears."""


def _reseed(rng: random.Random, seed: int) -> None:
    """Seed ``rng`` with the int ``seed``, 0 or more: the state ``rng.seed(seed)`` gives
    (``gauss_next`` cleared too), without ``Random.seed``'s Python wrapper (4,400
    instructions over the C seeding, twice a game of a run). A subclass of
    :class:`random.Random` gets its own ``seed``."""
    if type(rng) is random.Random:
        _SEED(rng, seed)
        rng.gauss_next = None  # type: ignore[attr-defined]  # random.py's, not in the stubs
    else:
        rng.seed(seed)


def new_game(
    rules: Rules,
    seed: object,
    dealer: object = None,
    *,
    deck: Deck | None = None,
    rng: random.Random | None = None,
) -> State:
    """Return a new game under ``rules`` with ``seed``, round 1 dealt.

    ``dealer`` is the first dealer's seat (drawn from the seed when None). ``deck``, for
    tests and replays, replaces the shuffle (see :class:`~kow.engine.deal.StackedDeck`).
    ``rng``, when given, is reseeded with ``seed`` and deals the game instead of a new
    generator (the same cards): a run reuses one for all its games. Raises
    :class:`~kow.rules.RulesError` for a dealer that is not a seat,
    :class:`~kow.settings.SettingError` for a seed that is not an int 0 to 2^53-1
    (:func:`check_seed`) and :class:`TypeError` for rules that are not a :class:`Rules`
    (:func:`~kow.rules.check_rules`) or a deck that is not a
    :class:`~kow.engine.deal.Deck`.
    """
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        seed = check_seed(seed)
    if rng is None:
        rng = _new_random(seed)
    else:
        _reseed(rng, seed)
    return State(check_rules(rules), rng, dealer, deck=deck)


def _new_random(seed: int) -> random.Random:
    """Return ``random.Random(seed)`` for an int ``seed``, 0 or more: the same state,
    made without ``Random.__init__``'s and ``Random.seed``'s Python (about 4,400
    instructions, once a game of :func:`new_game`: the PettingZoo environment's resets,
    the ``apply`` loops of frameworks), seeded by :func:`_reseed`."""
    rng = _NEW_RANDOM(random.Random)
    _reseed(rng, seed)
    return rng


_NEW_RANDOM = random.Random.__new__
"""Make a :class:`random.Random` without its ``__init__`` (Python 3.10's seeds it from the
system's entropy, which :func:`_new_random` then replaces)."""


def drive(
    state: State,
    players: Sequence[Player],
    on_event: Callable[[Event], None] | None = None,
) -> State:
    """Ask the players to act until the game is over, and return ``state``: the game loop.

    ``players[seat]`` acts for each seat (``len(players) == rules.players``). The state's
    ``events`` hold the whole game; :func:`kow.log.build` turns them into the log.
    ``on_event`` is called with each event as it happens, for display.

    When there is no ``on_event`` and every player has a
    :attr:`~kow.players.base.Player.card_policy` (the ``random`` and ``heuristic`` bots),
    each round's cards are played by the engine's trick loop
    (:meth:`State.play_round <kow.engine.State.play_round>`) asking those policies: the
    same game and events, without a view for each card.

    Raises :class:`PlayerError` when a player returns an illegal action (``state.events``
    then hold the game so far), :class:`ValueError` for a wrong number of players, and
    lets any exception from a player (such as a human quitting) through.
    """
    if len(players) != state.rules.players:
        raise ValueError(f"{len(players)} players given for a {state.rules.players}-player game")
    policies = [p.card_policy for p in players]
    fast = on_event is None and all(policies)
    ask_forced = False  # whether any policy draws chance (a loop: no generator per game)
    for p in players:
        if p.card_policy_draws:
            ask_forced = True
            break
    shown = 0
    events = state.events
    while True:
        if on_event is not None:
            while shown < len(events):
                on_event(events[shown])
                shown += 1
        phase = state.phase
        if phase is _OVER:
            return state
        seat = state.turn
        player = players[seat]
        action: Action | None = None
        try:
            if fast and phase is _PLAY:
                state.play_round(policies, None, ask_forced)  # type: ignore[arg-type]
                continue
            trump_policy = player.trump_policy
            if fast and phase is _TRUMP and trump_policy is not None:
                action = trump_policy(state.allowed, state.hands[seat])
            else:
                action = player.act(state.view(seat))
            state.apply(action)
        except IllegalActionError as err:
            seat = err.seat
            name = action_name(err.action, state.phase)
            raise PlayerError(seat, players[seat], name, reason=str(err)) from None


_OVER = Phase.OVER
_PLAY = Phase.PLAY
_TRUMP = Phase.TRUMP
"""The phases :func:`drive` tests, as module names: Python 3.11 looks an enum's members up
through ``EnumType.__getattr__``, five times slower than a global name."""


def play_game(
    rules: Rules,
    players: Sequence[Player],
    seed: object,
    *,
    dealer: object = None,
    on_event: Callable[[Event], None] | None = None,
    deck: Deck | None = None,
    rng: random.Random | None = None,
) -> State:
    """Play one game to the end and return its final :class:`~kow.engine.State`.

    The same as ``drive(new_game(rules, seed, dealer, deck=deck, rng=rng), players,
    on_event)``; see :func:`new_game` and :func:`drive` for the arguments and what is
    raised.
    """
    return drive(new_game(rules, seed, dealer, deck=deck, rng=rng), players, on_event)
