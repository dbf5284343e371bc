"""The state of one game: its legal actions, apply, views, and the one trick loop.

See :mod:`kow.engine` for the whole. :meth:`State._play_cards` is the only code that plays
a card, ends a trick and picks the next leader; :mod:`kow.engine._round` sets a round up
and ends it, and :mod:`kow.engine._copies` makes the states a search plays out.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from ..cards import NO_SUIT, SUIT_OF, Card, Mask, Suit
from ..cards import cards_in as _cards_in
from ..events import (
    KNOCK,
    Action,
    Event,
    Knock,
    Outcome,
    Phase,
    Play,
    Seat,
    Trick,
    TrickWon,
    TrumpMethod,
    Vote,
    action_name,
    new_trick_won,
)
from ..rules import Rules
from ..settings import check_bool
from ._checks import (
    check_deck,
    check_hands,
    check_policies,
    check_start,
    check_view,
    why_illegal,
)
from ._copies import BLANK, copy_state, fork_state, state_from_view
from ._round import ALL_SUITS, end_round, next_vote, set_trump, start_round
from .deal import Deck, ShuffledDeck
from .trick import BEATEN_BY, knock_allowed, legal_cards, trick_order, won_by
from .view import (
    CardPolicy,
    Policy,
    TrickFacts,
    View,
    legal_actions_of,
    new_trick_facts,
    new_view,
)

__all__ = ["FIELDS", "IllegalActionError", "State", "action_name"]

_new_trick: Final[Callable[[tuple[Any, ...]], Trick]] = functools.partial(tuple.__new__, Trick)
"""Return the :class:`~kow.events.Trick` of a tuple of its fields, in their order: the fast
way (as :mod:`kow.events`' ``new_*``), for :attr:`State.tricks`, which every view reads."""
_PLAYS: Final = tuple(tuple(Play(seat=seat, card=card) for card in range(52)) for seat in range(7))
"""``_PLAYS[seat][card]``: the event of that play, made once and shared (it never changes)."""
_KNOCKS: Final = tuple(Knock(seat=seat) for seat in range(7))
_VOTES: Final = tuple(tuple(Vote(seat=seat, suit=suit) for suit in ALL_SUITS) for seat in range(7))
# The phases as C statics in the compiled build, where ``Phase.PLAY`` would look up the
# module's global and then the enum class's attribute: about 1,000 instructions a use.
_PLAY: Final = Phase.PLAY
_VOTE: Final = Phase.VOTE
_OVER: Final = Phase.OVER
_ROUND_OVER: Final = Phase.ROUND_OVER
_TRICK_WON: Final = TrickWon
_NEW_TRICK_WON: Final = new_trick_won  # a C static, not a look-up in the module's dict
_PLAY_OR_KNOCK: Final = (Play, Knock)


FIELDS: Final[tuple[str, ...]] = (
    "rules", "players", "events", "recording", "phase", "turn", "outcome", "round",
    "hand_size", "dealer", "trump", "trump_method", "trump_chosen_by", "turned_up",
    "leader", "hands", "in_game", "in_round", "knocked_out", "dogs_life",
    "dogs_life_used", "dogs_life_open", "tricks_won", "previous_tricks_won", "allowed", "votes",
    "seen", "trick_number", "trick_leader", "trick_order", "trick_played", "led",
    "winning_card", "winning_seat", "_first_play", "_trick_start", "_trick_seen",
    "_deck", "_on_dogs_life", "_left", "_most_tricks", "_voters", "_fixed_suit",
    "_pending_method", "_view_parts", "_tricks_kept",
)  # fmt: skip
"""The attributes of every :class:`State` (its ``__slots__``; a compiled ``State`` has none)."""


class IllegalActionError(ValueError):
    """Raised for an action the rules do not allow now; the game is left as it was.

    The message says why in plain words, e.g. "seat 1 must follow suit h: it holds 9h and
    Kh, not 2c". ``seat`` is the seat that acted and ``action`` the action refused.
    """

    def __init__(self, message: str, seat: Seat, action: object) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action


class State:
    """The state of one game of Knock-Out Whist, advanced by :meth:`apply`.

    ``State(rules, rng, dealer=None, deck=None)`` starts the game and deals round 1.
    ``rng`` draws the first dealer (``dealer``, a seat, overrides it; the draw is made all
    the same, so a given dealer keeps the deal); ``deck`` is where the cards come from,
    by default a :class:`~kow.engine.deal.ShuffledDeck` drawing from ``rng``. After construction
    and after each action, :attr:`phase` is the kind of decision awaited and :attr:`turn`
    the seat that must make it.

    The attributes below are read-only outside the engine; players see a game only
    through :meth:`view`.

    Raises :class:`~kow.rules.RulesError` when ``dealer`` is not a seat of the game, and
    :class:`TypeError` naming ``rules``, ``rng`` or ``deck`` of the wrong kind. In the
    installed (compiled) build the class is final: Python code cannot subclass it.
    """

    __slots__ = FIELDS

    rules: Rules
    players: int
    """The number of seats."""
    events: list[Event]
    """Every change so far, in order (empty for a copy made for search)."""
    recording: bool
    """Whether events and tricks are kept: False for a copy made for search."""
    phase: Phase
    """The kind of decision awaited, or :attr:`Phase.OVER <kow.events.Phase.OVER>`."""
    turn: Seat
    """The seat that must act (-1 when over)."""
    outcome: Outcome | None
    """How the game ended; None while it goes on."""
    round: int
    """The round's number, from 1."""
    hand_size: int
    """The cards of a full hand this round."""
    dealer: Seat
    hands: list[Mask]
    """Each seat's cards (0 for a seat not in the round)."""
    in_game: list[bool]
    """By seat: not knocked out."""
    in_round: tuple[Seat, ...]
    """The seats dealt in this round, ascending."""
    knocked_out: tuple[Seat, ...]
    dogs_life: tuple[Seat, ...]
    """The seats on a dog's life this round."""
    dogs_life_used: list[bool]
    """By seat: granted a dog's life earlier in the game."""
    dogs_life_open: tuple[Seat, ...]
    """The seats of the round that taking no trick would give a dog's life, ascending
    (see :func:`kow.engine._round.dogs_life_open`; set as the round is dealt)."""
    tricks_won: list[int]
    """By seat, tricks won this round."""
    previous_tricks_won: list[int] | None
    """By seat, last round's tricks (None in round 1)."""
    trump: Suit
    """The round's trump suit, or NO_SUIT (none, or not set yet)."""
    trump_method: TrumpMethod | None
    trump_chosen_by: Seat | None
    turned_up: Card | None
    """Round 1's turned-up card (None in later rounds)."""
    leader: Seat
    """Who leads the round's first trick (-1 before trump is set)."""
    seen: Mask
    """The cards the whole table has seen this round: every card played, the turned-up card."""
    trick_number: int
    """The current trick's number, from 1 (0 before the first)."""
    trick_leader: Seat
    trick_order: tuple[Seat, ...]
    """The seats that play the current trick, in order: every seat holding a card."""
    trick_played: int
    """How many seats of :attr:`trick_order` have played to the current trick."""
    led: Suit
    """The current trick's led suit, or NO_SUIT before the lead (or after a knock)."""
    winning_card: Card
    """The card winning the current trick so far, or NO_CARD."""
    winning_seat: Seat
    """Who played :attr:`winning_card`, or -1."""
    votes: list[Vote]
    """This round's votes so far."""
    allowed: tuple[Suit, ...]
    """The suits that may be named in the vote or trump phase."""
    _deck: Deck
    _on_dogs_life: list[bool]
    """By seat, on a dog's life this round (the trick loop's table)."""
    _left: Seat
    """The dealer's left this round."""
    _most_tricks: Seat
    """Last round's most-tricks player once found (-1 before)."""
    _voters: list[Seat]
    """The knocked-out seats still to vote, in turn."""
    _fixed_suit: Suit
    """Round 1's turned-up suit, kept for ``trump="fixed"``."""
    _pending_method: TrumpMethod
    """How the trump awaited will be set: ``"chosen"``, or ``"vote"`` after a tie."""
    _first_play: int
    """Where this round's first trick starts in :attr:`events`."""
    _trick_start: int
    """Where the current trick starts in :attr:`events`."""
    _trick_seen: Mask
    """:attr:`seen` before the current trick's first card, so that the trick's cards are
    ``seen ^ _trick_seen`` (kept up to date by a state that records only)."""
    _view_parts: tuple[Any, ...] | None
    """The view's fields that change only between tricks, once built (see :meth:`view`)."""
    _tricks_kept: tuple[int, tuple[Trick, ...]] | None
    """:attr:`tricks` as last built, with where in :attr:`events` they end (None: never):
    the next build walks on from there within the same round (see :attr:`tricks`)."""

    def __init__(
        self,
        rules: Rules,
        rng: random.Random,
        dealer: object = None,
        *,
        deck: Deck | None = None,
    ) -> None:
        if rng is BLANK:
            return  # a copy fills it in (kow.engine._copies)
        check_start(rules, rng, deck)  # TypeError naming rules, an rng or a deck of a wrong kind
        players = rules.players
        drawn = int(rng.random() * players)  # drawn even when given, so --dealer keeps the deal
        if dealer is not None:
            dealer = rules.check_seat(dealer, "dealer")  # a plain int, a numpy one taken
        self.rules = rules
        self.players = players
        self.events = []
        self.recording = True
        self.outcome = None
        self.round = 0
        self.dealer = drawn if dealer is None else dealer
        self.hands = [0] * players
        self.in_game = [True] * players
        self.dogs_life = ()
        self.dogs_life_used = [False] * players
        self.dogs_life_open = ()
        self.tricks_won = [0] * players
        self.previous_tricks_won = None
        self.turned_up = None
        self._fixed_suit = NO_SUIT
        self._tricks_kept = None
        self._deck = deck if deck is not None else ShuffledDeck(rng)
        start_round(self)

    # ----------------------------------------------------------------- queries

    def legal_actions(self) -> tuple[Action, ...]:
        """Return the actions the seat to act may take now, sorted (empty when over).

        In play, the cards it may play (follow suit: :func:`kow.engine.trick.legal_cards`) and
        :data:`~kow.events.KNOCK` when it may knock (a dog's life, on any trick but the
        round's last: seed 002; the last-trick rule is ours). Otherwise the allowed suits.
        """
        phase = self.phase
        if phase is _PLAY:
            seat = self.turn
            out = _cards_in(legal_cards(self.hands[seat], self.led))
            return out + (KNOCK,) if self._may_knock(seat) else out
        if phase is _OVER or phase is _ROUND_OVER:
            return ()
        return self.allowed

    def is_legal(self, action: object) -> bool:
        """Return whether ``action`` may be taken now by the seat to act."""
        return type(action) is int and action in self.legal_actions()

    def check(self, action: object) -> None:
        """Raise :class:`IllegalActionError` saying why, if ``action`` is not legal now."""
        if not self.is_legal(action):
            raise IllegalActionError(why_illegal(self, action), self.turn, action)

    def _may_knock(self, seat: Seat) -> bool:
        """Return whether ``seat`` may knock: a dog's life, on any trick but the last."""
        return self._on_dogs_life[seat] and knock_allowed(self.trick_number, self.hand_size)

    def facts(self) -> TrickFacts:
        """Return the :class:`~kow.engine.view.TrickFacts` of the seat to play (play phase only).

        Raises :class:`ValueError` outside the play phase.
        """
        if self.phase is not _PLAY:
            raise ValueError(f"no card to play in phase {self.phase.value!r}")
        seat = self.turn
        hand = self.hands[seat]
        return new_trick_facts(
            (seat, hand, legal_cards(hand, self.led), self._may_knock(seat), self.seen,
             self.winning_card, self.led, self.trump, self.trick_played < len(self.trick_order) - 1,
             self.tricks_won[seat], self.hand_size - self.trick_number + 1)
        )  # fmt: skip

    def view(self, seat: object = None) -> View:
        """Return what ``seat`` (default: the seat to act) may know now, as a :class:`View`.

        Raises :class:`~kow.rules.RulesError` when ``seat`` is not a seat of the game (a
        numpy integer counts as its int; a bool does not).
        """
        turn = self.turn
        if seat is None:
            seat = turn
        elif type(seat) is not int or not 0 <= seat < self.players:
            seat = self.rules.check_seat(seat)
        phase = self.phase
        facts = None
        if seat != turn or phase is _OVER or phase is _ROUND_OVER:
            legal: tuple[Action, ...] = ()
        elif phase is _PLAY:
            facts = self.facts()
            legal = legal_actions_of(facts)
        else:
            legal = self.allowed
        parts = self._view_parts
        if parts is None:
            parts = self._view_parts = self._stable_view_fields()
        hand = self.hands[seat]
        led = self.led
        winning = self.winning_card
        # Built by new_view, in the order of View's fields, with the fields that change
        # only between tricks made once per trick: every decision asks for a view.
        return new_view(
            (
                seat, phase, legal, facts, *parts, _card_counts(self.hands),
                tuple(self.votes), _cards_in(hand), hand, self.seen, self.trick,
                None if led < 0 else led, None if winning < 0 else winning,
                None if winning < 0 else self.winning_seat,
            )
        )  # fmt: skip

    def _stable_view_fields(self) -> tuple[Any, ...]:
        """Return the view's fields from ``rules`` to ``trick_order``: they change only
        between tricks, so :meth:`view` keeps them until the next (``_view_parts``)."""
        leader = self.leader
        trump = self.trump
        previous = self.previous_tricks_won
        return (
            self.rules, self.round, self.hand_size, self.dealer, None if leader < 0 else leader,
            None if trump < 0 else trump, self.trump_method, self.trump_chosen_by,
            self.turned_up, self.in_round, self.dogs_life,
            tuple([s for s, used in enumerate(self.dogs_life_used) if used]),
            self.dogs_life_open, self.knocked_out,
            None if previous is None else tuple(previous), tuple(self.tricks_won),
            self.tricks, self.trick_number, self.hand_size - self.trick_number + 1,
            self.trick_order,
        )  # fmt: skip

    # ----------------------------------------------------------------- actions

    def apply(self, action: object) -> Event:
        """Check ``action`` for the seat to act, apply it, and return its event.

        The event is the :class:`~kow.events.Play`, :class:`~kow.events.Knock`,
        :class:`~kow.events.Vote` or :class:`~kow.events.TrumpSet` it made; the game then
        advances to the next decision (ending tricks, rounds and the game as the rules
        say). Raises :class:`IllegalActionError` (and changes nothing) when it is not legal,
        a value that is not an int included.
        """
        if type(action) is not int:  # a bool, a numpy integer or a str is no action
            raise IllegalActionError(why_illegal(self, action), self.turn, action)
        phase = self.phase
        if phase is _PLAY:
            seat = self.turn
            self._play_cards(None, action)
            return _PLAYS[seat][action] if action != KNOCK else _KNOCKS[seat]
        self.check(action)
        if phase is _VOTE:
            vote = _VOTES[self.turn][action]
            self.votes.append(vote)
            if self.recording:
                self.events.append(vote)
            next_vote(self)
            return vote
        return set_trump(self, action, self._pending_method, chosen_by=self.turn)

    def play_round(
        self, policies: Sequence[Policy], first: object = None, ask_forced: object = True
    ) -> None:
        """Play the round's cards to its end, asking ``policies[seat]`` for each play.

        Each policy is given the :class:`~kow.engine.view.TrickFacts` of its seat and returns a
        card or a knock. ``first``, when given, is played for the seat to act before any
        policy is asked (a search tries an action, then plays the round out). With
        ``ask_forced`` false, a seat with a single legal action (one card, no knock) plays
        it unasked: for policies that draw no chance, such as a search's playouts, the
        same game, made faster. The round then ends as :meth:`apply` would end it (for a
        round copied for search, the state stops there, :attr:`phase` ROUND_OVER). The game and
        its events are exactly those of calling :meth:`apply` with the same choices.

        Raises :class:`ValueError` outside the play phase, and
        :class:`IllegalActionError` for an illegal action, with the game as it was just
        before it (:attr:`turn` the seat that chose it). Raises before any play
        :class:`TypeError` or :class:`ValueError` for ``policies`` that are not one
        callable per seat, :class:`IllegalActionError` for a ``first`` that is not an int,
        and :class:`~kow.settings.SettingError` for an ``ask_forced`` that is not a bool.
        """
        if self.phase is not _PLAY:
            raise ValueError(f"no card to play in phase {self.phase.value!r}")
        policies = check_policies(policies, self.players)
        if first is not None and type(first) is not int:
            raise IllegalActionError(why_illegal(self, first), self.turn, first)
        if ask_forced is not True and ask_forced is not False:
            ask_forced = check_bool("ask_forced", ask_forced)
        self._play_cards(policies, first, ask_forced)

    def _play_cards(
        self, policies: list[Policy] | None, action: Action | None, ask_forced: bool = True
    ) -> None:
        """The one trick loop: play cards, end tricks, pick leaders, end the round.

        Play ``action`` (when not None) for the seat to act; then, with ``policies``, ask
        ``policies[seat]`` for each play until the round ends (a single legal card unasked
        when not ``ask_forced``), and without, return. The state is held in local names
        while the loop runs (every play of a search passes here) and stored back when it
        returns or raises.
        """
        hands = self.hands
        on_dogs_life = self._on_dogs_life
        won = self.tricks_won
        trump = self.trump
        beaten_by = BEATEN_BY[trump]
        hand_size = self.hand_size
        number = self.trick_number
        leader = self.trick_leader
        order = self.trick_order
        last = len(order) - 1
        played = self.trick_played
        led = self.led
        winning = self.winning_card
        winning_seat = self.winning_seat
        seen = self.seen
        recording = self.recording
        events = self.events
        trick_start = self._trick_start
        new_trick = False
        round_over = False
        illegal = False
        refused: object = None  # the action refused, when one is
        # Tables as local names (compiled code calls functions directly: none are aliased).
        suit_of = SUIT_OF
        plays = _PLAYS
        asking = action is None
        seat = order[played]
        try:
            while True:
                hand = hands[seat]
                legal = legal_cards(hand, led)
                may_knock = on_dogs_life[seat] and knock_allowed(number, hand_size)
                if not asking:
                    pass  # the action is given
                elif not ask_forced and not may_knock and not legal & (legal - 1):
                    action = legal.bit_length() - 1  # the one legal card, played unasked
                else:
                    # A player that raises (one quits, say) leaves the game at this decision.
                    policy = policies[seat]  # type: ignore[index]
                    if isinstance(policy, CardPolicy):  # a built-in bot's: no facts made
                        action = policy.decide(
                            seat=seat, hand=hand, legal=legal, may_knock=may_knock, seen=seen,
                            winning=winning, led=led, trump=trump, to_come=played < last,
                            won=won[seat], tricks_left=hand_size - number + 1,
                        )  # fmt: skip
                    else:
                        chosen: object = policy(
                            new_trick_facts(
                                (seat, hand, legal, may_knock, seen, winning, led, trump,
                                 played < last, won[seat], hand_size - number + 1)
                            )
                        )  # fmt: skip
                        if type(chosen) is not int:  # a str, a bool, a numpy integer
                            refused = chosen
                            illegal = True
                            break
                        action = chosen
                card = action if type(action) is int else -1  # unboxed once (-1: no int)
                if 0 <= card < 52 and legal >> card & 1:
                    bit = 1 << card  # as legal's test above (BIT's look-up unboxes a 2-digit int)
                    hands[seat] = hand ^ bit
                    seen |= bit
                    # Rules text, 'Déroulement du jeu' 3: see kow.engine.trick.beats.
                    if winning < 0:
                        led = suit_of[card]
                        winning = card
                        winning_seat = seat
                    elif bit & beaten_by[winning]:
                        winning = card
                        winning_seat = seat
                    if recording:
                        events.append(plays[seat][card])
                elif card == KNOCK and may_knock:
                    if recording:
                        events.append(_KNOCKS[seat])
                else:
                    refused = action
                    illegal = True  # refused once the state is kept, so the message reads it
                    break
                asking = policies is not None
                if played < last:
                    played += 1
                    seat = order[played]
                    if not asking:
                        break
                    continue
                # The trick is over: its winner leads the next, and every seat holding a
                # card plays it, clockwise from the leader. A dog's-life card that wins
                # leaves its player no card, so the player to its left leads instead
                # (seed 002).
                won[winning_seat] = won[winning_seat] + 1  # an int's add (``+=`` is Python's)
                new_trick = True
                last_trick = number == hand_size
                if not last_trick:
                    order = trick_order(winning_seat, hands)
                if recording:
                    # How the trick was won, from what the loop knows: its cards are the
                    # cards seen since it began.
                    next_leader = None if last_trick else order[0]
                    why = won_by(winning, led, trump, seen ^ self._trick_seen)
                    self._trick_seen = seen
                    events.append(
                        _NEW_TRICK_WON(
                            (number, leader, winning_seat, next_leader, winning, led, why)
                        )
                    )
                    trick_start = len(events)
                if last_trick:
                    played += 1  # every seat of the trick has played; the turn stays put
                    round_over = True
                    break
                leader = seat = order[0]
                last = len(order) - 1
                number += 1
                played = 0
                led = winning = winning_seat = -1
                if not asking:
                    break
        finally:
            # Keep the loop's state, however it leaves: the round goes on or ends, an
            # action is refused, or a player raises. Stored here, once, rather than passed
            # to a method: the loop's exits are many, and this is its cheapest way out.
            self.trick_number = number
            self.trick_leader = leader
            self.trick_order = order
            self.trick_played = played
            self.led = led
            self.winning_card = winning
            self.winning_seat = winning_seat
            self.seen = seen
            self._trick_start = trick_start
            self.turn = seat
            if new_trick:
                self._view_parts = None
        if illegal:
            raise IllegalActionError(why_illegal(self, refused), seat, refused)
        if round_over:
            end_round(self)

    # ----------------------------------------------------------------- search

    @property
    def trick(self) -> tuple[Play | Knock, ...]:
        """The current trick's plays so far, in turn order (empty for a copy for search)."""
        if self.phase is not _PLAY:
            return ()
        return tuple(self.events[self._trick_start :])  # type: ignore[arg-type]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This round's finished tricks, from :attr:`events` (empty for a copy for search).

        Built on from the tricks built last (``_tricks_kept``) when those are this round's:
        every view asks for them once a trick, and a round's walk from its start made the
        views' cost grow with the tricks played. Kept tricks end at an events index
        between this round's first play and the current trick's start only if they are
        this round's (an earlier round's end before this round's deal).
        """
        start = self._first_play
        end = self._trick_start
        kept = self._tricks_kept
        done: list[Trick] = []
        if kept is not None and start <= kept[0] <= end:
            start = kept[0]
            done.extend(kept[1])
        plays: list[Play | Knock] = []
        for event in self.events[start:end]:
            if isinstance(event, _TRICK_WON):
                done.append(
                    _new_trick(
                        (event.number, event.leader, tuple(plays), event.winner, event.card,
                         event.led, event.why)
                    )
                )  # fmt: skip
                plays = []
            elif isinstance(event, _PLAY_OR_KNOCK):
                plays.append(event)
        tricks = tuple(done)
        self._tricks_kept = (end, tricks)
        return tricks

    @property
    def winner(self) -> Seat | None:
        """The winning seat once the game is over, else None."""
        return None if self.outcome is None else self.outcome.winner

    def round_copy(self) -> State:
        """Return a copy of this round's decision, for search: it keeps no history.

        The copy has the same hands, the same state of the current trick (leader, order,
        led suit, winning card) and trick counts, records no events, and stops when the
        round ends instead of dealing the next one (:attr:`phase`
        :attr:`~kow.events.Phase.ROUND_OVER`, the game not being over). Having no events,
        its views show no plays (:attr:`View.trick` and :attr:`View.tricks` are empty):
        a search reads the facts, not the history. For the play and trump phases. It
        shares no list that changes with this state. For a copy of the whole game, see
        :meth:`copy`.
        """
        return copy_state(self)

    def copy(self) -> State:
        """Return a complete, independent copy of the game: the same as :meth:`fork` with
        no argument (and as ``copy.deepcopy``). For the cheap copy of a round that search
        plays out, see :meth:`round_copy`.
        """
        return fork_state(self)

    def fork(self, deck: Deck | None = None, hands: Sequence[Mask] | None = None) -> State:
        """Return a complete, independent copy of the game, to play on to its end.

        Unlike :meth:`round_copy`, the fork keeps the history (:attr:`events`) and deals the
        next rounds: what a framework's clone needs (OpenSpiel, PettingZoo). ``deck``
        replaces where its later cards come from (default: a copy of this game's deck, so
        it deals the same cards). ``hands``, masks by seat, replace the cards still held:
        a guess at the hidden cards for a search over whole games (OpenSpiel's resampling),
        with this round's :class:`~kow.events.Deal` rewritten to match (each seat's cards
        already played, in order, then its new hand; a seat whose hand is unchanged keeps
        its deal as it was). ``copy.deepcopy`` of a state forks it.

        Raises :class:`ValueError` when ``hands`` are not one mask per seat
        (:func:`~kow.engine._checks.check_hands`), or a hand has the wrong size, or holds a
        card twice or one the table has seen; :class:`TypeError` for a ``deck`` that is
        not a :class:`~kow.engine.deal.Deck`.
        """
        if deck is not None:
            deck = check_deck(deck)
        if hands is not None:
            hands = check_hands(hands, self.players)
        return fork_state(self, deck, hands)

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """Fork the game (see :meth:`fork`): ``copy.deepcopy(state)`` is ``state.fork()``."""
        return fork_state(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the game as its attributes (:data:`FIELDS`), for frameworks that pickle
        states (OpenSpiel's serialization): a compiled ``State`` has no default way."""
        held = tuple([(name, getattr(self, name)) for name in FIELDS if hasattr(self, name)])
        return (_unpickle, (type(self), held))

    @classmethod
    def from_view(cls, view: object, hands: Sequence[Mask]) -> State:
        """Return the decision of ``view`` with ``hands`` (masks by seat) filled in, for search.

        ``hands[view.seat]`` must be the view's own hand; the other hands are a guess at
        the hidden cards (a determinization), each holding as many cards as
        ``view.hand_counts`` says. The state is like :meth:`round_copy`'s: no history, and it
        stops at the end of the round. For the play and trump phases.

        Raises :class:`ValueError` when ``hands`` are not one mask per seat
        (:func:`~kow.engine._checks.check_hands`), a hand has the wrong size, or in another
        phase; :class:`TypeError` when ``view`` is not a :class:`View`.
        """
        view = check_view(view)
        return state_from_view(cls, view, check_hands(hands, view.rules.players))


def _card_counts(hands: list[Mask]) -> tuple[int, ...]:
    """Return how many cards each hand mask of ``hands`` holds, a suit's 13 bits at a time
    (mypyc calls ``int.bit_count`` as a Python method)."""
    ones = _ONES
    return tuple(
        [
            ones[hand & 0x1FFF] + ones[hand >> 13 & 0x1FFF] + ones[hand >> 26 & 0x1FFF]
            + ones[hand >> 39 & 0x1FFF]
            for hand in hands
        ]
    )  # fmt: skip


_ONES: Final = bytes([bin(mask).count("1") for mask in range(1 << 13)])
"""``_ONES[mask]``: how many cards a suit's 13-bit mask holds."""


def _unpickle(cls: type[State], held: tuple[tuple[str, Any], ...]) -> State:
    """Return the game that :meth:`State.__reduce__` pickled: ``held`` is its
    ``(attribute, value)`` pairs."""
    state = cls(dict(held)["rules"], BLANK)
    for name, value in held:
        setattr(state, name, value)
    return state
