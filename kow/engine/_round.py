"""A round's set-up and end: the deal, trump, the first leader, knock-outs and the game's end.

Part of the engine (:class:`~kow.engine.State` calls these; nothing else does). Each
function takes the state it changes. Rules text, 'Mise en place et Distribution' 1-5 and
'Déroulement du jeu' 1 and 4-7; seed 002 for the dog's life.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast, get_args

from ..cards import BIT, NO_CARD, NO_SUIT, RANK_OF, SUIT_OF, Card, Suit
from ..events import (
    CLOCKWISE,
    CutCard,
    Event,
    GameEnd,
    Phase,
    RoundEnd,
    Seat,
    Termination,
    TrumpMethod,
    TrumpSet,
    clockwise,
    new_cut_card,
    new_deal,
    new_game_end,
    new_lead,
    new_outcome,
    new_round_end,
    new_tie_cut,
    new_trump_set,
    new_turned_up,
)
from ..rules import MAX_PLAYERS, Rules
from ._checks import check_cut, check_drawn
from .deal import ShuffledDeck, StackedDeck, left_of, round_seats
from .trick import trick_order

if TYPE_CHECKING:
    from ._state import State

__all__ = [
    "ALL_SUITS",
    "ask_trump",
    "dogs_life_open",
    "end_round",
    "most_tricks_player",
    "next_vote",
    "record",
    "set_trump",
    "start_round",
]

ALL_SUITS: Final[tuple[Suit, ...]] = (0, 1, 2, 3)

# The events of a round's set-up that take few values, made once (as the trick loop's
# plays): ``new_*`` costs about 1,600 instructions a call, a table's look-up a few dozen.
_LEADS: Final = tuple(new_lead((seat,)) for seat in range(MAX_PLAYERS))
_TURNED_UP: Final = tuple(new_turned_up((card,)) for card in range(52))
_CUT_CARDS: Final = tuple(
    tuple(new_cut_card((seat, card)) for card in range(52)) for seat in range(MAX_PLAYERS)
)
# The names compiled code reads at every round, as C statics: a module's global names are
# read from its dict, and an enum's members (Python 3.11's ``EnumType`` has a
# ``__getattr__``) through a slow attribute look-up, about 850 instructions each.
_VOTE: Final = Phase.VOTE
_TRUMP: Final = Phase.TRUMP
_PLAY: Final = Phase.PLAY
_ROUND_OVER: Final = Phase.ROUND_OVER
_OVER: Final = Phase.OVER
_FINAL_TRICK: Final = Termination.FINAL_TRICK
_SWEEP: Final = Termination.SWEEP
_LAST_STANDING: Final = Termination.LAST_STANDING
_NEW_DEAL: Final = new_deal
_NEW_TIE_CUT: Final = new_tie_cut
_CLOCKWISE: Final = CLOCKWISE
_NEW_ROUND_END: Final = new_round_end
_NEW_OUTCOME: Final = new_outcome
_NEW_GAME_END: Final = new_game_end
_METHODS: Final[dict[str, int]] = {method: i for i, method in enumerate(get_args(TrumpMethod))}
_TRUMP_SETS: Final = tuple(
    new_trump_set((None if suit < 0 else suit, method, chosen_by))
    for suit in (NO_SUIT, *ALL_SUITS)
    for method in get_args(TrumpMethod)
    for chosen_by in (None, *range(MAX_PLAYERS))
)
"""Every :class:`~kow.events.TrumpSet`, made once, at :func:`_trump_set_index` of its fields
(an int: a key of a tuple, its str and a None, hashed and compared at every round,
cost about ten times a look-up by index)."""


def _trump_set_index(suit: Suit, method: TrumpMethod, chosen_by: Seat | None) -> int:
    """Return where :data:`_TRUMP_SETS` holds the event of these fields (``suit`` -1: none)."""
    seat = 0 if chosen_by is None else chosen_by + 1
    return ((suit + 1) * len(_METHODS) + _METHODS[method]) * (MAX_PLAYERS + 1) + seat


class _Settings:
    """The rule settings a round reads, as plain values, read from a :class:`Rules` once.

    A compiled read of a field of ``Rules`` (a Python dataclass) costs about 250
    instructions, some ten a round; :func:`_settings` keeps the last game's (a run plays
    its games under one ``Rules``, which is frozen).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.start_cards: int = rules.start_cards
        self.dogs_life: str = rules.dogs_life
        self.dogs_life_off: bool = rules.dogs_life == "off"
        self.final_round_trump: bool = rules.final_round_trump
        self.fixed_trump: bool = rules.trump == "fixed"
        self.eliminated_vote: bool = rules.eliminated_vote
        self.dealer_left: bool = rules.lead == "dealer-left"
        self.sweep_wins: bool = rules.sweep_wins


class _Last:
    """The :class:`_Settings` read last (None before the first)."""

    def __init__(self) -> None:
        self.settings: _Settings | None = None


_LAST: Final = _Last()


def _settings(rules: Rules) -> _Settings:
    """Return the :class:`_Settings` of ``rules``: those read last when ``rules`` is the same
    value, else read anew (and kept)."""
    settings = _LAST.settings
    if settings is None or settings.rules is not rules:
        settings = _LAST.settings = _Settings(rules)
    return settings


# A round's end and a game's end recur (the same few tricks counts, winners and rounds):
# each is made once, and a game's events share it as they share their plays. Frozen
# records: shared, they are the same values; a look-up costs less than making one.
_ROUND_ENDS: Final[dict[int, RoundEnd]] = {}
_GAME_ENDS: Final[dict[int, GameEnd]] = {}
_MOST_KEPT: Final = 4096
"""The most ends of each kind kept (then new ones are made each time): memory stays flat."""


def start_round(state: State) -> None:
    """Deal the next round and set up its first decision."""
    rules = _settings(state.rules)
    in_game = state.in_game
    state._view_parts = None
    state.round += 1
    hand_size = state.hand_size = rules.start_cards - state.round + 1
    seats = round_seats(state.dealer, in_game)
    state.in_round = seats.in_round
    state.knocked_out = seats.knocked_out
    state._left = seats.left
    on_dogs_life = [False] * state.players
    for s in state.dogs_life:
        on_dogs_life[s] = True
    state._on_dogs_life = on_dogs_life
    if not rules.dogs_life_off:  # else none ever is (State() sets it empty)
        state.dogs_life_open = dogs_life_open(state)
    # Rules text, 'Mise en place' 1-2: shuffle, the dealer's right cuts, then deal one
    # card at a time clockwise from the dealer's left. A dog's life gets one card.
    cut_position = _cut(state)
    no_trump = hand_size == 1 and not rules.final_round_trump
    turn_up = state.round == 1 and not no_trump
    dealt: list[tuple[Card, ...] | None] = [None] * state.players
    hands = [0] * state.players
    deal_order = seats.deal_order
    if state.dogs_life:
        sizes = [1 if on_dogs_life[s] else hand_size for s in range(state.players)]
        deck = _draw(state, sum([sizes[s] for s in deal_order]) + (1 if turn_up else 0))
        cards: list[list[Card]] = [[] for _ in range(state.players)]
        k = 0
        for p in range(hand_size):
            for s in deal_order:
                if sizes[s] > p:
                    cards[s].append(deck[k])
                    k += 1
        for s in deal_order:
            dealt[s] = tuple(cards[s])
        for s in deal_order:
            mask = 0
            for card in cards[s]:
                mask |= BIT[card]
            hands[s] = mask
    else:
        seated = len(deal_order)
        k = seated * hand_size
        deck = _draw(state, k + (1 if turn_up else 0))
        for i, s in enumerate(deal_order):
            mask = 0
            hand: list[Card] = []
            j = i
            while j < k:  # every seated-th card from the i-th (a while: a C loop)
                card = deck[j]
                hand.append(card)
                mask |= 1 << card  # a shift: BIT's look-up unboxes a 2-digit int
                j += seated
            dealt[s] = tuple(hand)
            hands[s] = mask
    state.hands = hands
    state.tricks_won = [0] * state.players
    state.votes = []
    state.allowed = ALL_SUITS
    state.trick_number = 0
    state.trick_leader = -1
    state.trick_order = ()
    state.trick_played = 0
    state.led = state.winning_card = state.winning_seat = NO_CARD
    state.leader = -1
    state.trump = NO_SUIT
    state.trump_method = None
    state.trump_chosen_by = None
    state.turned_up = None
    state.seen = 0
    state._most_tricks = -1
    state._voters = []
    state._pending_method = "chosen"
    # A round is dealt only in a game that records (a copy for search stops before).
    events = state.events
    events.append(
        _NEW_DEAL((state.round, hand_size, state.dealer, seats.cutter, cut_position, tuple(dealt),
                  state.dogs_life))
    )  # fmt: skip
    state._first_play = state._trick_start = len(events)  # no trick yet this round
    if turn_up:
        # Rules text, 'Mise en place' 3: the next card is turned up; its suit is trump.
        card = deck[k]
        state.turned_up = card
        state.seen = BIT[card]
        events.append(_TURNED_UP[card])
        if state._fixed_suit < 0:
            state._fixed_suit = SUIT_OF[card]
        set_trump(state, SUIT_OF[card], "turned-up", chosen_by=None)
    elif no_trump:
        set_trump(state, NO_SUIT, "none", chosen_by=None)
    elif rules.fixed_trump:
        set_trump(state, state._fixed_suit, "fixed", chosen_by=None)
    elif rules.eliminated_vote and seats.knocked_out:
        # Rules text, 'Variantes': knocked-out players vote for the next trump, in
        # turn clockwise from the dealer's left.
        state._voters = [s for s in clockwise(seats.left, state.players) if not in_game[s]]
        next_vote(state)
    else:
        ask_trump(state, ALL_SUITS, "chosen")


def _kows_own(deck: object) -> bool:
    """Return whether ``deck`` is one of kow's own, whose cuts and cards need no check."""
    return type(deck) is ShuffledDeck or type(deck) is StackedDeck


def _cut(state: State) -> int:
    """Return the game's deck's cut position: checked (:func:`check_cut`) unless the deck
    is kow's own."""
    deck: Any = state._deck  # not typed Deck here: compiled code would check the int itself
    if isinstance(deck, ShuffledDeck):
        return deck.cut()  # a native call in the compiled build
    cut: object = deck.cut()
    if type(cut) is int and _kows_own(deck):
        return cut
    return check_cut(cut)


def _draw(state: State, count: int) -> list[Card]:
    """Return ``count`` cards of the game's deck, as a list: checked (:func:`check_drawn`)
    unless the deck is kow's own."""
    deck: Any = state._deck  # as in _cut
    if isinstance(deck, ShuffledDeck):
        return deck.draw(count)
    drawn: object = deck.draw(count)
    if _kows_own(deck):
        return list(cast("Sequence[Card]", drawn))
    return check_drawn(drawn, count)


def dogs_life_open(state: State) -> tuple[Seat, ...]:
    """Return the seats of the round that taking no trick would give a dog's life.

    Seed 002 and rules text ('Variantes'): a player who takes no trick is granted a dog's
    life instead of being knocked out, never in the 1-card round, never twice in a row
    (not while on one), and once per game (seed 002: the first player or players it
    comes to use it up for everyone) or once per player (rules text). A sweep under
    ``sweep_wins`` grants none (rules text, 'Déroulement du jeu' 6). Constant through a
    round: :func:`end_round` grants exactly these seats that took no trick. Ascending.
    """
    rules = _settings(state.rules)
    used = state.dogs_life_used
    if (
        rules.dogs_life_off
        or state.hand_size == 1
        or (rules.dogs_life == "once-per-game" and any(used))
    ):
        return ()
    on_dogs_life = state._on_dogs_life
    per_player = rules.dogs_life == "once-per-player"
    return tuple(
        [s for s in state.in_round if not on_dogs_life[s] and not (per_player and used[s])]
    )


def record(state: State, event: Event) -> None:
    """Append ``event`` to the game's events, unless ``state`` is a copy for search."""
    if state.recording:
        state.events.append(event)


def next_vote(state: State) -> None:
    """Ask the next voter, or settle the vote: the most votes, a tie by the chooser."""
    if state._voters:
        state.turn = state._voters.pop(0)
        state.phase = _VOTE
        state.allowed = ALL_SUITS
        return
    counts = [0, 0, 0, 0]
    for vote in state.votes:
        counts[vote.suit] += 1
    top = max(counts)
    tied = tuple(s for s in ALL_SUITS if counts[s] == top)
    if len(tied) == 1:
        set_trump(state, tied[0], "vote", chosen_by=None)
    else:
        # A tied vote is settled by the player who would otherwise choose.
        ask_trump(state, tied, "vote")


def ask_trump(state: State, allowed: tuple[Suit, ...], method: TrumpMethod) -> None:
    """Await the trump choice of last round's most-tricks player, among ``allowed``.

    Rules text, 'Mise en place' 5.
    """
    state._pending_method = method
    state.allowed = allowed
    state.turn = most_tricks_player(state)
    state.phase = _TRUMP


def set_trump(state: State, suit: Suit, method: TrumpMethod, *, chosen_by: Seat | None) -> TrumpSet:
    """Set the round's trump and start its first trick; return the event."""
    state._view_parts = None
    state.trump = suit
    state.trump_method = method
    state.trump_chosen_by = chosen_by
    event = _TRUMP_SETS[_trump_set_index(suit, method, chosen_by)]
    record(state, event)
    # Rules text, 'Déroulement du jeu' 1: the dealer's left leads round 1; later rounds
    # are led by last round's most-tricks player (or the dealer's left, a variant).
    if state.round == 1 or _settings(state.rules).dealer_left:
        leader = state._left
    else:
        leader = most_tricks_player(state)
    state.leader = leader
    record(state, _LEADS[leader])
    state.trick_number = 1
    state.trick_leader = leader
    state._first_play = state._trick_start = len(state.events)
    state.trick_order = trick_order(leader, state.hands)
    state.trick_played = 0
    state._trick_seen = state.seen
    state.turn = leader
    state.phase = _PLAY
    return event


def most_tricks_player(state: State) -> Seat:
    """Return who won the most tricks last round, settling a tie by cutting (once a round).

    Rules text, 'Mise en place' 5 and 'Déroulement du jeu' 1: each tied player cuts
    for the highest card, clockwise from the dealer's left; players tied on the
    highest rank cut again among themselves.
    """
    if state._most_tricks >= 0:
        return state._most_tricks
    previous = state.previous_tricks_won
    assert previous is not None
    top = -1
    for won in previous:
        if won > top:
            top = won
    tied = [s for s in _CLOCKWISE[state.players][state._left] if previous[s] == top]
    passes: list[tuple[CutCard, ...]] = []
    while len(tied) > 1:
        drawn = _draw(state, len(tied))
        cut: list[CutCard] = []
        high = -1
        for i, s in enumerate(tied):
            card = drawn[i]
            cut.append(_CUT_CARDS[s][card])
            if RANK_OF[card] > high:
                high = RANK_OF[card]
        passes.append(tuple(cut))
        tied = [c.seat for c in cut if RANK_OF[c.card] == high]
    if passes:
        record(state, _NEW_TIE_CUT((tuple(passes),)))
    state._most_tricks = tied[0]
    return tied[0]


def end_round(state: State) -> None:
    """End the round: knock-outs, dog's lives, the game's end, or the next deal.

    A round copied for search (not :attr:`recording`) stops here, its phase ROUND_OVER.
    """
    if not state.recording:
        state.phase = _ROUND_OVER
        state.turn = -1
        return
    rules = _settings(state.rules)
    won = state.tricks_won
    in_round = state.in_round
    hand_size = state.hand_size
    sweeper = -1  # who took every trick, if one did
    for s in in_round:
        if won[s] == hand_size:
            sweeper = s
    revived = tuple([s for s in state.dogs_life if won[s] > 0])
    eliminated: list[Seat] = []
    granted: list[Seat] = []
    if rules.sweep_wins and sweeper >= 0:
        # Rules text, 'Déroulement du jeu' 6: a sweep wins at once, before any dog's life.
        eliminated = [s for s in in_round if s != sweeper]
    else:
        # Rules text, 'Déroulement du jeu' 4-5, and seed 002: a player without a trick
        # is knocked out, unless granted a dog's life (see dogs_life_open).
        open_seats = state.dogs_life_open
        for s in in_round:
            if won[s]:
                continue
            if s in open_seats:
                granted.append(s)
            else:
                eliminated.append(s)
        for s in granted:
            state.dogs_life_used[s] = True
    for s in eliminated:
        state.in_game[s] = False
    # The end kept by an int of its fields (a tuple of tuples hashes and compares in
    # Python's generic code): per seat 5 bits of tricks won plus one (0: not dealt in),
    # then a bit per seat eliminated, granted, revived (each list is in seat order), then
    # the seats.
    key = state.players << 56
    for s in in_round:
        key |= (won[s] + 1) << 5 * s
    for s in eliminated:
        key |= 1 << 35 + s
    for s in granted:
        key |= 1 << 42 + s
    for s in revived:
        key |= 1 << 49 + s
    event = _ROUND_ENDS.get(key)
    if event is None:
        tricks_won: list[int | None] = [None] * state.players
        for s in in_round:
            tricks_won[s] = won[s]
        event = _NEW_ROUND_END((tuple(tricks_won), tuple(eliminated), tuple(granted), revived))
        if len(_ROUND_ENDS) < _MOST_KEPT:
            _ROUND_ENDS[key] = event
    state.events.append(event)
    state.dogs_life = tuple(granted)
    remaining = state.in_game.count(True)
    if remaining == 1 or hand_size == 1:
        # After the 1-card round every other player took no trick and is out.
        if hand_size == 1:
            why, reason = _FINAL_TRICK, 0
        elif rules.sweep_wins and sweeper >= 0:
            why, reason = _SWEEP, 1
        else:
            why, reason = _LAST_STANDING, 2
        winner = state.in_game.index(True)
        # Kept by ints: an enum's hash is a Python method (Enum.__hash__).
        key = (winner * 3 + reason) * 1024 + state.round if state.round < 1024 else -1
        game_end = _GAME_ENDS.get(key)
        if game_end is None:
            game_end = _NEW_GAME_END((_NEW_OUTCOME((winner, why, state.round)),))
            if key >= 0 and len(_GAME_ENDS) < _MOST_KEPT:
                _GAME_ENDS[key] = game_end
        state.outcome = game_end.outcome
        state.phase = _OVER
        state.turn = -1
        state.events.append(game_end)
        return
    state.previous_tricks_won = list(won)
    state.dealer = left_of(state.dealer, state.in_game)  # the deal passes to the left
    start_round(state)
