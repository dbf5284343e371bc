"""Knock-Out Whist as an OpenSpiel game: ``python_knock_out_whist``, driven by kow's engine.

``import kow.frameworks.openspiel`` registers the game with ``pyspiel`` (install the extra:
``pip install '.[openspiel]'`` in kow's folder); then
``pyspiel.load_game("python_knock_out_whist")`` loads it, with every field of
:class:`~kow.rules.Rules` as a game parameter of the same name and default (``players``
4, ``start_cards`` 7, ``dogs_life`` ``"off"``, ``trump`` ``"winner-chooses"``,
``final_round_trump`` true, ``lead`` ``"most-tricks"``, ``eliminated_vote`` false,
``sweep_wins`` true; docs/rules.md gives each one's source).
A value the rules do not allow raises :class:`~kow.rules.RulesError`, naming the
parameter and what is allowed. A preset is ``rules_to_log(Rules(**PRESETS[name]))`` given as
the parameters: there is no ``preset`` parameter, since OpenSpiel hands a Python game
every parameter with its default filled in, so a preset could not tell which settings
were given to override it.

The adapter decides nothing that the rules decide: each state holds a kow
:class:`~kow.engine.State` (:attr:`KnockOutWhistState.engine`) that says who acts, what
is legal, who wins each trick, when a round ends and who is knocked out; the adapter
feeds it the actions and the cards, and reads it.

- **Chance nodes.** The first is the first dealer: ``players`` outcomes 0..players-1,
  equally likely. Then every card the engine draws is one chance node, in the order
  drawn: a deal's cards one at a time clockwise from the dealer's left, round 1's
  turned-up card last; each tie-cut pass's cards in cut order (rules text, 'Mise en
  place et Distribution' 1-5). The outcomes are the cards 0..51 not yet drawn in that
  deal or pass, equally likely (a new pass cuts a fresh deck). So a state after the
  action that ends a round (or a vote that calls a tie cut) is a chance node until the
  cards it needs are drawn.
- **The cut is not a chance node.** Every deal is a uniform shuffle, so where the deck is
  cut does not change which cards are dealt (docs/rules.md, '5. Shuffle, cut and deal');
  the deck is cut at 26 every round, and the logs of these games record position 26.
- **Actions** are :mod:`kow.frameworks.encoding`'s ids: a card 0..51, a knock 52, a suit 53..56
  (``c d h s``) to choose trump or vote; 57 distinct. Chance outcomes print as
  ``"dealer 2"``, ``"deal Th"`` or ``"cut Th"``.
- **Strings and tensors** are :mod:`kow.frameworks.encoding`'s: the information state is
  :func:`~kow.frameworks.encoding.information_state_text` of the engine's events and
  :func:`~kow.frameworks.encoding.information_state` (perfect recall); the observation is
  :func:`~kow.frameworks.encoding.observation_text` and
  :func:`~kow.frameworks.encoding.observation` of the seat's
  :class:`~kow.engine.view.View`. Each holds what that seat may know and no hidden card.
  The observer's ``dict`` names the fields of
  :func:`~kow.frameworks.encoding.observation_fields` and
  :func:`~kow.frameworks.encoding.information_state_fields` (``trick`` shaped
  ``(players, 53)``, ``tricks`` ``(start_cards, players, 53)``, ``trick_leaders`` ``(start_cards,
  players)``; the rest flat). Before round 1 is dealt, the strings say so and the tensors
  are zeros but for the seat.
- **Returns** are terminal: 1.0 for the winner, 0.0 for every other seat (constant sum 1).
- :meth:`KnockOutWhistState.resample_from_infostate` deals the hidden cards again
  (counts and voids honoured), so OpenSpiel's Python IS-MCTS runs on the game
  (:func:`resampler` makes its searches reproducible);
  :meth:`KnockOutWhistState.log` gives the game's kow log (version 1), which ``kow
  verify``, ``kow replay`` and ``kow analyze`` read; :class:`KowBot` lets kow's bots play
  in OpenSpiel.

Seats are 0-based and clockwise. This module imports ``pyspiel`` and ``numpy``; nothing
else of kow imports it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..log import rules_to_log

try:
    import numpy as np
    import pyspiel
except ImportError as err:  # the extra is not installed
    raise ImportError(
        "kow.frameworks.openspiel needs OpenSpiel: pip install '.[openspiel]' in kow's folder"
        f" ({err})"
    ) from err

from ..cards import DECK_SIZE, card_name, cards_in
from ..engine import State
from ..events import AGENT, Deal, Seat, seat_name
from ..log import GameLog, LoggedPlayer, PlayerInfo, build
from ..players import Player, make_bot
from ..players.base import check_rng
from ..players.sampling import Sampler
from ..rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ..settings import check_seed
from .encoding import (
    NUM_ACTIONS,
    action_id,
    action_text,
    engine_action,
    information_state,
    information_state_fields,
    information_state_text,
    legal_action_ids,
    observation,
    observation_fields,
    observation_text,
)

__all__ = [
    "GAME_NAME",
    "GAME_TYPE",
    "KnockOutWhistGame",
    "KnockOutWhistObserver",
    "KnockOutWhistState",
    "KowBot",
    "max_game_length",
    "resampler",
]

GAME_NAME = "python_knock_out_whist"
"""The name the game is registered under: ``pyspiel.load_game(GAME_NAME)``."""

CUT_POSITION = 26
"""Where every deck of these games is cut (the cut does not change the cards dealt)."""

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Knock-Out Whist (kow)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=rules_to_log(Rules()),
)
"""The game's type: sequential, explicit chance, imperfect information, constant sum."""

_START = -1
"""The pending "action" of a game whose first deal awaits its cards."""
_CHANCE: int = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: int = int(pyspiel.PlayerId.TERMINAL)


def max_game_length(rules: Rules) -> int:
    """Return an upper bound of the player decisions in one game under ``rules``.

    Each round of hand size ``h`` (``start_cards`` down to 1) has at most ``players * h``
    plays or knocks (every seat acts at most once per trick), one trump choice and
    ``players - 1`` votes: ``players * (C * (C + 1) / 2 + C)`` for ``C`` start cards.
    Chance nodes are not counted.

    >>> max_game_length(Rules())
    140
    """
    c = rules.start_cards
    return rules.players * (c * (c + 1) // 2 + c)


class KnockOutWhistGame(pyspiel.Game):
    """The game under one set of rules: its type, sizes and observers.

    ``params``: the game parameters (the fields of :class:`~kow.rules.Rules`, all of them,
    as ``pyspiel.load_game`` passes them). :attr:`rules` holds them as kow's value.
    Raises :class:`~kow.rules.RulesError` for a value the rules do not allow.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        rules = Rules(**{**rules_to_log(Rules()), **given})
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=DECK_SIZE,
            num_players=rules.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(rules),
        )
        super().__init__(GAME_TYPE, info, given)
        self.rules = rules
        self._table = _Table(rules)

    def new_initial_state(self) -> KnockOutWhistState:
        """Return the state before the first dealer is drawn (a chance node)."""
        return KnockOutWhistState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> KnockOutWhistObserver:
        """Return an observer: the information state with perfect recall, else the observation.

        ``iig_obs_type`` (a ``pyspiel.IIGObservationType``; default: the observation) must
        ask for public information and the seat's own private information. Raises
        :class:`ValueError` for any other type, or for observer ``params``.
        """
        perfect_recall = False
        if iig_obs_type is not None:
            if (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            ):
                raise ValueError(
                    "the observer shows public information and one seat's own cards: "
                    "public_info=True and private_info=SINGLE_PLAYER"
                )
            perfect_recall = iig_obs_type.perfect_recall
        if params:
            raise ValueError(f"the observer takes no parameters, not {params!r}")
        return KnockOutWhistObserver(self.rules, perfect_recall)


class _Table:
    """What every state of one game shares, never copied: the rules and the seats."""

    __slots__ = ("rules", "players", "dealers")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.players = rules.players
        self.dealers = [(seat, 1.0 / rules.players) for seat in range(rules.players)]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        """Return itself: a state's clone shares its game's table."""
        return self


class _NeedCards(Exception):
    """Raised by :class:`_ChanceDeck` when the engine draws cards not yet chosen."""

    def __init__(self, count: int) -> None:
        super().__init__(f"{count} cards to draw")
        self.count = count


class _ChanceDeck:
    """The engine's deck (:class:`~kow.engine.deal.Deck`): the cards chosen by chance nodes.

    ``draws``: the cards of each draw of the action in play, in order. :meth:`draw`
    returns them in turn and raises :class:`_NeedCards` for a draw not yet chosen.
    """

    __slots__ = ("_draws", "_next")

    def __init__(self, draws: tuple[tuple[int, ...], ...] = ()) -> None:
        self._draws = draws
        self._next = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> _ChanceDeck:
        other = _ChanceDeck(self._draws)
        other._next = self._next
        return other

    def cut(self) -> int:
        """Return :data:`CUT_POSITION`: the cut does not change the cards dealt."""
        return CUT_POSITION

    def draw(self, count: int) -> tuple[int, ...]:
        """Return the next draw's cards; raise :class:`_NeedCards` when not yet chosen."""
        at = self._next
        if at < len(self._draws):
            cards = self._draws[at]
            if len(cards) != count:  # the engine is deterministic: never happens
                raise RuntimeError(f"draw {at} chose {len(cards)} cards, the engine asks {count}")
            self._next = at + 1
            return cards
        raise _NeedCards(count)


class _Drawing:
    """An action waiting for cards: what chance nodes have chosen for it so far.

    ``pending``: the action id (or ``_START``, the game's first deal); ``draws``: the
    draws completed; ``drawn``: the cards of the draw in progress, of ``need`` in all;
    ``left``: the cards not drawn in it, ascending; ``kind``: ``"deal"`` or ``"cut"`` (a
    tie cut).
    """

    __slots__ = ("pending", "draws", "drawn", "left", "need", "kind")

    def __init__(self, pending: int, draws: tuple[tuple[int, ...], ...], need: int, *, kind: str):
        self.pending = pending
        self.draws = draws
        self.drawn: list[int] = []
        self.left = list(range(52))
        self.need = need
        self.kind = kind

    def __deepcopy__(self, memo: dict[int, Any]) -> _Drawing:
        other = _Drawing(self.pending, self.draws, self.need, kind=self.kind)
        other.drawn = self.drawn[:]
        other.left = self.left[:]
        return other


class KnockOutWhistState(pyspiel.State):
    """One state of a game: a kow engine state, or cards being drawn for one.

    OpenSpiel's API (``current_player``, ``legal_actions``, ``apply_action``,
    ``chance_outcomes``, ``returns``, the strings and tensors, ``clone``) reads and
    drives :attr:`engine`. A player's action is applied to a fork of the engine; when it
    makes the engine draw cards (it ends a round, or calls a tie cut), the state becomes
    chance nodes, one per card, and the action is applied again once they are chosen.
    """

    def __init__(self, game: KnockOutWhistGame) -> None:
        super().__init__(game)
        self._table = game._table
        self._dealer: Seat = -1
        self._engine: State | None = None
        self._drawing: _Drawing | None = None

    # ------------------------------------------------------------------ reading

    @property
    def engine(self) -> State | None:
        """The kow engine state (read it, do not change it): the game as the rules see it.

        None before round 1 is dealt. At a chance node that draws cards for an action, the
        state before that action.
        """
        return self._engine

    def current_player(self) -> int:
        """Return the seat to act, ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL``."""
        engine = self._engine
        if engine is None or self._drawing is not None:
            return _CHANCE
        if engine.outcome is not None:
            return _TERMINAL
        return engine.turn

    def is_terminal(self) -> bool:
        """Return whether the game is over."""
        engine = self._engine
        return engine is not None and self._drawing is None and engine.outcome is not None

    def _legal_actions(self, player: int) -> list[int]:
        """Return the action ids the seat to act may take, ascending (the engine's)."""
        assert self._engine is not None
        return legal_action_ids(self._engine)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return ``(outcome, probability)`` pairs: a first dealer, or a card not yet drawn."""
        drawing = self._drawing
        if drawing is None:
            return list(self._table.dealers) if self._engine is None else []
        left = drawing.left
        p = 1.0 / len(left)
        return [(card, p) for card in left]

    def returns(self) -> list[float]:
        """Return 1.0 for the winner and 0.0 for the others at the end; all 0.0 before."""
        players = self._table.players
        if not self.is_terminal():
            return [0.0] * players
        assert self._engine is not None and self._engine.outcome is not None
        winner = self._engine.outcome.winner
        return [1.0 if seat == winner else 0.0 for seat in range(players)]

    def _action_to_string(self, player: int, action: int) -> str:
        """Return ``"dealer 2"``, ``"deal Th"``, ``"cut Th"``, or the action's notation."""
        if player != _CHANCE:
            return action_text(action)
        if self._engine is None and self._drawing is None:
            return f"dealer {action}"
        kind = "deal" if self._drawing is None else self._drawing.kind
        return f"{kind} {card_name(action)}"

    def __str__(self) -> str:
        """Return the whole state as text, hidden cards included (for debugging)."""
        engine = self._engine
        drawing = self._drawing
        if engine is None:
            lines = ["first dealer: to draw" if drawing is None else f"first dealer {self._dealer}"]
        else:
            hands = " | ".join(
                f"{seat}: {' '.join(map(card_name, cards_in(hand))) or '-'}"
                for seat, hand in enumerate(engine.hands)
            )
            trump = "none" if engine.trump < 0 else "cdhs"[engine.trump]
            trick = " ".join(f"{p.seat}:{action_text(p.action)}" for p in engine.trick)
            lines = [
                f"round {engine.round}, dealer {engine.dealer}, trump {trump}, "
                f"phase {engine.phase.value}, turn {engine.turn}",
                f"hands: {hands}",
                f"trick {engine.trick_number}: {trick or '-'}; "
                f"tricks won: {' '.join(map(str, engine.tricks_won))}",
            ]
        if drawing is not None:
            chosen = " ".join(map(card_name, drawing.drawn)) or "-"
            pending = (
                "the first deal" if drawing.pending == _START else action_text(drawing.pending)
            )
            lines.append(
                f"drawing for {pending}: {len(drawing.draws)} draws done; "
                f"{drawing.kind} {len(drawing.drawn)} of {drawing.need}: {chosen}"
            )
        return "\n".join(lines)

    # ------------------------------------------------------------------ acting

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome or the seat's action (OpenSpiel checks legality first)."""
        action = int(action)
        drawing = self._drawing
        if self._engine is None and drawing is None:
            if not 0 <= action < self._table.players:
                raise ValueError(f"the first dealer must be a seat 0 to {self._table.players - 1}")
            self._dealer = action
            self._advance(_START, ())
        elif drawing is not None:
            if action not in drawing.left:
                raise ValueError(f"{action} is not a card left to draw")
            drawing.left.remove(action)
            drawing.drawn.append(action)
            if len(drawing.drawn) == drawing.need:
                self._advance(drawing.pending, drawing.draws + (tuple(drawing.drawn),))
        else:
            self._advance(action, ())

    def _advance(self, action: int, draws: tuple[tuple[int, ...], ...]) -> None:
        """Apply ``action`` to a fork of the engine with the cards ``draws`` chosen so far.

        When the engine draws more, the fork is dropped and the state awaits those cards
        (chance nodes). Raises :class:`~kow.engine.IllegalActionError` (state unchanged)
        for an action the rules do not allow, and :class:`ValueError` for an id that is
        no action of the phase.
        """
        deck = _ChanceDeck(draws)
        engine = self._engine
        trial: State | None = None
        try:
            if engine is None:
                trial = State(self._table.rules, random.Random(0), self._dealer, deck=deck)
            else:
                trial = engine.fork(deck=deck)
                trial.apply(engine_action(action, engine.phase))
        except _NeedCards as need:
            # A draw made before the round's Deal event is a deal; one after it, a tie cut.
            kind = "deal"
            if trial is not None:
                last = next((e for e in reversed(trial.events) if isinstance(e, Deal)), None)
                if last is not None and last.round == trial.round:
                    kind = "cut"
            self._drawing = _Drawing(action, draws, need.count, kind=kind)
            return
        self._engine = trial
        self._drawing = None

    # ------------------------------------------------------------------ seats' knowledge

    def text(self, seat: Seat, perfect_recall: bool) -> str:
        """Return ``seat``'s information state string (``perfect_recall``) or observation."""
        engine = self._engine
        if engine is None:
            if self._drawing is None:
                return f"seat {seat}\nbefore the deal: the first dealer is to be drawn"
            return (
                f"seat {seat}\nbefore round 1: dealer {self._dealer}, "
                f"{len(self._drawing.drawn)} of {self._drawing.need} cards drawn"
            )
        if perfect_recall:
            text = information_state_text(engine.events, seat)
        else:
            text = observation_text(engine.view(seat))
        drawing = self._drawing
        if drawing is not None:
            text += (
                f"\nseat {engine.turn} chose {action_text(drawing.pending)}; "
                f"{drawing.kind}: {len(drawing.drawn)} of {drawing.need} cards drawn"
            )
        return text

    def tensor(self, seat: Seat, perfect_recall: bool) -> list[float] | None:
        """Return ``seat``'s information state or observation tensor, or None before the deal."""
        engine = self._engine
        if engine is None:
            return None
        if perfect_recall:
            return information_state(engine, seat)
        return observation(engine.view(seat))

    # ------------------------------------------------------------------ search, logs

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> KnockOutWhistState:
        """Return a state ``player_id`` cannot tell from this one: the hidden cards dealt anew.

        The cards ``player_id`` has not seen are dealt to the other seats at random, each
        seat as many as it holds and none of a suit it has shown void in
        (:class:`~kow.players.sampling.Sampler`, as kow's search bots deal them); the
        round's deal is rewritten to match (:meth:`State.fork <kow.engine.State.fork>`).
        The new state has the same information state string for ``player_id`` and the
        same legal actions. Chance comes from ``probability_sampler`` (a callable giving
        floats in [0, 1), such as ``pyspiel.UniformProbabilitySampler``): one draw seeds
        the deal. The state's ``history()`` is this state's (OpenSpiel's Python states
        cannot rewrite it): read the engine, not the history.

        Raises :class:`ValueError` at a chance node (cards being drawn), where there is
        no decision to search, for a ``player_id`` that is not a seat, and for a draw
        outside [0, 1).
        """
        engine = self._engine
        if engine is None or self._drawing is not None:
            raise ValueError("resample_from_infostate needs a decision or terminal node")
        players = self._table.players
        if isinstance(player_id, bool) or player_id not in range(players):
            raise ValueError(f"player_id must be a seat 0 to {players - 1}, not {player_id!r}")
        draw = probability_sampler()
        if not 0.0 <= draw < 1.0:
            raise ValueError(f"probability_sampler gave {draw!r}, not a float in [0, 1)")
        seed = int(draw * 2**53)
        hands = Sampler(engine.view(player_id)).deal(random.Random(seed))
        other: KnockOutWhistState = self.clone()
        other._engine = engine.fork(deck=_ChanceDeck(), hands=hands)
        return other

    def log(self, players: Sequence[PlayerInfo] | None = None) -> GameLog:
        """Return the game's kow log, version 1 (a JSON-ready dict; docs/log-format.md).

        ``players[seat]`` gives each seat's ``name`` and ``kind`` (a
        :class:`~kow.log.LoggedPlayer`, a :class:`KowBot`, any kow player); by default
        ``agent-0``, ``agent-1``, ... of kind ``"agent"``. The log's ``seed`` is null (the
        cards came from chance nodes: its hands and tie cuts replay it) and every cut is
        at :data:`CUT_POSITION`. A game not over (or a chance node within it) is logged
        as abandoned, as far as the engine has gone. Raises :class:`ValueError` before
        round 1 is dealt, or for a wrong number of players, and :class:`TypeError` for a
        player without a ``name`` and a ``kind``.
        """
        engine = self._engine
        if engine is None:
            raise ValueError("no game to log yet: round 1 is not dealt")
        count = self._table.players
        if players is None:
            players = [LoggedPlayer(seat_name(AGENT, seat), AGENT) for seat in range(count)]
        if len(players) != count:
            raise ValueError(f"{len(players)} players given for a {count}-player game")
        for seat, player in enumerate(players):
            if not isinstance(getattr(player, "name", None), str) or not isinstance(
                getattr(player, "kind", None), str
            ):
                raise TypeError(
                    f"players[{seat}] is {player!r}: give each seat's name and kind, e.g. "
                    f"kow.log.LoggedPlayer('ada', 'agent')"
                )
        return build(
            None, self._table.rules, players, events=engine.events, abandoned=not self.is_terminal()
        )


def resampler(rng: random.Random) -> Callable[[KnockOutWhistState, int], KnockOutWhistState]:
    """Return a resampler for OpenSpiel's ``ISMCTSBot.set_resampler`` drawing from ``rng``.

    Left alone, the bot passes ``resample_from_infostate`` a new unseeded
    ``pyspiel.UniformProbabilitySampler`` each time, so its searches differ from run to
    run; with ``bot.set_resampler(resampler(random.Random(seed)))`` they do not. Raises
    :class:`TypeError` when ``rng`` is not a :class:`random.Random`.
    """
    draw = check_rng(rng).random

    def resample(state: KnockOutWhistState, seat: int) -> KnockOutWhistState:
        return state.resample_from_infostate(seat, draw)

    return resample


class KnockOutWhistObserver:
    """One seat's information state (``perfect_recall``) or observation, for OpenSpiel.

    ``tensor`` is a flat float32 array; ``dict`` names its pieces, the fields of
    :func:`~kow.frameworks.encoding.information_state_fields` or
    :func:`~kow.frameworks.encoding.observation_fields` in order (``trick`` shaped ``(players,
    53)``, ``tricks`` ``(start_cards, players, 53)``, ``trick_leaders`` ``(start_cards,
    players)``, the rest flat), each a view into ``tensor``.
    """

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        fields = information_state_fields(rules) if perfect_recall else observation_fields(rules)
        p, c = rules.players, rules.start_cards
        shapes = {"trick": (p, 53), "tricks": (c, p, 53), "trick_leaders": (c, p)}
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(sum(size for _, size in fields), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size in fields:
            self.dict[name] = self.tensor[at : at + size].reshape(shapes.get(name, (size,)))
            at += size
        self._seat_at = 0  # "seat" is the first field of both layouts

    def set_from(self, state: KnockOutWhistState, player: int) -> None:
        """Write what ``player`` may know in ``state`` into :attr:`tensor`."""
        values = state.tensor(player, self.perfect_recall)
        if values is None:
            self.tensor.fill(0.0)
            self.tensor[self._seat_at + player] = 1.0
        else:
            self.tensor[:] = values

    def string_from(self, state: KnockOutWhistState, player: int) -> str:
        """Return what ``player`` may know in ``state``, as text."""
        return state.text(player, self.perfect_recall)


class KowBot(pyspiel.Bot):
    """One of kow's bots as an OpenSpiel bot: it answers from its seat's view of the engine.

    ``kind``: ``"random"``, ``"heuristic"``, ``"search"`` or ``"ismcts"``
    (:func:`kow.players.make_bot`); ``seed`` seeds its own ``random.Random``; ``name``
    (default: the kind) is its name in a log, where its ``kind`` is the bot's.
    ``search_iterations`` and ``ismcts_iterations`` set those bots' effort. Use it on
    states of :class:`KnockOutWhistGame` only (with :func:`pyspiel.evaluate_bots` or a
    loop of your own). Raises :class:`ValueError` for an unknown kind.
    """

    def __init__(
        self,
        game: KnockOutWhistGame,
        kind: str,
        seed: int,
        *,
        name: str | None = None,
        search_iterations: int | None = None,
        ismcts_iterations: int | None = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        self.game = game
        self.player: Player = make_bot(
            kind,
            name or kind,
            random.Random(check_seed(seed)),  # an int 0 to 2^53-1, as --seed
            search_iterations=search_iterations,
            ismcts_iterations=ismcts_iterations,
        )

    @property
    def name(self) -> str:
        """The bot's name, for the log."""
        return self.player.name

    @property
    def kind(self) -> str:
        """The bot's kind, for the log."""
        return self.player.kind

    def step(self, state: KnockOutWhistState) -> int:
        """Return the action id the bot chooses for the seat to act in ``state``.

        Raises :class:`ValueError` at a chance or terminal node.
        """
        engine = state.engine
        if engine is None or state.is_chance_node() or state.is_terminal():
            raise ValueError("a bot acts at a decision node only")
        view = engine.view(engine.turn)
        return action_id(self.player.act(view), view.phase)

    def restart_at(self, state: KnockOutWhistState) -> None:
        """Do nothing: kow's bots keep no memory between decisions."""

    def inform_action(self, state: KnockOutWhistState, player_id: int, action: int) -> None:
        """Do nothing: the bot reads each decision from the engine."""


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, KnockOutWhistGame)
