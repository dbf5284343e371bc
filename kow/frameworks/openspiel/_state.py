"""A state of the OpenSpiel game: a kow engine state, or cards being drawn for one.

See :mod:`kow.frameworks.openspiel` for the chance nodes, actions, strings and tensors.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pyspiel

from ...cards import card_name, cards_in
from ...engine import State
from ...events import AGENT, Deal, Seat, seat_name
from ...log import GameLog, LoggedPlayer, PlayerInfo, build
from ...players.sampling import Sampler
from ...rules import Rules
from ..encoding import (
    action_text,
    engine_action,
    information_state,
    information_state_text,
    legal_action_ids,
    observation,
    observation_text,
)
from ._chance import START, ChanceDeck, Drawing, NeedCards

if TYPE_CHECKING:
    from ._game import KnockOutWhistGame

__all__ = ["KnockOutWhistState", "Table"]

_CHANCE: int = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: int = int(pyspiel.PlayerId.TERMINAL)


class Table:
    """What every state of one game shares, never copied: the rules and the seats."""

    __slots__ = ("rules", "players", "dealers")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.players = rules.players
        self.dealers = [(seat, 1.0 / rules.players) for seat in range(rules.players)]

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """Return itself: a state's clone shares its game's table."""
        return self


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
        self._drawing: Drawing | None = None

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
            pending = "the first deal" if drawing.pending == START else action_text(drawing.pending)
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
            self._advance(START, ())
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
        deck = ChanceDeck(draws)
        engine = self._engine
        trial: State | None = None
        try:
            if engine is None:
                trial = State(self._table.rules, random.Random(0), self._dealer, deck=deck)
            else:
                trial = engine.fork(deck=deck)
                trial.apply(engine_action(action, engine.phase))
        except NeedCards as need:
            # A draw made before the round's Deal event is a deal; one after it, a tie cut.
            kind = "deal"
            if trial is not None:
                last = next((e for e in reversed(trial.events) if isinstance(e, Deal)), None)
                if last is not None and last.round == trial.round:
                    kind = "cut"
            self._drawing = Drawing(action, draws, need.count, kind=kind)
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
        other._engine = engine.fork(deck=ChanceDeck(), hands=hands)
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
