"""The rules engine: the state of one game, the legal actions, and apply.

The engine does no I/O and owns no global randomness: a seeded :class:`random.Random` is
passed in, and every shuffle, cut and tie cut is drawn from it in a fixed order. Every
change is appended to :attr:`State.events` as a small tuple (see the ``E_*`` kinds), and
that list feeds the log, the screen and replays.

Seats are 0-based and clockwise. The player to a seat's *left* is the next seat clockwise
still in the game; the player to its *right* is the previous one. Cards are ints (see
:mod:`kow.cards`) and hands are bit masks, so copying a state is copying a few lists of
ints.

Decisions come in three phases: ``"vote"`` (a knocked-out player votes for trump under
``eliminated_vote``; the action is a suit 0..3), ``"trump"`` (the chooser names trump; a
suit) and ``"play"`` (a card 0..51, or :data:`KNOCK` on a dog's life).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from .cards import BIT, NAMES, RANK_OF, SUIT_CARDS, SUIT_MASK, SUIT_OF, SUITS, cards_in
from .rules import Rules

__all__ = [
    "KNOCK",
    "OVER",
    "PLAY",
    "TRUMP",
    "VOTE",
    "Event",
    "IllegalActionError",
    "State",
    "View",
    "action_name",
    "deal_deck",
    "stacked",
]

KNOCK = 52
"""The action of a player on a dog's life who passes this trick (seed 002: "frapper")."""

VOTE = "vote"
TRUMP = "trump"
PLAY = "play"
OVER = "over"

# Event kinds. Each event is a tuple whose first item is its kind:
E_ROUND = "round"  # (E_ROUND, number, hand_size, dealer, cut_by, cut_position, hands, dogs_life)
E_TURNED_UP = "turned_up"  # (E_TURNED_UP, card)
E_TIE_CUT = "tie_cut"  # (E_TIE_CUT, passes): passes = ((seat, card), ...) per cutting pass
E_VOTE = "vote"  # (E_VOTE, seat, suit)
E_TRUMP = "trump"  # (E_TRUMP, suit or None, method, chosen_by or None)
E_LEAD = "lead"  # (E_LEAD, seat): who leads the round's first trick
E_PLAY = "play"  # (E_PLAY, seat, card)
E_KNOCK = "knock"  # (E_KNOCK, seat)
E_TRICK = "trick"  # (E_TRICK, number, leader, winner)
E_ROUND_END = "round_end"  # (E_ROUND_END, tricks_won, eliminated, dogs_life_granted, revived)
E_GAME_END = "game_end"  # (E_GAME_END, winner, rounds_played)

Event = tuple[Any, ...]

_NO_TRUMP = -1
_SUITS4 = (0, 1, 2, 3)
_SHIFT = (0, 13, 26, 39)
_ROTATIONS = tuple(
    tuple(tuple((first + i) % n for i in range(n)) for first in range(n)) for n in range(8)
)
"""``_ROTATIONS[n][first]``: the ``n`` seats clockwise from ``first``."""
_make_view = tuple.__new__
_C0, _C1, _C2, _C3 = SUIT_CARDS
_bit_count = int.bit_count


class IllegalActionError(ValueError):
    """Raised by :meth:`State.apply` for an action the rules do not allow now.

    The message says why in plain words, e.g. "seat 1 must follow hearts with 9h or Kh".
    :meth:`State.run` also sets ``action``, the action refused (None otherwise).
    """

    action: object = None


def action_name(action: int, phase: str = PLAY) -> str:
    """Return the notation of ``action``: a card name, ``"knock"``, or a suit letter.

    >>> action_name(8 + 26), action_name(KNOCK), action_name(3, TRUMP)
    ('Th', 'knock', 's')
    """
    if not isinstance(action, int):
        return repr(action)
    if phase != PLAY:
        return SUITS[action] if 0 <= action < 4 else repr(action)
    if action == KNOCK:
        return "knock"
    return NAMES[action] if 0 <= action < 52 else repr(action)


class View(NamedTuple):
    """What one seat may know when it must act: its own hand plus what the table has seen.

    A view holds no other player's cards and no deck. It is a snapshot: later changes to
    the game do not change it.

    - ``seat``: the seat to act (0-based, clockwise); ``phase``: ``"vote"``, ``"trump"``
      or ``"play"``; ``legal``: the legal actions, sorted (suits 0..3 for vote and trump,
      cards 0..51 and :data:`KNOCK` for play).
    - ``rules``; ``round``: number from 1; ``hand_size``: cards dealt to each full hand
      this round; ``dealer``; ``leader``: who led the round's first trick (None before);
      ``trump``: suit 0..3 or None (None also before trump is set);
      ``turned_up``: round 1's turned-up card or None.
    - ``hand``: this seat's cards, sorted by suit then rank.
    - ``trick``: the current trick so far, ``((seat, action), ...)`` in turn order;
      ``led``: the led suit or None.
    - ``tricks``: this round's finished tricks, ``((leader, ((seat, action), ...),
      winner), ...)``; ``trick_number``: the current trick's number from 1.
    - ``tricks_won``: per seat, tricks won this round (0 for a seat not in the round);
      ``previous_tricks_won``: per seat, last round's (None in round 1).
    - ``in_round``: seats dealt in this round, clockwise; ``dogs_life``: seats on a dog's
      life this round; ``knocked_out``: seats out of the game; ``hand_counts``: per seat,
      cards still held.
    - ``votes``: votes cast so far this round, ``((seat, suit), ...)``; ``allowed_suits``:
      for a trump choice after a tied vote, the tied suits.
    """

    seat: int
    phase: str
    legal: tuple[int, ...]
    rules: Rules
    round: int
    hand_size: int
    dealer: int
    leader: int | None
    trump: int | None
    turned_up: int | None
    hand: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    led: int | None
    tricks: tuple[tuple[int, tuple[tuple[int, int], ...], int], ...]
    trick_number: int
    tricks_won: tuple[int, ...]
    previous_tricks_won: tuple[int, ...] | None
    in_round: tuple[int, ...]
    dogs_life: tuple[int, ...]
    knocked_out: tuple[int, ...]
    hand_counts: tuple[int, ...]
    votes: tuple[tuple[int, int], ...]


class State:
    """The state of one game of Knock-Out Whist, advanced by :meth:`apply`.

    ``State(rules, rng, dealer=None, deck=None)`` starts the game and deals round 1.
    ``rng`` is the game's only source of chance; ``dealer`` is the first dealer's seat,
    drawn from ``rng`` when None. ``deck``, for tests and replays, replaces the shuffle:
    called with a count, it returns the top cards of the next deck (see :func:`stacked`).
    After construction and after each :meth:`apply`, :attr:`phase` is the kind of decision
    awaited (or ``"over"``) and :attr:`turn` the seat that must make it.

    Raises :class:`ValueError` when ``dealer`` is not a seat of the game.
    """

    __slots__ = (
        "rules", "n", "rng", "events", "phase", "turn", "winner", "round", "hand_size",
        "dealer", "trump", "turned_up", "fixed_suit", "leader", "hands", "in_game", "dogs",
        "dogs_used", "dog_granted", "in_round", "tricks_won", "previous_tricks_won",
        "trick_number", "trick_leader", "actors", "pos", "led", "best", "best_seat",
        "trick", "tricks", "votes", "allowed", "dogs_life", "knocked_out", "_most_tricks",
        "_vote_queue", "_trump_method", "_deck", "record", "_view_parts", "_left",
    )  # fmt: skip

    def __init__(
        self,
        rules: Rules,
        rng: random.Random,
        dealer: int | None = None,
        deck: Callable[[int], Sequence[int]] | None = None,
    ) -> None:
        n = rules.players
        if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < n):
            raise ValueError(f"dealer must be a seat 0 to {n - 1}, not {dealer!r}")
        self.rules = rules
        self.n = n
        self.rng = rng
        self.events: list[Event] = []
        self.record = True
        self.phase = PLAY
        self.turn = -1
        self.winner: int | None = None
        self.round = 0
        self.hand_size = 0
        self.trump = _NO_TRUMP
        self.turned_up: int | None = None
        self.fixed_suit = _NO_TRUMP
        self.leader = -1
        self.hands = [0] * n
        self.in_game = [True] * n
        self.dogs = [False] * n
        self.dogs_used = [False] * n
        self.dog_granted = False
        self.in_round: tuple[int, ...] = ()
        self.dogs_life: tuple[int, ...] = ()
        self.knocked_out: tuple[int, ...] = ()
        self.tricks_won = [0] * n
        self.previous_tricks_won: list[int] | None = None
        self.trick_number = 0
        self.trick_leader = -1
        self.actors: tuple[int, ...] = ()
        self.pos = 0
        self.led = _NO_TRUMP
        self.best = -1
        self.best_seat = -1
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
        self.votes: list[tuple[int, int]] = []
        self.allowed: tuple[int, ...] = _SUITS4
        self._most_tricks = -1
        self._vote_queue: list[int] = []
        self._trump_method = ""
        self._view_parts: tuple[tuple[Any, ...], tuple[Any, ...]] | None = None
        self._left = -1  # the dealer's left: the next seat in the game (set by each deal)
        self._deck = deck if deck is not None else self._draw
        drawn = int(rng.random() * n)  # drawn even when given, so --dealer keeps the deal
        self.dealer = drawn if dealer is None else dealer
        self._start_round()

    # ----------------------------------------------------------------- queries

    def legal_actions(self) -> tuple[int, ...]:
        """Return the actions the seat to act may take now, sorted (empty when over).

        Follow suit (rules text, "Déroulement" 2): with a card of the led suit, only those
        cards; otherwise any card. A player on a dog's life may also :data:`KNOCK` on any
        trick but the round's last (seed 002; the last-trick rule is ours).
        """
        phase = self.phase
        if phase == PLAY:
            seat = self.turn
            hand = self.hands[seat]
            led = self.led
            if led >= 0 and hand & SUIT_MASK[led]:
                out = SUIT_CARDS[led][hand >> _SHIFT[led] & 0x1FFF]
            else:
                out = cards_in(hand)
            if self.dogs[seat] and self.trick_number < self.hand_size:
                out += (KNOCK,)
            return out
        if phase == TRUMP or phase == VOTE:
            return self.allowed
        return ()

    def check(self, action: int) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal now, saying why."""
        seat = self.turn
        if self.phase == OVER:
            raise IllegalActionError("the game is over")
        if self.phase != PLAY:
            if not (isinstance(action, int) and action in self.allowed):
                allowed = ", ".join(SUITS[s] for s in self.allowed)
                raise IllegalActionError(
                    f"seat {seat} must name a suit ({allowed}) to {self.phase}, "
                    f"not {action_name(action, self.phase)}"
                )
            return
        if not isinstance(action, int) or not (0 <= action <= KNOCK):
            raise IllegalActionError(f"seat {seat}: {action!r} is not a card or a knock")
        if action == KNOCK:
            if not self.dogs[seat]:
                raise IllegalActionError(f"seat {seat} is not on a dog's life and cannot knock")
            if self.trick_number >= self.hand_size:
                raise IllegalActionError(
                    f"seat {seat} must play its dog's-life card on the round's last trick"
                )
            return
        hand = self.hands[seat]
        if not hand & BIT[action]:
            raise IllegalActionError(f"seat {seat} does not hold {NAMES[action]}")
        led = self.led
        if led >= 0 and SUIT_OF[action] != led and hand & SUIT_MASK[led]:
            held = " and ".join(NAMES[c] for c in cards_in(hand & SUIT_MASK[led]))
            raise IllegalActionError(
                f"seat {seat} must follow suit {SUITS[led]}: it holds {held}, not {NAMES[action]}"
            )

    def view(self, seat: int | None = None) -> View:
        """Return what ``seat`` (default: the seat to act) may know now, as a :class:`View`."""
        turn = self.turn
        if seat is None:
            seat = turn
        phase = self.phase
        hand = self.hands[seat]
        # cards_in(hand), inline: a hand is 52 bits, 13 per suit
        cards = _C0[hand & 0x1FFF] + _C1[hand >> 13 & 0x1FFF] + _C2[hand >> 26 & 0x1FFF]
        cards += _C3[hand >> 39]
        if seat != turn or phase == OVER:
            legal: tuple[int, ...] = ()
        elif phase == PLAY:
            led = self.led
            if led >= 0 and hand & SUIT_MASK[led]:
                legal = SUIT_CARDS[led][hand >> _SHIFT[led] & 0x1FFF]
            else:
                legal = cards
            if self.dogs[seat] and self.trick_number < self.hand_size:
                legal += (KNOCK,)
        else:
            legal = self.allowed
        parts = self._view_parts
        if parts is None:
            parts = self._view_parts = self._make_view_parts()
        led = self.led
        # Built positionally in the order of View's fields, with the fields that change
        # only between tricks made once per trick: every decision asks for a view.
        return _make_view(
            View,
            (
                seat, phase, legal, *parts[0], cards, tuple(self.trick),
                None if led < 0 else led, *parts[1], tuple(map(_bit_count, self.hands)),
                tuple(self.votes),
            ),
        )  # fmt: skip

    def _make_view_parts(self) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """Return the view's fields from ``rules`` to ``turned_up``, and ``tricks`` to
        ``knocked_out``: they change only between tricks (see ``_view_parts``)."""
        leader = self.leader
        trump = self.trump
        prev = self.previous_tricks_won
        return (
            (
                self.rules, self.round, self.hand_size, self.dealer,
                None if leader < 0 else leader, None if trump < 0 else trump, self.turned_up,
            ),
            (
                tuple(self.tricks), self.trick_number, tuple(self.tricks_won),
                tuple(prev) if prev else None, self.in_round, self.dogs_life, self.knocked_out,
            ),
        )  # fmt: skip

    # ----------------------------------------------------------------- search

    def copy(self) -> State:
        """Return a copy of the round in play, for search: it keeps no history.

        The copy has the same hands, trick and trick counts, records no events, and stops
        (``phase == "over"``) when the round ends instead of dealing the next one. Only
        meaningful in the ``"play"`` phase.
        """
        # One line per slot: several times faster than a loop over the slots, and copying
        # is paid once per simulated deal. test_engine checks that no slot is left out.
        other: State = object.__new__(State)
        other.rules = self.rules
        other.n = self.n
        other.rng = self.rng
        other.events = []
        other.phase = self.phase
        other.turn = self.turn
        other.winner = self.winner
        other.round = self.round
        other.hand_size = self.hand_size
        other.dealer = self.dealer
        other.trump = self.trump
        other.turned_up = self.turned_up
        other.fixed_suit = self.fixed_suit
        other.leader = self.leader
        other.hands = self.hands[:]
        other.in_game = self.in_game
        other.dogs = self.dogs
        other.dogs_used = self.dogs_used
        other.dog_granted = self.dog_granted
        other.in_round = self.in_round
        other.tricks_won = self.tricks_won[:]
        other.previous_tricks_won = self.previous_tricks_won
        other.trick_number = self.trick_number
        other.trick_leader = self.trick_leader
        other.actors = self.actors
        other.pos = self.pos
        other.led = self.led
        other.best = self.best
        other.best_seat = self.best_seat
        other.trick = []
        other.tricks = []
        other.votes = self.votes
        other.allowed = self.allowed
        other.dogs_life = self.dogs_life
        other.knocked_out = self.knocked_out
        other._most_tricks = self._most_tricks
        other._vote_queue = self._vote_queue
        other._trump_method = self._trump_method
        other._deck = self._deck
        other.record = False
        other._view_parts = None
        other._left = self._left
        return other

    @classmethod
    def from_view(
        cls,
        view: View,
        hands: Sequence[int],
        trump: int | None = None,
        leader: int | None = None,
    ) -> State:
        """Return the round of ``view`` with ``hands`` (masks by seat) filled in, for search.

        ``hands[view.seat]`` must be the view's own hand; the other hands are a guess at
        the hidden cards (a determinization), each holding as many cards as
        ``view.hand_counts`` says. In the ``"trump"`` phase, give the ``trump`` to try
        and the ``leader`` of the first trick. The state is like :meth:`copy`'s: no
        history, and it stops at the end of the round. Raises :class:`ValueError` when a
        hand has the wrong size.
        """
        rules = view.rules
        n = rules.players
        for seat in range(n):
            if hands[seat].bit_count() != view.hand_counts[seat]:
                raise ValueError(
                    f"seat {seat} holds {view.hand_counts[seat]} cards, "
                    f"not {hands[seat].bit_count()}"
                )
        state: State = object.__new__(State)
        state.rules = rules
        state.n = n
        state.rng = random.Random(0)
        state.events = []
        state.record = False
        state.winner = None
        state.round = view.round
        state.hand_size = view.hand_size
        state.dealer = view.dealer
        state.turned_up = view.turned_up
        state.fixed_suit = _NO_TRUMP
        state.hands = list(hands)
        state.in_round = view.in_round
        state.in_game = [s in view.in_round for s in range(n)]
        state.dogs = [s in view.dogs_life for s in range(n)]
        state.dogs_life = view.dogs_life
        state.knocked_out = view.knocked_out
        state.dogs_used = [False] * n
        state.dog_granted = False
        state.tricks_won = list(view.tricks_won)
        state.previous_tricks_won = None
        state.trick = []
        state.tricks = []
        state.votes = []
        state.allowed = _SUITS4
        state._most_tricks = -1
        state._vote_queue = []
        state._trump_method = ""
        state._deck = state._draw
        state._view_parts = None
        state._left = next(s for s in _ROTATIONS[n][(view.dealer + 1) % n] if s in view.in_round)
        if view.phase == PLAY:
            state.trump = _NO_TRUMP if view.trump is None else view.trump
            state.leader = -1 if view.leader is None else view.leader
            state.trick_number = view.trick_number
            trick_leader = view.trick[0][0] if view.trick else view.seat
            acted = {s for s, _ in view.trick}
            state.trick_leader = trick_leader
            state.actors = tuple(
                s
                for s in ((trick_leader + i) % n for i in range(n))
                if s in acted or state.hands[s]
            )
            state.pos = len(view.trick)
            state.led = _NO_TRUMP if view.led is None else view.led
            state.best = -1
            state.best_seat = -1
            for seat, action in view.trick:
                if action != KNOCK and (state.best < 0 or _beats(action, state.best, state.trump)):
                    state.best = action
                    state.best_seat = seat
            state.turn = view.seat
            state.phase = PLAY
        else:
            if trump is None or leader is None:
                raise ValueError("give the trump to try and the first leader")
            state.trump = trump
            state.leader = leader
            state.trick_number = 0
            state._start_trick(leader)
        return state

    def playout(self, rnd: Callable[[], float]) -> list[int]:
        """Play uniformly random legal actions to the end of the round; return tricks won.

        For copies made by :meth:`copy` or :meth:`from_view` (it changes this state).
        ``rnd`` is a generator's ``random`` method. A player on a dog's life knocks with
        chance 1/2 when it may. Returns the trick counts by seat.

        Each action draws from ``rnd`` as :meth:`legal_actions` then :meth:`apply` would
        play it: the knock first (a dog's life only), then the card, uniform over the
        legal cards in sorted order.
        """
        if self.record:  # not a copy: apply each action, recording it as the game does
            while self.phase == PLAY:
                legal = self.legal_actions()
                if legal[-1] == KNOCK:
                    if rnd() < 0.5:
                        self._play(KNOCK)
                        continue
                    legal = legal[:-1]
                self._play(legal[int(rnd() * len(legal))])
            return self.tricks_won
        if self.phase != PLAY:
            return self.tricks_won
        # The engine core for search: the rules of _play, _end_trick and _start_trick
        # with the state held in locals, and nothing recorded.
        hands = self.hands
        dogs = self.dogs
        won = self.tricks_won
        trump = self.trump
        hand_size = self.hand_size
        number = self.trick_number
        actors = self.actors
        pos = self.pos
        led = self.led
        best = self.best
        best_seat = self.best_seat
        leader = self.trick_leader
        rotations = _ROTATIONS[self.n]
        while True:
            seat = actors[pos]
            hand = hands[seat]
            if dogs[seat] and number < hand_size and rnd() < 0.5:
                pass  # knock
            else:
                if led >= 0 and hand & SUIT_MASK[led]:
                    cards = SUIT_CARDS[led][hand >> _SHIFT[led] & 0x1FFF]
                else:
                    cards = cards_in(hand)
                card = cards[int(rnd() * len(cards))]
                hands[seat] = hand ^ BIT[card]
                if best < 0:
                    led = SUIT_OF[card]
                    best = card
                    best_seat = seat
                else:
                    s = SUIT_OF[card]
                    b = SUIT_OF[best]
                    if (s == b and card > best) or (s == trump and b != s):
                        best = card
                        best_seat = seat
            pos += 1
            if pos < len(actors):
                continue
            won[best_seat] += 1
            if number == hand_size:
                break
            leader = best_seat
            if dogs[leader]:
                leader = self._left_holding(leader)
            actors = tuple([s for s in rotations[leader] if hands[s]])
            number += 1
            pos = 0
            led = best = best_seat = _NO_TRUMP
        self.trick_number = number
        self.trick_leader = leader
        self.actors = actors
        self.pos = pos
        self.led = led
        self.best = best
        self.best_seat = best_seat
        self.phase = OVER
        self.turn = -1
        self._view_parts = None
        return won

    # ----------------------------------------------------------------- the fast loop

    def run(
        self,
        play_fast: Sequence[Callable[..., int]],
        act: Sequence[Callable[[View], int]],
        trump_fast: Sequence[Callable[[tuple[int, ...], int], int] | None] | None = None,
    ) -> None:
        """Play the game to the end with bots: the loop of ``simulate``, made fast.

        ``play_fast[seat]`` chooses each card or knock of that seat from a few facts (see
        :attr:`Player.play_fast <kow.players.base.Player.play_fast>`);
        ``trump_fast[seat]``, when given and not None, names trump from the allowed suits
        and the seat's hand mask; ``act[seat]`` makes its other decisions (votes, and
        trump without ``trump_fast``) from a full :class:`View`. The
        game, its events and its final state are exactly those of calling
        :meth:`apply` with the same choices (``tests/test_engine.py`` checks it), but the
        tricks are played with the state held in local names and no view is built.

        Raises :class:`IllegalActionError` for an illegal action, with :attr:`turn` the
        seat that chose it and the state as it was before it (:attr:`events` hold the
        game so far).
        """
        while self.phase != OVER:
            if self.phase == PLAY:
                self._run_round(play_fast)
            else:
                seat = self.turn
                fast = trump_fast[seat] if trump_fast is not None else None
                if fast is not None and self.phase == TRUMP:
                    action = fast(self.allowed, self.hands[seat])
                else:
                    action = act[seat](self.view())
                try:
                    self.apply(action)
                except IllegalActionError as err:
                    err.action = action
                    raise

    def _run_round(self, choose: Sequence[Callable[..., int]]) -> None:
        """Play the round's tricks with ``choose``, then end the round (see :meth:`run`)."""
        hands = self.hands
        dogs = self.dogs
        won = self.tricks_won
        trump = self.trump
        hand_size = self.hand_size
        number = self.trick_number
        actors = self.actors
        last = len(actors) - 1
        pos = self.pos
        led = self.led
        best = self.best
        best_seat = self.best_seat
        leader = self.trick_leader
        trick = self.trick
        tricks = self.tricks
        append = self.events.append
        rotations = _ROTATIONS[self.n]
        # Tables and constants as local names: the loop reads them at every play.
        bit = BIT
        suit_of = SUIT_OF
        suit_mask = SUIT_MASK
        suit_cards = SUIT_CARDS
        shift = _SHIFT
        c0, c1, c2, c3 = SUIT_CARDS
        knock = KNOCK
        play_event = _PLAY_EVENT
        seat_action = _SEAT_ACTION
        seen = 0 if self.turned_up is None else BIT[self.turned_up]
        for _, plays, _ in tricks:
            for _, a in plays:
                seen |= BIT[a] if a != KNOCK else 0
        for _, a in trick:
            seen |= BIT[a] if a != KNOCK else 0
        while True:
            seat = actors[pos]
            hand = hands[seat]
            if led >= 0 and hand & suit_mask[led]:
                legal = suit_cards[led][hand >> shift[led] & 0x1FFF]
            else:
                legal = c0[hand & 0x1FFF] + c1[hand >> 13 & 0x1FFF] + c2[hand >> 26 & 0x1FFF]
                legal += c3[hand >> 39]
            if dogs[seat] and number < hand_size:
                legal += (knock,)
            card = choose[seat](
                legal, hand, seen, best, led, pos < last, won[seat], hand_size - number + 1, trump
            )
            if card not in legal or type(card) is not int:
                self.turn = seat
                self.trick_number = number
                self.trick_leader = leader
                self.actors = actors
                self.pos = pos
                self.led = led
                self.best = best
                self.best_seat = best_seat
                self._view_parts = None
                try:
                    self.check(card)
                    raise IllegalActionError(f"seat {seat}: {card!r} is not a card or a knock")
                except IllegalActionError as err:
                    err.action = card
                    raise
            if card == knock:
                append((E_KNOCK, seat))
            else:
                b = bit[card]
                hands[seat] = hand ^ b
                seen |= b
                append(play_event[seat][card])
                if best < 0:
                    led = suit_of[card]
                    best = card
                    best_seat = seat
                else:
                    s = suit_of[card]
                    b = suit_of[best]
                    if (s == b and card > best) or (s == trump and b != s):
                        best = card
                        best_seat = seat
            trick.append(seat_action[seat][card])
            if pos < last:
                pos += 1
                continue
            won[best_seat] += 1
            append((E_TRICK, number, leader, best_seat))
            tricks.append((leader, tuple(trick), best_seat))
            if number == hand_size:
                break
            leader = best_seat
            if dogs[leader]:
                leader = self._left_holding(leader)
            actors = tuple([s for s in rotations[leader] if hands[s]])
            last = len(actors) - 1
            number += 1
            pos = 0
            led = best = best_seat = _NO_TRUMP
            trick = self.trick = []
        self.trick_number = number
        self.trick_leader = leader
        self.actors = actors
        self.pos = pos + 1
        self.led = led
        self.best = best
        self.best_seat = best_seat
        self.turn = seat
        self._view_parts = None
        self._end_round()

    # ----------------------------------------------------------------- apply

    def apply(self, action: int) -> None:
        """Check ``action`` for the seat to act, then apply it and advance the game.

        Raises :class:`IllegalActionError` (and changes nothing) when it is not legal.
        """
        phase = self.phase
        if phase == PLAY:
            # The common case, a card held that follows suit, checked here at once.
            if type(action) is int and 0 <= action < 52:
                hand = self.hands[self.turn]
                led = self.led
                if hand & BIT[action] and (
                    led < 0 or SUIT_OF[action] == led or not hand & SUIT_MASK[led]
                ):
                    self._play(action)
                    return
            self.check(action)
            self._play(action)
            return
        self.check(action)
        if phase == VOTE:
            self.votes.append((self.turn, action))
            self.events.append((E_VOTE, self.turn, action))
            self._next_vote()
        else:
            self._set_trump(action, self._trump_method, self.turn)

    def _play(self, action: int) -> None:
        seat = self.turn
        record = self.record
        if action == KNOCK:
            if record:
                self.events.append((E_KNOCK, seat))
        else:
            self.hands[seat] ^= BIT[action]
            if record:
                self.events.append((E_PLAY, seat, action))
            best = self.best
            if best < 0:
                self.led = SUIT_OF[action]
                self.best = action
                self.best_seat = seat
            else:
                s = SUIT_OF[action]
                b = SUIT_OF[best]
                # Rules text, "Déroulement" 3: the highest trump wins; else the highest
                # card of the led suit. Within a suit a higher int is a higher card.
                if (s == b and action > best) or (s == self.trump and b != s):
                    self.best = action
                    self.best_seat = seat
        if record:
            self.trick.append((seat, action))
        pos = self.pos + 1
        actors = self.actors
        if pos < len(actors):
            self.pos = pos
            self.turn = actors[pos]
            return
        self.pos = pos
        self._end_trick()

    def _end_trick(self) -> None:
        self._view_parts = None
        winner = self.best_seat
        number = self.trick_number
        self.tricks_won[winner] += 1
        if self.record:
            self.events.append((E_TRICK, number, self.trick_leader, winner))
            self.tricks.append((self.trick_leader, tuple(self.trick), winner))
        if number == self.hand_size:
            if self.record:
                self._end_round()
            else:  # a copy for search stops at the end of the round
                self.phase = OVER
                self.turn = -1
            return
        if self.dogs[winner]:
            # Seed 002: when a dog's-life card wins, the player to its left leads.
            self._start_trick(self._left_holding(winner))
        else:
            self._start_trick(winner)

    def _left_holding(self, seat: int) -> int:
        """Return the next seat clockwise after ``seat`` that is in the round and holds cards."""
        hands = self.hands
        for step in range(1, self.n):
            s = (seat + step) % self.n
            if hands[s]:
                return s
        raise AssertionError("no seat holds a card")  # pragma: no cover

    def _start_trick(self, leader: int) -> None:
        self._view_parts = None
        self.trick_number += 1
        self.trick_leader = leader
        if self.record:
            self.trick = []
        self.led = _NO_TRUMP
        self.best = -1
        self.best_seat = -1
        hands = self.hands
        self.actors = tuple([s for s in _ROTATIONS[self.n][leader] if hands[s]])
        self.pos = 0
        self.turn = leader
        self.phase = PLAY

    def _end_round(self) -> None:
        rules = self.rules
        won = self.tricks_won
        in_round = self.in_round
        dogs = self.dogs
        sweeper = -1
        for s in in_round:
            if won[s] == self.hand_size:
                sweeper = s
                break
        eliminated: list[int] = []
        granted: list[int] = []
        revived = [s for s in self.dogs_life if won[s] > 0]
        if rules.sweep_wins and sweeper >= 0:
            # Rules text, "Déroulement" 6: a sweep wins at once, before any dog's life.
            eliminated = [s for s in in_round if s != sweeper]
        else:
            final = self.hand_size == 1
            once_per_game = rules.dogs_life == "once-per-game"
            zero = [s for s in in_round if won[s] == 0]
            for s in zero:
                if dogs[s] or final or rules.dogs_life == "off":
                    eliminated.append(s)
                elif once_per_game and not self.dog_granted:
                    granted.append(s)
                elif rules.dogs_life == "once-per-player" and not self.dogs_used[s]:
                    granted.append(s)
                else:
                    eliminated.append(s)
            if granted:
                self.dog_granted = True
                for s in granted:
                    self.dogs_used[s] = True
        in_game = self.in_game
        for s in eliminated:
            in_game[s] = False
        tricks_won = tuple([won[s] if s in in_round else None for s in range(self.n)])
        self.events.append(
            (E_ROUND_END, tricks_won, tuple(eliminated), tuple(granted), tuple(revived))
        )
        if granted or self.dogs_life:
            next_dogs = [False] * self.n
            for s in granted:
                next_dogs[s] = True
            self.dogs = next_dogs
        remaining = in_game.count(True)
        if remaining == 1 or self.hand_size == 1:
            # After the 1-card round every other player took no trick and is out.
            self.winner = in_game.index(True)
            self.phase = OVER
            self.turn = -1
            self.events.append((E_GAME_END, self.winner, self.round))
            return
        self.previous_tricks_won = list(won)
        self.dealer = self._next_in_game(self.dealer)
        self._start_round()

    # ----------------------------------------------------------------- round set-up

    def _next_in_game(self, seat: int) -> int:
        for step in range(1, self.n + 1):
            s = (seat + step) % self.n
            if self.in_game[s]:
                return s
        raise AssertionError("nobody in the game")  # pragma: no cover

    def _draw(self, count: int) -> list[int]:
        """Shuffle a fresh deck and return its top ``count`` cards (a partial Fisher-Yates)."""
        rnd = self.rng.random
        deck = _FRESH_DECK[:]
        for i, span in _SPANS[:count]:  # span = 52 - i, the cards not yet drawn
            j = i + int(rnd() * span)
            deck[i], deck[j] = deck[j], deck[i]
        return deck[:count]

    def _start_round(self) -> None:
        rules = self.rules
        n = self.n
        in_game = self.in_game
        dogs = self.dogs
        self._view_parts = None
        self.round += 1
        hand_size = self.hand_size = rules.start_cards - self.round + 1
        dealer = self.dealer
        key = (dealer, *in_game)
        seats = _ROUND_SEATS.get(key)
        if seats is None:
            seats = _ROUND_SEATS[key] = _round_seats(dealer, in_game)
        self.in_round, self.knocked_out, deal_order, left, cutter = seats
        self._left = left
        self.dogs_life = tuple([s for s in self.in_round if dogs[s]]) if any(dogs) else ()
        # Rules text, "Mise en place" 1-2: shuffle, the dealer's right cuts, then deal one
        # card at a time clockwise from the dealer's left. A dog's life gets one card.
        cut_position = 1 + int(self.rng.random() * 51)
        no_trump = hand_size == 1 and not rules.final_round_trump
        turn_up = self.round == 1 and not no_trump
        dealt: list[tuple[int, ...] | None] = [None] * n  # by seat, in the order dealt
        players = len(deal_order)
        if self.dogs_life:
            sizes = [1 if dogs[s] else hand_size for s in range(n)]
            deck = tuple(self._deck(sum(sizes[s] for s in deal_order) + (1 if turn_up else 0)))
            cards: list[list[int]] = [[] for _ in range(n)]
            k = 0
            for p in range(hand_size):
                for s in deal_order:
                    if sizes[s] > p:
                        cards[s].append(deck[k])
                        k += 1
            for s in deal_order:
                dealt[s] = tuple(cards[s])
        else:
            k = players * hand_size
            deck = tuple(self._deck(k + (1 if turn_up else 0)))
            for i, s in enumerate(deal_order):
                dealt[s] = deck[i:k:players]
        hands = [0] * n
        bit = BIT.__getitem__
        for s in deal_order:
            hands[s] = sum(map(bit, dealt[s] or ()))  # distinct bits: the sum is the union
        self.hands = hands
        self.tricks_won = [0] * n
        self.tricks = []
        self.trick = []
        self.votes = []
        self.trick_number = 0
        self.leader = -1
        self.trump = _NO_TRUMP
        self._most_tricks = -1
        self.turned_up = None
        self.events.append(
            (
                E_ROUND,
                self.round,
                self.hand_size,
                dealer,
                cutter,
                cut_position,
                tuple(dealt),
                self.dogs_life,
            )
        )
        if turn_up:
            # Rules text, "Mise en place" 3: the next card is turned up; its suit is trump.
            self.turned_up = deck[k]
            self.events.append((E_TURNED_UP, deck[k]))
            if self.fixed_suit < 0:
                self.fixed_suit = SUIT_OF[deck[k]]
            self._set_trump(SUIT_OF[deck[k]], "turned-up", None)
        elif no_trump:
            self._set_trump(_NO_TRUMP, "none", None)
        elif rules.trump == "fixed":
            self._set_trump(self.fixed_suit, "fixed", None)
        elif rules.eliminated_vote and not all(self.in_game):
            # Rules text, "Variantes": knocked-out players vote for the next trump.
            self._vote_queue = [
                s for s in ((left + i) % n for i in range(n)) if not self.in_game[s]
            ]
            self._next_vote()
        else:
            self._ask_trump(_SUITS4, "chosen")

    def _next_vote(self) -> None:
        if self._vote_queue:
            self.turn = self._vote_queue.pop(0)
            self.phase = VOTE
            self.allowed = _SUITS4
            return
        counts = [0, 0, 0, 0]
        for _, suit in self.votes:
            counts[suit] += 1
        top = max(counts)
        tied = tuple(s for s in _SUITS4 if counts[s] == top)
        if len(tied) == 1:
            self._set_trump(tied[0], "vote", None)
        else:
            # A tied vote is settled by the player who would otherwise choose.
            self._ask_trump(tied, "vote")

    def _ask_trump(self, allowed: tuple[int, ...], method: str) -> None:
        self._trump_method = method
        self.allowed = allowed
        self.turn = self._most_tricks_player()
        self.phase = TRUMP

    def _set_trump(self, suit: int, method: str, chosen_by: int | None) -> None:
        self._view_parts = None
        self.trump = suit
        self.events.append((E_TRUMP, suit if suit >= 0 else None, method, chosen_by))
        if self.round == 1 or self.rules.lead == "dealer-left":
            leader = self._left
        else:
            leader = self._most_tricks_player()
        self.leader = leader
        self.events.append((E_LEAD, leader))
        self._start_trick(leader)

    def _most_tricks_player(self) -> int:
        """Return who won the most tricks last round, settling a tie by cutting (once a round).

        Rules text, "Mise en place" 5 and "Déroulement" 1: each tied player cuts for the
        highest card; players tied on the highest rank cut again among themselves.
        """
        if self._most_tricks >= 0:
            return self._most_tricks
        prev = self.previous_tricks_won
        assert prev is not None
        top = max(prev)
        tied = [s for s in _ROTATIONS[self.n][self._left] if prev[s] == top]
        passes = []
        while len(tied) > 1:
            cards = self._deck(len(tied))
            passes.append(tuple(zip(tied, cards, strict=True)))
            high = max(RANK_OF[c] for c in cards)
            tied = [s for s, c in zip(tied, cards, strict=True) if RANK_OF[c] == high]
        if passes:
            self.events.append((E_TIE_CUT, tuple(passes)))
        self._most_tricks = tied[0]
        return tied[0]


_PLAY_EVENT = tuple(tuple((E_PLAY, seat, card) for card in range(52)) for seat in range(7))
"""``_PLAY_EVENT[seat][card]``: the event of that play, made once and shared (tuples do
not change)."""
_SEAT_ACTION = tuple(tuple((seat, action) for action in range(53)) for seat in range(7))
"""``_SEAT_ACTION[seat][action]``: the ``(seat, action)`` pair of a trick, made once."""

_FRESH_DECK = list(range(52))
_SPANS = tuple(enumerate(range(52, 0, -1)))
"""``(i, 52 - i)`` for each position of the deck, for :meth:`State._draw`."""

_ROUND_SEATS: dict[tuple[int, ...], tuple[Any, ...]] = {}
"""Seats of a round by (dealer, *in_game): see :func:`_round_seats` (at most 7 * 2^7 keys)."""


def _round_seats(dealer: int, in_game: Sequence[bool]) -> tuple[Any, ...]:
    """Return a round's ``(in_round, knocked_out, deal_order, left, cutter)``.

    ``in_round``: seats in the game, ascending; ``knocked_out``: the others; the deal goes
    clockwise from ``left``, the dealer's left, and ``cutter`` is the dealer's right
    (rules text, "Mise en place" 1-2), each the next seat still in the game.
    """
    n = len(in_game)
    left = next(s for s in _ROTATIONS[n][(dealer + 1) % n] if in_game[s])
    cutter = next(s for s in reversed(_ROTATIONS[n][dealer]) if in_game[s])
    return (
        tuple(s for s in range(n) if in_game[s]),
        tuple(s for s in range(n) if not in_game[s]),
        [s for s in _ROTATIONS[n][left] if in_game[s]],
        left,
        cutter,
    )


def _beats(card: int, best: int, trump: int) -> bool:
    """Return whether ``card`` beats ``best``, the trick's winning card so far."""
    s = SUIT_OF[card]
    b = SUIT_OF[best]
    return (s == b and card > best) or (s == trump and b != s)


def stacked(decks: Iterable[Sequence[int]]) -> Callable[[int], Sequence[int]]:
    """Return a ``deck`` for :class:`State` that hands out ``decks`` in turn.

    Each deck is the cards in the order drawn: a round's deal (see :func:`deal_deck`),
    then any tie cut's passes. Raises :class:`ValueError` when the game draws more decks
    than given, or more cards than the next deck holds.
    """
    it = iter(decks)

    def draw(count: int) -> Sequence[int]:
        try:
            deck = next(it)
        except StopIteration:
            raise ValueError("the stacked decks ran out") from None
        if len(deck) < count:
            raise ValueError(f"a stacked deck holds {len(deck)} cards, {count} are drawn")
        return deck[:count]

    return draw


def deal_deck(
    dealer: int,
    hands: Sequence[Sequence[int] | None],
    turned_up: int | None = None,
) -> list[int]:
    """Return the deck order that deals ``hands`` (indexed by seat; None: not dealt in).

    The deal goes one card at a time clockwise from the dealer's left (rules text, "Mise
    en place" 2); ``turned_up`` follows the last card dealt. Each hand lists its cards in
    the order dealt, as in the log.

    >>> deal_deck(0, [[1, 2], [3, 4]], 5)
    [3, 1, 4, 2, 5]
    """
    n = len(hands)
    order = [s for s in ((dealer + 1 + i) % n for i in range(n)) if hands[s] is not None]
    deck: list[int] = []
    for p in range(max(len(hands[s] or ()) for s in order)):
        for s in order:
            h = hands[s]
            if h is not None and len(h) > p:
                deck.append(h[p])
    if turned_up is not None:
        deck.append(turned_up)
    return deck
