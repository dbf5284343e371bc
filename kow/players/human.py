"""A person at the keyboard: the prompt for ``kow play``.

Reads one line per entry. A card may be written any common way (``Th``, ``10h``, ``10♥``,
``qs``) or by its number in the shown hand; a suit by letter, name, symbol or number.
Commands: ``help`` (or ``?``), ``hand``, ``table``, ``hint``, ``knock``, ``quit``. Every bad entry
gets exactly one line saying why, and the prompt again.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import SUIT_NAMES, SUIT_OF, Card, CardError, Suit, card_name, parse_card, parse_suit
from ..events import KNOCK, Action, Phase
from ..screen import Screen, sorted_hand
from ..view import View
from .base import Player

__all__ = ["HotSeat", "HumanPlayer", "Quit"]

HELP = (
    "Type a card (10h, Th, Q♠, qs) or its number in your hand.\n"
    "Commands: hand, table, hint (a suggestion), knock (dog's life only), help, quit."
)
SUIT_HELP = (
    "Type a suit: c, d, h or s, its name (hearts), its symbol (♥) or its number.\n"
    "Commands: hand, table, hint (a suggestion), help, quit."
)


class Quit(Exception):
    """Raised when the person at the keyboard quits (``quit``, or end of input)."""


class HotSeat:
    """Shared by the humans of one game: who acted last, to hide a hand between people.

    Before a human's turn, unless that human acted last, the screen is cleared and the
    game waits for Enter ("pass the keyboard to NAME"), the first turn included.
    """

    def __init__(self, clear: Callable[[], None]) -> None:
        self.clear = clear
        self.last: str | None = None


class HumanPlayer(Player):
    """A person choosing actions by typing lines.

    ``read(prompt)`` returns one line (without newline) or raises :class:`EOFError`;
    ``write(text)`` shows a line. ``screen`` draws cards and hands. ``hot_seat`` is given
    when several people share the keyboard. ``hint_rng`` and ``hint_iterations`` drive
    the ``hint`` command: the search bot's choice from this player's view alone (see
    :func:`kow.players.search.estimate`). ``patience``, when given, is the most entries
    read for one decision: past it the player is taken to have left (for piped input,
    where an entry refused once is refused forever).

    Raises :class:`Quit` on ``quit``, end of input, or entries past ``patience``
    (``str(err)`` is then ``"quit"``, ``"end of input"`` or ``"refused"``).
    """

    kind = "human"

    def __init__(
        self,
        name: str,
        screen: Screen,
        read: Callable[[str], str],
        write: Callable[[str], None],
        hot_seat: HotSeat | None = None,
        hint_rng: random.Random | None = None,
        hint_iterations: int | None = None,
        patience: int | None = None,
    ) -> None:
        super().__init__(name)
        self.patience = patience
        self._entries = 0
        self.hint_rng = hint_rng if hint_rng is not None else random.Random(f"kow-hint:{name}")
        self.hint_iterations = hint_iterations
        self.screen = screen
        self.read = read
        self.write = write
        self.hot_seat = hot_seat

    # ------------------------------------------------------------------ decisions

    def act(self, view: View) -> Action:
        """Return the action typed for ``view`` (see :meth:`Player.act`)."""
        self._entries = 0
        return super().act(view)

    def play(self, view: View) -> Action:
        """Show the trick and the hand, and return the card (or KNOCK) typed."""
        self._start_turn(view)
        self._show_hand(view)
        hand = sorted_hand(view.hand)
        prompt = "Knock or play your card: " if KNOCK in view.legal else "Your card: "
        while True:
            entry = self._entry(prompt, view)
            if entry is None:
                continue
            low = entry.lower()
            if low == "knock":
                if KNOCK in view.legal:
                    return KNOCK
                self.write(self._why_no_knock(view))
                continue
            if low.isdigit():
                n = int(low)
                if not 1 <= n <= len(hand):
                    self.write(f"There is no card {n}: your cards are numbered 1 to {len(hand)}.")
                    continue
                card = hand[n - 1]
            else:
                try:
                    card = parse_card(entry)
                except CardError:
                    self.write(f"{entry!r} is not a card or a command: try 10h, a number, or help.")
                    continue
            reason = self._why_not(card, view)
            if reason is None:
                return card
            self.write(reason)

    def choose_trump(self, view: View) -> Suit:
        """Show the new hand and return the suit typed as trump."""
        self._start_turn(view)
        self._show_hand(view)
        return self._suit(view, "choose trump")

    def vote(self, view: View) -> Suit:
        """Return the suit this knocked-out person votes for."""
        self._start_turn(view)
        return self._suit(view, "vote for the next trump")

    # ------------------------------------------------------------------ helpers

    def _start_turn(self, view: View) -> None:
        seat = self.hot_seat
        if seat is not None and seat.last != self.name:
            # Also before the first turn of all: whoever holds the keyboard then has not
            # been told whose hand is about to show.
            seat.clear()
            try:
                self.read(f"Pass the keyboard to {self.name}, then press Enter. ")
            except EOFError:
                raise Quit("end of input") from None
            seat.clear()
            for line in self.screen.table(view):
                self.write(line)
            seat.last = self.name

    def _show_hand(self, view: View) -> None:
        if view.phase is Phase.TRUMP:
            trump = "to choose"
        else:
            trump = "none" if view.trump is None else self.screen.suit(view.trump)
        who = "Your" if self.name == "You" else f"{self.name}, your"
        self.write(f"{who} hand (trump {trump}):  " + self.screen.hand(view))

    def _suit(self, view: View, what: str) -> Suit:
        options = "  ".join(
            f"{i} {self.screen.suit(s, long=True)}" for i, s in enumerate(view.legal, 1)
        )
        self.write(f"{self.name}, {what}:  {options}")
        while True:
            entry = self._entry("Suit: ", view, SUIT_HELP)
            if entry is None:
                continue
            if entry.isdigit() and 1 <= int(entry) <= len(view.legal):
                return view.legal[int(entry) - 1]
            try:
                suit = parse_suit(entry)
            except CardError:
                self.write(f"{entry!r} is not a suit. {SUIT_HELP}")
                continue
            if suit in view.legal:
                return suit
            allowed = ", ".join(SUIT_NAMES[s] for s in view.legal)
            self.write(f"You may only name {allowed} (the tied suits of the vote).")

    def _entry(self, prompt: str, view: View, help_text: str = HELP) -> str | None:
        """Read one entry; handle commands shared by every prompt (None when handled)."""
        self._entries += 1
        if self.patience is not None and self._entries > self.patience:
            raise Quit("refused")
        try:
            entry = self.read(prompt).strip()
        except EOFError:
            raise Quit("end of input") from None
        low = entry.lower()
        if low in ("quit", "exit"):
            raise Quit("quit")
        if low in ("help", "?", ""):
            self.write(help_text)
            return None
        if low == "hand":
            self._show_hand(view)
            return None
        if low == "hint":
            self.write(self._hint(view))
            return None
        if low == "table":
            for line in self.screen.table(view):
                self.write(line)
            return None
        return entry

    def _hint(self, view: View) -> str:
        """Return the search bot's choice for ``view``, with its chance of a trick."""
        from .search import DEFAULT_ITERATIONS, estimate

        if view.phase is not Phase.PLAY and view.phase is not Phase.TRUMP:
            return "No hint here: a knocked-out player's vote changes nothing for them."
        iterations = self.hint_iterations or DEFAULT_ITERATIONS
        found = max(estimate(view, self.hint_rng, iterations), key=lambda e: e.value)
        chance = f"{found.survival:.0%}"
        if view.phase is Phase.TRUMP:
            what = f"name {self.screen.suit(found.action, long=True)} as trump"
        elif found.action == KNOCK:
            what = "knock"
        else:
            what = f"play {self.screen.card(found.action)}"
        if view.phase is Phase.PLAY and view.tricks_won[view.seat]:
            return f"Hint: {what} (you already have your trick this round)."
        return f"Hint: {what}. Your chance of a trick this round: {chance} ({found.deals} deals)."

    def _why_no_knock(self, view: View) -> str:
        if view.seat not in view.dogs_life:
            return "Only a player on a dog's life may knock."
        return "This is the round's last trick: you must play your dog's-life card."

    def _why_not(self, card: Card, view: View) -> str | None:
        """Return why ``card`` may not be played now, or None when it may."""
        if card in view.legal:
            return None
        if card not in view.hand:
            return f"You don't hold {self.screen.card(card)}."
        if view.led is not None:
            mine = [c for c in sorted_hand(view.hand) if SUIT_OF[c] == view.led]
            return f"You must follow {SUIT_NAMES[view.led]}: you hold {self.screen.cards(mine)}."
        return f"You can't play {card_name(card)} now."  # pragma: no cover
